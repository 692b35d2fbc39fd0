import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import SproutServer

/// The published OpenAPI document and the router describe the same API.
@Suite struct OpenAPIDocumentTests {
    /// Routes that are pages for people (and the JSON only their scripts use), not API operations.
    static func isAPI(_ path: String) -> Bool {
        !(BrowserRoutes.contains(path) || path == "/openapi.json")
    }

    func document() async throws -> JSON {
        try await withTestApp { client, _ in
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                return try JSON(parsing: response.body)
            }
        }
    }

    @Test func everyAPIRouteIsDocumentedAndEveryDocumentedOperationIsRouted() async throws {
        let document = try await document()
        #expect(document["openapi"] == .string("3.1.0"))
        let paths = try #require(document["paths"]?.object)
        let routed = try await withTestApp { _, database in
            buildRouter(SproutConfiguration(), database: database, logger: Logger(label: "test")).routes
                .filter { $0.method != .head && Self.isAPI($0.path.description) }
                .map { "\($0.method.rawValue.lowercased()) \($0.path.description)" }
        }
        var documented: [String] = []
        for (path, item) in paths {
            for method in ["get", "put", "post", "delete", "patch"] where item[method] != nil {
                documented.append("\(method) \(path)")
            }
        }
        #expect(Set(routed) == Set(documented), "routed but not documented: \(Set(routed).subtracting(documented)); documented but not routed: \(Set(documented).subtracting(routed))")
        #expect(routed.count == Set(routed).count)
    }

    @Test func everyOperationHasAnIDAndItsErrorAnswers() async throws {
        let paths = try #require(try await document()["paths"]?.object)
        var ids: Set<String> = []
        for (path, item) in paths {
            for method in ["get", "put", "post", "patch", "delete"] {
                guard let operation = item[method] else { continue }
                let id = try #require(operation["operationId"]?.string, "\(method) \(path)")
                #expect(ids.insert(id).inserted, "operationId \(id) is used twice")
                let statuses = try #require(operation["responses"]?.keys)
                // A success: a 2xx, or the redirect that ends a link followed in a browser (email confirmation).
                #expect(statuses.contains { $0.hasPrefix("2") || $0 == "302" }, "\(method) \(path)")
                if path.contains("{id}") { #expect(statuses.contains("404"), "\(method) \(path)") }
                if operation["requestBody"] != nil {
                    // Laravel answers invalid input with 422; Strapi answers every input error with 400.
                    // A streamed upload (the market's register) bounds each part instead of the body: no 413.
                    let laravel = operation["tags"]?.array?.contains(.string("Todos")) == true
                    let streamed = operation["requestBody"]?["content"]?.keys == ["multipart/form-data"]
                    let expected: Set<String> = laravel ? ["400", "413", "422"] : streamed ? ["400"] : ["400", "413"]
                    #expect(statuses.isSuperset(of: expected), "\(method) \(path)")
                }
            }
        }
    }
}
