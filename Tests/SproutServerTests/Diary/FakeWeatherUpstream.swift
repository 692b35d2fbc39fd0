import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// A local stand-in for OpenWeather's `/data/2.5/weather`: answers the real captured response (the fixture), or
/// fails as told, and records every query it gets.
final class FakeOpenWeather: @unchecked Sendable {
    enum Mode: Sendable {
        case answer
        case status(Int)
        case garbage
        /// Headers never come.
        case silent
    }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var mode = Mode.answer
    private var received: [[String: String]] = []

    func set(_ mode: Mode) { lock.withLock { self.mode = mode } }
    var queries: [[String: String]] { lock.withLock { received } }

    /// Runs the fake on a free port for the length of `body`, which gets its base URL.
    func run<Value: Sendable>(_ body: @Sendable (String) async throws -> Value) async throws -> Value {
        guard let url = Bundle.module.url(forResource: "Fixtures/diary/openweather-current-weather.json", withExtension: nil) else {
            throw TestFailure("missing fixture diary/openweather-current-weather.json")
        }
        let fixture = try Data(contentsOf: url)
        let router = Router()
        router.get("data/2.5/weather") { request, _ -> Response in
            let query = Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { $1 })
            let mode = self.lock.withLock { self.received.append(query); return self.mode }
            switch mode {
            case .answer:
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: fixture)))
            case .status(let code):
                let body = #"{"cod": \#(code), "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#
                return Response(status: .init(code: code), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
            case .garbage:
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<html>maintenance</html>")))
            case .silent:
                try await Task.sleep(for: .seconds(30))
                return Response(status: .ok)
            }
        }
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
            logger: testLogger()
        )
        return try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask {
                try await app.runService(gracefulShutdownSignals: [])
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw TestFailure("the fake upstream did not start") }
            let value = try await body("http://127.0.0.1:\(port)")
            group.cancelAll()
            return value
        }
    }
}
