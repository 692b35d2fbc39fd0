import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// A database made by the Fluent-era Sprout (before the data layer moved to GRDB and postgres-nio) is adopted
/// as it is: its todos keep their ids and dates, and get counts and a search index.
@Suite struct FluentDatabaseAdoptionTests {
    @Test func aFluentEraDatabaseIsAdoptedWithEveryTodo() async throws {
        let logger = testLogger()
        let place = try await TestDatabasePlace.make(logger: logger)
        do {
            let old = try SproutDatabase(settings: place.settings, migrations: [], logger: logger)
            let statements = FluentEraSchema.statements(old.executor.dialect).map { SQLStatement($0) }
            try await old.withOpen { database in try await database.executor.writeAll(statements) }

            let database = try SproutDatabase(settings: place.settings, migrations: SproutMigrations.all, logger: logger)
            let app = buildApplication(SproutConfiguration(server: ServerSettings(hostname: "127.0.0.1", port: 0)), database: database, logger: logger)
            try await app.test(.router) { client in
                let list = try #require(try await client.send(.get, "/api/v2/todos?order_by=asc").json)
                #expect(list["meta"]?["total"] == .number(3))
                #expect(list["data"]?.array?.compactMap { $0["id"]?.int } == [1, 2, 3])
                #expect(try await client.send(.get, "/api/v2/todos?is_done=true").json?["meta"]?["total"] == .number(1))
                let shown = try await client.send(.get, "/api/v2/todos/1").json?["data"]
                #expect(shown?["title"] == .string("장보기 목록 정리하기"))
                #expect(shown?["created_at"] == .string("2023-09-16T18:07:38.000000Z"))
                #expect(shown?["is_done"] == .bool(false))
                let found = try await client.send(.get, "/api/v2/todos/search?query=dentist").json
                #expect(found?["data"]?.array?.compactMap { $0["id"]?.int } == [2])
                // Id 4 was deleted under the old server: it is never handed out again.
                #expect(try await client.createTodo("first todo after the move") == 5)
                #expect(try await client.send(.get, "/api/v2/todos").json?["meta"]?["total"] == .number(4))
            }
            // Migrating again (a restart) changes nothing.
            let restarted = try SproutDatabase(settings: place.settings, migrations: SproutMigrations.all, logger: logger)
            let count = try await restarted.withOpen { database in
                try await database.migrate()
                return try await database.todoCount()
            }
            #expect(count == 4)
            await place.remove(logger: logger)
        } catch {
            await place.remove(logger: logger)
            throw error
        }
    }
}

/// What FluentKit's `CreateTodos` migration (and Fluent's own migrations table) made, as its SQL logs showed.
enum FluentEraSchema {
    static func statements(_ dialect: SQLDialect) -> [String] {
        let rows = [
            ("장보기 목록 정리하기", false, "2023-09-16 18:07:38", 1_694_887_658),
            ("Call the dentist about the todo appointment", true, "2023-09-16 18:08:00", 1_694_887_680),
            ("Write the project README", false, "2023-09-16 18:09:00", 1_694_887_740),
            ("deleted before the move", false, "2023-09-16 18:10:00", 1_694_887_800),
        ]
        switch dialect {
        case .sqlite:
            return [
                #"CREATE TABLE "_fluent_migrations"("id" UUID PRIMARY KEY, "name" TEXT NOT NULL, "batch" INTEGER NOT NULL, "created_at" REAL, "updated_at" REAL, CONSTRAINT "uq:_fluent_migrations.name" UNIQUE ("name"))"#,
                #"INSERT INTO "_fluent_migrations" VALUES ('0B1C3C0E-6A43-4C8E-9C0B-5C1A3F1D2E4F', 'CreateTodos', 1, 1694887600.0, 1694887600.0)"#,
                #"CREATE TABLE "todos"("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL, "title_folded" TEXT NOT NULL, "is_done" BOOLEAN NOT NULL, "owner_id" INTEGER, "created_at" REAL NOT NULL, "updated_at" REAL NOT NULL)"#,
                #"CREATE INDEX "todos_owner_created_idx" ON "todos" ("owner_id", "created_at", "id")"#,
                #"CREATE INDEX "todos_owner_updated_idx" ON "todos" ("owner_id", "updated_at", "id")"#,
            ] + rows.map { title, done, _, seconds in
                "INSERT INTO todos (title, title_folded, is_done, owner_id, created_at, updated_at) VALUES ('\(title)', '\(Todo.fold(title))', \(done ? 1 : 0), NULL, \(seconds).0, \(seconds).0)"
            } + ["DELETE FROM todos WHERE id = 4"]
        case .postgres:
            return [
                #"CREATE TABLE "_fluent_migrations"("id" UUID PRIMARY KEY, "name" TEXT NOT NULL, "batch" BIGINT NOT NULL, "created_at" TIMESTAMPTZ, "updated_at" TIMESTAMPTZ, CONSTRAINT "uq:_fluent_migrations.name" UNIQUE ("name"))"#,
                #"INSERT INTO "_fluent_migrations" VALUES ('0b1c3c0e-6a43-4c8e-9c0b-5c1a3f1d2e4f', 'CreateTodos', 1, now(), now())"#,
                #"CREATE TABLE "todos"("id" BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "title" TEXT NOT NULL, "title_folded" TEXT NOT NULL, "is_done" BOOLEAN NOT NULL, "owner_id" BIGINT, "created_at" TIMESTAMPTZ NOT NULL, "updated_at" TIMESTAMPTZ NOT NULL)"#,
                #"CREATE INDEX "todos_owner_created_idx" ON "todos" ("owner_id", "created_at", "id")"#,
                #"CREATE INDEX "todos_owner_updated_idx" ON "todos" ("owner_id", "updated_at", "id")"#,
                #"CREATE INDEX "todos_anonymous_created_at_idx" ON "todos" ("created_at", "id") WHERE "owner_id" IS NULL"#,
                #"CREATE INDEX "todos_anonymous_updated_at_idx" ON "todos" ("updated_at", "id") WHERE "owner_id" IS NULL"#,
            ] + rows.map { title, done, stamp, _ in
                "INSERT INTO todos (title, title_folded, is_done, owner_id, created_at, updated_at) VALUES ('\(title)', '\(Todo.fold(title))', \(done), NULL, '\(stamp)+00', '\(stamp)+00')"
            } + ["DELETE FROM todos WHERE id = 4"]
        }
    }
}
