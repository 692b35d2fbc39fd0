import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import Testing

/// Signing up, in and out, the token store, and the rule that a 401 signs the session out.
@MainActor
@Suite struct SessionTests {
    static func session(_ server: FakeCommunityServer, store: any TokenStore = InMemoryTokenStore()) -> Session {
        Session(baseURL: FakeCommunityServer.base, transport: server, tokenStore: store)
    }

    @Test func anEmptyStoreStartsSignedOut() {
        let session = Self.session(FakeCommunityServer())
        #expect(session.state == .signedOut && !session.isSignedIn && session.userID == nil && session.user == nil)
    }

    @Test func signUpSignsInSavesTheTokenAndSendsItAfterwards() async throws {
        let server = FakeCommunityServer()
        let store = InMemoryTokenStore()
        let session = Self.session(server, store: store)
        #expect(await session.signUp(username: "새싹", email: "Sprout@Example.com", password: "pw"))
        let user = try #require(session.user)
        #expect(user.username == "새싹" && user.email == "sprout@example.com")
        #expect(session.state == .signedIn(user) && session.userID == user.id)
        let saved = try #require(store.load())
        #expect(saved.userID == user.id)
        // Register itself carries no token; everything after carries the new one.
        #expect(server.requests.last?.value(forHTTPHeaderField: "Authorization") == nil)
        _ = try await session.community.posts()
        #expect(server.requests.last?.value(forHTTPHeaderField: "Authorization") == "Bearer \(saved.token)")
    }

