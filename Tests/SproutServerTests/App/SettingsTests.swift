import Foundation
import Testing
@testable import SproutServer

/// Each settings struct's defaults, a refusal for every kind of malformed value, and flags over the environment.
@Suite struct SettingsTests {
    @Test func anEmptyEnvironmentGivesEveryStructItsDocumentedDefaults() throws {
        let configuration = try SproutConfiguration.fromEnvironment([:])
        let server = configuration.server
        #expect(server.hostname == "127.0.0.1" && server.port == 8080 && server.publicURL == "http://127.0.0.1:8080")
        #expect(server.maxRequestBodySize == 1_048_576 && server.logLevel == .info && server.trustedProxies.isEmpty)
        #expect(server.idleTimeout == .seconds(30) && server.requestTimeout == .seconds(60))
        let data = configuration.data
        #expect(data.directory == "./data" && data.databaseURL == nil && data.secretsKey == nil)
        let accounts = configuration.accounts
        #expect(accounts.jwtSecret == nil && accounts.passwordHashCost == 10)
        #expect(accounts.signUpsPerAddressPerHour == 20 && accounts.emailVisibility == .owner)
        #expect(configuration.community.listMaxRows == 10_000)
        let market = configuration.market
        #expect(market.imageStorage == .files && market.maxImageBytes == 307_200 && market.uploadsPerHour == 60)
        #expect(configuration.board.apiToken == nil)
        #expect(configuration.diary.keptVersions == 50 && configuration.diary.weather == WeatherSettings())
    }

    @Test func emptyValuesAndSpacesAloneAreUnset() throws {
        let configuration = try SproutConfiguration.fromEnvironment([
            "PORT": "", "MARKET_MAX_IMAGE_BYTES": "  ", "JWT_SECRET": "", "SECRETS_KEY": "", "BOARD_API_TOKEN": " ", "LOG_LEVEL": "",
        ])
        #expect(configuration.server.port == 8080 && configuration.market.maxImageBytes == 307_200 && configuration.server.logLevel == .info)
        #expect(configuration.accounts.jwtSecret == nil && configuration.data.secretsKey == nil && configuration.board.apiToken == nil)
    }

    @Test func setValuesReachTheirStructs() throws {
        let configuration = try SproutConfiguration.fromEnvironment([
            "MAX_BODY_SIZE": "2048", "LOG_LEVEL": "Debug", "PUBLIC_URL": "https://sprout.example/",
            "JWT_SECRET": "a JWT secret of at least thirty-two bytes", "SIGNUPS_PER_ADDRESS_PER_HOUR": "5",
            "MARKET_IMAGE_STORAGE": "DATABASE", "MARKET_MAX_IMAGE_BYTES": "1024", "MARKET_UPLOADS_PER_HOUR": "0",
            "BOARD_API_TOKEN": "  board-token_1.2~+/=  ", "COMMUNITY_LIST_MAX_ROWS": "100",
        ])
        #expect(configuration.server.maxRequestBodySize == 2048 && configuration.server.logLevel == .debug)
        #expect(configuration.server.publicURL == "https://sprout.example/")
        #expect(configuration.accounts.jwtSecret == "a JWT secret of at least thirty-two bytes")
        #expect(configuration.accounts.signUpsPerAddressPerHour == 5 && configuration.community.listMaxRows == 100)
        #expect(configuration.market.imageStorage == .database && configuration.market.maxImageBytes == 1024)
        #expect(configuration.market.uploadsPerHour == 0 && configuration.board.apiToken == "board-token_1.2~+/=")
    }

