import Foundation
import Testing
@testable import SproutServer

/// The rules that let nodes of two versions share one database during a rolling upgrade (docs/operations.md):
/// a migration only adds, so an older node's statements still find every table and column they name.
struct MigrationRulesTests {
    /// What would break a node of the previous version still running beside the migrated schema. Triggers and
    /// indexes are the schema's own business (no statement names them) and may be replaced.
    static let breaking = ["DROP TABLE", "DROP COLUMN", "RENAME ", "ALTER COLUMN", "DROP VIEW", "DROP FUNCTION"]

    @Test func everyMigrationOnlyAdds() {
        for migration in SproutMigrations.all {
            for statement in migration.sqlite + migration.postgres {
                let text = statement.uppercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
                for word in Self.breaking {
                    #expect(!text.contains(word), "\(migration.name): \(statement)")
                }
            }
        }
    }

    @Test func everyMigrationHasItsOwnName() {
        let names = SproutMigrations.all.map(\.name)
        #expect(Set(names).count == names.count)
    }
}
