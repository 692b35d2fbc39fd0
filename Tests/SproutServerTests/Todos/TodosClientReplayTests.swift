import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import SproutServer

/// The requests real clients send, byte for byte where it matters.
@Suite struct TodosClientReplayTests {
    /// REST_TODO's `POST /todos-json` may reach the server without its declared headers: URLSession then labels
    /// the JSON body `application/x-www-form-urlencoded`, or it arrives with no Content-Type at all.
    @Test func restTodoJSONCreateIsReadWithoutOrWithAWrongContentType() async throws {
        try await withTestApp { client, _ in
            let body = #"{"title":"Hello World from REST_TODO","is_done":false}"#
            let unlabelled = try await client.send(.post, "/api/v2/todos-json", body: body)
            #expect(unlabelled.status == .ok)
            #expect(unlabelled.json?["data"]?["title"] == .string("Hello World from REST_TODO"))
            let mislabelled = try await client.sendForm(.post, "/api/v2/todos-json", body)
            #expect(mislabelled.status == .ok)
            #expect(mislabelled.json?["data"]?["is_done"] == .bool(false))
        }
    }

    /// REST_TODO's PUT: `percentEncodeParameters` keeps alphanumerics and `-._* `, turns spaces into `+`.
    @Test func restTodoURLEncodedPutWithPlusForSpaces() async throws {
        try await withTestApp { client, _ in
            let id = try await client.createTodo("운동 30분 하기")
            let body = "title=%EC%9A%B4%EB%8F%99+1%EC%8B%9C%EA%B0%84+%ED%95%98%EA%B8%B0&is_done=true"
            let response = try await client.send(.put, "/api/v2/todos/\(id)", body: body)
            #expect(response.status == .ok)
            #expect(response.json?["data"]?["title"] == .string("운동 1시간 하기"))
            #expect(response.json?["data"]?["is_done"] == .bool(true))
        }
    }

    /// REST_TODO never reads `meta`: it requests `page+1` on every scroll, past the last page.
    @Test func endlessScrollingPastTheLastPageKeepsAnswering200() async throws {
        try await withTestApp { client, _ in
            for number in 1...12 { try await client.createTodo("scrolling todo \(number)") }
            var seen: [Int] = []
            for page in 1...5 {
                let response = try await client.send(.get, "/api/v2/todos?page=\(page)&filter=created_at&order_by=desc&per_page=10")
                #expect(response.status == .ok)
                seen += response.json?["data"]?.array?.compactMap { $0["id"]?.int } ?? []
            }
            #expect(seen.count == 12)
            #expect(Set(seen).count == 12)
            #expect(seen == seen.sorted(by: >))
        }
    }

    /// "Hide completed" is the same list call with `is_done=false`.
    @Test func restTodoHideCompletedScrolling() async throws {
        try await withTestApp { client, _ in
            for number in 1...15 { try await client.createTodo("hide completed \(number)", isDone: number % 2 == 0) }
            let page1 = try await client.send(.get, "/api/v2/todos?page=1&filter=created_at&order_by=desc&per_page=10&is_done=false").json
            let page2 = try await client.send(.get, "/api/v2/todos?page=2&filter=created_at&order_by=desc&per_page=10&is_done=false").json
            #expect(page1?["data"]?.array?.count == 8)
            #expect(page2?["data"]?.array?.count == 0)
            #expect(page1?["data"]?.array?.allSatisfy { $0["is_done"] == .bool(false) } == true)
        }
    }

    /// A PUT with no field the API knows changes nothing and still answers 200, as the original did.
    @Test func putWithNoKnownFieldIsANoOp() async throws {
        let time = TestWallClock()
        try await withTestApp(clock: time.clock) { client, _ in
            let id = try await client.createTodo("stays exactly the same")
            time.advance(by: 60)
            let before = try await client.send(.get, "/api/v2/todos/\(id)").json?["data"]
            let response = try await client.sendForm(.put, "/api/v2/todos/\(id)", "colour=blue")
            #expect(response.status == .ok)
            #expect(response.json?["data"] == before)
            let empty = try await client.send(.put, "/api/v2/todos/\(id)")
            #expect(empty.status == .ok)
            #expect(empty.json?["data"] == before)
        }
    }

    /// A multipart form with no parts is only its closing delimiter; like any body with no known field, a no-op.
    @Test func emptyMultipartPutIsANoOp() async throws {
        try await withTestApp { client, _ in
            let id = try await client.createTodo("untouched by empty form")
            let response = try await client.send(
                .put, "/api/v2/todos/\(id)", headers: [.contentType: "multipart/form-data; boundary=B"], body: "--B--\r\n"
            )
            #expect(response.status == .ok)
            #expect(response.json?["data"]?["title"] == .string("untouched by empty form"))
        }
    }

    /// JSON written by tools that start UTF-8 with a byte order mark, sent without a Content-Type.
    @Test func jsonWithAByteOrderMarkIsStillJSON() async throws {
        try await withTestApp { client, _ in
            let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"title": "BOM prefixed todo"}"#.utf8)
            let status = try await client.execute(uri: "/api/v2/todos-json", method: .post, body: ByteBuffer(bytes: bytes)) { $0.status }
            #expect(status == .ok)
            #expect(try await client.send(.get, "/api/v2/todos").json?["data"]?[0]?["title"] == .string("BOM prefixed todo"))
        }
    }

    @Test func updatedAtMovesOnlyWhenSomethingChanged() async throws {
        let time = TestWallClock()
        try await withTestApp(clock: time.clock) { client, _ in
            let id = try await client.createTodo("timestamps matter")
            time.advance(by: 60)
            let before = try #require(try await client.send(.get, "/api/v2/todos/\(id)").json?["data"])
            let same = try await client.sendJSON(.post, "/api/v2/todos-json/\(id)", #"{"title": "timestamps matter", "is_done": false}"#)
            #expect(same.json?["data"]?["updated_at"] == before["updated_at"])
            let changed = try await client.sendJSON(.post, "/api/v2/todos-json/\(id)", #"{"is_done": true}"#)
            #expect(changed.json?["data"]?["updated_at"] != before["updated_at"])
            #expect(changed.json?["data"]?["created_at"] == before["created_at"])
            #expect(changed.json?["data"]?["title"] == .string("timestamps matter"))
        }
    }

    /// The Swagger curls send `accept: application/json` and an `X-CSRF-TOKEN` the server ignores.
    @Test func swaggerCurlHeadersAreHarmless() async throws {
        try await withTestApp { client, _ in
            let response = try await client.sendMultipart(.post, "/api/v2/todos", fields: [("title", "swagger made this"), ("is_done", "true")])
            #expect(response.status == .ok)
            let list = try await client.send(.get, "/api/v2/todos?page=1&filter=created_at&order_by=desc&per_page=10",
                                             headers: [.accept: "application/json", HTTPField.Name("X-CSRF-TOKEN")!: "anything"])
            #expect(list.status == .ok)
            #expect(list.json?["data"]?[0]?["is_done"] == .bool(true))
        }
    }
}
