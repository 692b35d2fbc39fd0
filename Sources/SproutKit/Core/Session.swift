import Foundation
import Observation

/// Who is signed in, for every service: the community account's token is also the Bearer token of the todos,
/// board, market and diary APIs. A session keeps its credentials in a `TokenStore` and restores them at start,
/// hands out clients whose requests carry its token, and logs out; signing up, logging in and changing the
/// password are the community's (`Session+Community.swift`), and each service adds its client in its own folder
/// (`Session+Board.swift`, …). **Any 401 answered to one of those clients signs the session out** — the token is invalid or
/// expired, or the account was blocked — as the SeSAC apps go back to their start page then.
@MainActor
@Observable
public final class Session {
    /// Whether anyone is signed in.
    public enum State: Equatable, Sendable {
        /// No credentials.
        case signedOut
        /// Credentials were restored from the token store at start; who they belong to is known by id only
        /// until `refreshUser()` fetches the profile (as the original apps, which kept only token and id).
        case restored(userID: Int)
        /// Signed in as this user.
        case signedIn(CommunityUser)
    }

    /// Why the session last signed out.
    public enum SignOutReason: Equatable, Sendable {
        /// `logOut()` was called.
        case loggedOut
        /// The server answered 401 to the session's token: it expired, the account was blocked, or its tokens were
        /// revoked (a password reset, "sign out everywhere" from another device).
        case tokenRejected
        /// `deleteAccount(password:)` deleted the account.
        case accountDeleted
    }

    /// Whether anyone is signed in.
    public internal(set) var state: State
    /// Why the session last signed out; nil while signed in and before any sign-out.
    public private(set) var signOutReason: SignOutReason?
    /// Whether a sign-up, login, password change or profile fetch is under way.
    public internal(set) var isWorking = false
    /// The last failure, as a sentence to show; `dismissError()` clears it.
    public private(set) var errorMessage: String?
    /// The last failure as a value (`APIError`, or the token store's error).
    public private(set) var lastError: (any Error)?

    /// The server every client of this session talks to.
    public let baseURL: URL
    private let transport: any HTTPTransport
    private let allowsInsecureHTTP: Bool
    private let tokenStore: any TokenStore
    /// The token as the clients read it: from any task, without waiting for the main actor.
    @ObservationIgnored private let current = CurrentCredentials()

    /// A session over `tokenStore`, restored from it when it holds credentials.
    /// - Parameters:
    ///   - baseURL: the Sprout server.
    ///   - transport: how requests travel (a stub in tests).
    ///   - tokenStore: where the credentials are kept between launches.
    ///   - allowsInsecureHTTP: see `APIClient`.
    public init(baseURL: URL, transport: any HTTPTransport = URLSessionTransport(), tokenStore: any TokenStore, allowsInsecureHTTP: Bool = false) {
        self.baseURL = baseURL
        self.transport = transport
        self.tokenStore = tokenStore
        self.allowsInsecureHTTP = allowsInsecureHTTP
        do {
            if let stored = try tokenStore.load() {
                current.set(stored)
                state = .restored(userID: stored.userID)
            } else {
                state = .signedOut
            }
        } catch {
            // Unreadable credentials are as good as none: the person logs in again, and the next save replaces them.
            state = .signedOut
            lastError = error
        }
    }

    // MARK: What the session hands out

    /// The signed-in account's id, known as soon as credentials are restored.
    public var userID: Int? {
        switch state {
        case .signedOut: nil
        case .restored(let id): id
        case .signedIn(let user): user.id
        }
    }

    /// The signed-in user, once the server has said who it is.
    public var user: CommunityUser? {
        if case .signedIn(let user) = state { return user }
        return nil
    }

    /// Whether a token is held.
    public var isSignedIn: Bool { state != .signedOut }

    /// Supplies this session's token to any `APIClient`.
    public nonisolated var tokenProvider: TokenProvider {
        { [current] in current.token }
    }

    /// Signs this session out when a server answers 401 to its current token. A 401 to a token the session no
    /// longer holds (a request sent before logging in again) changes nothing.
    public nonisolated var unauthorizedHandler: UnauthorizedHandler {
        { [weak self] token in await self?.tokenWasRejected(token) }
    }

    /// A client for the session's server whose requests carry the session's token and report 401s to it.
    public var apiClient: APIClient {
        APIClient(
            baseURL: baseURL, transport: transport, tokenProvider: tokenProvider, allowsInsecureHTTP: allowsInsecureHTTP,
            onUnauthorized: unauthorizedHandler
        )
    }

    /// Signs out and deletes the stored credentials.
    public func logOut() {
        signOut(reason: .loggedOut)
    }

    /// Clears the error once it has been shown.
    public func dismissError() {
        errorMessage = nil
        lastError = nil
    }

    // MARK: Helpers for the services' extensions

    /// The token held now, to tell whether it changed while a request was out.
    var currentToken: String? { current.token }

    /// Holds `credentials` as those of `user` from now on, and keeps them in the token store.
    func signIn(_ credentials: StoredCredentials, as user: CommunityUser) {
        current.set(credentials)
        state = .signedIn(user)
        signOutReason = nil
        dismissError()
        do {
            try tokenStore.save(credentials)
        } catch {
            // Signed in for now; only the next launch will ask to log in again.
            report(error, message: "로그인 정보를 기기에 저장하지 못했습니다.")
        }
    }

    /// A client for the session's server that carries no token (register and login: a stale token must not ride
    /// along, nor its 401 sign anyone out).
    var anonymousClient: APIClient {
        APIClient(baseURL: baseURL, transport: transport, allowsInsecureHTTP: allowsInsecureHTTP)
    }

    /// Shows `message` for a request refused before sending; returns false for the caller to return.
    func refuse(_ message: String) -> Bool {
        errorMessage = message
        lastError = nil
        return false
    }

    /// Keeps `error` and shows `message`, or the account's sentence for it.
    func report(_ error: any Error, message: String? = nil) {
        lastError = error
        errorMessage = message ?? (error as? APIError)?.sorted(for: .community).message ?? String(describing: error)
    }

    // MARK: Helpers

    private func tokenWasRejected(_ token: String) {
        guard current.token == token else { return }
        signOut(reason: .tokenRejected)
        errorMessage = SproutError.communitySentence(for: .unauthorized)
    }

    func signOut(reason: SignOutReason) {
        current.set(nil)
        state = .signedOut
        signOutReason = reason
        do {
            try tokenStore.clear()
        } catch {
            report(error, message: "저장된 로그인 정보를 지우지 못했습니다.")
        }
    }
}

/// The session's credentials behind a lock, so a client's token provider reads them from any task at once.
final class CurrentCredentials: @unchecked Sendable {
    // Every access to `credentials` holds `lock`.
    private let lock = NSLock()
    private var credentials: StoredCredentials?

    var token: String? { lock.withLock { credentials?.token } }

    func set(_ credentials: StoredCredentials?) {
        lock.withLock { self.credentials = credentials }
    }
}
