import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire
import Testing

/// What each community endpoint sends and how its answer (the fixture shapes) is read.
@Suite struct CommunityClientTests {
    static func client(answering body: String) -> (CommunityClient, RecordingStub) {
        let recorder = RecordingStub(body: body)
        let api = APIClient(baseURL: FakeCommunityServer.base, transport: recorder, tokenProvider: { "the-token" })
        return (CommunityClient(client: api), recorder)
    }

    static func text(_ body: Data?) -> String? { body.map { String(decoding: $0, as: UTF8.self) } }

    /// A Strapi timestamp (as in the fixtures) as a date.
    static func date(_ text: String) -> Date { StrapiTimestamp.date(from: text)! }

    @Test func registerSendsAUrlencodedFormAndReadsTheAuthAnswer() async throws {
        let (community, recorder) = Self.client(answering: CommunityFixtures.authLocal)
        let auth = try await community.register(username: "sesac", email: "sesac@example.com", password: "p&ss=w+rd 새싹")
        let request = try #require(recorder.lastRequest)
        #expect(request.httpMethod == "POST" && request.url?.path == "/auth/local/register")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(Self.text(request.httpBody) == "username=sesac&email=sesac%40example.com&password=p%26ss%3Dw%2Brd%20%EC%83%88%EC%8B%B9")
        #expect(FakeCommunityServer.form(request.httpBody)["password"] == "p&ss=w+rd 새싹")
        #expect(auth.token.hasPrefix("<header>."))
        #expect(auth.user.id == 7 && auth.user.username == "sesac" && auth.user.email == "sesac@example.com")
        #expect(auth.user.confirmed && !auth.user.blocked)
        #expect(auth.user.createdAt == Self.date("2022-01-03T05:21:07.412Z"))
        #expect(auth.user.updatedAt.timeIntervalSince(auth.user.createdAt) > 0.018 && auth.user.updatedAt.timeIntervalSince(auth.user.createdAt) < 0.020)
    }

    @Test func loginSendsIdentifierAndPassword() async throws {
        let (community, recorder) = Self.client(answering: CommunityFixtures.authLocal)
        let auth = try await community.login(identifier: "sesac@example.com", password: "secret")
        let request = try #require(recorder.lastRequest)
        #expect(request.httpMethod == "POST" && request.url?.path == "/auth/local")
        #expect(FakeCommunityServer.form(request.httpBody) == ["identifier": "sesac@example.com", "password": "secret"])
        #expect(auth.user.id == 7)
    }

    @Test func changePasswordSendsTheThreeFieldsAndAnswersTheUpdatedUser() async throws {
        let (community, recorder) = Self.client(answering: CommunityFixtures.changePassword)
        let user = try await community.changePassword(current: "old", new: "new pw", confirmation: "new pw")
        let request = try #require(recorder.lastRequest)
        #expect(request.httpMethod == "POST" && request.url?.path == "/custom/change-password")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer the-token")
        #expect(Self.text(request.httpBody) == "currentPassword=old&newPassword=new%20pw&confirmNewPassword=new%20pw")
        #expect(user.id == 7 && user.updatedAt == Self.date("2022-01-13T02:44:19.871Z"))
    }

    @Test func meCarriesTheToken() async throws {
        let (community, recorder) = Self.client(answering: CommunityFixtures.changePassword)
        let user = try await community.me()
        #expect(recorder.lastRequest?.httpMethod == "GET" && recorder.lastRequest?.url?.path == "/users/me")
        #expect(recorder.lastRequest?.value(forHTTPHeaderField: "Authorization") == "Bearer the-token")
        #expect(user.username == "sesac")
    }

