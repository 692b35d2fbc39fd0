import Foundation
import NIOPosix

/// PostgreSQL's own client programs (`pg_dump`, `pg_restore`, `psql`), found and run for backups and restores.
///
/// The connection is given to them in the child's environment only (`PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`,
/// `PGSSLMODE` and `PGPASSWORD`), never on its command line, where any user of the machine could read the password
/// in the process list.
struct PostgresTools: Sendable {
    /// `PGHOST`… for the child, read from `DATABASE_URL`.
    let connection: [String: String]
    let environment: [String: String]

    init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            throw ConfigurationError("DATABASE_URL is not a postgres:// URL")
        }
        var connection = ["PGHOST": host, "PGPORT": String(components.port ?? 5432)]
        connection["PGUSER"] = components.user?.removingPercentEncoding ?? "postgres"
        if let password = components.password?.removingPercentEncoding { connection["PGPASSWORD"] = password }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        if !database.isEmpty { connection["PGDATABASE"] = database.removingPercentEncoding ?? database }
        if let sslMode = components.queryItems?.first(where: { $0.name == "sslmode" })?.value { connection["PGSSLMODE"] = sslMode }
        connection["PGAPPNAME"] = "sprout-backup"
        self.connection = connection
        self.environment = environment
    }

    /// `name` from `PG_BIN`, then `PATH`, then `/usr/lib/postgresql/*/bin` (newest major version first).
    func locate(_ name: String) throws -> String {
        var directories: [String] = []
        if let bin = environment["PG_BIN"], !bin.isEmpty { directories.append(bin) }
        directories += (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        directories += versions.compactMap { Int($0) }.sorted(by: >).map { "/usr/lib/postgresql/\($0)/bin" }
        for directory in directories {
            let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw BackupError.postgresTool(
            "\(name) was not found (looked in PG_BIN, PATH and /usr/lib/postgresql/*/bin). Install PostgreSQL's client "
                + "programs of the server's major version or newer (Debian: apt-get install postgresql-client-15), "
                + "or set PG_BIN to the directory that holds \(name)."
        )
    }

    /// Runs `tool` with `arguments` and the connection in its environment; throws with its standard error when
    /// it fails. Its standard output goes to `output` (or nowhere).
    func run(_ tool: String, _ arguments: [String], output: String? = nil) async throws {
        let executable = try locate(tool)
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("sprout-\(tool)-\(UUID().uuidString).err")
        defer { try? FileManager.default.removeItem(at: errors) }
        var childEnvironment = environment.filter { !$0.key.hasPrefix("PG") && !$0.key.hasPrefix("DATABASE_") }
        childEnvironment.merge(connection) { $1 }
        let status: Int32
        do {
            let child = try ChildProcess(executable, arguments, environment: childEnvironment, standardOutput: output, standardError: errors.path)
            status = await child.exitStatus()
        } catch {
            throw BackupError.postgresTool("\(tool) could not be started: \(error)")
        }
        guard status == 0 else {
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw BackupError.postgresTool("\(tool) failed (exit \(status)): \(message.trimmingCharacters(in: .whitespacesAndNewlines).prefix(2000))")
        }
    }

    /// `name` quoted as an SQL identifier.
    static func quoted(_ name: String) -> String {
        name.doubleQuoted
    }
}
