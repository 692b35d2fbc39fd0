import Foundation

/// The community account is the session's account: signing up, logging in and changing its password happen here,
/// through the community (Strapi) API.
extension Session {
    /// The community API as this session.
    public var community: CommunityClient { CommunityClient(client: apiClient) }

    // MARK: Signing in and out

    /// Creates an account and signs in as it. Returns false (with `errorMessage` set) when a field is empty or
    /// the server refuses (taken email or username, invalid email, …).
    @discardableResult
    public func signUp(username: String, email: String, password: String) async -> Bool {
        guard CommunityValidation.canSignUp(username: username, email: email, password: password) else {
            return refuse(CommunityValidation.emptyFieldMessage)
        }
        return await authenticate { (client) throws(APIError) in try await client.register(username: username, email: email, password: password) }
    }

    /// Logs in with a username or email. Returns false (with `errorMessage` set) when a field is empty or the
    /// server refuses (wrong credentials, too many attempts).
    @discardableResult
    public func logIn(identifier: String, password: String) async -> Bool {
        guard CommunityValidation.canLogIn(identifier: identifier, password: password) else {
            return refuse(CommunityValidation.emptyFieldMessage)
        }
        return await authenticate { (client) throws(APIError) in try await client.login(identifier: identifier, password: password) }
    }

    /// Changes the password; the token stays valid. The new password and its confirmation are compared here
    /// first, as the app does, so a mismatch sends nothing. Returns false (with `errorMessage` set) on failure.
    @discardableResult
    public func changePassword(current: String, new: String, confirmation: String) async -> Bool {
        guard CommunityValidation.canChangePassword(current: current, new: new, confirmation: confirmation) else {
            return refuse(CommunityValidation.emptyFieldMessage)
        }
        guard new == confirmation else { return refuse(CommunityValidation.passwordMismatchMessage) }
        guard isSignedIn else { return refuse(Self.signInFirstMessage) }
        guard !isWorking else { return false }
        isWorking = true
        defer { isWorking = false }
        let token = currentToken
        do {
            let user = try await community.changePassword(current: current, new: new, confirmation: confirmation)
            if currentToken == token, isSignedIn { state = .signedIn(user) }
            dismissError()
            return true
        } catch {
            report(error)
            return false
        }
    }

    /// Fetches the signed-in user (`GET /users/me`), turning restored credentials into a known user. A rejected
    /// token signs out; without a connection the restored credentials stay, as the original apps kept them.
    public func refreshUser() async {
        guard isSignedIn else { return }
        isWorking = true
        defer { isWorking = false }
        let token = currentToken
        do {
            let user = try await community.me()
            if currentToken == token, isSignedIn { state = .signedIn(user) }
            dismissError()
        } catch {
            report(error)
        }
    }

    // MARK: Helpers

    /// What a password change without a signed-in account says (nothing is sent).
    static let signInFirstMessage = "먼저 로그인해 주세요."

    func authenticate(_ call: (CommunityClient) async throws(APIError) -> CommunityAuth) async -> Bool {
        guard !isWorking else { return false }
        isWorking = true
        defer { isWorking = false }
        do {
            // Register and login carry no token: a stale one must not ride along, nor its 401 sign anyone out.
            let auth = try await call(CommunityClient(client: anonymousClient))
            signIn(StoredCredentials(token: auth.token, userID: auth.user.id), as: auth.user)
            return true
        } catch {
            report(error)
            return false
        }
    }
}
