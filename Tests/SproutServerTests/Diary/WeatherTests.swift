import Foundation
import HummingbirdTesting
import SproutWire
import Testing
@testable import SproutServer

/// `GET /api/weather` against a local fake of OpenWeather serving a real captured answer: °C from Kelvin, a
/// shared 10-minute cache per rounded place, 503 without a key, 502 for every upstream failure (not cached), 400 for
/// bad coordinates. Never invented.
@Suite struct WeatherTests {
    private func withWeather(
        key: String? = "test-key", timeout: Duration = .seconds(5),
        _ body: @escaping @Sendable (any TestClientProtocol, SproutDatabase, TestAccount, FakeOpenWeather, String) async throws -> Void
    ) async throws {
        let upstream = FakeOpenWeather()
        try await upstream.run { base in
            try await withTestApp(configure: {
                $0.openWeatherAPIKey = key
                $0.openWeatherBaseURL = base
                $0.weatherTimeout = timeout
            }) { client, database in
                let account = try await client.signUp("weatherer")
                try await body(client, database, account, upstream, base)
            }
        }
    }

    @Test func weatherIsOpenWeathersInCelsiusCachedTenMinutesPerRoundedPlace() async throws {
        try await withWeather { client, database, account, upstream, _ in
            let answer = try await client.diary(.get, "/api/weather?lat=37.7858&lon=-122.4064", as: account)
            #expect(answer.status == .ok)
            #expect(try answer.decode(DiaryWeatherJSON.self) == DiaryWeatherJSON(main: "Clouds", description: "few clouds", icon: "02n", tempC: 14.1))
            #expect(upstream.queries == [["lat": "37.79", "lon": "-122.41", "appid": "test-key"]])

            // The same place to 2 decimals: from the cache.
            #expect(try await client.diary(.get, "/api/weather?lat=37.7891&lon=-122.4149", as: account).status == .ok)
            #expect(upstream.queries.count == 1)
            // Another place: asked.
            #expect(try await client.diary(.get, "/api/weather?lat=37.5665&lon=126.978", as: account).status == .ok)
            #expect(upstream.queries.count == 2 && upstream.queries[1]["lat"] == "37.57" && upstream.queries[1]["lon"] == "126.98")
            // Ten minutes later: asked again.
            try await database.executor.writeAll([SQLStatement("UPDATE weather_cache SET fetched_ms = fetched_ms - 600000")])
            #expect(try await client.diary(.get, "/api/weather?lat=37.7858&lon=-122.4064", as: account).status == .ok)
            #expect(upstream.queries.count == 3)
        }
    }

    @Test func anotherServerProcessOnTheDatabaseSharesTheCache() async throws {
        try await withWeather { client, database, account, upstream, base in
            #expect(try await client.diary(.get, "/api/weather?lat=-33.87&lon=151.21", as: account).status == .ok)
            let second = try database.secondProcess { $0.openWeatherAPIKey = "test-key"; $0.openWeatherBaseURL = base }
            let status = try await second.test(.router) { other in
                try await other.diary(.get, "/api/weather?lat=-33.871&lon=151.209", as: account).status
            }
            #expect(status == .ok && upstream.queries.count == 1)
        }
    }

    @Test func everyUpstreamFailureIsA502AndIsNotCached() async throws {
        try await withWeather { client, _, account, upstream, _ in
            for (mode, words) in [(FakeOpenWeather.Mode.status(401), "HTTP 401"), (.status(500), "HTTP 500"), (.status(429), "HTTP 429"), (.garbage, "without weather")] {
                upstream.set(mode)
                let answer = try await client.diary(.get, "/api/weather?lat=1&lon=2", as: account)
                #expect(answer.status == .badGateway && (answer.message ?? "").contains(words), "\(mode): \(answer.message ?? "")")
            }
            #expect(upstream.queries.count == 4)
            upstream.set(.answer)
            #expect(try await client.diary(.get, "/api/weather?lat=1&lon=2", as: account).status == .ok)
            #expect(upstream.queries.count == 5)
        }
    }

    @Test func aSilentUpstreamIsA502WhenTheTimeoutPasses() async throws {
        try await withWeather(timeout: .milliseconds(500)) { client, _, account, upstream, _ in
            upstream.set(.silent)
            let started = ContinuousClock.now
            let answer = try await client.diary(.get, "/api/weather?lat=1&lon=2", as: account)
            #expect(answer.status == .badGateway && (answer.message ?? "").contains("no answer"))
            #expect(ContinuousClock.now - started < .seconds(5))
        }
        #expect(SproutConfiguration().weatherTimeout == .seconds(5))
    }

    @Test func withoutAKeyWeatherIsA503ThatSaysSo() async throws {
        try await withWeather(key: nil) { client, _, account, upstream, _ in
            let answer = try await client.diary(.get, "/api/weather?lat=1&lon=2", as: account)
            #expect(answer.status == .serviceUnavailable && (answer.message ?? "").contains("OPENWEATHER_API_KEY"))
            #expect(upstream.queries.isEmpty)
        }
        let empty = try SproutConfiguration.fromEnvironment(["OPENWEATHER_API_KEY": ""])
        #expect(empty.openWeatherAPIKey == nil)
        #expect(throws: ConfigurationError.self) { try SproutConfiguration.fromEnvironment(["OPENWEATHER_BASE_URL": "ftp://example.com"]) }
    }

    @Test func badCoordinatesAreA400() async throws {
        try await withWeather { client, _, account, upstream, _ in
            for query in ["lat=91&lon=0", "lat=0&lon=180.5", "lat=abc&lon=0", "lat=1", "lon=1", "lat=nan&lon=0", "lat=&lon=", "lat=1e999&lon=0"] {
                let answer = try await client.diary(.get, "/api/weather?\(query)", as: account)
                #expect(answer.status == .badRequest && answer.message != nil, "\(query)")
            }
            #expect(upstream.queries.isEmpty)
        }
    }
}
