import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import SproutServer

/// Each endpoint's exact JSON (keys, JSON types, status codes) against the captured Laravel responses.
@Suite struct TodosContractTests {
    static var laravelTimestamp: Regex<Substring> { /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/ }

    @Test func showMatchesTheCapturedResponseShape() async throws {
        let captured = try Fixture.json("todo/v2-todos-show-4698.captured.json")
        try await withTestApp { client, _ in
            let id = try await client.createTodo("73. 최고에 도달하려면 최저에서 시작하라. -P.시루스", isDone: true)
            let response = try await client.send(.get, "/api/v2/todos/\(id)", headers: [.accept: "application/json"])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            let json = try #require(response.json)
            #expect(json.shape == captured.shape)
            #expect(json["message"] == captured["message"])
            #expect(json["data"]?["title"] == captured["data"]?["title"])
            #expect(json["data"]?["is_done"] == .bool(true))
            for key in ["created_at", "updated_at"] {
                let stamp = try #require(json["data"]?[key]?.string)
                #expect(stamp.wholeMatch(of: Self.laravelTimestamp) != nil, "\(key) = \(stamp)")
                #expect(stamp.hasSuffix(".000000Z"))
            }
        }
    }

    @Test func listEnvelopeMatchesTheLaravelPaginatorShape() async throws {
        let example = try Fixture.json("todo/v2-mocks-list.example.json")
        try await withTestApp { client, _ in
            try await client.createTodo("첫 번째 할일입니다")
            let response = try await client.send(.get, "/api/v2/todos?page=1&filter=created_at&order_by=desc&per_page=10")
            #expect(response.status == .ok)
            let json = try #require(response.json)
            #expect(json.keys == example.keys)
            #expect(json["meta"]?.shape == example["meta"]?.shape)
            #expect(json["message"]?.string?.isEmpty == false)
            let item = try #require(json["data"]?[0])
            #expect(item.keys == ["id", "title", "is_done", "created_at", "updated_at"])
            #expect(item.shape == (try Fixture.json("todo/v2-todos-show-4698.captured.json"))["data"]?.shape)
        }
    }

