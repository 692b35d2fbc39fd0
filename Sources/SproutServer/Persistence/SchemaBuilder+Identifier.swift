import FluentKit
import SQLKit

extension SchemaBuilder {
    /// An integer primary key that is never handed out again after a delete, as MySQL and PostgreSQL keys are.
    /// SQLite reuses the highest rowid unless the column says AUTOINCREMENT, which its Fluent dialect omits —
    /// and a reused id would, for instance, put a deleted todo's star on a new todo in a client.
    func autoIncrementingID(_ key: FieldKey = "id", on database: any Database) -> Self {
        if (database as? any SQLDatabase)?.dialect.name == "sqlite" {
            return field(key, .int, .custom(SQLRaw("PRIMARY KEY AUTOINCREMENT")))
        }
        return field(key, .int, .identifier(auto: true))
    }
}
