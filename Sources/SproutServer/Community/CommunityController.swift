import Foundation
import Hummingbird
import SproutWire

/// The SeSAC community's Strapi v3 collections, `/posts` and `/comments`. Every route needs an account; only
/// the author may edit or delete. Every success is 200, create and delete included.
struct CommunityController<Context: CallerRequestContext> {
    /// Every route's context: Strapi's refusals answer anyone without an account.
    typealias SignedIn = SignedInContext<Context, StrapiError>

    let repository: SQLCommunityRepository
    let emailVisibility: EmailVisibility
    let maxBodySize: Int
    /// Most rows one list answer holds (`COMMUNITY_LIST_MAX_ROWS`); `_limit=-1` means this many.
    let maximumListRows: Int
    let largeLists: LargeListSlots
    /// The time of day (`buildApplication` hands in the application's).
    var clock = WallClock.system

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.add(middleware: CallerDependentHeadersMiddleware())
        let signedIn = routes.group(context: SignedIn.self)
        signedIn.get("posts", use: listPosts)
        signedIn.get("posts/count", use: countPosts)
        signedIn.get("posts/{id}", use: showPost)
        signedIn.post("posts", use: createPost)
        signedIn.put("posts/{id}", use: updatePost)
        signedIn.delete("posts/{id}", use: deletePost)
        signedIn.get("comments", use: listComments)
        signedIn.get("comments/count", use: countComments)
        signedIn.get("comments/{id}", use: showComment)
        signedIn.post("comments", use: createComment)
        signedIn.put("comments/{id}", use: updateComment)
        signedIn.delete("comments/{id}", use: deleteComment)
        return routes
    }

    // MARK: - Posts

    @Sendable func listPosts(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        let query = try CollectionQuery(request.queryFields, allowed: SQLCommunityRepository.postFields).capped(at: maximumListRows)
        let emails = emails(account)
        guard !query.fitsOnePage else {
            return try Response.json(try await repository.posts(query, viewer: account.id).map { PostAnswer(post: $0, emails: emails) })
        }
        return try await list(try await repository.postIDs(query, viewer: account.id), of: account, load: { [repository] in try await repository.posts(ids: $0, viewer: account.id) }) {
            PostAnswer(post: $0, emails: emails)
        }
    }

    @Sendable func countPosts(_ request: Request, context: SignedIn) async throws -> Response {
        let query = try CollectionQuery(request.queryFields, allowed: SQLCommunityRepository.postFields)
        return try Response.json(try await repository.countPosts(query, viewer: context.account.id))
    }

    @Sendable func showPost(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        guard let post = try await repository.post(id: try id(context), viewer: account.id) else { throw StrapiError.notFound }
        return try Response.json(PostAnswer(post: post, emails: emails(account)))
    }

    @Sendable func createPost(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        let fields = try await request.strapiBodyFields(limit: maxBodySize)
        let text = try CommunityInput.text(fields, field: "text", maximumLength: CommunityInput.maximumPostLength)
        let post = try await repository.createPost(text: text, by: Author(account), at: clock.now.truncatedToMilliseconds)
        return try Response.json(PostAnswer(post: post, emails: emails(account)))
    }

    @Sendable func updatePost(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        let id = try id(context)
        let fields = try await request.strapiBodyFields(limit: maxBodySize)
        let text = try CommunityInput.text(fields, field: "text", maximumLength: CommunityInput.maximumPostLength)
        let post = try await repository.updatePost(id: id, text: text, by: account.id, at: clock.now.truncatedToMilliseconds).get(orThrow: Self.error)
        return try Response.json(PostAnswer(post: post, emails: emails(account)))
    }

    @Sendable func deletePost(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        let post = try await repository.deletePost(id: try id(context), by: account.id).get(orThrow: Self.error)
        return try Response.json(PostAnswer(post: post, emails: emails(account)))
    }

    // MARK: - Comments

    @Sendable func listComments(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        let query = try CollectionQuery(request.queryFields, allowed: SQLCommunityRepository.commentFields).capped(at: maximumListRows)
        let emails = emails(account)
        guard !query.fitsOnePage else {
            return try Response.json(try await repository.comments(query, viewer: account.id).map { CommentAnswer(comment: $0, emails: emails) })
        }
        return try await list(try await repository.commentIDs(query, viewer: account.id), of: account, load: { [repository] in try await repository.comments(ids: $0, viewer: account.id) }) {
            CommentAnswer(comment: $0, emails: emails)
        }
    }

    @Sendable func countComments(_ request: Request, context: SignedIn) async throws -> Response {
        let query = try CollectionQuery(request.queryFields, allowed: SQLCommunityRepository.commentFields)
        return try Response.json(try await repository.countComments(query, viewer: context.account.id))
    }

    @Sendable func showComment(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        guard let comment = try await repository.comment(id: try id(context), viewer: account.id) else { throw StrapiError.notFound }
        return try Response.json(CommentAnswer(comment: comment, emails: emails(account)))
    }

    @Sendable func createComment(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        let fields = try await request.strapiBodyFields(limit: maxBodySize)
        let text = try CommunityInput.text(fields, field: "comment", maximumLength: CommunityInput.maximumCommentLength)
        let postID = try CommunityInput.id(fields, field: "post")
        guard let comment = try await repository.createComment(text: text, postID: postID, by: Author(account), at: clock.now.truncatedToMilliseconds) else {
            throw StrapiError.badRequest("post \(postID) does not exist.")
        }
        return try Response.json(CommentAnswer(comment: comment, emails: emails(account)))
    }

    /// `post` may be resent (the SeSAC app does); a comment stays on the post it was written under.
    @Sendable func updateComment(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        let id = try id(context)
        let fields = try await request.strapiBodyFields(limit: maxBodySize)
        let text = try CommunityInput.text(fields, field: "comment", maximumLength: CommunityInput.maximumCommentLength)
        let comment = try await repository.updateComment(id: id, text: text, by: account.id, at: clock.now.truncatedToMilliseconds).get(orThrow: Self.error)
        return try Response.json(CommentAnswer(comment: comment, emails: emails(account)))
    }

    @Sendable func deleteComment(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        let comment = try await repository.deleteComment(id: try id(context), by: account.id).get(orThrow: Self.error)
        return try Response.json(CommentAnswer(comment: comment, emails: emails(account)))
    }

    // MARK: - Helpers

    /// A list that may be long (`_limit=-1` or above a page): no more rows than a page is built whole; more is
    /// streamed in chunks, in one of the account's few slots for such answers (429 when they are taken).
    private func list<Row: Sendable, JSON: JSONWritable & Sendable>(
        _ ids: [Int],
        of account: Account,
        load: @escaping @Sendable ([Int]) async throws -> [Row],
        json: @escaping @Sendable (Row) -> JSON
    ) async throws -> Response {
        guard ids.count > CollectionQuery.defaultLimit else { return try Response.json(try await load(ids).map(json)) }
        guard let slot = largeLists.claim(accountID: account.id) else { throw StrapiError.tooManyLargeLists }
        return StreamedJSONArray.response(ids: ids, holding: slot, load: load) { row, writer in json(row).writeJSON(into: &writer) }
    }

    /// Authors' addresses as `account` may read them: its own whole, others' masked unless configured otherwise.
    private func emails(_ account: Account) -> EmailDisclosure {
        EmailDisclosure(viewerID: account.id, visibility: emailVisibility)
    }

    /// A path id that is not a positive integer names nothing: 404.
    private func id(_ context: SignedIn) throws(StrapiError) -> Int {
        guard let raw = context.parameters.get("id"), let id = Int(raw), id > 0 else { throw .notFound }
        return id
    }

    private static func error(_ failure: OwnedWriteFailure) -> StrapiError {
        switch failure {
        case .notFound: .notFound
        case .notOwner: .forbidden
        }
    }
}

extension Result {
    func get(orThrow map: (Failure) -> some Error) throws -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let failure): throw map(failure)
        }
    }
}
