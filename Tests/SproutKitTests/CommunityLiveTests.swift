import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
@testable import SproutServer
import Testing

/// The community part of the kit against a real Sprout server: accounts, the feed, a post's screen, owner
/// checks, the 401 rule and the token shared with the todos API.
@MainActor
@Suite struct CommunityLiveTests {
    static func session(_ base: URL, store: any TokenStore = InMemoryTokenStore()) -> Session {
        Session(baseURL: base, tokenStore: store)
    }

    /// A new account signed in on a session of its own.
    static func signedUp(_ name: String, base: URL) async throws -> Session {
        let session = Self.session(base)
        let signedUp = await session.signUp(username: name, email: "\(name)@example.com", password: "password-\(name)")
        try #require(signedUp, "sign-up failed: \(session.errorMessage ?? "?")")
        return session
    }

    @Test func signUpLogInWriteCommentEditAndDelete() async throws {
        try await withLiveServer { base in
            let url = TokenStoreTests.temporaryURL()
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
            let store = FileTokenStore(url: url)

            // Sign up: signed in at once, the token kept in the file.
            let session = Self.session(base, store: store)
            #expect(await session.signUp(username: "새싹이", email: "Sprout@Example.com", password: "p&ss=w+rd"))
            let me = try #require(session.user)
            #expect(me.username == "새싹이" && me.email == "sprout@example.com")
            #expect(try store.load()?.userID == me.id)

            // Log out and back in by email; a new launch restores the session from the file.
            session.logOut()
            #expect(try store.load() == nil)
            #expect(await session.logIn(identifier: "sprout@example.com", password: "p&ss=w+rd"))
            let relaunched = Self.session(base, store: store)
            #expect(relaunched.state == .restored(userID: me.id))
            await relaunched.refreshUser()
            #expect(relaunched.user?.username == "새싹이")

            // Write two posts through the feed; they come newest first with their author.
            let feed = FeedStore(session: relaunched)
            await feed.refresh()
            #expect(feed.posts.isEmpty && feed.reachedEnd)
            let first = try #require(await feed.createPost(text: "첫 글 & 인사 = 1 + 1"))
            let second = try #require(await feed.createPost(text: "두 번째 글"))
            #expect(feed.posts.map(\.id) == [second.id, first.id])
            await feed.refresh()
            #expect(feed.posts.map(\.id) == [second.id, first.id])
            #expect(feed.posts.last?.text == "첫 글 & 인사 = 1 + 1" && feed.posts.last?.author.id == me.id)
            #expect(abs(first.createdAt.timeIntervalSinceNow) < 60)

            // The post's screen: comment, edit the comment and the post, delete the comment and the post.
            let detail = PostDetailStore(postID: first.id, post: first, session: relaunched)
            await detail.load()
            #expect(detail.canEditPost && detail.comments.isEmpty)
            #expect(await detail.addComment("댓글 & 하나"))
            #expect(await detail.addComment("댓글 둘"))
            #expect(detail.comments.map(\.text) == ["댓글 & 하나", "댓글 둘"] && detail.post?.commentCount == 2)
            let comment = try #require(detail.comments.first)
            #expect(detail.canEdit(comment: comment) && comment.author.username == "새싹이")
            #expect(await detail.editComment(id: comment.id, text: "고친 댓글 + α"))
            #expect(await detail.editPost(text: "고친 첫 글"))
            #expect(detail.errorMessage == nil)

            let server = relaunched.community
            #expect(try await server.post(id: first.id).text == "고친 첫 글")
            #expect(try await server.comments(postID: first.id).map(\.text) == ["고친 댓글 + α", "댓글 둘"])
            #expect(try await server.commentCount(postID: first.id) == 2)
            #expect(try await server.postCount() == 2)

            #expect(await detail.deleteComment(id: comment.id))
            #expect(try await server.comments(postID: first.id).map(\.text) == ["댓글 둘"])
            #expect(await detail.deletePost())
            #expect(detail.isDeleted)
            await #expect { try await server.post(id: first.id) } throws: { ($0 as? APIError)?.sorted(for: .community).kind == .notFound }
            feed.remove(postID: first.id)
            await feed.refresh()
            #expect(feed.posts.map(\.id) == [second.id])
        }
    }

