import Foundation
import Testing

/// The administration commands through the binary: roles, moderation, boards, vendors, and the audit log that
/// names the person at the command line for each change.
@Suite struct AdminCommandLineTests {
    @Test func everyCommandsChangeIsInTheAuditLogUnderTheCommandLinesName() async throws {
        let data = SproutProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        func sprout(_ arguments: String...) async throws -> (status: Int32, output: String, errors: String) {
            try await SproutProcess.run(arguments + ["--data-dir", data])
        }
        #expect(try await sprout("seed").status == 0)
        let created = try await sprout("account", "create", "boss", "--email", "boss@example.com", "--role", "admin")
        #expect(created.status == 0 && created.output.contains("admin") && created.output.contains("Password: "), "\(created.errors)")
        #expect(try await sprout("account", "role", "demo2", "moderator").output.contains("is now moderator"))
        #expect(try await sprout("account", "role", "demo2", "chief").status != 0)
        let shown = try await sprout("account", "show", "demo2")
        #expect(shown.output.contains("role:     moderator"), "\(shown.output)")
        #expect(try await sprout("account", "block", "demo3", "--reason", "도배").status == 0)
        #expect(try await sprout("account", "show", "demo3").output.contains("yes (도배)"))

        let hidden = try await sprout("moderate", "hide", "post", "1", "2")
        #expect(hidden.status == 0 && hidden.output.contains("Hid 2 of 2 post(s)"), "\(hidden.output) \(hidden.errors)")
        #expect(try await sprout("moderate", "delete", "board-post", "1").status != 0)  // asks for --yes
        #expect(try await sprout("moderate", "delete", "board-post", "1", "--yes").output.contains("Deleted 1 of 1"))
        #expect(try await sprout("moderate", "hide", "video", "1").status != 0)
        #expect(try await sprout("report", "list").output.contains("No open reports."))
        #expect(try await sprout("report", "dismiss", "post", "3").output.contains("Closed the reports of 0 of 1 post(s)"))

        #expect(try await sprout("board", "create", "--name", "운영 공지", "--type", "notice", "--read-only").status == 0)
        #expect(try await sprout("board", "move", "4", "--to", "1").output.hasPrefix("4\t운영 공지"))
        #expect(try await sprout("board", "pin", "2").output.hasPrefix("2\tboard "))
        #expect(try await sprout("board", "unpin", "2").output.contains("not pinned"))
        #expect(try await sprout("board", "pin", "99999").status != 0)
        #expect(try await sprout("vendor", "disable", "demo1").output.contains("state:      disabled"))
        #expect(try await sprout("vendor", "list").output.contains("disabled"))

        let audit = try await sprout("audit", "list", "--limit", "100")
        #expect(audit.status == 0)
        let actions = audit.output.split(separator: "\n").map { $0.split(separator: "\t")[3] }
        for action in ["account.create", "account.role", "account.block", "content.hide", "content.delete", "board.create", "board.move", "board-post.pin", "board-post.unpin", "vendor.disable"] {
            #expect(actions.contains(Substring(action)), "\(action) missing from \(audit.output)")
        }
        // One entry per change: two posts hidden, one role given (the refused one left nothing).
        #expect(actions.filter { $0 == "content.hide" }.count == 2 && actions.filter { $0 == "account.role" }.count == 1)
        #expect(audit.output.split(separator: "\n").allSatisfy { $0.split(separator: "\t")[2].hasPrefix("cli:") })
        let json = try await sprout("audit", "list", "--json", "--action", "account.block")
        let line = try #require(json.output.split(separator: "\n").first)
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(entry["target"] as? String == "account:3")
        #expect((entry["changes"] as? [String: [String: String]])?["reason"]?["after"] == "도배")
    }
}
