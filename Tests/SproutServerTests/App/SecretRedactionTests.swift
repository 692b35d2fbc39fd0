import Foundation
import Testing
@testable import SproutServer

/// The database password never appears in what Sprout prints.
@Suite struct SecretRedactionTests {
    @Test(arguments: [
        "postgres://sprout:s3cret-pass@db.example:notaport/sprout",
        "postgres://sprout:s3cret-pass@/sprout",
        "postgres://sprout:s3cret-pass@db example/sprout",
    ])
    func aMalformedDatabaseURLIsReportedWithoutItsPassword(url: String) {
        do {
            _ = try SproutConfiguration.fromEnvironment(["DATABASE_URL": url])
            Issue.record("\(url) was accepted")
        } catch {
            let message = String(describing: error)
            #expect(!message.contains("s3cret-pass"), "\(message)")
            #expect(message.contains("sprout:***@"))
        }
    }

    /// Service Lifecycle logs each service's description at debug level; the backup schedule keeps the whole
    /// configuration, and its default description once put the secrets key into the log.
    @Test func noSettingPrintsASecretHoweverItIsPrinted() throws {
        let secrets = ["db-pass-1234", "secrets key of at least thirty-two bytes!", "jwt secret of at least thirty-two bytes!", "board-token-5678", "openweather-key-90"]
        var configuration = try SproutConfiguration.fromEnvironment([
            "DATABASE_URL": "postgres://sprout:db-pass-1234@db.example/sprout", "SECRETS_KEY": secrets[1], "JWT_SECRET": secrets[2],
            "BOARD_API_TOKEN": secrets[3], "OPENWEATHER_API_KEY": secrets[4],
        ])
        #expect(configuration.accounts.jwtSecret == secrets[2] && configuration.board.apiToken == secrets[3])
        #expect(configuration.diary.weather.provider == .openWeather(apiKey: secrets[4]))
        configuration.backup.every = .seconds(3600)
        let schedule = try #require(BackupSchedule.services(configuration, logger: .init(label: "test")).first)
        var dumped = ""
        dump(configuration, to: &dumped)
        let printed = [
            String(describing: configuration), String(reflecting: configuration), "\(configuration.data)", dumped, "\(schedule)",
            String(describing: configuration.diary.weather.provider),
        ]
        for text in printed {
            for secret in secrets {
                #expect(!text.contains(secret), "\(text)")
            }
        }
        #expect(String(describing: configuration).contains("postgres://sprout:***@db.example/sprout"))
        #expect("\(schedule)" == "BackupSchedule(every: 3600.0 seconds, database: postgres://sprout:***@db.example/sprout)")
        #expect(String(describing: SproutConfiguration().board).contains("nil"), "an unset secret shows as unset")
    }

    @Test func passwordsAreFoundEvenWhenTheURLCannotBeParsed() {
        #expect(SecretRedaction.redactingPassword(in: "postgres://u:p@ss:word@host:5432/db") == "postgres://u:***@host:5432/db")
        #expect(SecretRedaction.redactingPassword(in: "postgres://u@host/db") == "postgres://u@host/db")
        #expect(SecretRedaction.redactingPassword(in: "postgres://host/db?password=x") == "postgres://host/db?password=x")
        let settings = DatabaseSettings.postgres(url: "postgresql://a:b%40c@h/d", schema: "s")
        #expect(settings.description == "postgresql://a:***@h/d (schema s)")
    }

    @Test func errorsThrownWhileConnectingAreRedactedWherePrinted() async {
        let configuration = SproutConfiguration(data: DataSettings(databaseURL: "postgres://sprout:hunter2%21@127.0.0.1:1/sprout"))
        struct DriverError: Error, CustomStringConvertible {
            var description: String { "could not connect to postgres://sprout:hunter2%21@127.0.0.1:1/sprout (password hunter2!)" }
        }
        do {
            try await SecretRedaction.redactingErrors(of: configuration) { throw DriverError() }
        } catch {
            let message = String(describing: error)
            #expect(!message.contains("hunter2"), "\(message)")
            #expect(message.contains("postgres://sprout:***@127.0.0.1:1/sprout"))
        }
    }
}
