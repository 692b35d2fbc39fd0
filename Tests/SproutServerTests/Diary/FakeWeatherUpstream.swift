import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// A local stand-in for OpenWeather's `/data/2.5/weather` (answering the real captured response, the fixture) and
/// Open-Meteo's `/v1/forecast` (answering the current weather it is told, in Open-Meteo's shape), or failing as
/// told; it records every query it gets.
final class FakeWeatherUpstream: @unchecked Sendable {
    enum Mode: Sendable {
        case answer
        case status(Int)
        case garbage
        /// Headers never come.
        case silent
        /// The good answer, after a pause (so that requests pile up while it is in flight).
        case delayed(Duration)
    }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var mode = Mode.answer
    private var received: [[String: String]] = []
    private var openMeteoCurrent = (code: 3, isDay: 1, celsius: 13.4)

    func set(_ mode: Mode) { lock.withLock { self.mode = mode } }
    /// What `/v1/forecast` reports as `current`: a WMO weather code, `is_day` and `temperature_2m`.
    func setOpenMeteo(code: Int, isDay: Int, celsius: Double) { lock.withLock { openMeteoCurrent = (code, isDay, celsius) } }
    var queries: [[String: String]] { lock.withLock { received } }

    /// Runs the fake on a free port for the length of `body`, which gets its base URL.
    func run<Value: Sendable>(_ body: @Sendable (String) async throws -> Value) async throws -> Value {
        guard let url = Bundle.module.url(forResource: "Fixtures/diary/openweather-current-weather.json", withExtension: nil) else {
            throw TestFailure("missing fixture diary/openweather-current-weather.json")
        }
        let fixture = try Data(contentsOf: url)
        let router = Router()
        router.get("data/2.5/weather") { request, _ -> Response in
            try await self.answer(request) { ByteBuffer(bytes: fixture) }
        }
        router.get("v1/forecast") { request, _ -> Response in
            try await self.answer(request) {
                let current = self.lock.withLock { self.openMeteoCurrent }
                // Open-Meteo's real shape, trimmed: units beside the values, `time` in ISO 8601 without seconds.
                return ByteBuffer(string: """
                    {"latitude":37.56,"longitude":126.97,"generationtime_ms":0.03,"utc_offset_seconds":0,"timezone":"GMT",
                     "timezone_abbreviation":"GMT","elevation":38.0,
                     "current_units":{"time":"iso8601","interval":"seconds","temperature_2m":"°C","weather_code":"wmo code","is_day":""},
                     "current":{"time":"2026-11-25T06:00","interval":900,"temperature_2m":\(current.celsius),
                       "weather_code":\(current.code),"is_day":\(current.isDay)}}
                    """)
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

    /// Records the query, then answers as the mode says; `goodAnswer` is the provider's weather.
    private func answer(_ request: Request, goodAnswer: () -> ByteBuffer) async throws -> Response {
        let query = Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { $1 })
        let mode = lock.withLock { received.append(query); return self.mode }
        switch mode {
        case .answer:
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: goodAnswer()))
        case .status(let code):
            let body = #"{"cod": \#(code), "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#
            return Response(status: .init(code: code), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        case .garbage:
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<html>maintenance</html>")))
        case .silent:
            try await Task.sleep(for: .seconds(30))
            return Response(status: .ok)
        case .delayed(let pause):
            try await Task.sleep(for: pause)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: goodAnswer()))
        }
    }
}
