import Foundation
import SproutKit
import SproutWire
import Testing

/// `BoardPostStore`: the detail, and writing, editing and deleting one's own posts, with the device's refusals.
@MainActor
@Suite struct BoardPostStoreTests {
    static let free = Board(id: 2, name: "자유게시판", writable: true)

    @Test func writeEditAndDeleteOnesOwnPost() async throws {
        let server = BoardFakeServer()
        let store = BoardPostStore(client: server.client, board: Self.free)
        #expect(store.canWrite && !store.canEdit)
        let written = try #require(await store.write(title: "  제목 ", contents: "내용\n둘째 줄"))
        #expect(written.title == "제목" && written.contents == "내용\n둘째 줄" && store.postID == written.id && store.canEdit)
        let edited = try #require(await store.edit(title: "새 제목", contents: "새 내용"))
        #expect(edited.title == "새 제목" && store.post == edited)
        #expect(await store.delete() && store.isDeleted && !store.canEdit && server.postIDs.isEmpty)
        #expect(server.requests.map(\.line) == [
            "POST /api/v2/boards/2/posts", "PUT /api/v2/boards/2/posts/\(written.id)", "DELETE /api/v2/boards/2/posts/\(written.id)",
        ])
    }

    @Test func emptyOrTooLongFieldsAreRefusedOnTheDevice() async {
        let server = BoardFakeServer()
        let store = BoardPostStore(client: server.client, board: Self.free)
        #expect(await store.write(title: " ", contents: "내용") == nil)
        #expect(store.errorMessage == "제목과 내용을 입력해 주세요." && store.lastError == nil)
        #expect(await store.write(title: String(repeating: "가", count: 201), contents: "내용") == nil)
        #expect(store.errorMessage == BoardPostStore.tooLongMessage && server.requests.isEmpty)
    }

    @Test func someoneElsesPostIsShownButNotChanged() async throws {
        let server = BoardFakeServer()
        let id = try #require(server.addPosts(1, board: 2, writer: "other").first)
        let store = BoardPostStore(client: server.client, board: Self.free, postID: id)
        await store.load()
        #expect(store.post?.viewCount == 1 && store.post?.writer.name == "other" && !store.canEdit)
        #expect(await store.edit(title: "가", contents: "나") == nil)
        #expect(store.lastError?.kind == .forbidden && store.errorMessage == "내가 쓴 게시글만 수정하거나 삭제할 수 있습니다.")
        #expect(await store.delete() == false && !store.isDeleted)
    }

    @Test func aPostThatIsGoneCountsAsDeleted() async {
        let server = BoardFakeServer()
        let store = BoardPostStore(client: server.client, board: Self.free, postID: 77)
        #expect(await store.delete() && store.isDeleted && store.errorMessage == nil)
        let detail = BoardPostStore(client: server.client, board: Self.free, postID: 77)
        await detail.load()
        #expect(detail.isDeleted && detail.errorMessage == "삭제되었거나 없는 게시글입니다.")
    }

    @Test func aBoardThatIsNotWritableRefusesAWrite() async {
        let server = BoardFakeServer()
        let store = BoardPostStore(client: server.client, board: Board(id: 1, name: "공지사항", type: .notice))
        #expect(!store.canWrite)
        #expect(await store.write(title: "제목", contents: "내용") == nil)
        #expect(store.lastError?.kind == .forbidden && store.errorMessage == "이 게시판에는 글을 쓸 수 없습니다.")
    }
}
