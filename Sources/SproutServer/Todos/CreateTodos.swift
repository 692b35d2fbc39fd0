import FluentKit
import SQLKit

/// Creates the `todos` table and the indexes its list orders need.
struct CreateTodos: AsyncMigration {
    var name: String { "CreateTodos" }

    func prepare(on database: any Database) async throws {
        try await database.schema(TodoModel.schema)
            .autoIncrementingID(on: database)
            .field("title", .string, .required)
            .field("title_folded", .string, .required)
            .field("is_done", .bool, .required)
            .field("owner_id", .int)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        let sql = database as! any SQLDatabase
        // One index per sort order; owner first, so each owner's list (and the shared one) is a range scan.
        try await sql.create(index: "todos_owner_created_idx").on(TodoModel.schema)
            .column("owner_id").column("created_at").column("id").run()
        try await sql.create(index: "todos_owner_updated_idx").on(TodoModel.schema)
            .column("owner_id").column("updated_at").column("id").run()
        // The shared anonymous list is `owner_id IS NULL`, which PostgreSQL's planner does not treat as fixing the
        // index's first column: without these partial indexes it sorts every anonymous row for each page.
        for column in ["created_at", "updated_at"] {
            try await sql.raw(
                "CREATE INDEX \(ident: "todos_anonymous_\(column)_idx") ON \(ident: TodoModel.schema) (\(ident: column), \(ident: "id")) WHERE \(ident: "owner_id") IS NULL"
            ).run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(TodoModel.schema).delete()
    }
}
