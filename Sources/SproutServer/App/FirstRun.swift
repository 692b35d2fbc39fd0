/// What a newcomer sees when `sprout serve` starts on a database with nothing in it yet.
public enum FirstRun {
    /// No account and no todo: nobody has used this server (the seed boards alone do not count).
    public static func databaseIsEmpty(_ database: SproutDatabase) async throws -> Bool {
        let row = try await database.executor.readFirst("""
            SELECT CASE WHEN EXISTS (SELECT 1 FROM accounts) OR EXISTS (SELECT 1 FROM todos) THEN 0 ELSE 1 END
            """, as: SQLInt.self)
        return row?.value == 1
    }

    public static let seedHint = "The database is empty: `sprout seed` adds demo accounts, todos, posts, products, board posts and diary entries."
}
