import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import Testing
@testable import SproutServer

/// Runs `body` against a fresh Sprout application on its own empty database: a temporary SQLite file, or,
/// when `SPROUT_TEST_DATABASE_URL` names a PostgreSQL database, a schema of its own that is dropped afterwards.
/// `clock`: the application's time of day (the system's unless a test moves its own).
func withTestApp<Value: Sendable>(
    _ testing: TestingSetup = .router,
    logger: Logger? = nil,
    clock: WallClock = .system,
    metrics: SproutMetrics = .off,
    readiness: Readiness = Readiness(),
    configure: (inout SproutConfiguration) -> Void = { _ in },
    _ body: @Sendable (any TestClientProtocol, SproutDatabase) async throws -> Value
) async throws -> Value {
    let logger = logger ?? testLogger()
    var configuration = SproutConfiguration(server: ServerSettings(hostname: "127.0.0.1", port: 0))
    // bcrypt's lowest cost: the tests sign up hundreds of accounts, and the cost is not what they test.
    configuration.accounts.passwordHashCost = 4
    // Uploaded files go to a directory of the test's own, never to ./data.
    let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("sprout-test-data-\(UUID().uuidString)")
    configuration.data.directory = dataDirectory.path
    // No test reaches a real weather service; the weather tests name their fake upstream.
    configuration.diary.weather.provider = .off
    // Every test client calls from one address and many sign up dozens of accounts; AddressRateLimitTests turn it on.
    configuration.accounts.signUpsPerAddressPerHour = 0
    configuration.market.uploadsPerHour = 0
    // One key for every test application, so a second one on the same database opens the first one's secrets.
    configuration.data.secretsKey = SecretSealer.testKey
    configure(&configuration)
    for secret in [configuration.board.apiToken, configuration.accounts.jwtSecret, configuration.data.secretsKey] {
        SuiteLog.noteSecret(secret)
    }
    let place = try await TestDatabasePlace.make(logger: logger)
    defer { try? FileManager.default.removeItem(at: dataDirectory) }
    do {
        let database = try SproutDatabase(settings: place.settings, migrations: SproutMigrations.all, logger: logger, metrics: metrics)
        let app = StartCheckedApplication(
            buildApplication(configuration, database: database, logger: logger, clock: clock, readiness: readiness, metrics: metrics)
        )
        // A failure is thrown after `app.test`, not through it (`testKeepingFailure`).
        let outcome = try await app.testKeepingFailure(testing) { client in
            try app.throwIfStartFailed()
            return try await body(client, database)
        }
        await place.remove(logger: logger)
        return try outcome.get()
    } catch {
        await place.remove(logger: logger)
        throw error
    }
}

extension SecretSealer {
    static let testKey = "the secrets key of the Sprout tests, 32+ bytes"
    static let forTests = SecretSealer(.text(testKey))
}