    /// One malformed value of every kind of variable, and the whole message it gets (or, for those that quote
    /// nothing they were given, its start).
    @Test(arguments: [
        ("PORT", "eighty", "PORT must be a number from 1 to 65535, got 'eighty'"),
        ("MAX_BODY_SIZE", "0", "MAX_BODY_SIZE must be a positive number of bytes, got '0'"),
        ("LOG_LEVEL", "loud", "LOG_LEVEL must be trace, debug, info, notice, warning, error or critical, got 'loud'"),
        ("REQUEST_TIMEOUT", "soon", "REQUEST_TIMEOUT must be a number of seconds above 0 and at most 86400, got 'soon'"),
        ("PUBLIC_URL", "sprout.example", "PUBLIC_URL must be an http(s) URL, got 'sprout.example'"),
        ("TRUSTED_PROXIES", "proxy.example.com", "TRUSTED_PROXIES must list IP addresses or CIDR networks"),
        ("DATABASE_URL", "mysql://x", "DATABASE_URL must start with postgres://"),
        ("SECRETS_KEY", "short", "SECRETS_KEY must be at least 32 bytes long (e.g. `openssl rand -base64 32`)"),
        ("JWT_SECRET", "short", "JWT_SECRET must be at least 32 bytes long (HS256 keys shorter than the hash are weak)"),
        ("SIGNUPS_PER_ADDRESS_PER_HOUR", "-1", "SIGNUPS_PER_ADDRESS_PER_HOUR must be a number from 0 (no limit) to 100000, got '-1'"),
        ("EMAIL_VISIBILITY", "nobody", "EMAIL_VISIBILITY must be owner or everyone, got 'nobody'"),
        ("COMMUNITY_LIST_MAX_ROWS", "99", "COMMUNITY_LIST_MAX_ROWS must be a number from 100 to 1000000, got '99'"),
        ("MARKET_IMAGE_STORAGE", "s3", "MARKET_IMAGE_STORAGE must be files or database, got 's3'"),
        ("MARKET_MAX_IMAGE_BYTES", "1023", "MARKET_MAX_IMAGE_BYTES must be a number of bytes from 1024 to 20971520, got '1023'"),
        ("MARKET_UPLOADS_PER_HOUR", "many", "MARKET_UPLOADS_PER_HOUR must be a number from 0 (no limit) to 100000, got 'many'"),
        ("BOARD_API_TOKEN", "two words", "BOARD_API_TOKEN must be one word of visible ASCII characters (no spaces inside); character 4 is not"),
        ("DIARY_KEPT_VERSIONS", "1001", "DIARY_KEPT_VERSIONS must be a number from 1 to 1000, got '1001'"),
        ("WEATHER_PROVIDER", "yahoo", "WEATHER_PROVIDER must be openweather, open-meteo or off, got 'yahoo'"),
        ("OPENWEATHER_API_KEY", "key\twith tab", "OPENWEATHER_API_KEY must be one word of visible ASCII characters"),
        ("OPEN_METEO_BASE_URL", "ftp://example.com", "OPEN_METEO_BASE_URL must be an http(s) URL, got 'ftp://example.com'"),
    ])
    func aMalformedValueStopsTheStartSayingWhatItMustBe(variable: String, value: String, message: String) {
        do {
            _ = try SproutConfiguration.fromEnvironment([variable: value])
            Issue.record("\(variable)=\(value) was accepted")
        } catch {
            #expect(error is ConfigurationError)
            #expect(String(describing: error).hasPrefix(message), "\(error)")
        }
    }

    @Test func secretsAreNeverQuotedInTheirRefusal() {
        for (variable, value) in [("JWT_SECRET", "shh-short"), ("SECRETS_KEY", "shh-short"), ("BOARD_API_TOKEN", "shh secret"),
                                  ("OPENWEATHER_API_KEY", "shh secret")] {
            let message = Self.message([variable: value])
            #expect(!message.isEmpty && !message.contains("shh"), "\(variable): \(message)")
        }
    }

    @Test func flagsWinOverTheEnvironmentWhichIsThenNotRead() throws {
        // A broken PORT the --port flag replaces does not stop the start: the flag wins and the variable is not read.
        let environment = ["HOST": "0.0.0.0", "PORT": "eighty", "DATA_DIR": "/from/environment"]
        let configuration = try SproutConfiguration.fromEnvironment(environment, hostname: "127.0.0.2", port: 9100, dataDirectory: "/from/flag")
        #expect(configuration.server.hostname == "127.0.0.2" && configuration.server.port == 9100)
        #expect(configuration.data.directory == "/from/flag" && configuration.data.database == .sqlite(path: "/from/flag/sprout.sqlite"))
        #expect(configuration.server.publicURL == "http://127.0.0.2:9100", "the default public address follows the flags")
        #expect(Self.message([:], port: 0) == "--port must be a number from 1 to 65535, got 0")
        #expect(Self.message(environment) == "PORT must be a number from 1 to 65535, got 'eighty'")
    }

    /// The refusal of `environment`, or "" when it is accepted.
    private static func message(_ environment: [String: String], port: Int? = nil) -> String {
        do {
            _ = try SproutConfiguration.fromEnvironment(environment, port: port)
            return ""
        } catch {
            return String(describing: error)
        }
    }
}
