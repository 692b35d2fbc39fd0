import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import Testing

/// The post screen: loading, owner checks, comments, in-place edits and their rollback.
@MainActor
@Suite struct PostDetailStoreTests {
    struct Fixture {
        let server: FakeCommunityServer
        let session: Session
        let store: PostDetailStore
        let me: Int
        let other: Int
        let postID: Int
        let myComment: Int
        let theirComment: Int
    }

    /// A post by "me" with a comment by me and one by "other"; a session signed in as `signedInAs` ("me" unless
    /// told), and a store for the post.
    static func fixture(postBy author: String = "me", signedInAs: String = "me") async throws -> Fixture {
        let server = FakeCommunityServer()
        let me = server.addAccount(username: "me")
        let other = server.addAccount(username: "other")
        let postID = server.addPosts(1, by: author == "me" ? me.id : other.id, text: { _ in "원래 글" })[0]
        let myComment = server.addComment("내 댓글", by: me.id, on: postID)
        let theirComment = server.addComment("남의 댓글", by: other.id, on: postID)
        let session = Session(baseURL: FakeCommunityServer.base, transport: server, tokenStore: InMemoryTokenStore())
        #expect(await session.logIn(identifier: signedInAs, password: "password1"))
        let store = PostDetailStore(postID: postID, session: session)
        await store.load()
        return Fixture(server: server, session: session, store: store, me: me.id, other: other.id, postID: postID, myComment: myComment, theirComment: theirComment)
    }

    @Test func loadsThePostAndItsCommentsOldestFirst() async throws {
        let f = try await Self.fixture()
        let post = try #require(f.store.post)
        #expect(post.text == "원래 글" && post.author.username == "me")
        #expect(f.store.comments.map(\.text) == ["내 댓글", "남의 댓글"])
        #expect(f.store.comments.map(\.author.username) == ["me", "other"])
        #expect(post.commentCount == 2 && f.store.hasLoadedComments && !f.store.isLoading && !f.store.isDeleted)
        let paths = f.server.requests.suffix(2).map { $0.url!.path }
        #expect(Set(paths) == ["/posts/\(f.postID)", "/comments"])
    }

    @Test func ownerChecksFollowTheSignedInUser() async throws {
        let f = try await Self.fixture()
        let post = try #require(f.store.post)
        let mine = try #require(f.store.comments.first { $0.id == f.myComment })
        let theirs = try #require(f.store.comments.first { $0.id == f.theirComment })
        #expect(f.store.canEdit(post: post) && f.store.canEditPost)
        #expect(f.store.canEdit(comment: mine) && !f.store.canEdit(comment: theirs))
        f.session.logOut()
        #expect(!f.store.canEdit(post: post) && !f.store.canEdit(comment: mine))
        let other = try await Self.fixture(signedInAs: "other")
        #expect(!other.store.canEditPost)
        #expect(other.store.canEdit(comment: try #require(other.store.comments.first { $0.id == other.theirComment })))
    }

    @Test func addingACommentAppendsItAndCountsIt() async throws {
        let f = try await Self.fixture()
        #expect(await f.store.addComment("세 번째 & 마지막 댓글"))
        #expect(f.store.comments.map(\.text) == ["내 댓글", "남의 댓글", "세 번째 & 마지막 댓글"])
        #expect(f.store.post?.commentCount == 3)
        let request = try #require(f.server.requests.last)
        #expect(FakeCommunityServer.form(request.httpBody) == ["comment": "세 번째 & 마지막 댓글", "post": String(f.postID)])
        #expect(f.server.commentTexts.values.contains("세 번째 & 마지막 댓글"))
    }

    @Test func anEmptyCommentIsRefusedOnTheDevice() async throws {
        let f = try await Self.fixture()
        let sent = f.server.requests.count
        #expect(await f.store.addComment(" ") == false)
        #expect(await f.store.editComment(id: f.myComment, text: "") == false)
        #expect(await f.store.editPost(text: "\n") == false)
        #expect(f.store.errorMessage == CommunityValidation.emptyTextMessage)
        #expect(f.server.requests.count == sent)
    }

    @Test func editingACommentShowsAtOnceAndKeepsTheServersVersion() async throws {
        let f = try await Self.fixture()
        f.server.hold()
        let edit = Task { await f.store.editComment(id: f.myComment, text: "고친 댓글") }
        try await f.server.waitForRequests(f.server.requests.count + 1)
        #expect(f.store.comments.first?.text == "고친 댓글")
        f.server.release()
        #expect(await edit.value)
        #expect(f.store.comments.first?.text == "고친 댓글" && f.store.errorMessage == nil)
        #expect(f.store.comments.first!.updatedAt > f.store.comments.first!.createdAt)
        #expect(f.server.commentTexts[f.myComment] == "고친 댓글")
        #expect(FakeCommunityServer.form(f.server.requests.last?.httpBody) == ["comment": "고친 댓글", "post": String(f.postID)])
    }

