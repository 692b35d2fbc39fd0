import Foundation
import GRDB

/// The todos a person starred, kept on the device in SQLite as the REST_TODO app kept them
/// (a `Favorite` table of todo ids). Nothing is sent to the server.
public final class TodoFavourites: Sendable {
    private let database: DatabaseQueue

    /// Opens (or creates) the favourites database at `path`.
    public init(path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try DatabaseQueue(path: path)
        try Self.migrator.migrate(database)
    }

    /// An in-memory store, for previews and tests that do not need persistence.
    public init() throws {
        database = try DatabaseQueue()
        try Self.migrator.migrate(database)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createFavorite") { db in
            // The original app's table and column, so an exported database reads the same.
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS Favorite (id INTEGER PRIMARY KEY)")
        }
        return migrator
    }

    /// Stars a todo. Returns false when it already was starred.
    @discardableResult
    public func mark(_ id: Int) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO Favorite (id) VALUES (?)", arguments: [id])
            return db.changesCount > 0
        }
    }

    /// Removes the star. Returns false when the todo was not starred.
    @discardableResult
    public func unmark(_ id: Int) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "DELETE FROM Favorite WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    /// Stars or unstars a todo; returns whether it is starred afterwards.
    @discardableResult
    public func toggle(_ id: Int) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "DELETE FROM Favorite WHERE id = ?", arguments: [id])
            if db.changesCount > 0 { return false }
            try db.execute(sql: "INSERT INTO Favorite (id) VALUES (?)", arguments: [id])
            return true
        }
    }

    /// Whether the todo is starred.
    public func contains(_ id: Int) throws -> Bool {
        try database.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM Favorite WHERE id = ?)", arguments: [id]) ?? false
        }
    }

    /// Every starred todo id, in ascending order.
    public func all() throws -> [Int] {
        try database.read { db in
            try Int.fetchAll(db, sql: "SELECT id FROM Favorite ORDER BY id")
        }
    }
}
