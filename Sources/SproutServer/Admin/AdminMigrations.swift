/// What the console and `sprout` administration need: roles and block reasons on accounts, the audit log, user
/// reports, and hiding (moderation) on the four kinds of content people write for others.
///
/// Hidden content is out of the lists' totals as it is out of the lists: the count triggers of the Market and the
/// Board treat hiding as a delete and restoring as an insert (and move the board's version, so kept search totals
/// and page marks are dropped), so a total kept by trigger stays the number of rows a list shows.
enum AdminMigrations {
    static var all: [SQLMigration] { [create, pins] }

    /// Pinned board posts (`pinned_at`: when a moderator pinned it; NULL: not pinned), found per board by a partial
    /// index: a board has at most `BoardAdministration.maximumPinnedPosts`.
    static let pins = SQLMigration(
        "admin.pins",
        sqlite: [
            "ALTER TABLE board_posts ADD COLUMN pinned_at REAL",
            "CREATE INDEX board_posts_pinned_idx ON board_posts (board_id, pinned_at) WHERE pinned_at IS NOT NULL",
        ],
        postgres: [
            "ALTER TABLE board_posts ADD COLUMN pinned_at TIMESTAMPTZ",
            "CREATE INDEX board_posts_pinned_idx ON board_posts (board_id, pinned_at) WHERE pinned_at IS NOT NULL",
        ]
    )

