import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import SproutServer

@Suite struct ApplicationTests {
    @Test func everyResponseCarriesARequestIDAndAnUntrustedClientsIDIsReplaced() async throws {
        try await withTestApp { client, _ in
            let first = try await client.send(.get, "/health")
            let second = try await client.send(.get, "/api/v2/todos")
            let firstID = try #require(first.headers[HTTPField.Name("X-Request-ID")!])
            let secondID = try #require(second.headers[HTTPField.Name("X-Request-ID")!])
            #expect(firstID != secondID)
            // Not from a trusted proxy: a client may not choose the id its request is logged under.
            let forwarded = try await client.send(.get, "/health", headers: [HTTPField.Name("X-Request-ID")!: "edge-1234"])
            #expect(forwarded.headers[HTTPField.Name("X-Request-ID")!] != "edge-1234")
        }
    }

    @Test func aTrustedProxysRequestIDIsKeptAndAHostileOneIsNot() async throws {
        try await withTestApp(.live, configure: { $0.server.trustedProxies = try! TrustedProxies(parsing: "127.0.0.1, ::1") }) { client, _ in
            let forwarded = try await client.send(.get, "/health", headers: [HTTPField.Name("X-Request-ID")!: "edge-1234"])
            #expect(forwarded.headers[HTTPField.Name("X-Request-ID")!] == "edge-1234")
            let hostile = try await client.send(.get, "/health", headers: [HTTPField.Name("X-Request-ID")!: "bad id\u{7F}"])
            #expect(hostile.headers[HTTPField.Name("X-Request-ID")!] != "bad id\u{7F}")
        }
    }

    /// A real socket: the server that `sprout serve` builds creates its data directory and SQLite file.
    @Test func liveServerCreatesTheDataDirectoryAndServesTodos() async throws {
        guard TestDatabasePlace.postgresURL == nil else { return }  // this one is about the embedded default
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sprout-live-\(UUID().uuidString)/data")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let configuration = SproutConfiguration(server: ServerSettings(hostname: "127.0.0.1", port: 0), data: DataSettings(directory: directory.path))
        let app = try await buildApplication(configuration, logger: testLogger())
        try await app.test(.live) { client in
            let id = try await client.createTodo("over a real socket")
            let response = try await client.send(.get, "/api/v2/todos/\(id)")
            #expect(response.status == .ok)
        }
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("sprout.sqlite").path))
    }

    /// Guards the PostgreSQL run of the suite: it must really be on PostgreSQL, not silently on SQLite.
    @Test func suiteRunsOnTheDatabaseItWasAskedFor() async throws {
        try await withTestApp { _, database in
            switch database.settings {
            case .postgres(let url, let schema, let pooler):
                #expect(schema != nil)
                if let poolerURL = TestDatabasePlace.poolerURL {
                    // Through the pooler, as its own role (PooledTestRole); PostgreSQL itself for sessions.
                    #expect(URLComponents(string: url)?.port == URLComponents(string: poolerURL)?.port)
                    #expect(URLComponents(string: pooler?.directURL ?? "")?.port == URLComponents(string: TestDatabasePlace.postgresURL ?? "")?.port)
                } else {
                    #expect(url == TestDatabasePlace.postgresURL)
                    #expect(pooler == nil)
                }
            case .sqlite:
                #expect(TestDatabasePlace.postgresURL == nil)
            }
        }
    }

    @Test func sqliteRunsInWALModeWithForeignKeysAndABusyTimeout() async throws {
        guard TestDatabasePlace.postgresURL == nil else { return }
        try await withTestApp { _, database in
            let executor = database.executor
            let journal = try await executor.readFirst(SQLStatement("PRAGMA journal_mode"), as: SQLTextValue.self)?.value
            let foreignKeys = try await executor.readFirst(SQLStatement("PRAGMA foreign_keys"), as: SQLInt.self)?.value
            let busyTimeout = try await executor.readFirst(SQLStatement("PRAGMA busy_timeout"), as: SQLInt.self)?.value
            #expect(journal == "wal")
            #expect(foreignKeys == 1)
            #expect(busyTimeout == 5000)
            // The writer's connection too (plain reads above ran on a reader's).
            let writerForeignKeys = try await executor.writeFirst(SQLStatement("PRAGMA foreign_keys"), as: SQLInt.self)?.value
            let writerBusyTimeout = try await executor.writeFirst(SQLStatement("PRAGMA busy_timeout"), as: SQLInt.self)?.value
            #expect(writerForeignKeys == 1)
            #expect(writerBusyTimeout == 5000)
        }
    }

    @Test func migratingTwiceIsHarmless() async throws {
        try await withTestApp { client, database in
            try await client.createTodo("kept across migrations")
            try await database.migrate()
            #expect(try await database.todoCount() == 1)
        }
    }
}

@Suite struct ConfigurationTests {
    @Test func defaultsRunOnLoopbackPort8080WithDataInDotData() throws {
        let configuration = try SproutConfiguration.fromEnvironment([:])
        #expect(configuration.server.hostname == "127.0.0.1")
        #expect(configuration.server.port == 8080)
        #expect(configuration.data.directory == "./data")
        #expect(configuration.server.publicURL == "http://127.0.0.1:8080")
        guard case .sqlite(let path) = configuration.data.database else {
            Issue.record("expected SQLite by default")
            return
        }
        #expect(path.hasSuffix("data/sprout.sqlite"))
    }

    @Test func environmentIsReadAndFlagsWin() throws {
        let environment = [
            "HOST": "0.0.0.0", "PORT": "9000", "DATA_DIR": "/tmp/sprout-data",
            "DATABASE_URL": "postgres://u:p@db:5432/sprout", "PUBLIC_URL": "https://sprout.example",
        ]
        let fromEnvironment = try SproutConfiguration.fromEnvironment(environment)
        #expect(fromEnvironment.server.hostname == "0.0.0.0")
        #expect(fromEnvironment.server.port == 9000)
        #expect(fromEnvironment.server.publicURL == "https://sprout.example")
        #expect(fromEnvironment.data.database == .postgres(url: "postgres://u:p@db:5432/sprout"))
        let withFlags = try SproutConfiguration.fromEnvironment(environment, hostname: "127.0.0.2", port: 9100, dataDirectory: "/srv/data")
        #expect(withFlags.server.hostname == "127.0.0.2")
        #expect(withFlags.server.port == 9100)
        #expect(withFlags.data.directory == "/srv/data")
    }

    @Test(arguments: [["PORT": "eighty"], ["PORT": "70000"], ["PORT": "0"], ["PORT": "-1"], ["DATABASE_URL": "mysql://x"], ["LOG_LEVEL": "loud"], ["MAX_BODY_SIZE": "-1"]])
    func badEnvironmentValuesAreRefusedWithAReason(environment: [String: String]) {
        #expect(throws: ConfigurationError.self) { try SproutConfiguration.fromEnvironment(environment) }
    }

    /// `--port 99999` once listened on 34463 (the number cut to 16 bits): every port outside 1…65535 is refused.
    @Test(arguments: [0, -1, 65536, 99999])
    func aPortFlagOutsideOneTo65535IsRefused(port: Int) {
        #expect(throws: ConfigurationError.self) { try SproutConfiguration.fromEnvironment([:], port: port) }
    }

    @Test func passwordsAreKeptOutOfLogs() {
        let settings = DatabaseSettings.postgres(url: "postgres://sprout:secret@db:5432/sprout")
        #expect(!settings.redacted.contains("secret"))
    }
}
