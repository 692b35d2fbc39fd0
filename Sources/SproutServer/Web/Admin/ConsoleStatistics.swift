import Foundation

/// How many rows each app holds: the console's overview for the whole site, and an account's page for one
/// account. Counts only: no text of anything is read, and diary entries are counted, never opened.
struct AppCounts: Sendable, SQLRowDecodable {
    let todos: Int
    let posts: Int
    let comments: Int
    let products: Int
    let boardPosts: Int
    let diaryEntries: Int

    init(row: some SQLRow) throws {
        todos = try row.int("todos")
        posts = try row.int("posts")
        comments = try row.int("comments")
        products = try row.int("products")
        boardPosts = try row.int("board_posts")
        diaryEntries = try row.int("diary_entries")
    }

    /// Plain `count(*)`s: no table keeps every one of these totals (the market's and the board's counts leave
    /// hidden rows out, and the console counts what is stored).
    static func statement(account: Int?) -> SQLStatement {
        func filter(_ column: String) -> SQLStatement {
            account.map { "WHERE \(raw: column) = \(bind: $0)" } ?? ""
        }
        let products: SQLStatement = account.map {
            "(SELECT count(*) FROM market_products p JOIN market_vendors v ON v.id = p.vendor_id WHERE v.account_id = \(bind: $0))"
        } ?? "(SELECT count(*) FROM market_products)"
        // A deleted diary entry stays as a tombstone for the other devices' sync: it is no entry any more.
        let diary: SQLStatement = account.map {
            "(SELECT count(*) FROM diary_entries WHERE account_id = \(bind: $0) AND NOT deleted)"
        } ?? "(SELECT count(*) FROM diary_entries WHERE NOT deleted)"
        return """
            SELECT (SELECT count(*) FROM todos \(filter("owner_id"))) AS todos,
              (SELECT count(*) FROM posts \(filter("user_id"))) AS posts,
              (SELECT count(*) FROM comments \(filter("user_id"))) AS comments,
              \(products) AS products,
              (SELECT count(*) FROM board_posts \(filter("account_id"))) AS board_posts,
              \(diary) AS diary_entries
            """
    }
}

/// The numbers of the console's overview, read from the database and the data directory.
struct ConsoleStatistics: Sendable {
    let executor: any SQLExecutor
    let database: DatabaseSettings
    let dataDirectory: String
    let backupDirectory: String
    let overviewCache = OverviewFiguresCache()

    /// The counts and the charts, at most a minute old (`OverviewFiguresCache`).
    func overviewFigures(now: Date) async throws -> OverviewFigures {
        let statistics = self
        return try await overviewCache.figures(now: now) {
            async let counts = statistics.counts()
            async let accounts = statistics.accountCount()
            async let signUps = statistics.signUpsPerDay(now: now)
            async let content = statistics.newContentPerDay(now: now)
            return OverviewFigures(counts: try await counts, accounts: try await accounts, signUps: try await signUps, content: try await content, countedAt: now)
        }
    }

    /// Days the charts show, today (UTC) last.
    static let days = 30

    func counts(account: Int? = nil) async throws -> AppCounts {
        guard let counts = try await executor.readFirst(AppCounts.statement(account: account), as: AppCounts.self) else {
            throw SQLRowError.missingReturnedRow
        }
        return counts
    }

    func accountCount() async throws -> Int {
        try await executor.readFirst("SELECT count(*) FROM accounts", as: SQLInt.self)?.value ?? 0
    }

    func openReports() async throws -> Int {
        try await executor.readFirst("SELECT count(*) FROM reports WHERE resolved_at IS NULL", as: SQLInt.self)?.value ?? 0
    }

    /// The first instant of the charts: midnight UTC, `days - 1` days before today's.
    static func chartStart(now: Date) -> Date {
        let today = (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        return Date(timeIntervalSince1970: today - Double(days - 1) * 86_400)
    }

    /// Sign-ups per day (UTC) over the last `days` days, oldest first, one number a day (0 for none).
    func signUpsPerDay(now: Date) async throws -> [Int] {
        let start = Self.chartStart(now: now)
        let rows = try await executor.read(
            "SELECT \(dayOf("created_at", since: start)) AS day, count(*) AS n FROM accounts WHERE created_at >= \(bind: start) GROUP BY 1",
            as: DayCount.self
        )
        return Self.series(rows)
    }

    /// New todos, posts, comments, products, board posts and diary entries per day (UTC), oldest first. A diary
    /// entry's day is its `created_ms`, which the writing device sets (the apps keep when they wrote it).
    func newContentPerDay(now: Date) async throws -> [Int] {
        let start = Self.chartStart(now: now)
        let startMs = Int((start.timeIntervalSince1970 * 1000).rounded())
        var parts: [SQLStatement] = ["todos", "posts", "comments", "market_products", "board_posts"].map { table in
            "SELECT \(dayOf("created_at", since: start)) AS day FROM \(raw: table) WHERE created_at >= \(bind: start)"
        }
        parts.append("SELECT (created_ms - \(bind: startMs)) / 86400000 AS day FROM diary_entries WHERE created_ms >= \(bind: startMs) AND NOT deleted")
        let rows = try await executor.read(
            "SELECT day, count(*) AS n FROM (\(SQLStatement.joined(parts, separator: " UNION ALL "))) content GROUP BY day",
            as: DayCount.self
        )
        return Self.series(rows)
    }

    /// The day number (0 = `start`'s day) of a timestamp column, as each dialect stores timestamps.
    private func dayOf(_ column: String, since start: Date) -> SQLStatement {
        switch executor.dialect {
        case .sqlite: "CAST((\(raw: column) - \(bind: start)) / 86400 AS INTEGER)"
        case .postgres: "CAST(floor(extract(epoch FROM (\(raw: column) - \(bind: start))) / 86400) AS BIGINT)"
        }
    }

    private static func series(_ rows: [DayCount]) -> [Int] {
        var values = Array(repeating: 0, count: days)
        for row in rows where values.indices.contains(row.day) { values[row.day] += row.count }
        return values
    }

    private struct DayCount: SQLRowDecodable {
        let day: Int
        let count: Int
        init(row: some SQLRow) throws {
            day = try row.int("day")
            count = try row.int("n")
        }
    }

    /// Bytes the database takes: SQLite's file with its write-ahead log and shared memory; PostgreSQL's
    /// `pg_database_size` of the whole database (every schema in it).
    func databaseBytes() async throws -> Int64? {
        switch database {
        case .sqlite(let path):
            let sizes = [path, path + "-wal", path + "-shm"].compactMap { file in
                (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber
            }
            return sizes.isEmpty ? nil : sizes.reduce(0) { $0 + $1.int64Value }
        case .postgres:
            return try await executor.readFirst("SELECT pg_database_size(current_database())", as: SQLInt.self).map { Int64($0.value) }
        }
    }

    /// Bytes free for Sprout (not for root alone) on the data directory's file system; nil when it cannot be read.
    func freeDiskBytes() -> Int64? {
        var info = statvfs()
        guard statvfs(dataDirectory, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// When the newest backup archive in the backup directory was made, from its name (the names are UTC times,
    /// as `sprout backup list` and the schedule's pruning read them); nil when there is none.
    func newestBackup() -> (name: String, at: Date)? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: backupDirectory),
            let newest = names.filter(SproutBackup.isArchiveName).max()
        else { return nil }
        let stamp = newest.dropFirst("sprout-backup-".count).dropLast(".tar".count)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        guard let date = formatter.date(from: String(stamp)) else { return nil }
        return (newest, date)
    }
}
