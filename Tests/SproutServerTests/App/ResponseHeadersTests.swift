import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import SproutServer

/// Headers that browsers and caches rely on: `nosniff` everywhere, `Referrer-Policy` on pages, ETags with 304
/// on static files, and HEAD wherever GET works.
@Suite struct ResponseHeadersTests {
    struct Answer: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: ByteBuffer
    }

    func request(_ method: HTTPRequest.Method, _ paths: [String], headers: HTTPFields = [:]) async throws -> [Answer] {
        try await withTestApp { client, _ in
            var answers: [Answer] = []
            for path in paths {
                answers.append(try await client.execute(uri: path, method: method, headers: headers) {
                    Answer(status: $0.status, headers: $0.headers, body: $0.body)
                })
            }
            return answers
        }
    }

    @Test func everyAnswerAPIErrorsAndUnknownPathsIncludedSaysNosniff() async throws {
        let paths = ["/api/v2/todos", "/api/v2/todos/999", "/api/v2/todos/search", "/health", "/no/such/path", "/", "/static/app.css"]
        for (path, answer) in zip(paths, try await request(.get, paths)) {
            #expect(answer.headers[.xContentTypeOptions] == "nosniff", "\(path) answered \(answer.status)")
        }
    }

    @Test func pagesSendNoReferrerToOtherSites() async throws {
        for answer in try await request(.get, ["/", "/todos", "/board"]) {
            #expect(answer.headers[.referrerPolicy] == "same-origin")
        }
    }

    @Test func headAnswersForPagesFilesAndTheAPIWithGETsHeadersAndNoBody() async throws {
        let paths = ["/", "/todos", "/static/app.css", "/static/todos.js", "/api/v2/todos", "/health"]
        let gets = try await request(.get, paths)
        let heads = try await request(.head, paths)
        for (path, (get, head)) in zip(paths, zip(gets, heads)) {
            #expect(head.status == .ok, "HEAD \(path)")
            #expect(head.body.readableBytes == 0, "HEAD \(path)")
            #expect(head.headers[.contentType] == get.headers[.contentType], "HEAD \(path)")
            #expect(head.headers[.contentLength] == String(get.body.readableBytes), "HEAD \(path)")
        }
        #expect(try await request(.head, ["/static/missing.css"]).first?.status == .notFound)
    }

    @Test func staticFilesCarryAnETagAndRevalidateWith304() async throws {
        let first = try #require(try await request(.get, ["/static/app.css"]).first)
        let etag = try #require(first.headers[.eTag])
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
        let other = try #require(try await request(.get, ["/static/todos.js"]).first?.headers[.eTag])
        #expect(other != etag)
        for candidates in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
            let revalidated = try #require(try await request(.get, ["/static/app.css"], headers: [.ifNoneMatch: candidates]).first)
            #expect(revalidated.status == .notModified, "If-None-Match: \(candidates)")
            #expect(revalidated.body.readableBytes == 0)
            #expect(revalidated.headers[.eTag] == etag)
        }
        let changed = try #require(try await request(.get, ["/static/app.css"], headers: [.ifNoneMatch: "\"stale\""]).first)
        #expect(changed.status == .ok)
        #expect(changed.body == first.body)
    }
}
