import Foundation
import HTTPTypes
import HummingbirdTesting
import SproutWire
import Testing
@testable import SproutServer

/// What an account does to itself: its web sessions, signing out everywhere, a new username or email address,
/// and deleting the account with everything it holds.
@Suite struct AccountSelfServiceTests {
    static let browser: HTTPFields = WebSessionTests.ownOrigin.with(.userAgent, "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0")

    @Test func webSessionsAreListedWithDeviceAddressAndLastUseAndEndOneByOne() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("traveller")
            let here = try WebSessionTests.cookie(from: try await client.send(
                .post, "/web/session", headers: Self.browser.with(.contentType, "application/json"),
                body: #"{"identifier": "traveller", "password": "password1"}"#
            ))
            let there = try WebSessionTests.cookie(from: try await client.logInOnWeb("traveller"))
            let list = try await client.send(.get, "/users/me/sessions", headers: [.cookie: here])
            #expect(list.status == .ok)
            let sessions = try #require(list.json?.array)
            #expect(sessions.count == 2)
            let mine = try #require(sessions.first { $0["current"] == .bool(true) })
            #expect(mine["device"] == .string("Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0"))
            #expect(mine["ipAddress"]?.string?.isEmpty == false)
            #expect(mine["lastSeenAt"]?.string != nil && mine["createdAt"]?.string != nil)
            let other = try #require(sessions.first { $0["current"] == .bool(false) }?["id"]?.string)