    @Test func createAnswers200WithTheSingleEnvelope() async throws {
        try await withTestApp { client, _ in
            let response = try await client.sendJSON(.post, "/api/v2/todos-json", #"{"title": "Hello World", "is_done": false}"#)
            #expect(response.status == .ok)
            let json = try #require(response.json)
            #expect(json.keys == ["data", "message"])
            #expect(json["data"]?["title"] == .string("Hello World"))
            #expect(json["data"]?["is_done"] == .bool(false))
            #expect(json["data"]?["created_at"] == json["data"]?["updated_at"])
            #expect(json["data"]?["id"]?.int != nil)
        }
    }

    @Test func createByMultipartFormAsInTheSwaggerExample() async throws {
        try await withTestApp { client, _ in
            let response = try await client.sendMultipart(.post, "/api/v2/todos", fields: [("title", "난나나나나나나나나나난"), ("is_done", "false")])
            #expect(response.status == .ok)
            #expect(response.json?["data"]?["title"] == .string("난나나나나나나나나나난"))
            #expect(response.json?["data"]?["is_done"] == .bool(false))
        }
    }

    @Test func createByURLEncodedFormAndByJSONOnTheFormEndpoint() async throws {
        try await withTestApp { client, _ in
            let form = try await client.sendForm(.post, "/api/v2/todos", "title=%EC%9A%B4%EB%8F%99+30%EB%B6%84+%ED%95%98%EA%B8%B0&is_done=true")
            #expect(form.status == .ok)
            #expect(form.json?["data"]?["title"] == .string("운동 30분 하기"))
            #expect(form.json?["data"]?["is_done"] == .bool(true))
            let json = try await client.sendJSON(.post, "/api/v2/todos", #"{"title": "Android client todo", "is_done": true}"#)
            #expect(json.status == .ok)
            #expect(json.json?["data"]?["is_done"] == .bool(true))
        }
    }

    @Test func updateByPutReturnsTheUpdatedTodo() async throws {
        try await withTestApp { client, _ in
            let id = try await client.createTodo("Don't open dead inside")
            let response = try await client.sendForm(.put, "/api/v2/todos/\(id)", "title=Don't%20open%20dead%20inside!&is_done=true")
            #expect(response.status == .ok)
            #expect(response.json?.keys == ["data", "message"])
            #expect(response.json?["data"]?["id"]?.int == id)
            #expect(response.json?["data"]?["title"] == .string("Don't open dead inside!"))
            #expect(response.json?["data"]?["is_done"] == .bool(true))
        }
    }

    @Test func updateByPostToTodosJSONWithStringBoolean() async throws {
        try await withTestApp { client, _ in
            let id = try await client.createTodo("tutorial style todo")
            let response = try await client.sendJSON(.post, "/api/v2/todos-json/\(id)", #"{"title": "tutorial style edit", "is_done": "true"}"#)
            #expect(response.status == .ok)
            #expect(response.json?["data"]?["title"] == .string("tutorial style edit"))
            #expect(response.json?["data"]?["is_done"] == .bool(true))
        }
    }

    @Test func deleteAnswers200WithTheDeletedTodoAndTheTodoIsGone() async throws {
        try await withTestApp { client, _ in
            let id = try await client.createTodo("to be deleted soon")
            let response = try await client.send(.delete, "/api/v2/todos/\(id)")
            #expect(response.status == .ok)
            #expect(response.json?["data"]?["id"]?.int == id)
            #expect(response.json?["data"]?["title"] == .string("to be deleted soon"))
            let again = try await client.send(.get, "/api/v2/todos/\(id)")
            #expect(again.status == .notFound)
            #expect(try await client.send(.delete, "/api/v2/todos/\(id)").status == .notFound)
        }
    }

    @Test(arguments: ["/api/v2/todos/999999", "/api/v2/todos/abc", "/api/v2/todos/0", "/api/v2/todos/-3", "/api/v2/todos/99999999999999999999999"])
    func unknownOrMalformedIdAnswers404WithAMessage(path: String) async throws {
        try await withTestApp { client, _ in
            for method in [HTTPRequest.Method.get, .delete] {
                let response = try await client.send(method, path)
                #expect(response.status == .notFound)
                #expect(response.json?.keys == ["message"])
            }
            let put = try await client.sendForm(.put, path, "title=whatever+title")
            #expect(put.status == .notFound)
            let post = try await client.sendJSON(.post, path.replacingOccurrences(of: "/todos/", with: "/todos-json/"), #"{"title":"whatever title"}"#)
            #expect(post.status == .notFound)
        }
    }

    /// Laravel's MySQL ids never come back after a delete; clients key local data (stars) by id.
    @Test func deletedIdsAreNeverReused() async throws {
        try await withTestApp { client, _ in
            let first = try await client.createTodo("the newest todo yet")
            #expect(try await client.send(.delete, "/api/v2/todos/\(first)").status == .ok)
            let second = try await client.createTodo("a todo made after the delete")
            #expect(second > first)
        }
    }

    @Test func versionOneServesTheSameDataAsVersionTwo() async throws {
        try await withTestApp { client, _ in
            let id = try await client.createTodo("made through version one", version: "v1")
            let viaV2 = try await client.send(.get, "/api/v2/todos/\(id)")
            #expect(viaV2.status == .ok)
            let viaV1List = try await client.send(.get, "/api/v1/todos")
            #expect(viaV1List.json?["data"]?[0]?["id"]?.int == id)
            let deleted = try await client.send(.delete, "/api/v1/todos/\(id)")
            #expect(deleted.status == .ok)
            #expect(try await client.send(.get, "/api/v2/todos/\(id)").status == .notFound)
        }
    }

    @Test func unknownRouteAnswersJSON404() async throws {
        try await withTestApp { client, _ in
            let response = try await client.send(.get, "/api/v2/nothing-here")
            #expect(response.status == .notFound)
            #expect(response.json?["message"]?.string != nil)
        }
    }
}