    @Test func theFeedPagesThroughTheServerAndTogglesItsOrder() async throws {
        try await withLiveServer { base in
            let session = try await Self.signedUp("pager", base: base)
            for number in 1...25 { _ = try await session.community.createPost(text: "post \(number)") }
            let feed = FeedStore(session: session, pageSize: 10)
            await feed.refresh()
            #expect(feed.posts.map(\.text) == (16...25).reversed().map { "post \($0)" })
            await feed.loadMore()
            await feed.loadMore()
            #expect(feed.posts.map(\.text) == (1...25).reversed().map { "post \($0)" })
            #expect(feed.reachedEnd && !feed.hasMore)
            await feed.toggleSort()
            #expect(feed.posts.map(\.text) == (1...10).map { "post \($0)" })
            #expect(try await session.community.posts(limit: -1).count == 25)
        }
    }

    @Test func aSecondAccountCannotEditTheFirstOnesPost() async throws {
        try await withLiveServer { base in
            let owner = try await Self.signedUp("owner", base: base)
            let post = try await owner.community.createPost(text: "주인의 글")
            let comment = try await owner.community.createComment(postID: post.id, text: "주인의 댓글")

            let other = try await Self.signedUp("other", base: base)
            let detail = PostDetailStore(postID: post.id, session: other)
            await detail.load()
            #expect(detail.post?.text == "주인의 글")
            let ownersComment = try #require(detail.comments.first)
            #expect(!detail.canEditPost && !detail.canEdit(comment: ownersComment))

            // Even if a screen offered it, the server refuses (403) and the store rolls back.
            #expect(await detail.editPost(text: "남이 고친 글") == false)
            #expect(detail.post?.text == "주인의 글")
            #expect((detail.lastError as? APIError)?.statusCode == 403)
            #expect(await detail.editComment(id: comment.id, text: "남이 고친 댓글") == false)
            #expect(detail.comments.first?.text == "주인의 댓글")
            #expect(await detail.deleteComment(id: comment.id) == false)
            #expect(detail.comments.map(\.id) == [comment.id])
            #expect(await detail.deletePost() == false)
            #expect(!detail.isDeleted)
            // A refusal is not a rejected token: the second account stays signed in.
            #expect(other.isSignedIn)

            #expect(try await owner.community.post(id: post.id).text == "주인의 글")
            #expect(try await owner.community.comments(postID: post.id).map(\.text) == ["주인의 댓글"])
        }
    }

    @Test func aBadTokenSignsTheSessionOut() async throws {
        try await withLiveServer { base in
            let real = try await Self.signedUp("real", base: base)
            let userID = try #require(real.userID)
            let store = InMemoryTokenStore(StoredCredentials(token: "not.a.valid-token", userID: userID))
            let session = Self.session(base, store: store)
            #expect(session.state == .restored(userID: userID))
            let feed = FeedStore(session: session)
            await feed.refresh()
            #expect(session.state == .signedOut && session.signOutReason == .tokenRejected)
            #expect(store.load() == nil)
            #expect(feed.errorMessage == "로그인이 만료되었습니다. 다시 로그인해 주세요.")
            #expect((feed.lastError as? APIError)?.sorted(for: .community).kind == .unauthorized)
            // Without a token the server says 403, which signs nobody out.
            await #expect { try await session.community.posts() } throws: { ($0 as? APIError)?.statusCode == 403 }
        }
    }