    @Test func theTodosClientOfTheSessionSendsItsToken() async throws {
        let server = FakeCommunityServer()
        server.addAccount(username: "todo")
        let session = Self.session(server)
        #expect(await session.logIn(identifier: "todo", password: "password1"))
        let page = try await session.todos.list()
        #expect(page.todos.isEmpty)
        let request = try #require(server.requests.last)
        #expect(request.url?.path == "/api/v2/todos")
        let token = try #require(await session.tokenProvider())
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer \(token)")
        // The provider also works for an APIClient the app builds itself.
        let recorder = RecordingStub(body: #"{"data":[],"meta":{"current_page":1,"from":null,"last_page":1,"per_page":10,"to":null,"total":0},"message":"ok"}"#)
        _ = try await TodosClient(client: APIClient(baseURL: FakeCommunityServer.base, transport: recorder, tokenProvider: session.tokenProvider)).list()
        #expect(recorder.lastRequest?.value(forHTTPHeaderField: "Authorization") == request.value(forHTTPHeaderField: "Authorization"))
    }

    @Test func aFailedLoginShowsTheReasonAndStaysSignedOut() async {
        let server = FakeCommunityServer()
        server.addAccount(username: "jack")
        let session = Self.session(server)
        #expect(await session.logIn(identifier: "jack", password: "wrong") == false)
        #expect(session.state == .signedOut)
        #expect(session.errorMessage == "아이디 또는 비밀번호가 올바르지 않습니다.")
        #expect((session.lastError as? APIError)?.strapiMessageID == "Auth.form.error.invalid")
        session.dismissError()
        #expect(session.errorMessage == nil && session.lastError == nil)
    }

    @Test func anIncompleteFormOrNoAccountSendsNothing() async {
        let server = FakeCommunityServer()
        let session = Self.session(server)
        #expect(await session.logIn(identifier: "", password: "pw") == false)
        #expect(await session.signUp(username: "a", email: "", password: "pw") == false)
        #expect(session.errorMessage == CommunityValidation.emptyFieldMessage)
        #expect(await session.changePassword(current: "a", new: "b", confirmation: "b") == false)
        #expect(session.errorMessage == "먼저 로그인해 주세요.")
        #expect(server.requests.isEmpty)
        #expect(CommunityValidation.canLogIn(identifier: "a", password: " "))
        #expect(!CommunityValidation.canChangePassword(current: "a", new: "b", confirmation: ""))
    }

    @Test func restoresFromTheStoreAtStartAndFetchesTheUserLater() async throws {
        let server = FakeCommunityServer()
        let account = server.addAccount(username: "restored")
        let store = InMemoryTokenStore(StoredCredentials(token: account.token, userID: account.id))
        let session = Self.session(server, store: store)
        #expect(session.state == .restored(userID: account.id) && session.isSignedIn && session.user == nil)
        #expect(server.requests.isEmpty)
        await session.refreshUser()
        #expect(session.user?.username == "restored")
        #expect(server.requests.last?.url?.path == "/users/me")
    }

    @Test func restoredCredentialsSurviveALaunchWithoutConnection() async {
        let store = InMemoryTokenStore(StoredCredentials(token: "t", userID: 5))
        let offline = StubTransport { _ in throw URLError(.notConnectedToInternet) }
        let session = Session(baseURL: FakeCommunityServer.base, transport: offline, tokenStore: store)
        await session.refreshUser()
        #expect(session.state == .restored(userID: 5))
        #expect(session.errorMessage != nil && store.load() != nil)
    }

    @Test func restoresFromATokenFile() throws {
        let url = TokenStoreTests.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileTokenStore(url: url).save(StoredCredentials(token: "file.jwt", userID: 12))
        let session = Self.session(FakeCommunityServer(), store: FileTokenStore(url: url))
        #expect(session.userID == 12)
    }

    @Test func logOutClearsTheStore() async {
        let server = FakeCommunityServer()
        server.addAccount(username: "bye")
        let store = InMemoryTokenStore()
        let session = Self.session(server, store: store)
        #expect(await session.logIn(identifier: "bye@example.com", password: "password1"))
        #expect(store.load() != nil)
        session.logOut()
        #expect(session.state == .signedOut && session.signOutReason == .loggedOut)
        #expect(store.load() == nil)
        #expect(await session.tokenProvider() == nil)
    }

    @Test func changePasswordChecksTheConfirmationOnTheDeviceFirst() async {
        let server = FakeCommunityServer()
        server.addAccount(username: "pw")
        let session = Self.session(server)
        #expect(await session.logIn(identifier: "pw", password: "password1"))
        let sent = server.requests.count
        #expect(await session.changePassword(current: "password1", new: "new1", confirmation: "new2") == false)
        #expect(session.errorMessage == "비밀번호가 일치하지 않습니다.")
        #expect(server.requests.count == sent)
        #expect(session.isSignedIn)
    }

    @Test func changePasswordKeepsTheSessionAndTheNewPasswordWorks() async throws {
        let server = FakeCommunityServer()
        server.addAccount(username: "pw")
        let session = Self.session(server)
        #expect(await session.logIn(identifier: "pw", password: "password1"))
        #expect(await session.changePassword(current: "wrong", new: "new1", confirmation: "new1") == false)
        #expect(session.errorMessage == "아이디 또는 비밀번호가 올바르지 않습니다." && session.isSignedIn)
        #expect(await session.changePassword(current: "password1", new: "new1", confirmation: "new1"))
        #expect(session.errorMessage == nil && session.lastError == nil)
        let request = try #require(server.requests.last)
        #expect(FakeCommunityServer.form(request.httpBody) == ["currentPassword": "password1", "newPassword": "new1", "confirmNewPassword": "new1"])
        #expect(session.user?.username == "pw")
        session.logOut()
        #expect(await session.logIn(identifier: "pw", password: "new1"))
    }

    @Test func a401FromAnyClientOfTheSessionSignsItOut() async throws {
        let server = FakeCommunityServer()
        server.addAccount(username: "expired")
        let store = InMemoryTokenStore()
        let session = Self.session(server, store: store)
        #expect(await session.logIn(identifier: "expired", password: "password1"))
        server.revokeAllTokens()
        await #expect { try await session.community.posts() } throws: { ($0 as? APIError)?.statusCode == 401 }
        // Signed out before the caller even saw the error.
        #expect(session.state == .signedOut && session.signOutReason == .tokenRejected)
        #expect(session.errorMessage == "로그인이 만료되었습니다. 다시 로그인해 주세요.")
        #expect(store.load() == nil)

        // The todos API's own 401 does the same.
        #expect(await session.logIn(identifier: "expired", password: "password1"))
        server.revokeAllTokens()
        await #expect { try await session.todos.list() } throws: { ($0 as? APIError)?.statusCode == 401 }
        #expect(session.state == .signedOut && store.load() == nil)
    }

    @Test func a401ToAnOldTokenDoesNotSignOutANewerLogin() async throws {
        let server = FakeCommunityServer()
        server.addAccount(username: "twice")
        let session = Self.session(server)
        #expect(await session.logIn(identifier: "twice", password: "password1"))
        let oldToken = try #require(await session.tokenProvider())
        #expect(await session.logIn(identifier: "twice", password: "password1"))
        let newToken = try #require(await session.tokenProvider())
        #expect(oldToken != newToken)
        // A request sent with the old token comes back 401 after the new login: nothing changes.
        await session.unauthorizedHandler(oldToken)
        #expect(session.isSignedIn && session.signOutReason == nil)
        await session.unauthorizedHandler(newToken)
        #expect(!session.isSignedIn && session.signOutReason == .tokenRejected)
    }

    @Test func a403DoesNotSignOut() async throws {
        let server = FakeCommunityServer()
        let owner = server.addAccount(username: "owner")
        server.addAccount(username: "other")
        let postID = server.addPosts(1, by: owner.id)[0]
        let session = Self.session(server)
        #expect(await session.logIn(identifier: "other", password: "password1"))
        await #expect { try await session.community.updatePost(id: postID, text: "x") } throws: { ($0 as? APIError)?.statusCode == 403 }
        #expect(session.isSignedIn)
    }
}