    @Test func anEditTheServerRefusesIsRolledBack() async throws {
        let f = try await Self.fixture()
        // Someone else's comment: the server answers 403.
        #expect(await f.store.editComment(id: f.theirComment, text: "남의 것을 고침") == false)
        #expect(f.store.comments.map(\.text) == ["내 댓글", "남의 댓글"])
        #expect(f.store.errorMessage == "이 작업을 할 권한이 없습니다.")
        #expect((f.store.lastError as? APIError)?.statusCode == 403)
        #expect(f.server.commentTexts[f.theirComment] == "남의 댓글")
        #expect(f.session.isSignedIn)
    }

    @Test func deletingACommentShowsAtOnceAndARefusalPutsItBackInPlace() async throws {
        let f = try await Self.fixture()
        f.server.failNext("DELETE", "/comments", status: 500, body: #"{"statusCode":500,"error":"Internal Server Error","message":"An internal server error occurred"}"#)
        f.server.hold()
        let delete = Task { await f.store.deleteComment(id: f.myComment) }
        try await f.server.waitForRequests(f.server.requests.count + 1)
        #expect(f.store.comments.map(\.id) == [f.theirComment] && f.store.post?.commentCount == 1)
        f.server.release()
        #expect(await delete.value == false)
        #expect(f.store.comments.map(\.id) == [f.myComment, f.theirComment] && f.store.post?.commentCount == 2)
        #expect(f.store.errorMessage != nil)

        #expect(await f.store.deleteComment(id: f.myComment))
        #expect(f.store.comments.map(\.id) == [f.theirComment])
        #expect(f.server.commentTexts[f.myComment] == nil)
    }

    @Test func aCommentAlreadyGoneStaysGone() async throws {
        let f = try await Self.fixture()
        f.server.failNext("PUT", "/comments", status: 404, body: CommunityFixtures.errorNotFound)
        #expect(await f.store.editComment(id: f.myComment, text: "늦은 수정") == false)
        #expect(f.store.comments.map(\.id) == [f.theirComment])
        f.server.failNext("DELETE", "/comments", status: 404, body: CommunityFixtures.errorNotFound)
        #expect(await f.store.deleteComment(id: f.theirComment))
        #expect(f.store.comments.isEmpty)
    }

    @Test func editingThePostShowsAtOnceAndRollsBackWhenRefused() async throws {
        let f = try await Self.fixture()
        #expect(await f.store.editPost(text: "고친 글"))
        #expect(f.store.post?.text == "고친 글" && f.store.post?.commentCount == 2)
        #expect(f.server.postTexts[f.postID] == "고친 글")

        f.server.failNext("PUT", "/posts", status: 500, body: "")
        f.server.hold()
        let edit = Task { await f.store.editPost(text: "다시 고친 글") }
        try await f.server.waitForRequests(f.server.requests.count + 1)
        #expect(f.store.post?.text == "다시 고친 글")
        f.server.release()
        #expect(await edit.value == false)
        #expect(f.store.post?.text == "고친 글" && f.store.errorMessage != nil)
    }

    @Test func someoneElsesPostCannotBeEditedOrDeleted() async throws {
        let f = try await Self.fixture(postBy: "other")
        #expect(!f.store.canEditPost)
        #expect(await f.store.editPost(text: "내 것처럼") == false)
        #expect(f.store.post?.text == "원래 글")
        #expect(await f.store.deletePost() == false)
        #expect(!f.store.isDeleted && f.store.post != nil)
        #expect(f.server.postTexts[f.postID] == "원래 글")
    }

    @Test func deletingThePostMarksItDeleted() async throws {
        let f = try await Self.fixture()
        #expect(await f.store.deletePost())
        #expect(f.store.isDeleted)
        #expect(f.server.postTexts.isEmpty && f.server.commentTexts.isEmpty)
    }

    @Test func aPostThatIsGoneLoadsAsDeleted() async throws {
        let server = FakeCommunityServer()
        let account = server.addAccount(username: "late")
        let client = CommunityClient(client: APIClient(baseURL: FakeCommunityServer.base, transport: server, tokenProvider: { account.token }))
        let store = PostDetailStore(postID: 999, client: client, currentUserID: { account.id })
        await store.load()
        #expect(store.isDeleted && store.post == nil)
        #expect(store.errorMessage == "게시물이나 댓글을 찾을 수 없습니다.")
    }

    @Test func aRejectedTokenWhileReadingSignsTheSessionOut() async throws {
        let f = try await Self.fixture()
        f.server.revokeAllTokens()
        await f.store.load()
        #expect(!f.session.isSignedIn && f.session.signOutReason == .tokenRejected)
        #expect(f.store.errorMessage == "로그인이 만료되었습니다. 다시 로그인해 주세요.")
        // What was shown stays shown; the app moves to its start page.
        #expect(f.store.post != nil && f.store.comments.count == 2)
    }
}