    @Test func postsSendStartLimitAndSortAndKeepAuthorsAndComments() async throws {
        let (community, recorder) = Self.client(answering: CommunityFixtures.postsList)
        let posts = try await community.posts(start: 20, limit: 20, sort: .newestFirst)
        let request = try #require(recorder.lastRequest)
        #expect(request.httpMethod == "GET" && request.url?.path == "/posts")
        #expect(request.url?.query == "_start=20&_limit=20&_sort=created_at%3Adesc")
        #expect(request.httpBody == nil)
        #expect(posts.map(\.id) == [42, 41])
        let first = try #require(posts.first)
        #expect(first.text == "오늘 새싹 과제 다 하신 분?")
        #expect(first.author.id == 7 && first.author.username == "sesac" && first.author.email == "sesac@example.com")
        #expect(first.createdAt == Self.date("2022-01-05T07:12:45.123Z"))
        #expect(abs(first.createdAt.timeIntervalSince1970.truncatingRemainder(dividingBy: 1) - 0.123) < 0.0005)
        #expect(first.commentCount == 1)
        #expect(first.comments.first == CommentSummary(
            id: 101, text: "저요!", authorID: 9, postID: 42,
            createdAt: Self.date("2022-01-05T07:20:11.009Z"), updatedAt: Self.date("2022-01-05T07:20:11.009Z")))
        #expect(posts[1].author.username == "jack" && posts[1].comments.isEmpty)
    }

    @Test func aLimitOfMinusOneAsksForEveryPostOldestFirst() async throws {
        let (community, recorder) = Self.client(answering: "[]")
        #expect(try await community.posts(start: 0, limit: -1, sort: .oldestFirst).isEmpty)
        #expect(recorder.lastRequest?.url?.query == "_start=0&_limit=-1&_sort=created_at%3Aasc")
    }

    @Test func countsAreBareIntegers() async throws {
        let (community, recorder) = Self.client(answering: "57")
        #expect(try await community.postCount() == 57)
        #expect(recorder.lastRequest?.url?.path == "/posts/count")
        #expect(try await community.commentCount(postID: 42) == 57)
        #expect(recorder.lastRequest?.url?.path == "/comments/count" && recorder.lastRequest?.url?.query == "post=42")
    }

    @Test func postReadWriteAndDeleteUseTheirPathsAndBodies() async throws {
        let single = try CommunityFixtures.first(of: CommunityFixtures.postsList)
        let (community, recorder) = Self.client(answering: single)
        #expect(try await community.post(id: 42).id == 42)
        #expect(recorder.lastRequest?.httpMethod == "GET" && recorder.lastRequest?.url?.path == "/posts/42")

        _ = try await community.createPost(text: "a&b=c+d 새싹")
        #expect(recorder.lastRequest?.httpMethod == "POST" && recorder.lastRequest?.url?.path == "/posts")
        #expect(Self.text(recorder.lastRequest?.httpBody) == "text=a%26b%3Dc%2Bd%20%EC%83%88%EC%8B%B9")

        _ = try await community.updatePost(id: 42, text: "고친 글")
        #expect(recorder.lastRequest?.httpMethod == "PUT" && recorder.lastRequest?.url?.path == "/posts/42")
        #expect(FakeCommunityServer.form(recorder.lastRequest?.httpBody) == ["text": "고친 글"])

        let deleted = try await community.deletePost(id: 42)
        #expect(recorder.lastRequest?.httpMethod == "DELETE" && recorder.lastRequest?.url?.path == "/posts/42")
        #expect(recorder.lastRequest?.httpBody == nil && deleted.id == 42)
    }

    @Test func commentsOfOnePostOldestFirstWithTheirAuthors() async throws {
        let (community, recorder) = Self.client(answering: CommunityFixtures.commentsList)
        let comments = try await community.comments(postID: 42)
        #expect(recorder.lastRequest?.url?.path == "/comments")
        #expect(recorder.lastRequest?.url?.query == "post=42&_sort=created_at%3Aasc")
        let comment = try #require(comments.first)
        #expect(comment.id == 101 && comment.text == "저요!" && comment.postID == 42)
        #expect(comment.author.id == 9 && comment.author.username == "jack")
        #expect(comment.createdAt == Self.date("2022-01-05T07:20:11.009Z"))
    }

    @Test func commentWritesSendCommentAndPost() async throws {
        let single = try CommunityFixtures.first(of: CommunityFixtures.commentsList)
        let (community, recorder) = Self.client(answering: single)
        _ = try await community.createComment(postID: 42, text: "저도 & 했어요")
        #expect(recorder.lastRequest?.httpMethod == "POST" && recorder.lastRequest?.url?.path == "/comments")
        #expect(Self.text(recorder.lastRequest?.httpBody) == "comment=%EC%A0%80%EB%8F%84%20%26%20%ED%96%88%EC%96%B4%EC%9A%94&post=42")

        _ = try await community.updateComment(id: 101, postID: 42, text: "고침")
        #expect(recorder.lastRequest?.httpMethod == "PUT" && recorder.lastRequest?.url?.path == "/comments/101")
        #expect(FakeCommunityServer.form(recorder.lastRequest?.httpBody) == ["comment": "고침", "post": "42"])

        let deleted = try await community.deleteComment(id: 101)
        #expect(recorder.lastRequest?.httpMethod == "DELETE" && recorder.lastRequest?.url?.path == "/comments/101")
        #expect(deleted.id == 101)
    }

    @Test func anUnreadableTimestampIsADecodingFailure() async {
        let broken = CommunityFixtures.postsList.replacingOccurrences(of: "2022-01-05T07:12:45.123Z", with: "yesterday")
        let (community, _) = Self.client(answering: broken)
        await #expect {
            try await community.posts()
        } throws: { error in
            if case .decoding = error as? APIError { return true }
            return false
        }
    }
}