    @Test func blockingTheAccountSignsItsSessionOut() async throws {
        try await withLiveServerAndDatabase { base, database in
            let session = try await Self.signedUp("blocked", base: base)
            let feed = FeedStore(session: session)
            await feed.refresh()
            #expect(feed.errorMessage == nil && session.isSignedIn)
            _ = try await AccountAdministration(database: database).setBlocked("blocked", true, by: .commandLine())
            await feed.refresh()
            #expect(session.state == .signedOut && session.signOutReason == .tokenRejected)
            #expect(await session.logIn(identifier: "blocked", password: "password-blocked") == false)
            #expect((session.lastError as? APIError)?.sorted(for: .community).kind == .blocked)
            #expect(session.errorMessage == "차단된 계정입니다.")
        }
    }

    @Test func theServersFormErrorsReachTheScreen() async throws {
        try await withLiveServer { base in
            let session = try await Self.signedUp("taken", base: base)
            let again = Self.session(base)
            #expect(await again.signUp(username: "someone", email: "taken@example.com", password: "pw123456") == false)
            #expect((again.lastError as? APIError)?.sorted(for: .community).kind == .emailTaken)
            #expect(again.errorMessage == "이미 사용 중인 이메일입니다.")
            #expect(await again.signUp(username: "새싹", email: "short@example.com", password: "pw123456") == false)
            #expect((again.lastError as? APIError)?.sorted(for: .community).kind == .invalidUsername)
            #expect(again.errorMessage?.hasPrefix("사용자 이름의 형식이 올바르지 않습니다. (") == true)
            #expect(await again.logIn(identifier: "taken", password: "wrong") == false)
            #expect((again.lastError as? APIError)?.strapiMessageID == "Auth.form.error.invalid")
            #expect(again.errorMessage == "아이디 또는 비밀번호가 올바르지 않습니다." && !again.isSignedIn)

            #expect(await session.changePassword(current: "wrong", new: "new-password", confirmation: "new-password") == false)
            #expect((session.lastError as? APIError)?.sorted(for: .community).kind == .invalidCredentials)
            #expect(session.isSignedIn)
            #expect(await session.changePassword(current: "password-taken", new: "new-password", confirmation: "new-password"))
            #expect(session.user?.username == "taken" && session.errorMessage == nil)
            // The token still works after the change, and the new password logs in.
            #expect(try await session.community.me().username == "taken")
            #expect(await again.logIn(identifier: "taken@example.com", password: "new-password"))
        }
    }

    @Test func tooManyFailedLoginsAreToldApartFromAWrongPassword() async throws {
        try await withLiveServer { base in
            _ = try await Self.signedUp("limited", base: base)
            let session = Self.session(base)
            for _ in 1...10 { #expect(await session.logIn(identifier: "limited", password: "wrong") == false) }
            #expect((session.lastError as? APIError)?.sorted(for: .community).kind == .invalidCredentials)
            #expect(await session.logIn(identifier: "limited", password: "password-limited") == false)
            let error = try #require(session.lastError as? APIError)
            #expect(error.statusCode == 429 && error.strapiMessageID == "Auth.form.error.ratelimit")
            #expect(session.errorMessage == "로그인 시도가 너무 많습니다. 잠시 후 다시 시도해 주세요." && !session.isSignedIn)
        }
    }

    @Test func eachAccountsTodosTravelWithItsToken() async throws {
        try await withLiveServer { base in
            let alice = try await Self.signedUp("alice", base: base)
            let bob = try await Self.signedUp("bob", base: base)
            _ = try await alice.todos.create(title: "앨리스의 할 일")
            _ = try await bob.todos.create(title: "밥의 할 일입니다")
            #expect(try await alice.todos.list().todos.map(\.title) == ["앨리스의 할 일"])
            #expect(try await bob.todos.list().todos.map(\.title) == ["밥의 할 일입니다"])
            // The anonymous list (what REST_TODO shares) holds neither.
            #expect(try await TodosClient(client: APIClient(baseURL: base)).list().todos.isEmpty)
            // A session's todos list goes through its own store too.
            let store = TodoListStore(client: alice.todos)
            await store.refresh()
            #expect(store.todos.map(\.title) == ["앨리스의 할 일"])
            // Logged out, the session's todos client sends no token: the shared list.
            bob.logOut()
            #expect(try await bob.todos.list().todos.isEmpty)
        }
    }
}