            // Someone else cannot end it, nor learn it exists.
            let stranger = try await client.signUp("stranger")
            #expect(try await client.send(.delete, "/users/me/sessions/\(other)", headers: stranger.bearer).status == .notFound)
            #expect(try await client.send(.delete, "/users/me/sessions/not-an-id", headers: account.bearer).status == .notFound)
            #expect(try await client.send(.delete, "/users/me/sessions/\(other)", headers: account.bearer).status == .ok)
            #expect(try await client.send(.get, "/web/session", headers: [.cookie: there]).json?["user"] == .null)
            #expect(try await client.send(.get, "/web/session", headers: [.cookie: here]).json?["user"]?["id"]?.int == account.id)
            #expect(try await client.send(.get, "/users/me/sessions", headers: [.cookie: here]).json?.array?.count == 1)
        }
    }

    @Test func signingOutEverywhereEndsEveryOtherSessionAndTokenButTheCallers() async throws {
        try await withTestApp { client, database in
            let caller = try await client.signUp("everywhere")
            let otherToken = try await client.logIn("everywhere")
            let cookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("everywhere"))
            let second = try database.secondProcess()
            try await second.test(.router) { secondClient async throws in
                #expect(try await secondClient.send(.get, "/users/me", headers: otherToken.bearer).status == .ok)
                #expect(try await client.send(.delete, "/users/me/sessions", headers: caller.bearer).status == .ok)
                #expect(try await secondClient.send(.get, "/users/me", headers: otherToken.bearer).status == .unauthorized)
                #expect(try await secondClient.send(.get, "/web/session", headers: [.cookie: cookie]).json?["user"] == .null)
                #expect(try await secondClient.send(.get, "/users/me", headers: caller.bearer).status == .ok)
            }
            // From the browser, the browser's own session stays.
            let browserCookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("everywhere"))
            let ended = try await client.send(.delete, "/users/me/sessions", headers: WebSessionTests.ownOrigin.with(.cookie, browserCookie))
            #expect(ended.status == .ok)
            #expect(try await client.send(.get, "/web/session", headers: [.cookie: browserCookie]).json?["user"] != .null)
            #expect(try await client.send(.get, "/users/me", headers: caller.bearer).status == .unauthorized)
        }
    }

    @Test func aNewUsernameAppliesAtOnceAndTheBoardsWriterSearchFollowsIt() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("oldname")
            try await client.signUp("takenname")
            _ = try await client.writePost("이름 바꾸기 전 글", "내용", as: account)
            let renamed = try await client.sendForm(.put, "/users/me", "username=newname", headers: account.bearer)
            #expect(renamed.status == .ok)
            #expect(renamed.json?["user"]?["username"] == .string("newname"))
            #expect(renamed.json?["emailConfirmationSentTo"] == .null)
            #expect(try await client.searchBoard("newname", target: "writer", as: account).ids.count == 1)
            #expect(try await client.searchBoard("oldname", target: "writer", as: account).ids.isEmpty)
            let taken = try await client.sendForm(.put, "/users/me", "username=takenname", headers: account.bearer)
            #expect(taken.status == .badRequest)
            #expect(taken.json?["data"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.username.taken"))
            #expect(try await client.sendForm(.put, "/users/me", "username=a", headers: account.bearer).status == .badRequest)
            #expect(try await client.sendForm(.put, "/users/me", "username=x", headers: [:]).status == .forbidden)
        }
    }

    @Test func aNewEmailAddressAppliesOnlyOnceItsMailedLinkIsUsed() async throws {
        let sink = try await SMTPSink.start()
        defer { Task { await sink.stop() } }
        try await withTestApp(configure: AccountRecoveryTests.mailing(to: sink)) { client, _ in
            let account = try await client.signUp("mover")
            try await client.signUp("occupant")
            let asked = try await client.sendForm(.put, "/users/me", "email=Mover.New@example.com", headers: account.bearer)
            #expect(asked.status == .ok)
            #expect(asked.json?["user"]?["email"] == .string("mover@example.com"))
            #expect(asked.json?["emailConfirmationSentTo"] == .string("mover.new@example.com"))
            let mail = try #require(try await sink.waitForMessages(1).first)
            #expect(mail.to == ["mover.new@example.com"])
            let code = try AccountRecoveryTests.code(from: mail, path: "/auth/email-confirmation")
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).json?["email"] == .string("mover@example.com"))
            #expect(try await client.send(.get, "/auth/email-confirmation?confirmation=\(code)").status == .found)
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).json?["email"] == .string("mover.new@example.com"))
            _ = try await client.logIn("mover.new@example.com")
            let taken = try await client.sendForm(.put, "/users/me", "email=occupant@example.com", headers: account.bearer)
            #expect(taken.json?["data"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.email.taken"))

            // An address someone else took while the mail was on its way stays theirs; the link does nothing.
            #expect(try await client.sendForm(.put, "/users/me", "email=contested@example.com", headers: account.bearer).status == .ok)
            let late = try AccountRecoveryTests.code(from: try #require(try await sink.waitForMessages(2).last), path: "/auth/email-confirmation")
            try await client.signUp("contested")
            #expect(try await client.send(.get, "/auth/email-confirmation?confirmation=\(late)").status == .badRequest)
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).json?["email"] == .string("mover.new@example.com"))
        }
    }

    @Test func deletingTheAccountLeavesNoRowOrFileOfItAndKeepsEveryoneElses() async throws {
        let data = BackupTestPlaces.directory("deletion")
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await withTestApp(configure: { $0.data.directory = data }) { client, database in
            let marker = "leavermark"
            let leaver = try await client.makeVendor("\(marker)-user", name: "\(marker) shop")
            let account = leaver.account
            let stayer = try await client.signUp("stayer")
            let cookie = try WebSessionTests.cookie(from: try await client.logInOnWeb(account.username))

            _ = try await client.sendJSON(.post, "/api/v2/todos-json", #"{"title": "shared todo", "is_done": false}"#)
            _ = try await client.send(.post, "/api/v2/todos-json", headers: account.bearer.with(.contentType, "application/json"), body: #"{"title": "\#(marker) own todo"}"#)
            let post = try await client.createPost("\(marker) post", as: account)
            try await client.createComment("stayer's comment on the leaver's post", on: post, as: stayer)
            let stayersPost = try await client.createPost("stayer's own post", as: stayer)
            try await client.createComment("\(marker) comment", on: stayersPost, as: account)
            _ = try await client.writePost("\(marker) board post", "\(marker) contents", as: account)
            _ = try await client.putEntry(UUID().uuidString, DiaryEntryWriteJSON(title: "\(marker) diary", body: "\(marker) body"), as: account)
            let product = try await client.registerProduct(as: leaver, name: "\(marker) product")
            let imageURL = try #require(product["images"]?.array?.first?["url"]?.string)
            #expect(try await client.fetchImage(imageURL).status == .ok)
            #expect(Self.imageFiles(in: data).count == 2, "the photo and its thumbnail")

            let wrong = try await client.sendForm(.delete, "/users/me", "password=not-the-one", headers: account.bearer)
            #expect(wrong.status == .badRequest)
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).status == .ok)

            let deleted = try await client.sendForm(.delete, "/users/me", "password=password1", headers: account.bearer)
            #expect(deleted.status == .ok)
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).status == .unauthorized)
            #expect(try await client.send(.get, "/web/session", headers: [.cookie: cookie]).json?["user"] == .null)
            #expect(try await client.fetchImage(imageURL).status == .notFound)

            let leftovers = try await Self.rowsMentioning([marker, "\(account.username)@example.com"], accountID: account.id, in: database)
            #expect(leftovers == [])
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=\(account.username)&password=password1").status == .badRequest)
            #expect(Self.imageFiles(in: data) == [])
            #expect(try await client.send(.get, "/api/v2/todos").json?["meta"]?["total"] == .number(1), "the shared list is no one's")
            // Everyone else's things stay: the stayer's post (without the leaver's comment) and account.
            #expect(try await client.send(.get, "/posts/\(stayersPost)", headers: stayer.bearer).status == .ok)
            #expect(try await client.send(.get, "/users/me", headers: stayer.bearer).status == .ok)
            #expect(try await client.send(.get, "/comments?post=\(stayersPost)", headers: stayer.bearer).json?.array?.isEmpty == true)
        }
    }

    /// Every table, every column: rows whose text holds one of `needles`, or whose account column names the
    /// account, as "table: N rows".
    static func rowsMentioning(_ needles: [String], accountID: Int, in database: SproutDatabase) async throws -> [String] {
        let executor = database.executor
        let tables: [String]
        let columnsQuery: (String) -> SQLStatement
        if executor.dialect == .sqlite {
            tables = try await executor.read("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", as: SQLTextValue.self).map(\.value)
            columnsQuery = { "SELECT name FROM pragma_table_info(\(bind: $0))" }
        } else {
            tables = try await executor.read(
                "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'", as: SQLTextValue.self
            ).map(\.value)
            columnsQuery = { "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = \(bind: $0)" }
        }
        var found: [String] = []
        for table in tables.sorted() {
            let columns = try await executor.read(columnsQuery(table), as: SQLTextValue.self).map(\.value)
            var conditions: [SQLStatement] = []
            for column in columns {
                let quoted = "\"\(column)\""
                for needle in needles {
                    conditions.append("lower(CAST(\(raw: quoted) AS TEXT)) LIKE \(bind: "%" + needle.lowercased() + "%")")
                }
                if ["account_id", "owner_id", "user_id", "owner_key"].contains(column) {
                    conditions.append("\(raw: quoted) = \(bind: accountID)")
                }
            }
            guard !conditions.isEmpty else { continue }
            let count = try await executor.readFirst(
                "SELECT count(*) FROM \(raw: "\"" + table + "\"") WHERE \(SQLStatement.joined(conditions, separator: " OR "))", as: SQLInt.self
            )?.value ?? 0
            if count > 0 { found.append("\(table): \(count) row\(count == 1 ? "" : "s")") }
        }
        return found
    }

    /// The image files under the data directory (staging excluded).
    static func imageFiles(in data: String) -> [String] {
        let root = URL(fileURLWithPath: data).appendingPathComponent("market-images").path
        let all = FileManager.default.subpaths(atPath: root) ?? []
        return all.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue && !path.hasPrefix("tmp/")
        }
    }
}