func testLogger() -> Logger {
    let level = ProcessInfo.processInfo.environment["SPROUT_TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
    if SuiteLog.handler(label: "sprout-tests") != nil {
        // The suite's log, for the check that no secret is ever logged (SuiteLog).
        var logger = Logger(label: "sprout-tests") { SuiteLog.handler(label: $0)! }
        logger.logLevel = level ?? .trace
        // Which test each line came from: with many running at once, a hung one is found by its last lines.
        logger[metadataKey: "test"] = "\(Test.current?.name ?? "none")"
        return logger
    }
    var logger = Logger(label: "sprout-tests")
    logger.logLevel = level ?? .critical
    return logger
}

/// Where one test's data lives, and how to clear it away.
struct TestDatabasePlace: Sendable {
    let settings: DatabaseSettings
    let directory: URL?

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["SPROUT_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `SPROUT_TEST_POOLER_URL`: a transaction-mode pooler (PgBouncer) in front of `postgresURL`'s server, which
    /// the tests' applications then reach the database through.
    static var poolerURL: String? {
        ProcessInfo.processInfo.environment["SPROUT_TEST_POOLER_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static func make(logger: Logger) async throws -> TestDatabasePlace {
        if let url = postgresURL {
            let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let pooled = try PooledTestRole(schema: schema, directURL: url, poolerURL: poolerURL)
            try await withAdminConnection(url: url, logger: logger) { executor in
                try await executor.writeAll((pooled?.creation ?? []) + [SQLStatement("CREATE SCHEMA \(raw: schema)")])
            }
            return TestDatabasePlace(settings: pooled?.settings ?? .postgres(url: url, schema: schema), directory: nil)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sprout-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return TestDatabasePlace(settings: .sqlite(path: directory.appendingPathComponent("sprout.sqlite").path), directory: directory)
    }

    func remove(logger: Logger) async {
        switch settings {
        case .sqlite:
            if let directory { try? FileManager.default.removeItem(at: directory) }
        case .postgres(_, let schema?, let pooler):
            guard let url = Self.postgresURL else { return }
            try? await Self.withAdminConnection(url: url, logger: logger) { executor in
                try await executor.writeAll([SQLStatement("DROP SCHEMA IF EXISTS \(raw: schema) CASCADE")])
                // The role outlives its sessions' last use in the pooler, which closes them when idle.
                if pooler != nil { try await executor.writeAll([SQLStatement("DROP ROLE IF EXISTS \(raw: schema)")]) }
            }
        case .postgres:
            break
        }
    }

    /// A connection to the database itself (no schema of ours), to create and drop the test's schema.
    static func withAdminConnection(url: String, logger: Logger, _ body: @escaping @Sendable (any SQLExecutor) async throws -> Void) async throws {
        let database = try SproutDatabase(settings: .postgres(url: url), migrations: [], logger: logger)
        try await database.withOpen { database in try await body(database.executor) }
    }
}

extension TestClientProtocol {
    /// Sends a request and returns status, headers and the parsed JSON body (nil when the body is not JSON).
    @discardableResult
    func send(
        _ method: HTTPRequest.Method,
        _ uri: String,
        headers: HTTPFields = [:],
        body: String? = nil
    ) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, json: JSON?) {
        try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { response in
            (response.status, response.headers, try? JSON(parsing: response.body))
        }
    }

    func sendJSON(_ method: HTTPRequest.Method, _ uri: String, _ json: String) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, json: JSON?) {
        try await send(method, uri, headers: [.contentType: "application/json", .accept: "application/json"], body: json)
    }

    @discardableResult
    func sendForm(_ method: HTTPRequest.Method, _ uri: String, _ form: String) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, json: JSON?) {
        try await send(method, uri, headers: [.contentType: "application/x-www-form-urlencoded"], body: form)
    }

    func sendMultipart(_ method: HTTPRequest.Method, _ uri: String, fields: [(String, String)]) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, json: JSON?) {
        let boundary = "Boundary-\(UUID().uuidString)"
        var body = ""
        for (name, value) in fields {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        body += "--\(boundary)--\r\n"
        return try await send(method, uri, headers: [.contentType: "multipart/form-data; boundary=\(boundary)"], body: body)
    }

    /// Creates a todo through the JSON endpoint and returns its id.
    @discardableResult
    func createTodo(_ title: String, isDone: Bool = false, version: String = "v2") async throws -> Int {
        let escaped = title.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let response = try await sendJSON(.post, "/api/\(version)/todos-json", #"{"title": "\#(escaped)", "is_done": \#(isDone)}"#)
        guard response.status == .ok, let id = response.json?["data"]?["id"]?.int else {
            throw TestFailure("create failed: \(response.status) \(String(describing: response.json))")
        }
        return id
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Test resources copied from `../shared/fixtures`, so the project stands on its own.
enum Fixture {
    static func json(_ path: String) throws -> JSON {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(path)", withExtension: nil) else {
            throw TestFailure("missing fixture \(path)")
        }
        return try JSON(parsing: Data(contentsOf: url))
    }
}

extension SproutDatabase {
    /// Counted over the table itself, not through `todo_counts`, so tests can compare the two.
    func todoCount(isDone: Bool? = nil) async throws -> Int {
        var statement: SQLStatement = "SELECT count(*) FROM todos"
        if let isDone { statement.append(" WHERE is_done = \(bind: isDone)") }
        return try await executor.readFirst(statement, as: SQLInt.self)?.value ?? 0
    }
}


/// Through a transaction pooler a test's application cannot set its schema when it connects (PgBouncer refuses
/// session settings), so each test gets a role of its own, named like its schema, whose defaults give the schema
/// and the statement timeout, as an operator would set them (docs/scaling.md).
struct PooledTestRole {
    let settings: DatabaseSettings
    let creation: [SQLStatement]

    /// Nil without a pooler. `role` is the schema's name unless given.
    init?(schema: String, role: String? = nil, directURL: String, poolerURL: String?) throws {
        guard let poolerURL else { return nil }
        let role = role ?? schema
        func asRole(_ url: String) throws -> String {
            guard var components = URLComponents(string: url) else { throw TestFailure("not a URL: \(url)") }
            components.user = role
            components.password = nil
            guard let string = components.string else { throw TestFailure("not a URL: \(url)") }
            return string
        }
        settings = .postgres(
            url: try asRole(poolerURL), schema: schema, pooler: TransactionPooler(directURL: try asRole(directURL))
        )
        // A superuser, like the tests' own role: what it may do is not what these tests are about.
        creation = [
            SQLStatement("CREATE ROLE \(raw: role) LOGIN SUPERUSER"),
            SQLStatement("ALTER ROLE \(raw: role) SET search_path = \(raw: schema)"),
            SQLStatement("ALTER ROLE \(raw: role) SET statement_timeout = '10s'"),
        ]
    }
}
