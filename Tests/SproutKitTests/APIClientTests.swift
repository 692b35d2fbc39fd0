import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOPosix
import SproutKit
import Testing

@Suite struct APIClientTests {
    static let base = URL(string: "http://127.0.0.1:9")!

    @Test func queryEncodingKeepsKoreanPlusAndAmpersandIntact() async throws {
        let client = APIClient(baseURL: Self.base)
        let request = Request<Data>(path: "/api/v2/todos/search", query: [("query", "C++ & 공부"), ("skip", nil), ("page", "1")])
        let url = try await client.makeURLRequest(request).url?.absoluteString
        #expect(url == "http://127.0.0.1:9/api/v2/todos/search?query=C%2B%2B%20%26%20%EA%B3%B5%EB%B6%80&page=1")
    }

    @Test func tokenProviderSetsTheAuthorizationHeader() async throws {
        let recorder = RecordingStub(body: "{}")
        let client = APIClient(baseURL: Self.base, transport: recorder, tokenProvider: { "abc.def.ghi" })
        _ = try await client.send(Request<Data>(path: "/users/me"))
        #expect(recorder.lastRequest?.value(forHTTPHeaderField: "Authorization") == "Bearer abc.def.ghi")
        let anonymous = APIClient(baseURL: Self.base, transport: recorder, tokenProvider: { nil })
        _ = try await anonymous.send(Request<Data>(path: "/users/me"))
        #expect(recorder.lastRequest?.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func formAndMultipartBodiesAreLabelled() async throws {
        let client = APIClient(baseURL: Self.base)
        let form = try await client.makeURLRequest(Request<Data>(method: .put, path: "/x", body: .form([("title", "운동 30분"), ("is_done", "true")])))
        #expect(form.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(form.httpBody.map { String(decoding: $0, as: UTF8.self) } == "title=%EC%9A%B4%EB%8F%99%2030%EB%B6%84&is_done=true")
        var parts = MultipartFormData(boundary: "XYZ")
        parts.append("hello", named: "title")
        let multipart = try await client.makeURLRequest(Request<Data>(method: .post, path: "/x", body: .multipart(parts)))
        #expect(multipart.value(forHTTPHeaderField: "Content-Type") == "multipart/form-data; boundary=XYZ")
        #expect(multipart.httpBody.map { String(decoding: $0, as: UTF8.self) }
            == "--XYZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhello\r\n--XYZ--\r\n")
    }

    @Test func transportFailureIsTransport() async {
        let client = APIClient(baseURL: Self.base, transport: StubTransport { _ in throw URLError(.notConnectedToInternet) })
        await #expect {
            try await client.send(Request<Data>(path: "/health"))
        } throws: { error in
            guard case .transport(let underlying) = error as? APIError else { return false }
            return (underlying as? SendableError)?.urlErrorCode == .notConnectedToInternet
        }
    }

    @Test func unreachableServerIsATransportFailure() async {
        // Port 9 (discard) on loopback: nothing listens there.
        let client = APIClient(baseURL: Self.base)
        await #expect {
            try await client.send(Request<Data>(path: "/health"))
        } throws: { error in
            if case .transport = error as? APIError { return true }
            return false
        }
    }

    @Test func non2xxCarriesTheServersMessageAndFieldErrors() async {
        let body = #"{"message": "제목(title)은 6자 이상이어야 합니다.", "errors": {"title": ["제목(title)은 6자 이상이어야 합니다."]}}"#
        let client = APIClient(baseURL: Self.base, transport: StubTransport.answering(status: 422, body: body))
        do {
            _ = try await client.send(Request<Data>(path: "/api/v2/todos-json"))
            Issue.record("expected a failure")
        } catch {
            guard case .status(let code, let message, let fieldErrors, _) = error else {
                Issue.record("expected .status, got \(error)")
                return
            }
            #expect(code == 422)
            #expect(message == "제목(title)은 6자 이상이어야 합니다.")
            #expect(fieldErrors["title"]?.count == 1)
            #expect(error.message == message)
        }
    }

    @Test func strapiAndMarketErrorShapesAreReadToo() async {
        let strapi = #"{"statusCode":400,"error":"Bad Request","message":[{"messages":[{"id":"Auth.form.error.invalid","message":"Identifier or password invalid."}]}]}"#
        let market = #"{"code": 400, "message": "name too short"}"#
        for (body, expected) in [(strapi, "Identifier or password invalid."), (market, "name too short"), ("<html>oops</html>", nil)] {
            let client = APIClient(baseURL: Self.base, transport: StubTransport.answering(status: 400, body: body))
            do {
                _ = try await client.send(Request<Data>(path: "/x"))
            } catch {
                if case .status(_, let message, _, _) = error { #expect(message == expected) } else { Issue.record("\(error)") }
            }
        }
    }

    @Test func a401IsReportedWithTheTokenItCarriedBeforeTheCallerSeesIt() async throws {
        let reported = ReportedTokens()
        let unauthorized = StubTransport.answering(status: 401, body: #"{"statusCode":401,"error":"Unauthorized","message":"Invalid token."}"#)
        let client = APIClient(baseURL: Self.base, transport: unauthorized, tokenProvider: { "old.jwt" }, onUnauthorized: { reported.append($0) })
        await #expect(throws: APIError.self) { try await client.send(Request<Data>(path: "/posts")) }
        #expect(reported.tokens == ["old.jwt"])
        // No token sent: nobody's session to end. Another refusal: not a token problem.
        let anonymous = APIClient(baseURL: Self.base, transport: unauthorized, tokenProvider: { nil }, onUnauthorized: { reported.append($0) })
        await #expect(throws: APIError.self) { try await anonymous.send(Request<Data>(path: "/posts")) }
        let forbidden = APIClient(
            baseURL: Self.base, transport: StubTransport.answering(status: 403, body: "{}"), tokenProvider: { "old.jwt" }, onUnauthorized: { reported.append($0) }
        )
        await #expect(throws: APIError.self) { try await forbidden.send(Request<Data>(path: "/posts")) }
        #expect(reported.tokens == ["old.jwt"])
    }

    @Test func unexpectedBodyIsADecodingFailure() async {
        struct Expected: Decodable, Sendable { let id: Int }
        let client = APIClient(baseURL: Self.base, transport: StubTransport.answering(status: 200, body: #"{"nope": true}"#))
        await #expect {
            try await client.send(Request<Expected>(path: "/x"))
        } throws: { error in
            if case .decoding = error as? APIError { return true }
            return false
        }
    }

    @Test func cancellingTheCallingTaskCancelsTheRequest() async throws {
        let client = APIClient(baseURL: Self.base, transport: StubTransport { request in
            try await Task.sleep(for: .seconds(30))
            return (Data(), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!)
        })
        let task = Task { try await client.send(Request<Data>(path: "/slow")) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let result = await task.result
        guard case .failure(let error) = result, case .cancelled = error as? APIError else {
            Issue.record("expected .cancelled, got \(result)")
            return
        }
    }

    @Test func cancellationReachesALiveURLSessionRequest() async throws {
        // A server that accepts connections and never answers: only cancellation can end the request early.
        let silent = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in channel.eventLoop.makeSucceededVoidFuture() }
            .bind(host: "127.0.0.1", port: 0).get()
        defer { silent.close(promise: nil) }
        let port = try #require(silent.localAddress?.port)
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let client = APIClient(baseURL: base)
        let task = Task { try await client.send(Request<Data>(path: "/health")) }
        try await Task.sleep(for: .milliseconds(200))
        let cancelled = ContinuousClock.now
        task.cancel()
        let result = await task.result
        // Well under URLSession's 60 s timeout, which is what ends the request when cancellation does not reach it.
        // (10 s proved too tight on a loaded 2-core machine: 15 s once, with the whole suite and a browser run beside it.)
        #expect(cancelled.duration(to: .now) < .seconds(30))
        guard case .failure(let error) = result, case .cancelled = error as? APIError else {
            Issue.record("expected .cancelled, got \(result)")
            return
        }
    }

    /// Once the server has answered, the answer counts: a caller cancelled a moment too late must not undo,
    /// on screen, a change the server made.
    @Test func anAnswerThatArrivedBeforeTheCancellationIsReturned() async throws {
        try await withLiveServer { base in
            let gate = GatedTransport()
            gate.hold()
            let client = APIClient(baseURL: base, transport: gate)
            let task = Task { try await client.send(Request<Data>(path: "/health")) }
            try await gate.waitForAnswers(1)
            task.cancel()
            gate.release()
            let data = try await task.value
            #expect(String(decoding: data, as: UTF8.self).contains("ok"))
        }
    }

    @Test(arguments: ["http://example.com", "http://192.168.0.10:8080", "http://10.0.0.1", "ftp://127.0.0.1"])
    func plainHTTPToAnotherHostIsRefused(address: String) async {
        let client = APIClient(baseURL: URL(string: address)!, transport: RecordingStub(body: "{}"), tokenProvider: { "secret" })
        await #expect(throws: APIError.self) { _ = try await client.send(Request<Data>(path: "/users/me")) }
    }

    @Test(arguments: ["https://example.com", "http://127.0.0.1:8080", "http://127.1.2.3", "http://localhost:8080", "http://[::1]:8080"])
    func httpsAndThisDevicesOwnAddressesAreAllowed(address: String) async throws {
        let recorder = RecordingStub(body: "{}")
        let client = APIClient(baseURL: URL(string: address)!, transport: recorder)
        _ = try await client.send(Request<Data>(path: "/health"))
        #expect(recorder.lastRequest != nil)
    }

    @Test func anAppMayOptIntoPlainHTTPForADevelopmentServer() async throws {
        let recorder = RecordingStub(body: "{}")
        let client = APIClient(baseURL: URL(string: "http://192.168.0.10:8080")!, transport: recorder, allowsInsecureHTTP: true)
        _ = try await client.send(Request<Data>(path: "/health"))
        #expect(recorder.lastRequest?.url?.host == "192.168.0.10")
    }
}

final class ReportedTokens: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ token: String) { lock.withLock { list.append(token) } }
    var tokens: [String] { lock.withLock { list } }
}
