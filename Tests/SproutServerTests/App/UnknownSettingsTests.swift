import Testing
@testable import SproutServer

/// A variable under one of Sprout's prefixes that is no setting stops the start; everything else is left alone.
@Suite struct UnknownSettingsTests {
    @Test func aMisspeltSettingStopsTheStartNamingTheNearestOne() {
        #expect(Self.message(["MARKET_MAX_IMAGE_BYTE": "400000"]) == "unknown setting MARKET_MAX_IMAGE_BYTE (did you mean MARKET_MAX_IMAGE_BYTES?)")
        #expect(Self.message(["OPENWEATHER_APIKEY": "k"]) == "unknown setting OPENWEATHER_APIKEY (did you mean OPENWEATHER_API_KEY?)")
        #expect(Self.message(["DIARY_KEEP_VERSIONS": "5"]) == "unknown setting DIARY_KEEP_VERSIONS (did you mean DIARY_KEPT_VERSIONS?)")
        #expect(Self.message(["WEATHER_API_KEY": "k"]) == "unknown setting WEATHER_API_KEY (did you mean OPENWEATHER_API_KEY?)")
    }

    @Test func aNameNearNoSettingListsTheSettingsUnderItsPrefix() {
        #expect(Self.message(["MARKET_CURRENCY": "KRW"])
            == "unknown setting MARKET_CURRENCY (Sprout's MARKET_… settings: MARKET_IMAGE_STORAGE, MARKET_MAX_IMAGE_BYTES, MARKET_UPLOADS_PER_HOUR)")
        // Not "did you mean IDLE_TIMEOUT?": only Sprout's prefixed settings are offered for a prefixed name.
        #expect(Self.message(["WEATHER_TIMEOUT": "3"]) == "unknown setting WEATHER_TIMEOUT (Sprout's WEATHER_… settings: WEATHER_PROVIDER)")
    }

    @Test func everyUnknownSettingIsNamedInOneMessage() {
        #expect(Self.message(["BOARD_TOKEN": "t", "WEATHER_PROVIDERS": "off", "PORT": "9000"])
            == "unknown setting BOARD_TOKEN (did you mean BOARD_API_TOKEN?); unknown setting WEATHER_PROVIDERS (did you mean WEATHER_PROVIDER?)")
    }

    @Test func otherProgramsVariablesServiceLinksAndEmptyValuesNeverStopTheStart() throws {
        let environment = [
            "HOSTNAME": "box", "PATH": "/usr/bin", "HOME": "/root", "DATABASE_PASSWORD": "x", "EMAIL_HOST": "smtp.example",
            "LOG_FORMAT": "json", "SPROUT_TEST_DATABASE_URL": "postgres://x", "MARKETPLACE": "yes",
            // Kubernetes and Docker links for neighbours called market and board.
            "MARKET_SERVICE_HOST": "10.0.0.9", "MARKET_SERVICE_PORT": "80", "MARKET_PORT": "tcp://10.0.0.9:80",
            "MARKET_PORT_80_TCP_ADDR": "10.0.0.9", "BOARD_SERVICE_PORT_HTTP": "80", "BOARD_NAME": "/sprout/board", "BOARD_ENV_X": "1",
            // Empty is unset, for unknown names as for known ones.
            "MARKET_MAX_IMAGE_BYTE": "",
        ]
        _ = try SproutConfiguration.fromEnvironment(environment)
    }

    /// The declared names and the names actually read are the same list, so no setting can be read and yet be
    /// refused as unknown, nor be declared and never read.
    @Test func everyVariableReadIsDeclaredAndEveryDeclaredOneIsRead() throws {
        let reader = EnvironmentReader([:])
        _ = try SproutConfiguration.read(from: reader)
        #expect(reader.consulted == Set(SproutConfiguration.variables))
        #expect(SproutConfiguration.variables.count == Set(SproutConfiguration.variables).count, "no name twice")
    }

    @Test func theNearestNameIsByEditDistance() {
        #expect(UnknownSettings.editDistance("MARKET_MAX_IMAGE_BYTE", "MARKET_MAX_IMAGE_BYTES") == 1)
        #expect(UnknownSettings.editDistance("kitten", "sitting") == 3)
        #expect(UnknownSettings.editDistance("", "abc") == 3 && UnknownSettings.editDistance("abc", "abc") == 0)
    }

    /// The refusal of `environment`, or "" when it is accepted.
    private static func message(_ environment: [String: String]) -> String {
        do {
            _ = try SproutConfiguration.fromEnvironment(environment)
            return ""
        } catch {
            return String(describing: error)
        }
    }
}
