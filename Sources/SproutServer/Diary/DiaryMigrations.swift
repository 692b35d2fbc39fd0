/// Diary entries per account, their replaced versions, each account's diary clock, and the weather cache.
///
/// Every entry write takes its `updated_ms` from `diary_clocks` in the same transaction, after moving the clock
/// forward (at least 1 ms, never behind the wall clock): per account, `updated_ms` is unique and increases in commit
/// order, which is what lets `since` promise that nothing committed later is missed (docs/diary-api.md).
/// A deletion leaves the row as a tombstone. The `diary_versions_keep` trigger copies what a write or a deletion
/// replaced into `diary_versions` in the same transaction, and keeps at most 20 `replaced` versions per entry.
enum DiaryMigrations {
    static var all: [SQLMigration] { [create] }

    /// How many `replaced` versions (an editor autosaving its own text) are kept per entry.
    static let keptReplacedVersions = 20

    static let create = SQLMigration(
        "diary.create",
        sqlite: [
            """
            CREATE TABLE diary_clocks (
              account_id INTEGER PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE, last_ms INTEGER NOT NULL)
            """,
            """
            CREATE TABLE diary_entries (
              account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
              entry_id TEXT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL,
              created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
              weather_main TEXT, weather_description TEXT, weather_icon TEXT, weather_temp_c REAL,
              deleted BOOLEAN NOT NULL, base_ms INTEGER,
              PRIMARY KEY (account_id, entry_id))
            """,
            "CREATE INDEX diary_entries_recent_idx ON diary_entries (account_id, deleted, created_ms, entry_id)",
            "CREATE UNIQUE INDEX diary_entries_changes_idx ON diary_entries (account_id, updated_ms)",
            """
            CREATE TABLE diary_versions (
              id INTEGER PRIMARY KEY AUTOINCREMENT, account_id INTEGER NOT NULL, entry_id TEXT NOT NULL,
              title TEXT NOT NULL, body TEXT NOT NULL, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
              weather_main TEXT, weather_description TEXT, weather_icon TEXT, weather_temp_c REAL,
              replaced_ms INTEGER NOT NULL, reason TEXT NOT NULL CHECK (reason IN ('replaced', 'conflict', 'deleted')),
              FOREIGN KEY (account_id, entry_id) REFERENCES diary_entries (account_id, entry_id) ON DELETE CASCADE)
            """,
            "CREATE INDEX diary_versions_entry_idx ON diary_versions (account_id, entry_id, id)",
            """
            CREATE TRIGGER diary_versions_keep AFTER UPDATE OF updated_ms ON diary_entries
            WHEN NOT OLD.deleted AND NEW.updated_ms <> OLD.updated_ms BEGIN
              INSERT INTO diary_versions (account_id, entry_id, title, body, created_ms, updated_ms, weather_main,
                weather_description, weather_icon, weather_temp_c, replaced_ms, reason)
              VALUES (OLD.account_id, OLD.entry_id, OLD.title, OLD.body, OLD.created_ms, OLD.updated_ms, OLD.weather_main,
                OLD.weather_description, OLD.weather_icon, OLD.weather_temp_c, NEW.updated_ms,
                CASE WHEN NEW.deleted THEN 'deleted' WHEN NEW.base_ms = OLD.updated_ms THEN 'replaced' ELSE 'conflict' END);
              DELETE FROM diary_versions WHERE account_id = OLD.account_id AND entry_id = OLD.entry_id AND reason = 'replaced'
                AND id NOT IN (SELECT id FROM diary_versions WHERE account_id = OLD.account_id AND entry_id = OLD.entry_id
                  AND reason = 'replaced' ORDER BY id DESC LIMIT \(keptReplacedVersions));
            END
            """,
            """
            CREATE TABLE weather_cache (
              location TEXT PRIMARY KEY, main TEXT NOT NULL, description TEXT NOT NULL, icon TEXT NOT NULL,
              temp_c REAL NOT NULL, fetched_ms INTEGER NOT NULL)
            """,
        ],
        postgres: [
            """
            CREATE TABLE diary_clocks (
              account_id BIGINT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE, last_ms BIGINT NOT NULL)
            """,
            """
            CREATE TABLE diary_entries (
              account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
              entry_id TEXT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL,
              created_ms BIGINT NOT NULL, updated_ms BIGINT NOT NULL,
              weather_main TEXT, weather_description TEXT, weather_icon TEXT, weather_temp_c DOUBLE PRECISION,
              deleted BOOLEAN NOT NULL, base_ms BIGINT,
              PRIMARY KEY (account_id, entry_id))
            """,
            "CREATE INDEX diary_entries_recent_idx ON diary_entries (account_id, deleted, created_ms, entry_id)",
            "CREATE UNIQUE INDEX diary_entries_changes_idx ON diary_entries (account_id, updated_ms)",
            """
            CREATE TABLE diary_versions (
              id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, account_id BIGINT NOT NULL, entry_id TEXT NOT NULL,
              title TEXT NOT NULL, body TEXT NOT NULL, created_ms BIGINT NOT NULL, updated_ms BIGINT NOT NULL,
              weather_main TEXT, weather_description TEXT, weather_icon TEXT, weather_temp_c DOUBLE PRECISION,
              replaced_ms BIGINT NOT NULL, reason TEXT NOT NULL CHECK (reason IN ('replaced', 'conflict', 'deleted')),
              FOREIGN KEY (account_id, entry_id) REFERENCES diary_entries (account_id, entry_id) ON DELETE CASCADE)
            """,
            "CREATE INDEX diary_versions_entry_idx ON diary_versions (account_id, entry_id, id)",
            """
            CREATE FUNCTION diary_versions_keep() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              INSERT INTO diary_versions (account_id, entry_id, title, body, created_ms, updated_ms, weather_main,
                weather_description, weather_icon, weather_temp_c, replaced_ms, reason)
              VALUES (OLD.account_id, OLD.entry_id, OLD.title, OLD.body, OLD.created_ms, OLD.updated_ms, OLD.weather_main,
                OLD.weather_description, OLD.weather_icon, OLD.weather_temp_c, NEW.updated_ms,
                CASE WHEN NEW.deleted THEN 'deleted' WHEN NEW.base_ms = OLD.updated_ms THEN 'replaced' ELSE 'conflict' END);
              DELETE FROM diary_versions WHERE account_id = OLD.account_id AND entry_id = OLD.entry_id AND reason = 'replaced'
                AND id NOT IN (SELECT id FROM diary_versions WHERE account_id = OLD.account_id AND entry_id = OLD.entry_id
                  AND reason = 'replaced' ORDER BY id DESC LIMIT \(keptReplacedVersions));
              RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER diary_versions_keep AFTER UPDATE OF updated_ms ON diary_entries FOR EACH ROW
            WHEN (NOT OLD.deleted AND NEW.updated_ms <> OLD.updated_ms) EXECUTE FUNCTION diary_versions_keep()
            """,
            """
            CREATE TABLE weather_cache (
              location TEXT PRIMARY KEY, main TEXT NOT NULL, description TEXT NOT NULL, icon TEXT NOT NULL,
              temp_c DOUBLE PRECISION NOT NULL, fetched_ms BIGINT NOT NULL)
            """,
        ]
    )
}
