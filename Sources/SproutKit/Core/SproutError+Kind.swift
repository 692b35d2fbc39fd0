extension SproutError {
    /// What went wrong. Every service uses the general kinds; the Strapi form kinds are the community's, sorted
    /// from the form message id (`messageID` keeps the id itself).
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// 400 (or 422): a field or parameter the server does not take; `serverMessage` says which, when it can.
        case invalidRequest
        /// 401: no token, or one the server does not take (a `Session`'s clients sign it out); to the market's
        /// product calls, an unknown vendor `identifier`.
        case unauthorized
        /// 403: not allowed (someone else's post or product, a board that is not writable, a wrong vendor secret).
        case forbidden
        /// 404: the thing asked for does not exist (any more).
        case notFound
        /// 409 to the market: the account already is a vendor, or the vendor name is taken.
        case conflict
        /// 413: the request body is over the server's limit.
        case tooLarge
        /// 429 to the community (`Auth.form.error.ratelimit`): too many failed logins; wait and try again.
        case rateLimited
        /// 409, 429 or a 5xx to the Diary: the server (or OpenWeather behind it) cannot answer now. 409 is a `PUT`
        /// overtaken by other writes to the same entry (send it again), or a `DELETE` whose `baseUpdatedAt` the
        /// entry has moved past; 503 from `GET /api/weather` means the server has no OpenWeather key, 502 that
        /// OpenWeather failed.
        case unavailable
        /// No answer: no network, refused connection, timeout. (The community sorts it as `.other`.)
        case offline
        /// The calling task was cancelled; nothing to show.
        case cancelled
        /// The database on the device failed (a full disk, a damaged file).
        case storage
        /// Anything else: another status, an unreadable answer, a request that could not be made.
        case other

        /// `Auth.form.error.invalid`: unknown identifier or wrong password (login, change password).
        case invalidCredentials
        /// `Auth.form.error.email.taken`.
        case emailTaken
        /// `Auth.form.error.username.taken`.
        case usernameTaken
        /// `Auth.form.error.email.format`.
        case invalidEmail
        /// `Auth.form.error.email.provide`: no email (register) or no identifier (login).
        case missingEmail
        /// `Auth.form.error.username.provide`.
        case missingUsername
        /// `Auth.form.error.password.provide`.
        case missingPassword
        /// `Auth.form.error.username.format`: too short or long, or shaped like an email; `serverMessage` says which.
        case invalidUsername
        /// `Auth.form.error.password.format`: too short or long, or too many `$`; `serverMessage` says which.
        case invalidPassword
        /// `Auth.form.error.password.matching`: the new password and its confirmation differ.
        case passwordsDoNotMatch
        /// `Auth.form.error.blocked`.
        case blocked
        /// `Auth.form.error.confirmed`.
        case unconfirmed
        /// `Auth.form.error.code.provide`: a reset code that is unknown, used or expired.
        case invalidCode
        /// A Strapi form error whose id the kit does not know; `message` is the server's text.
        case otherFormError
    }

    /// What was being done, which picks the sentence. Each service uses its own; `delete` is shared.
    public enum Operation: Sendable, Equatable, CaseIterable {
        /// Market: `GET /healthChecker`.
        case healthCheck
        /// Market: a page of the list or a search.
        case loadList
        /// Market: a product's detail.
        case loadProduct
        /// Market: registering a product.
        case register
        /// Market: modifying a product.
        case modify
        /// Market: the delete flow's lookup (v2 product secret, v3 archived path).
        case lookUpDeleteTarget
        /// Market, board, Diary: deleting a product, one's own post, an entry.
        case delete
        /// Market: registering the account as a vendor, reading it, or a new vendor secret.
        case vendor
        /// Board: the board menu.
        case loadBoards
        /// Board: a page of a board's posts.
        case loadPosts
        /// Board: a page of search results.
        case search
        /// Board: a post's detail.
        case loadPost
        /// Board: writing a post or a reply.
        case write
        /// Board: editing one's own post.
        case edit
        /// Diary: writing an entry (`PUT`).
        case save
        /// Diary: reading an entry, a page or changes.
        case load
        /// Diary: reading an entry's earlier versions.
        case versions
        /// Diary: asking for the weather.
        case weather
        /// Diary: synchronising with the server.
        case sync
        /// Any app: reporting an item to the moderators.
        case report
    }

    /// The kinds a plain HTTP contract tells apart (the todos API): no answer, cancelled, and the status.
    static func httpKind(of error: APIError) -> Kind {
        switch error {
        case .transport: .offline
        case .cancelled: .cancelled
        case .decoding, .invalidRequest: .other
        case .status(let code, _, _, _):
            switch code {
            case 400, 422: .invalidRequest
            case 401: .unauthorized
            case 403: .forbidden
            case 404: .notFound
            case 409: .conflict
            case 413: .tooLarge
            case 429: .rateLimited
            case 500...599: .unavailable
            default: .other
            }
        }
    }
}
