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
