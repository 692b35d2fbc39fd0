import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// Every administrative write — the calls behind each `sprout` command and console action — leaves exactly one
/// audit entry, with its action and target, written by the actor who made it.
@Suite struct AuditCoverageTests {
    private static let actor = AuditActor(name: "cli:auditor", accountID: nil, client: "local", userAgent: "tests", requestID: "req-1")

    /// The world each write runs in: an account with content, a vendor with a product, an empty board.
    struct World {
        let database: SproutDatabase
        let post: Int
        let comment: Int
        let product: Int
        let boardPost: Int
        var accounts: AccountAdministration { AccountAdministration(database: database, passwordHashCost: 4) }
        var boards: BoardAdministration { BoardAdministration(database: database) }
        var vendors: VendorAdministration { VendorAdministration(database: database, sealer: .forTests) }
        var moderation: Moderation { Moderation(database: database, configuration: SproutConfiguration()) }
    }

    /// (name, the write, the action and target its entry must name)
    static let writes: [(String, @Sendable (World) async throws -> Void, String, @Sendable (World) -> String)] = [
        ("account create", { _ = try await $0.accounts.create(username: "newcomer", email: "new@example.com", by: actor) }, "account.create", { _ in "account:5" }),
        ("account role", { _ = try await $0.accounts.setRole("writer", .moderator, by: actor) }, "account.role", { _ in "account:1" }),
        ("account block", { _ = try await $0.accounts.setBlocked("writer", true, reason: "spam", by: actor) }, "account.block", { _ in "account:1" }),
        ("account unblock", { world in
            _ = try await world.accounts.setBlocked("reader", true, by: actor)
            _ = try await world.accounts.setBlocked("reader", false, by: actor)
        }, "account.unblock", { _ in "account:2" }),
        ("account reset-password", { _ = try await $0.accounts.resetPassword("writer", by: actor) }, "account.reset-password", { _ in "account:1" }),
        ("account send-password-reset", { _ = try await $0.accounts.sendPasswordReset("writer", by: actor) }, "account.send-password-reset", { _ in "account:1" }),
        ("account sign-out-everywhere", { _ = try await $0.accounts.signOutEverywhere("writer", by: actor) }, "account.sign-out-everywhere", { _ in "account:1" }),
        ("account delete", { _ = try await $0.accounts.delete("reader", by: actor) }, "account.delete", { _ in "account:2" }),
        ("moderate hide post", { _ = try await $0.moderation.apply(.hide, to: .post, ids: [$0.post], by: actor) }, "content.hide", { "post:\($0.post)" }),
        ("moderate restore comment", { world in
            _ = try await world.moderation.apply(.hide, to: .comment, ids: [world.comment], by: actor)
            _ = try await world.moderation.apply(.restore, to: .comment, ids: [world.comment], by: actor)
        }, "content.restore", { "comment:\($0.comment)" }),
        ("moderate delete product", { _ = try await $0.moderation.apply(.delete, to: .product, ids: [$0.product], by: actor) }, "content.delete", { "product:\($0.product)" }),
        ("report dismiss", { world in
            // The reader's (account 2) report of the post.
            try await world.database.executor.writeAll([
                "INSERT INTO reports (kind, target_id, reporter_id, reason, created_at) VALUES ('post', \(bind: world.post), 2, '광고', \(bind: Date()))",
            ])
            _ = try await world.moderation.dismissReports(of: .post, ids: [world.post], by: actor)
        }, "report.dismiss", { "post:\($0.post)" }),
        ("moderate hide board-post", { _ = try await $0.moderation.apply(.hide, to: .boardPost, ids: [$0.boardPost], by: actor) }, "content.hide", { "board-post:\($0.boardPost)" }),
        ("board create", { _ = try await $0.boards.create(name: "새 게시판", by: actor) }, "board.create", { _ in "board:4" }),
        ("board rename", { _ = try await $0.boards.rename(id: 3, to: "비밀게시판", by: actor) }, "board.rename", { _ in "board:3" }),
        ("board move", { _ = try await $0.boards.move(id: 3, to: 1, by: actor) }, "board.move", { _ in "board:3" }),
        ("board archive", { _ = try await $0.boards.setArchived(id: 3, true, by: actor) }, "board.archive", { _ in "board:3" }),
        ("board writable", { _ = try await $0.boards.setWritable(id: 3, false, by: actor) }, "board.writable", { _ in "board:3" }),
        ("board pin", { _ = try await $0.boards.setPinned(postID: $0.boardPost, true, by: actor) }, "board-post.pin", { "board-post:\($0.boardPost)" }),
        ("board unpin", { world in
            _ = try await world.boards.setPinned(postID: world.boardPost, true, by: actor)
            _ = try await world.boards.setPinned(postID: world.boardPost, false, by: actor)
        }, "board-post.unpin", { "board-post:\($0.boardPost)" }),
        ("board delete", { _ = try await $0.boards.delete(id: 3, by: actor) }, "board.delete", { _ in "board:3" }),
        ("vendor create", { _ = try await $0.vendors.create(account: "reader", name: "둘째 가게", by: actor) }, "vendor.create", { _ in "vendor:2" }),
        ("vendor rotate-secret", { _ = try await $0.vendors.rotateSecret("writer", by: actor) }, "vendor.rotate-secret", { _ in "vendor:1" }),
        ("vendor disable", { _ = try await $0.vendors.setDisabled("writer", true, by: actor) }, "vendor.disable", { _ in "vendor:1" }),
    ]