    static let create = SQLMigration(
        "admin.create",
        sqlite: [
            "ALTER TABLE accounts ADD COLUMN role TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'moderator', 'admin'))",
            "ALTER TABLE accounts ADD COLUMN blocked_reason TEXT",
            "ALTER TABLE accounts ADD COLUMN last_login_at REAL",
            "ALTER TABLE market_vendors ADD COLUMN disabled_at REAL",
            "CREATE INDEX accounts_created_idx ON accounts (created_at)",
            // The console's account search: the start of a username (any case) or of an email, by index.
            "CREATE INDEX accounts_username_folded_idx ON accounts (lower(username))",
            """
            CREATE TABLE audit_log (
              id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, actor TEXT NOT NULL, actor_account_id INTEGER,
              action TEXT NOT NULL, target TEXT NOT NULL, changes TEXT NOT NULL, client TEXT, user_agent TEXT, request_id TEXT)
            """,
            "CREATE INDEX audit_log_at_idx ON audit_log (at)",
            "CREATE INDEX audit_log_target_idx ON audit_log (target, id)",
            "CREATE INDEX audit_log_actor_idx ON audit_log (actor, id)",
            "CREATE INDEX audit_log_action_idx ON audit_log (action, id)",
            """
            CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log BEGIN
              SELECT RAISE(ABORT, 'audit_log is append-only');
            END
            """,
            """
            CREATE TABLE reports (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              kind TEXT NOT NULL CHECK (kind IN ('post', 'comment', 'product', 'board-post')), target_id INTEGER NOT NULL,
              reporter_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE, reason TEXT NOT NULL,
              created_at REAL NOT NULL, resolved_at REAL, resolution TEXT, resolved_by TEXT)
            """,
            "CREATE UNIQUE INDEX reports_open_idx ON reports (kind, target_id, reporter_id) WHERE resolved_at IS NULL",
            "CREATE INDEX reports_target_idx ON reports (kind, target_id)",
            "CREATE INDEX reports_queue_idx ON reports (created_at) WHERE resolved_at IS NULL",
            """
            CREATE TABLE admin_jobs (
              id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, state TEXT NOT NULL, phase TEXT NOT NULL,
              bytes INTEGER NOT NULL DEFAULT 0, actor TEXT NOT NULL, result TEXT, error TEXT,
              started_at REAL NOT NULL, updated_at REAL NOT NULL, finished_at REAL)
            """,
        ] + hidingColumns(timestamp: "REAL") + [
            "DROP TRIGGER market_counts_delete",
            """
            CREATE TRIGGER market_counts_delete AFTER DELETE ON market_products WHEN OLD.hidden_at IS NULL BEGIN
              UPDATE market_counts SET products = products - 1 WHERE id = 1;
            END
            """,
            """
            CREATE TRIGGER market_counts_hide AFTER UPDATE OF hidden_at ON market_products
              WHEN (OLD.hidden_at IS NULL) <> (NEW.hidden_at IS NULL) BEGIN
              UPDATE market_counts SET products = products + (CASE WHEN NEW.hidden_at IS NULL THEN 1 ELSE -1 END) WHERE id = 1;
            END
            """,
            "DROP TRIGGER board_counts_delete",
            """
            CREATE TRIGGER board_counts_delete AFTER DELETE ON board_posts BEGIN
              UPDATE board_counts SET posts = posts - (CASE WHEN OLD.hidden_at IS NULL THEN 1 ELSE 0 END), version = version + 1
              WHERE board_id = OLD.board_id;
            END
            """,
            """
            CREATE TRIGGER board_counts_hide AFTER UPDATE OF hidden_at ON board_posts
              WHEN (OLD.hidden_at IS NULL) <> (NEW.hidden_at IS NULL) BEGIN
              UPDATE board_counts SET posts = posts + (CASE WHEN NEW.hidden_at IS NULL THEN 1 ELSE -1 END), version = version + 1
              WHERE board_id = NEW.board_id;
            END
            """,
        ],
        postgres: [
            "ALTER TABLE accounts ADD COLUMN role TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'moderator', 'admin'))",
            "ALTER TABLE accounts ADD COLUMN blocked_reason TEXT",
            "ALTER TABLE accounts ADD COLUMN last_login_at TIMESTAMPTZ",
            "ALTER TABLE market_vendors ADD COLUMN disabled_at TIMESTAMPTZ",
            "CREATE INDEX accounts_created_idx ON accounts (created_at)",
            // The console's account search: byte order ("C"), so a prefix is an index range whatever the locale.
            "CREATE INDEX accounts_username_folded_idx ON accounts ((lower(username) COLLATE \"C\"))",
            "CREATE INDEX accounts_email_bytes_idx ON accounts ((email COLLATE \"C\"))",
            """
            CREATE TABLE audit_log (
              id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, at TIMESTAMPTZ NOT NULL, actor TEXT NOT NULL,
              actor_account_id BIGINT, action TEXT NOT NULL, target TEXT NOT NULL, changes TEXT NOT NULL, client TEXT,
              user_agent TEXT, request_id TEXT)
            """,
            "CREATE INDEX audit_log_at_idx ON audit_log (at)",
            "CREATE INDEX audit_log_target_idx ON audit_log (target, id)",
            "CREATE INDEX audit_log_actor_idx ON audit_log (actor, id)",
            "CREATE INDEX audit_log_action_idx ON audit_log (action, id)",
            """
            CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              RAISE EXCEPTION 'audit_log is append-only';
            END $$
            """,
            "CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()",
            """
            CREATE TABLE reports (
              id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
              kind TEXT NOT NULL CHECK (kind IN ('post', 'comment', 'product', 'board-post')), target_id BIGINT NOT NULL,
              reporter_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE, reason TEXT NOT NULL,
              created_at TIMESTAMPTZ NOT NULL, resolved_at TIMESTAMPTZ, resolution TEXT, resolved_by TEXT)
            """,
            "CREATE UNIQUE INDEX reports_open_idx ON reports (kind, target_id, reporter_id) WHERE resolved_at IS NULL",
            "CREATE INDEX reports_target_idx ON reports (kind, target_id)",
            "CREATE INDEX reports_queue_idx ON reports (created_at) WHERE resolved_at IS NULL",
            """
            CREATE TABLE admin_jobs (
              id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, kind TEXT NOT NULL, state TEXT NOT NULL, phase TEXT NOT NULL,
              bytes BIGINT NOT NULL DEFAULT 0, actor TEXT NOT NULL, result TEXT, error TEXT,
              started_at TIMESTAMPTZ NOT NULL, updated_at TIMESTAMPTZ NOT NULL, finished_at TIMESTAMPTZ)
            """,
        ] + hidingColumns(timestamp: "TIMESTAMPTZ") + [
            """
            CREATE OR REPLACE FUNCTION market_counts_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_OP = 'INSERT' THEN
                UPDATE market_counts SET products = products + 1 WHERE id = 1;
              ELSIF TG_OP = 'DELETE' THEN
                IF OLD.hidden_at IS NULL THEN
                  UPDATE market_counts SET products = products - 1 WHERE id = 1;
                END IF;
              ELSE
                UPDATE market_counts SET products = products + (CASE WHEN NEW.hidden_at IS NULL THEN 1 ELSE -1 END) WHERE id = 1;
              END IF;
              RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER market_counts_hide AFTER UPDATE OF hidden_at ON market_products FOR EACH ROW
              WHEN ((OLD.hidden_at IS NULL) <> (NEW.hidden_at IS NULL)) EXECUTE FUNCTION market_counts_change()
            """,
            """
            CREATE OR REPLACE FUNCTION board_counts_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_OP = 'INSERT' THEN
                INSERT INTO board_counts (board_id, posts) VALUES (NEW.board_id, 1)
                  ON CONFLICT (board_id) DO UPDATE SET posts = board_counts.posts + 1, version = board_counts.version + 1;
              ELSIF TG_OP = 'DELETE' THEN
                UPDATE board_counts SET posts = posts - (CASE WHEN OLD.hidden_at IS NULL THEN 1 ELSE 0 END), version = version + 1
                WHERE board_id = OLD.board_id;
              ELSIF TG_NAME = 'board_counts_hide' THEN
                UPDATE board_counts SET posts = posts + (CASE WHEN NEW.hidden_at IS NULL THEN 1 ELSE -1 END), version = version + 1
                WHERE board_id = NEW.board_id;
              ELSE
                UPDATE board_counts SET version = version + 1 WHERE board_id = NEW.board_id;
              END IF;
              RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER board_counts_hide AFTER UPDATE OF hidden_at ON board_posts FOR EACH ROW
              WHEN ((OLD.hidden_at IS NULL) <> (NEW.hidden_at IS NULL)) EXECUTE FUNCTION board_counts_change()
            """,
        ]
    )

    /// `hidden_at` (when a moderator hid it; NULL: shown) and `hidden_by` (the audit log's actor) on every kind of
    /// content that can be reported, with a partial index for the console's "hidden" filter.
    private static func hidingColumns(timestamp: String) -> [String] {
        ModeratedKind.allCases.flatMap { kind in
            [
                "ALTER TABLE \(kind.table) ADD COLUMN hidden_at \(timestamp)",
                "ALTER TABLE \(kind.table) ADD COLUMN hidden_by TEXT",
                "CREATE INDEX \(kind.table)_hidden_idx ON \(kind.table) (hidden_at) WHERE hidden_at IS NOT NULL",
            ]
        }
    }
}
