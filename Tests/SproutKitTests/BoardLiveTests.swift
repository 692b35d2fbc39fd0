import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire
import Testing

/// The board part of the kit against a real Sprout server: an account lists the seed boards, writes 35 posts and
/// pages through them, searches by every target (Korean inside a word included), edits and deletes its post;
/// another account is refused; the anonymous board hides its writers; the static token reads and cannot write.
@MainActor
@Suite struct BoardLiveTests {
    @Test func writePageSearchEditAndDeleteAsAnAccount() async throws {
        try await withLiveServer { base in
            let session = try await CommunityLiveTests.signedUp("boarder", base: base)
            let client = session.board

            // The menu: the seed boards, the first selected at the first launch.
            let menu = BoardMenuStore(client: client, settings: InMemorySettingsStore())
            let first = try #require(await menu.load(), "boards failed: \(menu.errorMessage ?? "?")")
            #expect(menu.boards.map(\.name) == ["공지사항", "자유게시판", "익명게시판"] && first.name == "공지사항")
            #expect(menu.boards.map(\.type) == [.notice, .normal, .anonymous] && menu.boards.map(\.writable) == [false, true, true])
            let free = menu.boards[1]
            let anonymous = menu.boards[2]
            menu.select(free)

            // 35 posts; the first one's contents hold 공지 inside a word.
            for number in 1...35 {
                _ = try await client.createPost(boardID: free.id, title: "글 \(number)", contents: number == 1 ? "공지사항입니다" : "내용 \(number)")
            }

            // The list: 30, then the last 5, then nothing more.
            let feed = BoardPostsStore(client: client)
            await feed.show(free)
            #expect(feed.list.posts.count == 30 && feed.list.total == 35 && feed.list.hasMore && feed.list.errorMessage == nil)
            #expect(feed.list.posts.first?.title == "글 35" && feed.list.posts.first?.writer == BoardWriter(name: "boarder", email: "boarder@example.com"))
            #expect(feed.list.posts.allSatisfy { $0.isOwner && $0.isNew && $0.postType == .normal && abs($0.createdAt.timeIntervalSinceNow) < 300 })
            await feed.list.loadMore()
            #expect(feed.list.posts.count == 35 && !feed.list.hasMore && feed.list.posts.last?.title == "글 1")
            let requests = feed.list.total
            await feed.list.loadMore()
            #expect(feed.list.total == requests && feed.list.posts.count == 35)

            // Search by every target.
            let search = BoardSearchStore(client: client, history: try BoardSearchHistory())
            search.setBoard(free)
            #expect(search.placeholder == "자유게시판에서 검색")
            search.setText("공지")
            await search.search(in: .all)
            #expect(search.results.posts.map(\.title) == ["글 1"] && search.errorMessage == nil)
            await search.search(in: .contents)
            #expect(search.results.posts.map(\.title) == ["글 1"])
            await search.search(in: .title)
            #expect(search.results.posts.isEmpty && search.emptyText == BoardText.noResults)
            search.setText("글 3")
            await search.search(in: .title)
            #expect(Set(search.results.posts.map(\.title)) == Set(["글 3"] + (30...35).map { "글 \($0)" }) && search.results.total == 7)
            search.setText("BOARDER")
            await search.search(in: .writer)
            #expect(search.results.posts.count == 30 && search.results.total == 35 && search.results.hasMore)
            await search.results.loadMore()
            #expect(search.results.posts.count == 35 && !search.results.hasMore)
            #expect(search.history.map(\.query) == [
                BoardSearchQuery(text: "BOARDER", target: .writer), BoardSearchQuery(text: "글 3", target: .title),
                BoardSearchQuery(text: "공지", target: .title), BoardSearchQuery(text: "공지", target: .contents),
                BoardSearchQuery(text: "공지", target: .all),
            ])
            await search.select(search.history[4])
            #expect(search.text == "공지" && search.query?.target == .all && search.results.posts.map(\.title) == ["글 1"])