    @Test(arguments: writes.indices)
    func eachAdministrativeWriteLeavesExactlyOneEntry(index: Int) async throws {
        let (name, write, action, target) = Self.writes[index]
        try await withTestApp { client, database in
            let writer = try await client.makeVendor("writer")
            let reader = try await client.signUp("reader")
            _ = try await client.signUp("third")
            _ = try await client.signUp("fourth")
            let post = try await client.createPost("글", as: writer.account)
            let comment = try await client.createComment("댓글", on: post, as: reader)
            let product = try await client.registerProduct(as: writer)["id"]!.int!
            let boardPost = try await client.writePost("제목", "내용", as: writer.account)["postId"]!.int!
            let world = World(database: database, post: post, comment: comment, product: product, boardPost: boardPost)
            let before = try await AuditTrail(database: database, configuration: SproutConfiguration()).list(AuditFilter(limit: 1000))
            try await write(world)
            let after = try await AuditTrail(database: database, configuration: SproutConfiguration()).list(AuditFilter(limit: 1000))
            let expectedTarget = target(world)
            let new = after.filter { record in !before.contains { $0.id == record.id } && record.action == action }
            #expect(new.count == 1, "\(name): \(new)")
            #expect(new.first?.target == expectedTarget, "\(name)")
            #expect(new.first?.actor == "cli:auditor" && new.first?.requestID == "req-1", "\(name)")
        }
    }

    @Test func aChangeThatChangesNothingRecordsNothing() async throws {
        try await withTestApp { client, database in
            try await client.signUp("steady")
            let accounts = AccountAdministration(database: database, passwordHashCost: 4)
            _ = try await accounts.setRole("steady", .user, by: Self.actor)
            _ = try await accounts.setBlocked("steady", false, by: Self.actor)
            _ = try await BoardAdministration(database: database).rename(id: 1, to: "공지사항", by: Self.actor)
            #expect(try await AuditTrail(database: database, configuration: SproutConfiguration()).list(AuditFilter()).isEmpty)
        }
    }

    @Test func entriesPastTheRetentionAreRemovedAsNewOnesAreWritten() async throws {
        try await withTestApp { client, database in
            try await client.signUp("old")
            try await database.executor.writeAll([
                """
                INSERT INTO audit_log (at, actor, action, target, changes) VALUES
                  (\(bind: Date(timeIntervalSinceNow: -40 * 86_400)), 'cli:past', 'account.role', 'account:1', '{}'),
                  (\(bind: Date(timeIntervalSinceNow: -10 * 86_400)), 'cli:recent', 'account.role', 'account:1', '{}')
                """,
            ])
            var configuration = SproutConfiguration()
            configuration.admin.auditRetentionDays = 30
            configuration.accounts.passwordHashCost = 4
            _ = try await AccountAdministration(database: database, configuration: configuration).setRole("old", .admin, by: Self.actor)
            let actors = try await AuditTrail(database: database, configuration: configuration).list(AuditFilter()).map(\.actor)
            #expect(actors == ["cli:auditor", "cli:recent"])
        }
    }
}
