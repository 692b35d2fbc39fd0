import Foundation
import HTTPTypes
import HummingbirdTesting
import SproutWire
import Testing
@testable import SproutServer

/// `GET /api/weather` against a local fake of OpenWeather serving a real captured answer: °C from Kelvin, a
/// shared 10-minute cache per rounded place, 503 without a key, 502 for every upstream failure (not cached), 400 for
/// bad coordinates. Never invented.
@Suite struct WeatherTests {
    private func withWeather(
        key: String? = "test-key", timeout: Duration = .seconds(5), quota: WeatherQuota.Limits = WeatherQuota.Limits(backOffAfterFailure: .zero),
        _ body: @escaping @Sendable (any TestClientProtocol, SproutDatabase, TestAccount, FakeWeatherUpstream, String) async throws -> Void
    ) async throws {
        let upstream = FakeWeatherUpstream()
        try await upstream.run { base in
            try await withTestApp(configure: {
                $0.diary.weather.provider = key.map { .openWeather(apiKey: $0) } ?? .off
                $0.diary.weather.openWeatherBaseURL = base
                $0.diary.weather.openMeteoBaseURL = base
                $0.diary.weather.timeout = timeout
                $0.diary.weather.quota = quota
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
            let second = try database.secondProcess { $0.diary.weather.provider = .openWeather(apiKey: "test-key"); $0.diary.weather.openWeatherBaseURL = base }
            let status = try await second.test(.router) { other in
                try await other.diary(.get, "/api/weather?lat=-33.871&lon=151.209", as: account).status
            }
            #expect(status == .ok && upstream.queries.count == 1)
        }
    }

    @Test func everyUpstreamFailureIsA502AndIsNotCached() async throws {
        try await withWeather { client, _, account, upstream, _ in
            for (mode, words) in [(FakeWeatherUpstream.Mode.status(401), "HTTP 401"), (.status(500), "HTTP 500"), (.status(429), "HTTP 429"), (.garbage, "without weather")] {
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
            let answer = try await client.diary(.get, "/api/weather?lat=1&lon=2", as: account)
            // The message names the timeout that applied, so this holds however slow a loaded machine is (a
            // wall-clock bound here failed in CI with every suite running at once).
            #expect(answer.status == .badGateway)
            #expect((answer.message ?? "").contains("no answer within 0.5 seconds"), "\(answer.message ?? "")")
        }
        #expect(SproutConfiguration().diary.weather.timeout == .seconds(5))
    }

    @Test func weatherTurnedOffIsA503ThatSaysSo() async throws {
        try await withWeather(key: nil) { client, _, account, upstream, _ in
            let answer = try await client.diary(.get, "/api/weather?lat=1&lon=2", as: account)
            #expect(answer.status == .serviceUnavailable && (answer.message ?? "").contains("WEATHER_PROVIDER=off"))
            #expect(upstream.queries.isEmpty)
        }
    }

    @Test func theProviderIsOpenWeatherWithAKeyOpenMeteoWithoutOneOrAsChosen() throws {
        #expect(try SproutConfiguration.fromEnvironment([:]).diary.weather.provider == .openMeteo)
        #expect(try SproutConfiguration.fromEnvironment(["OPENWEATHER_API_KEY": ""]).diary.weather.provider == .openMeteo)
        #expect(try SproutConfiguration.fromEnvironment(["OPENWEATHER_API_KEY": "k1"]).diary.weather.provider == .openWeather(apiKey: "k1"))
        #expect(try SproutConfiguration.fromEnvironment(["OPENWEATHER_API_KEY": "k1", "WEATHER_PROVIDER": "open-meteo"]).diary.weather.provider == .openMeteo)
        #expect(try SproutConfiguration.fromEnvironment(["OPENWEATHER_API_KEY": "k1", "WEATHER_PROVIDER": "OFF"]).diary.weather.provider == .off)
        #expect(try SproutConfiguration.fromEnvironment(["OPEN_METEO_BASE_URL": "http://127.0.0.1:9"]).diary.weather.openMeteoBaseURL == "http://127.0.0.1:9")
        for broken in [["WEATHER_PROVIDER": "openweather"], ["WEATHER_PROVIDER": "yahoo"], ["OPENWEATHER_BASE_URL": "ftp://example.com"],
                       ["OPEN_METEO_BASE_URL": "not a url"]] {
            #expect(throws: ConfigurationError.self, "\(broken)") { try SproutConfiguration.fromEnvironment(broken) }
        }
    }

    @Test func withoutAKeyOpenMeteoAnswersInOpenWeathersWordsAndIconsByDayAndNight() async throws {
        let upstream = FakeWeatherUpstream()
        try await upstream.run { base in
            try await withTestApp(configure: {
                // As a fresh install reads its environment: no key, so Open-Meteo (here the fake).
                $0.diary.weather = try! WeatherSettings.read(from: EnvironmentReader(["OPEN_METEO_BASE_URL": base]))
            }) { client, database in
                let account = try await client.signUp("weatherer")
                upstream.setOpenMeteo(code: 61, isDay: 0, celsius: 7.26)
                let night = try await client.diary(.get, "/api/weather?lat=37.5665&lon=126.978", as: account)
                #expect(try night.status == .ok && night.decode(DiaryWeatherJSON.self) == DiaryWeatherJSON(main: "Rain", description: "light rain", icon: "10n", tempC: 7.3))
                #expect(upstream.queries == [["latitude": "37.57", "longitude": "126.98", "current": "temperature_2m,weather_code,is_day"]])

                // Cached like OpenWeather's answers, then asked again for another place.
                #expect(try await client.diary(.get, "/api/weather?lat=37.5701&lon=126.9811", as: account).status == .ok)
                #expect(upstream.queries.count == 1)
                upstream.setOpenMeteo(code: 2, isDay: 1, celsius: -3.0)
                let day = try await client.diary(.get, "/api/weather?lat=35.1&lon=129.04", as: account)
                #expect(try day.decode(DiaryWeatherJSON.self) == DiaryWeatherJSON(main: "Clouds", description: "scattered clouds", icon: "03d", tempC: -3.0))

                // A code outside WMO's table is no weather: 502, nothing cached, nothing guessed.
                upstream.setOpenMeteo(code: 42, isDay: 1, celsius: 10)
                let unknown = try await client.diary(.get, "/api/weather?lat=1&lon=2", as: account)
                #expect(unknown.status == .badGateway && (unknown.message ?? "").contains("Open-Meteo") && (unknown.message ?? "").contains("WMO"))
                let cached = try await database.executor.read(SQLStatement("SELECT count(*) FROM weather_cache WHERE location = '1.00,2.00'"), as: SQLInt.self)
                #expect(cached.first?.value == 0)
                upstream.set(.status(500))
                #expect(try await client.diary(.get, "/api/weather?lat=1&lon=2", as: account).status == .badGateway)
            }
        }
    }

    @Test func everyWMOCodeReadsAsAnOpenWeatherGroupWithADayAndANightIcon() throws {
        let groups: Set<String> = ["Clear", "Clouds", "Fog", "Drizzle", "Rain", "Snow", "Thunderstorm"]
        for code in WMOWeatherCode.allCases {
            let condition = code.openWeatherCondition
            #expect(groups.contains(condition.main) && !condition.description.isEmpty, "\(code)")
            #expect(WeatherIcon.isValid(condition.icon + "d") && WeatherIcon.isValid(condition.icon + "n"), "\(code)")
        }
        #expect(WMOWeatherCode.allCases.count == 28)
        #expect(WMOWeatherCode(rawValue: 0)?.openWeatherCondition.icon == "01" && WMOWeatherCode(rawValue: 95)?.openWeatherCondition.main == "Thunderstorm")
    }

    /// Security review point 6: ten misses for one place at once made ten upstream calls.
    @Test func concurrentMissesForOnePlaceShareOneUpstreamCall() async throws {
        try await withWeather { client, _, account, upstream, _ in
            upstream.set(.delayed(.milliseconds(400)))
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<10 { group.addTask { try await client.diary(.get, "/api/weather?lat=37.5665&lon=126.978", as: account).status } }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .ok } && upstream.queries.count == 1, "\(statuses), \(upstream.queries.count) calls")
        }
    }

    @Test func anAccountsUpstreamMissesAreLimitedAndOthersAreNot() async throws {
        try await withWeather(quota: WeatherQuota.Limits(missesPerAccount: 3, missesInAll: 5, backOffAfterFailure: .zero)) { client, _, account, upstream, _ in
            for place in 0..<3 {
                #expect(try await client.diary(.get, "/api/weather?lat=\(place)&lon=1", as: account).status == .ok)
            }
            let refused = try await client.diary(.get, "/api/weather?lat=9&lon=1", as: account)
            #expect(refused.status == .tooManyRequests && (refused.message ?? "").contains("this account"))
            // Places already fetched still come from the cache, and another account has a budget of its own…
            #expect(try await client.diary(.get, "/api/weather?lat=1&lon=1", as: account).status == .ok)
            let other = try await client.signUp("neighbour")
            #expect(try await client.diary(.get, "/api/weather?lat=10&lon=1", as: other).status == .ok)
            #expect(try await client.diary(.get, "/api/weather?lat=11&lon=1", as: other).status == .ok)
            // …until the process's budget is spent.
            let spent = try await client.diary(.get, "/api/weather?lat=12&lon=1", as: other)
            #expect(spent.status == .tooManyRequests && (spent.message ?? "").contains("server"))
            #expect(upstream.queries.count == 5)
        }
    }

    @Test func afterAnUpstreamFailureNothingIsAskedDuringTheBackOff() async throws {
        try await withWeather(quota: WeatherQuota.Limits(backOffAfterFailure: .seconds(60))) { client, _, account, upstream, _ in
            upstream.set(.status(500))
            #expect(try await client.diary(.get, "/api/weather?lat=1&lon=2", as: account).status == .badGateway)
            let during = try await client.diary(.get, "/api/weather?lat=3&lon=4", as: account)
            #expect(during.status == .badGateway && (during.message ?? "").contains("a moment ago"))
            #expect(upstream.queries.count == 1)
        }
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