            // The detail counts a view; the owner edits and deletes.
            let mine = try #require(feed.list.posts.first)
            let detail = BoardPostStore(client: client, board: free, post: mine)
            await detail.load()
            #expect(detail.post?.viewCount == 1 && detail.canEdit)
            let edited = try #require(await detail.edit(title: "고친 글", contents: "고친 내용"), "edit failed: \(detail.errorMessage ?? "?")")
            #expect(edited.title == "고친 글" && edited.contents == "고친 내용" && edited.id == mine.id)
            feed.list.replace(edited)
            #expect(feed.list.posts.first?.title == "고친 글")

            // Another account reads it but may not change it.
            let stranger = try await CommunityLiveTests.signedUp("stranger", base: base)
            let theirs = BoardPostStore(client: stranger.board, board: free, postID: mine.id)
            await theirs.load()
            #expect(theirs.post?.isOwner == false && theirs.post?.title == "고친 글" && !theirs.canEdit)
            #expect(await theirs.edit(title: "남의 글", contents: "고침") == nil)
            #expect(theirs.lastError?.statusCode == 403 && theirs.errorMessage == "내가 쓴 게시글만 수정하거나 삭제할 수 있습니다.")
            #expect(await theirs.delete() == false && theirs.lastError?.kind == .forbidden)
            #expect(stranger.isSignedIn)

            #expect(await detail.delete() && detail.isDeleted)
            feed.list.remove(postID: mine.id)
            await feed.list.refresh()
            #expect(feed.list.total == 34 && !feed.list.posts.contains { $0.id == mine.id })
            await #expect {
                _ = try await client.post(boardID: free.id, postID: mine.id)
            } throws: { ($0 as? APIError)?.statusCode == 404 }

            // The notice board cannot be written in.
            let notice = BoardPostStore(client: client, board: menu.boards[0])
            #expect(await notice.write(title: "공지", contents: "내용") == nil && notice.lastError?.statusCode == 403)

            // The anonymous board shows every writer as 익명, and writer search does not see through it.
            let hidden = BoardPostStore(client: client, board: anonymous)
            let written = try #require(await hidden.write(title: "비밀", contents: "익명 글"))
            #expect(written.writer == BoardWriter(name: "익명", email: "") && written.isAnonymous && written.isOwner)
            let anonymousList = BoardPostsStore(client: stranger.board)
            await anonymousList.show(anonymous)
            #expect(anonymousList.list.posts.map(\.writer.name) == ["익명"] && anonymousList.list.posts.first?.isOwner == false)
            search.setBoard(anonymous)
            await search.run(BoardSearchQuery(text: "boarder", target: .writer))
            #expect(search.results.posts.isEmpty && search.emptyText == BoardText.noResults)
            await search.run(BoardSearchQuery(text: "익명", target: .contents))
            #expect(search.results.posts.map(\.id) == [written.id])
        }
    }

    @Test func theStaticTokenReadsEveryBoardAndWritesNothing() async throws {
        try await withLiveServer(boardAPIToken: "static-board-token") { base in
            let session = try await CommunityLiveTests.signedUp("writer", base: base)
            let free = try #require(try await session.board.boards().first { $0.name == "자유게시판" })
            _ = try await session.board.createPost(boardID: free.id, title: "계정의 글", contents: "내용")

            let reader = BoardClient(baseURL: base, token: "static-board-token")
            let boards = try await reader.boards()
            #expect(boards.count == 3 && boards.allSatisfy { !$0.writable })
            let page = try await reader.posts(boardID: free.id)
            #expect(page.posts.map(\.title) == ["계정의 글"] && page.posts.first?.isOwner == false)

            let store = BoardPostStore(client: reader, board: free)
            #expect(await store.write(title: "제목", contents: "내용") == nil && store.lastError?.statusCode == 403)

            let wrong = BoardMenuStore(client: BoardClient(baseURL: base, token: "wrong-token"), settings: InMemorySettingsStore())
            #expect(await wrong.load() == nil && wrong.lastError?.kind == .unauthorized)

            // The menu remembers the board across launches (a settings file).
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("board-settings-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: file) }
            let menu = BoardMenuStore(client: reader, settings: FileSettingsStore(url: file))
            await menu.load()
            menu.select(try #require(menu.boards.last))
            let relaunched = BoardMenuStore(client: reader, settings: FileSettingsStore(url: file))
            #expect(relaunched.rememberedBoard?.name == "익명게시판")
            #expect(await relaunched.load()?.name == "익명게시판")
        }
    }
}
