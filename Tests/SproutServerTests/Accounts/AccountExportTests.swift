import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SproutWire
import Testing
@testable import SproutServer

/// "Download my data": one tar archive of everything the account holds, and nothing of anyone else's.
@Suite struct AccountExportTests {
    @Test func theArchiveHoldsEveryItemOfTheAccountAndNothingOfAnothers() async throws {
        try await withTestApp { client, _ in
            let owner = try await client.makeVendor("exporter", name: "수출상회")
            let other = try await client.signUp("bystander")
            let account = owner.account
            for title in ["첫 번째 할일", "second todo"] {
                let created = try await client.send(.post, "/api/v2/todos-json", headers: account.bearer.with(.contentType, "application/json"), body: #"{"title": "\#(title)"}"#)
                #expect(created.status == .ok, "\(String(describing: created.json))")
            }
            _ = try await client.send(.post, "/api/v2/todos-json", headers: other.bearer.with(.contentType, "application/json"), body: #"{"title": "bystander-secret-todo"}"#)
            let post = try await client.createPost("내 글", as: account)
            try await client.createComment("bystander-secret-comment", on: post, as: other)
            let othersPost = try await client.createPost("bystander-secret-post", as: other)
            try await client.createComment("my comment there", on: othersPost, as: account)
            _ = try await client.writePost("게시판 글", "게시판 내용", as: account)
            let entry = UUID().uuidString.lowercased()
            _ = try await client.putEntry(entry, DiaryEntryWriteJSON(title: "일기", body: "첫 내용"), as: account)
            let written = try await client.putEntry(entry, DiaryEntryWriteJSON(title: "일기", body: "고친 내용"), as: account)
            #expect(written.status == .ok)
            let product = try await client.registerProduct(as: owner, name: "내 상품")
            let imageURL = try #require(product["images"]?.array?.first?["url"]?.string)
            let original = try await client.fetchImage(imageURL).body

            let response = try await client.raw(.get, "/users/me/export", headers: account.bearer)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/x-tar")
            #expect(response.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"sprout-export-exporter-") == true)
            let files = try Self.untar(response.body)
            #expect(files.keys.contains("README.txt"))
            #expect(try Self.json(files, "account.json")["username"] as? String == "exporter")
            let todoTitles = try Self.array(files, "todos/page-0001.json").compactMap { $0["title"] as? String }.sorted()
            #expect(todoTitles == ["second todo", "첫 번째 할일"], "\(todoTitles) \(String(decoding: files["todos/page-0001.json"] ?? [], as: UTF8.self))")
            #expect(try Self.array(files, "diary/entries/page-0001.json").first?["body"] as? String == "고친 내용")
            #expect(try Self.array(files, "diary/versions/page-0001.json").first?["body"] as? String == "첫 내용")
            let posts = try Self.array(files, "community/posts/page-0001.json")
            #expect(posts.count == 1 && posts.first?["text"] as? String == "내 글" && posts.first?["comment_count"] as? Int == 1)
            #expect(try Self.array(files, "community/comments/page-0001.json").map { $0["comment"] as? String } == ["my comment there"])
            let vendor = try #require(try Self.array(files, "market/vendor/page-0001.json").first)
            #expect(vendor["name"] as? String == "수출상회" && vendor["secret"] == nil)
            #expect(try Self.array(files, "market/products/page-0001.json").first?["name"] as? String == "내 상품")
            let image = try #require(try Self.array(files, "market/images/page-0001.json").first)
            let file = try #require(image["file"] as? String)
            #expect(files["market/images/\(file)"] == original)
            #expect(try Self.array(files, "board/posts/page-0001.json").first?["title"] as? String == "게시판 글")

            let everything = files.values.map { String(decoding: $0, as: UTF8.self) }.joined()
            #expect(!everything.contains("bystander"), "nothing of another account")
            #expect(!everything.contains(owner.secret), "no secret")

            #expect(try await client.raw(.get, "/users/me/export").status == .forbidden)
        }
    }

    @Test func longListsArePagedAndEveryRowComesOnce() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("pager")
            for index in 0..<5 {
                _ = try await client.send(.post, "/api/v2/todos-json", headers: account.bearer.with(.contentType, "application/json"), body: #"{"title": "todo \#(index)"}"#)
            }
            var export = AccountExport(executor: database.executor, images: DatabaseImageStorage(executor: database.executor), clock: .system)
            export.pageSize = 2
            let found = try #require(try await SQLAccountRepository(executor: database.executor).find(id: account.id))
            var writer: any ResponseBodyWriter = CollectingWriter()
            try await export.write(found, to: &writer)
            let files = try Self.untar((writer as! CollectingWriter).bytes)
            let pages = files.keys.filter { $0.hasPrefix("todos/") }.sorted()
            #expect(pages == ["todos/page-0001.json", "todos/page-0002.json", "todos/page-0003.json"])
            let titles = try pages.flatMap { try Self.array(files, $0) }.compactMap { $0["title"] as? String }
            #expect(titles == (0..<5).map { "todo \($0)" })
        }
    }

    @Test func oneExportOfAnAccountAtATimeAndTenAnHour() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("hoarder")
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<11 { statuses.append(try await client.raw(.get, "/users/me/export", headers: account.bearer).status) }
            #expect(statuses == Array(repeating: .ok, count: 10) + [.tooManyRequests])
        }
    }

    // MARK: - Reading the archive

    /// The files of a ustar archive by name; fails on anything but regular files and a proper end.
    static func untar(_ bytes: [UInt8]) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        var offset = 0
        while offset + 512 <= bytes.count {
            let header = Array(bytes[offset..<offset + 512])
            if header.allSatisfy({ $0 == 0 }) { return files }
            let text = { (range: Range<Int>) in String(decoding: header[range].prefix { $0 != 0 }, as: UTF8.self) }
            let name = text(345..<500).isEmpty ? text(0..<100) : text(345..<500) + "/" + text(0..<100)
            let size = try #require(Int(text(124..<136).trimmingCharacters(in: .whitespaces), radix: 8))
            #expect(header[156] == UInt8(ascii: "0"))
            files[name] = Array(bytes[offset + 512..<offset + 512 + size])
            offset += 512 + (size + 511) / 512 * 512
        }
        throw TestFailure("the archive has no end")
    }

    static func json(_ files: [String: [UInt8]], _ name: String) throws -> [String: Any] {
        let bytes = try #require(files[name], "no \(name)")
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static func array(_ files: [String: [UInt8]], _ name: String) throws -> [[String: Any]] {
        let bytes = try #require(files[name], "no \(name)")
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
    }
}

/// A response body kept in memory.
struct CollectingWriter: ResponseBodyWriter {
    var bytes: [UInt8] = []

    mutating func write(_ buffer: ByteBuffer) async throws {
        bytes += buffer.readableBytesView
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
