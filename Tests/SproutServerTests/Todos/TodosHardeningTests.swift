import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import SproutServer

/// Input that once slipped past the todos API's checks.
@Suite struct TodosHardeningTests {
    @Test func aNumericTitleKeepsEveryDigit() async throws {
        try await withTestApp { client, _ in
            let response = try await client.sendJSON(.post, "/api/v2/todos-json", #"{"title": 12345678901234567}"#)
            #expect(response.status == .ok)
            #expect(response.json?["data"]?["title"] == .string("12345678901234567"))
        }
    }

    @Test func theLastOfDuplicateJSONKeysWinsAsInForms() async throws {
        try await withTestApp { client, _ in
            let json = try await client.sendJSON(.post, "/api/v2/todos-json", #"{"title": "the first title", "title": "the second title"}"#)
            #expect(json.json?["data"]?["title"] == .string("the second title"))
            let form = try await client.sendForm(.post, "/api/v2/todos", "title=the+first+title&title=the+second+title")
            #expect(form.json?["data"]?["title"] == .string("the second title"))
        }
    }

    /// PHP's `max_input_vars`: a body of tens of thousands of tiny fields is refused before it is all read.
    @Test func aBodyWithMoreThanAThousandFieldsAnswers400InEveryEncoding() async throws {
        try await withTestApp { client, database in
            let names = (0..<FormFields.maximumCount).map { "f\($0)" }
            let json = "{" + (["\"title\": \"a fine title\""] + names.dropFirst().map { "\"\($0)\": 1" }).joined(separator: ",") + "}"
            #expect(try await client.sendJSON(.post, "/api/v2/todos-json", json).status == .ok)
            let tooMany = String(json.dropLast()) + #", "one more": 1}"#
            let refused = try await client.sendJSON(.post, "/api/v2/todos-json", tooMany)
            #expect(refused.status == .badRequest)
            #expect(refused.json?["message"]?.string?.contains("1000") == true)
            let form = "title=a+fine+title&" + names.map { "\($0)=1" }.joined(separator: "&")
            #expect(try await client.sendForm(.post, "/api/v2/todos", form).status == .badRequest)
            let parts = [("title", "a fine title")] + names.map { ($0, "1") }
            #expect(try await client.sendMultipart(.post, "/api/v2/todos", fields: parts).status == .badRequest)
            #expect(try await database.todoCount() == 1)
        }
    }

    @Test func deeplyNestedValuesAreStillOnlyNotedAsNotText() async throws {
        try await withTestApp { client, database in
            let nested = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
            let response = try await client.sendJSON(.post, "/api/v2/todos-json", #"{"title": \#(nested)}"#)
            #expect(response.status == .unprocessableContent)
            #expect(response.json?["errors"]?["title"] != nil)
            let tooDeep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
            let refused = try await client.sendJSON(.post, "/api/v2/todos-json", #"{"title": "a fine title", "x": \#(tooDeep)}"#)
            #expect(refused.status == .badRequest)
            #expect(try await database.todoCount() == 0)
        }
    }

    /// A multipart body cut off before its closing delimiter used to be accepted without its last part, so an
    /// invalid `is_done` in that part vanished and the todo was written.
    @Test func aTruncatedMultipartBodyAnswers400AndWritesNothing() async throws {
        try await withTestApp { client, database in
            let body = "--XYZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\na complete title\r\n"
                + "--XYZ\r\nContent-Disposition: form-data; name=\"is_done\"\r\n\r\nmay"
            let response = try await client.send(
                .post, "/api/v2/todos", headers: [.contentType: "multipart/form-data; boundary=XYZ"], body: body
            )
            #expect(response.status == .badRequest)
            #expect(try await database.todoCount() == 0)
            let complete = try await client.send(
                .post, "/api/v2/todos", headers: [.contentType: "multipart/form-data; boundary=XYZ"], body: body + "be\r\n--XYZ--\r\n"
            )
            #expect(complete.status == .unprocessableContent)
            #expect(complete.json?["errors"]?["is_done"] != nil)
        }
    }

    /// Found by the API fuzzer: MultipartKit trapped on a non-ASCII byte in a part's header name, stopping the
    /// whole server.
    @Test func aMultipartHeaderNameWithNonASCIIBytesAnswers400AndTheServerGoesOn() async throws {
        try await withTestApp { client, _ in
            let body = "--XYZ\r\nContent-Disposition: form-data; name=\"title\"\r\nÄ\u{8E}: x\r\n\r\na complete title\r\n--XYZ--\r\n"
            let response = try await client.send(
                .post, "/api/v2/todos", headers: [.contentType: "multipart/form-data; boundary=XYZ"], body: body
            )
            #expect(response.status == .badRequest)
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }

    @Test(arguments: ["%FF%FE", "abc%00def", "%C3"])
    func aSearchQueryThatIsNotTextAnswers422(query: String) async throws {
        try await withTestApp { client, _ in
            let response = try await client.send(.get, "/api/v2/todos/search?query=\(query)")
            #expect(response.status == .unprocessableContent)
            #expect(response.json?["errors"]?["query"] != nil)
        }
    }

    @Test func aQueryLongerThanAnyTitleCanBeFindsNothing() async throws {
        try await withTestApp { client, _ in
            let title = String(repeating: "a", count: 255)
            try await client.createTodo(title)
            let longest = try await client.send(.get, "/api/v2/todos/search?query=\(title)")
            #expect(longest.json?["meta"]?["total"] == .number(1))
            let tooLong = String(repeating: "a", count: 255 * 3 + 1)
            let response = try await client.send(.get, "/api/v2/todos/search?query=\(tooLong)")
            #expect(response.status == .ok)
            #expect(response.json?["data"] == .array([]))
            #expect(response.json?["meta"]?["total"] == .number(0))
            #expect(response.json?["meta"]?["from"] == .null)
        }
    }

    /// The controller answers such a query itself: the repository is never asked.
    @Test func aQueryLongerThanAnyTitleCostsNoQuery() async throws {
        let repository = RecordingTodoRepository()
        // No `CallerMiddleware`: every caller is anonymous, and no accounts database is needed.
        let router = Router(context: SproutRequestContext.self)
        router.addRoutes(TodosController(repository: repository, maxBodySize: 1 << 20).endpoints, atPath: "/api/v2")
        try await Application(router: router).test(.router) { client in
            let long = String(repeating: "가", count: 766)
            let tooLong = try await client.send(.get, "/api/v2/todos/search?query=\(long)")
            #expect(tooLong.status == .ok)
            #expect(repository.pageRequests.isEmpty)
            _ = try await client.send(.get, "/api/v2/todos/search?query=\(long.dropLast())")
            #expect(repository.pageRequests.count == 1)
        }
    }

    @Test func searchCanMatchCountsFoldedCodePoints() {
        #expect(TodoInput.searchCanMatch(String(repeating: "a", count: 765)))
        #expect(!TodoInput.searchCanMatch(String(repeating: "a", count: 766)))
        // NFD Hangul composes to a third of its code points before it is compared.
        let decomposed = String(repeating: "가", count: 300).decomposedStringWithCanonicalMapping
        #expect(decomposed.unicodeScalars.count == 600)
        #expect(TodoInput.searchCanMatch(decomposed))
    }
}

/// Answers every call with nothing, and remembers the page requests it was asked.
final class RecordingTodoRepository: TodoRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [TodoPageRequest] = []
    var pageRequests: [TodoPageRequest] { lock.withLock { requests } }

    func page(_ request: TodoPageRequest, owner: TodoOwner) async throws -> TodoPage {
        lock.withLock { requests.append(request) }
        return TodoPage(todos: [], total: 0)
    }
    func find(id: Int, owner: TodoOwner) async throws -> Todo? { nil }
    func create(title: String, isDone: Bool, owner: TodoOwner, at now: Date) async throws -> Todo {
        Todo(id: 1, title: title, isDone: isDone, createdAt: now, updatedAt: now)
    }
    func update(id: Int, with changes: TodoChanges, owner: TodoOwner, at now: Date) async throws -> Todo? { nil }
    func delete(id: Int, owner: TodoOwner) async throws -> Todo? { nil }
}
