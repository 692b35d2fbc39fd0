import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import SproutServer

/// Bad input gets the contract's error — never a 500, never a half-written row.
@Suite struct TodosValidationTests {
    static let badTitles: [(label: String, json: String)] = [
        ("missing", #"{"is_done": false}"#),
        ("empty", #"{"title": ""}"#),
        ("short", #"{"title": "short"}"#),
        ("short after trimming", #"{"title": "   abc    "}"#),
        ("null", #"{"title": null}"#),
        ("boolean", #"{"title": true}"#),
        ("array", #"{"title": ["a title that is long"]}"#),
        ("too long", #"{"title": "\#(String(repeating: "가", count: 256))"}"#),
    ]

    @Test(arguments: badTitles.map(\.label))
    func createWithABadTitleAnswers422WithTitleErrors(label: String) async throws {
        let body = try #require(Self.badTitles.first { $0.label == label }).json
        try await withTestApp { client, database in
            for path in ["/api/v2/todos-json", "/api/v2/todos"] {
                let response = try await client.sendJSON(.post, path, body)
                #expect(response.status == .unprocessableContent, "\(label) on \(path)")
                let json = try #require(response.json)
                #expect(json.keys == ["message", "errors"])
                #expect(json["errors"]?["title"]?.array?.isEmpty == false)
                #expect(json["message"]?.string?.isEmpty == false)
            }
            #expect(try await database.todoCount() == 0)
        }
    }

    @Test func titleOfExactly255CharactersAndOf6AreAccepted() async throws {
        try await withTestApp { client, _ in
            let longest = String(repeating: "가", count: 255)
            let longestResponse = try await client.sendJSON(.post, "/api/v2/todos-json", #"{"title": "\#(longest)"}"#)
            #expect(longestResponse.status == .ok)
            let shortest = try await client.sendJSON(.post, "/api/v2/todos-json", #"{"title": "  여섯글자제목  "}"#)
            #expect(shortest.json?["data"]?["title"] == .string("여섯글자제목"))
        }
    }

    @Test func invalidIsDoneAnswers422WithIsDoneErrors() async throws {
        try await withTestApp { client, database in
            let create = try await client.sendJSON(.post, "/api/v2/todos-json", #"{"title": "a valid title", "is_done": "maybe"}"#)
            #expect(create.status == .unprocessableContent)
            #expect(create.json?["errors"]?["is_done"] != nil)
            #expect(try await database.todoCount() == 0)
            let id = try await client.createTodo("a valid title")
            let update = try await client.sendJSON(.post, "/api/v2/todos-json/\(id)", #"{"title": "changed title", "is_done": 7}"#)
            #expect(update.status == .unprocessableContent)
            #expect(update.json?["errors"]?["is_done"] != nil)
            // Nothing half-applied: the valid title in the same request was not saved.
            #expect(try await client.send(.get, "/api/v2/todos/\(id)").json?["data"]?["title"] == .string("a valid title"))
        }
    }

    @Test func bothBadFieldsAreReportedTogether() async throws {
        try await withTestApp { client, _ in
            let response = try await client.sendJSON(.post, "/api/v2/todos-json", #"{"title": "abc", "is_done": "nope"}"#)
            #expect(response.status == .unprocessableContent)
            #expect(response.json?["errors"]?.keys == ["title", "is_done"])
        }
    }

    @Test func updateWithAShortTitleIsRefusedAndLeavesTheTodoAlone() async throws {
        try await withTestApp { client, _ in
            let id = try await client.createTodo("original title")
            let response = try await client.sendForm(.put, "/api/v2/todos/\(id)", "title=abc&is_done=true")
            #expect(response.status == .unprocessableContent)
            #expect(response.json?["errors"]?["title"] != nil)
            let todo = try await client.send(.get, "/api/v2/todos/\(id)").json?["data"]
            #expect(todo?["title"] == .string("original title"))
            #expect(todo?["is_done"] == .bool(false))
        }
    }

    @Test(arguments: ["per_page=abc", "page=abc", "page=1.5", "filter=title", "order_by=sideways", "is_done=perhaps"])
    func badListParametersAnswer422NamingTheParameter(query: String) async throws {
        try await withTestApp { client, _ in
            let response = try await client.send(.get, "/api/v2/todos?\(query)")
            #expect(response.status == .unprocessableContent)
            let field = String(query.prefix { $0 != "=" })
            #expect(response.json?["errors"]?[field] != nil, "\(query): \(String(describing: response.json))")
        }
    }

    @Test(arguments: ["", "?query=", "?query=%20%20", "?page=1"])
    func searchWithoutAQueryAnswers422(suffix: String) async throws {
        try await withTestApp { client, _ in
            let response = try await client.send(.get, "/api/v2/todos/search\(suffix)")
            #expect(response.status == .unprocessableContent)
            #expect(response.json?["errors"]?["query"] != nil)
        }
    }

    @Test(arguments: [#"{"title": "unterminated"#, #"{"title": 'single quotes'}"#, "{", #"{"title" "no colon here"}"#])
    func malformedJSONAnswers400WithAMessage(body: String) async throws {
        try await withTestApp { client, database in
            let response = try await client.sendJSON(.post, "/api/v2/todos-json", body)
            #expect(response.status == .badRequest)
            #expect(response.json?.keys == ["message"])
            #expect(try await database.todoCount() == 0)
        }
    }

    @Test func jsonThatIsNotAnObjectAnswers400() async throws {
        try await withTestApp { client, _ in
            let response = try await client.sendJSON(.post, "/api/v2/todos-json", #"["a title that is long"]"#)
            #expect(response.status == .badRequest)
        }
    }

    @Test func bodyOverTheSizeLimitAnswers413() async throws {
        try await withTestApp(configure: { $0.server.maxRequestBodySize = 1024 }) { client, database in
            let title = String(repeating: "x", count: 2000)
            let response = try await client.sendJSON(.post, "/api/v2/todos-json", #"{"title": "\#(title)"}"#)
            #expect(response.status == .contentTooLarge)
            #expect(response.json?["message"]?.string != nil)
            #expect(try await database.todoCount() == 0)
        }
    }

    @Test func invalidUTF8IsRefusedNotStored() async throws {
        try await withTestApp { client, database in
            // %FF%FE is not UTF-8 once percent-decoded.
            let form = try await client.sendForm(.post, "/api/v2/todos", "title=%FF%FE%FF%FE%FF%FE%FF")
            #expect(form.status == .unprocessableContent)
            #expect(form.json?["errors"]?["title"] != nil)
            // Raw invalid bytes inside a JSON body.
            var bytes = Array(#"{"title": "abcdef"#.utf8)
            bytes += [0xFF, 0xFE]
            bytes += Array(#""}"#.utf8)
            let json = try await client.execute(
                uri: "/api/v2/todos-json", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(bytes: bytes)
            ) { $0.status }
            #expect(json == .badRequest)
            #expect(try await database.todoCount() == 0)
        }
    }

    /// PostgreSQL cannot store NUL characters: they must be refused as input, not reach the database as a 500.
    @Test func nulCharactersAreRefusedNotAServerError() async throws {
        try await withTestApp { client, database in
            let form = try await client.sendForm(.post, "/api/v2/todos", "title=abc%00defgh")
            #expect(form.status == .unprocessableContent)
            #expect(form.json?["errors"]?["title"] != nil)
            let json = try await client.sendJSON(.post, "/api/v2/todos-json", #"{"title": "abc\u0000defgh"}"#)
            #expect(json.status == .unprocessableContent)
            let search = try await client.send(.get, "/api/v2/todos/search?query=a%00b")
            #expect(search.status == .unprocessableContent)
            #expect(search.json?["errors"]?["query"] != nil)
            #expect(try await database.todoCount() == 0)
        }
    }

    @Test func nullOrEmptyIsDoneInABodyIsRefusedButAnEmptyFilterIsNoFilter() async throws {
        try await withTestApp { client, database in
            let null = try await client.sendJSON(.post, "/api/v2/todos-json", #"{"title": "valid title here", "is_done": null}"#)
            #expect(null.status == .unprocessableContent)
            #expect(null.json?["errors"]?["is_done"] != nil)
            let empty = try await client.sendForm(.post, "/api/v2/todos", "title=valid+title+here&is_done=")
            #expect(empty.status == .unprocessableContent)
            #expect(try await database.todoCount() == 0)
            try await client.createTodo("one open todo", isDone: false)
            try await client.createTodo("one done todo", isDone: true)
            let list = try await client.send(.get, "/api/v2/todos?is_done=")
            #expect(list.status == .ok)
            #expect(list.json?["meta"]?["total"] == .number(2))
        }
    }

    @Test func malformedMultipartAnswers400() async throws {
        try await withTestApp { client, _ in
            let response = try await client.send(
                .post, "/api/v2/todos",
                headers: [.contentType: "multipart/form-data; boundary=XYZ"],
                body: "this is not multipart at all"
            )
            #expect(response.status == .badRequest)
        }
    }
}
