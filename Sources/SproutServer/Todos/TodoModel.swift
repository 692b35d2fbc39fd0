import FluentKit
import Foundation

/// The `todos` table. `owner_id` is null for the shared anonymous list; it will reference accounts once they exist.
final class TodoModel: Model, @unchecked Sendable {
    static let schema = "todos"

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "title") var title: String
    /// The title case-folded in Swift, so search is case-insensitive for all Latin letters on both databases
    /// (SQLite's LOWER folds ASCII only).
    @Field(key: "title_folded") var titleFolded: String
    @Field(key: "is_done") var isDone: Bool
    @OptionalField(key: "owner_id") var ownerID: Int?
    // Set by the service, not by Fluent's @Timestamp, so that `updated_at` moves only on a real change.
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(title: String, isDone: Bool, ownerID: Int?, createdAt: Date) {
        self.title = title
        self.titleFolded = TodoModel.fold(title)
        self.isDone = isDone
        self.ownerID = ownerID
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    /// Composed (NFC) then lowercased: Hangul typed on one system and pasted from another (NFD) match, and so
    /// do Latin letters of either case.
    static func fold(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping.lowercased()
    }

    var todo: Todo {
        Todo(id: id!, title: title, isDone: isDone, createdAt: createdAt, updatedAt: updatedAt)
    }
}
