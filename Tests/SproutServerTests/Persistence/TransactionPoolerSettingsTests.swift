import Foundation
import Testing
@testable import SproutServer

/// `DATABASE_POOLER=transaction` with `DATABASE_DIRECT_URL`: what each combination means, and what is refused.
struct TransactionPoolerSettingsTests {
    static let pooler = "postgres://sprout:pooled-secret@pgbouncer:6432/sprout"
    static let direct = "postgres://sprout:direct-secret@db:5432/sprout"

    @Test func aTransactionPoolerSendsSessionsToTheDirectURL() throws {
        let configuration = try SproutConfiguration.fromEnvironment([
            "DATABASE_URL": Self.pooler, "DATABASE_POOLER": "transaction", "DATABASE_DIRECT_URL": Self.direct,
        ])
        let settings = configuration.data.database
        #expect(settings == .postgres(url: Self.pooler, pooler: TransactionPooler(directURL: Self.direct)))
        #expect(settings.sessionURL == Self.direct)
        #expect(DatabaseSettings.postgres(url: Self.direct).sessionURL == Self.direct)
    }

    @Test(arguments: [
        ["DATABASE_URL": pooler, "DATABASE_POOLER": "transaction"],  // nowhere for LISTEN, migrations, backups
        ["DATABASE_POOLER": "transaction", "DATABASE_DIRECT_URL": direct],  // no pooler to go through
        ["DATABASE_URL": direct, "DATABASE_DIRECT_URL": direct],  // a direct URL without saying there is a pooler
        ["DATABASE_URL": pooler, "DATABASE_POOLER": "statement", "DATABASE_DIRECT_URL": direct],
        ["DATABASE_URL": pooler, "DATABASE_POOLER": "transaction", "DATABASE_DIRECT_URL": "mysql://db/sprout"],
    ])
    func incompletePoolerSettingsAreRefusedWithAReason(environment: [String: String]) {
        #expect(throws: ConfigurationError.self) { try SproutConfiguration.fromEnvironment(environment) }
    }

    @Test(arguments: ["session", "none"])
    func aSessionPoolerIsPostgreSQLAsUsual(mode: String) throws {
        let configuration = try SproutConfiguration.fromEnvironment(["DATABASE_URL": Self.pooler, "DATABASE_POOLER": mode])
        #expect(configuration.data.database == .postgres(url: Self.pooler))
    }

    @Test func neitherPasswordIsPrinted() async {
        let configuration = try? SproutConfiguration.fromEnvironment([
            "DATABASE_URL": Self.pooler, "DATABASE_POOLER": "transaction", "DATABASE_DIRECT_URL": Self.direct,
        ])
        let printed = [
            String(describing: configuration), configuration.map { "\($0.data.database)" } ?? "",
        ]
        for text in printed {
            #expect(!text.contains("pooled-secret") && !text.contains("direct-secret"), "\(text)")
        }
        #expect(printed[1].contains("direct postgres://sprout:***@db:5432/sprout"))
        struct DriverError: Error, CustomStringConvertible {
            var description: String { "could not connect to \(TransactionPoolerSettingsTests.direct)" }
        }
        do {
            try await SecretRedaction.redactingErrors(of: configuration!) { throw DriverError() }
        } catch {
            #expect(!String(describing: error).contains("direct-secret"))
        }
    }
}

/// Sprout through a transaction pooler, on PostgreSQL itself standing in for the pooler: what it may not rely on.
struct TransactionPoolerSessionTests {
    @Test(.enabled(if: TestDatabasePlace.postgresURL != nil, "needs SPROUT_TEST_DATABASE_URL"))
    func throughAPoolerNoStatementIsKeptPreparedOnAServerConnection() async throws {
        try await withPooledRole(givesSchema: true) { settings in
            let database = try SproutDatabase(settings: settings, migrations: SproutMigrations.all, logger: testLogger())
            try await database.withOpen { database in
                try await database.migrate()
                // Marked prepared, as the hot lookups are: through a pooler the next call may get another server
                // connection, where a named statement does not exist.
                let count = SQLStatement("SELECT count(*) FROM pg_prepared_statements").prepared()
                _ = try await database.executor.read(count, as: SQLInt.self)
                #expect(try await database.executor.read(count, as: SQLInt.self).map(\.value) == [0])
            }
        }
    }

    @Test(.enabled(if: TestDatabasePlace.postgresURL != nil, "needs SPROUT_TEST_DATABASE_URL"))
    func aPoolerWhoseRoleDoesNotGiveTheSchemaIsRefusedAtStart() async throws {
        try await withPooledRole(givesSchema: false) { settings in
            let database = try SproutDatabase(settings: settings, migrations: SproutMigrations.all, logger: testLogger())
            try await database.withOpen { database in
                let error = await #expect(throws: ConfigurationError.self) { try await database.migrate() }
                #expect(error?.description.contains("ALTER ROLE") == true, "\(String(describing: error))")
            }
        }
    }

    /// A role and schema of their own; the "pooler" is PostgreSQL itself, reached as that role.
    private func withPooledRole(givesSchema: Bool, _ body: (DatabaseSettings) async throws -> Void) async throws {
        let url = try #require(TestDatabasePlace.postgresURL)
        let name = "pooled_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        // Not named like the role: PostgreSQL's default search_path ("$user", public) would find that one.
        let schema = name + "_data"
        let role = try #require(try PooledTestRole(schema: schema, role: name, directURL: url, poolerURL: url))
        let creation = givesSchema ? role.creation : role.creation.filter { !$0.sql.contains("search_path") }
        try await TestDatabasePlace.withAdminConnection(url: url, logger: testLogger()) { executor in
            try await executor.writeAll(creation + [SQLStatement("CREATE SCHEMA \(raw: schema)")])
        }
        func remove() async {
            try? await TestDatabasePlace.withAdminConnection(url: url, logger: testLogger()) { executor in
                try await executor.writeAll([SQLStatement("DROP SCHEMA IF EXISTS \(raw: schema) CASCADE"), SQLStatement("DROP ROLE IF EXISTS \(raw: name)")])
            }
        }
        do {
            try await body(role.settings)
        } catch {
            await remove()
            throw error
        }
        await remove()
    }
}
