import Foundation
import SproutKit
import SproutServer
import SproutWire
import Testing

/// `BoardClient` pins against a live server: a moderator's boards say what they may do, a pinned post lists above
/// the board and comes back marked, a notice someone else wrote is edited, and a plain account is refused.
@MainActor @Suite struct BoardPinsLiveTests {
    @Test func aModeratorPinsAndEditsANoticeAndAPlainAccountMayDoNeither() async throws {
        try await withLiveServerAndDatabase { base, database in
            let admin = try await CommunityLiveTests.signedUp("boss", base: base)
            let moderator = try await CommunityLiveTests.signedUp("moder", base: base)
            let reader = try await CommunityLiveTests.signedUp("reader", base: base)
            let administration = AccountAdministration(database: database, passwordHashCost: 4)
            _ = try await administration.setRole("boss", .admin, by: .commandLine())
            _ = try await administration.setRole("moder", .moderator, by: .commandLine())

            let notices = try #require(try await moderator.board.boards().first { $0.type == .notice })
            #expect(notices.manageable && notices.editsOthersPosts && notices.writable)
            let readersNotices = try #require(try await reader.board.boards().first { $0.id == notices.id })
            #expect(!readersNotices.manageable && !readersNotices.editsOthersPosts && !readersNotices.writable)

            let notice = try await admin.board.createPost(boardID: notices.id, title: "점검 안내", contents: "토요일")
            let seenByReader = try await reader.board.post(boardID: notices.id, postID: notice.id)
            #expect(notices.mayEdit(seenByReader) && !readersNotices.mayEdit(seenByReader))
            let edited = try await moderator.board.updatePost(boardID: notices.id, postID: notice.id, title: "점검 안내", contents: "일요일")
            #expect(edited.contents == "일요일" && !edited.isOwner && edited.writer.name == "boss")

            let pinned = try await moderator.board.setPinned(boardID: notices.id, postID: notice.id, true)
            #expect(pinned.isPinned && !pinned.isHidden)
            #expect(try await reader.board.pinnedPosts(boardID: notices.id).map(\.id) == [notice.id])
            #expect(try await reader.board.posts(boardID: notices.id).posts.first?.isPinned == true)

            await #expect { try await reader.board.setPinned(boardID: notices.id, postID: notice.id, false) } throws: { error in
                (error as? APIError)?.statusCode == 403
            }
            #expect(try await moderator.board.setPinned(boardID: notices.id, postID: notice.id, false).isPinned == false)
            #expect(try await reader.board.pinnedPosts(boardID: notices.id).isEmpty)
        }
    }
}
