import Foundation
import Observation
import SproutWire

/// One open entry in the editor, with the original app's autosave (§C.6): the text is saved when it changes,
/// when editing ends, when the screen is left, and when the app enters the background — each time only if
/// there is something to save:
///
/// - a first line that is empty or only spaces is nothing to save (a new entry is not created; an existing one
///   keeps its last saved text);
/// - a new entry is inserted **once** — its id is made when the editor opens, and later saves update it;
/// - later saves change the title and body only (never the date or the weather), and only when they differ
///   from what was last saved.
///
/// A new entry asks for its weather when it is first saved (`DiaryStore.create`); nothing here asks again.
@MainActor
@Observable
public final class DiaryEditor {
    /// The entry's id: the existing entry's, or one made for the new entry when the editor opened.
    public let id: UUID
    /// When the entry was (or will be) created: the navigation title shows its date.
    public let createdAt: Date
    /// The text in the editor, as typed.
    public private(set) var text: String
    /// Whether the entry has not been saved yet (a new entry before its first save).
    public private(set) var isNew: Bool
    /// Whether the entry was deleted from this editor; nothing is saved afterwards.
    public private(set) var isDeleted = false

    private let store: DiaryStore
    /// The title and body last saved (or opened with).
    @ObservationIgnored private var saved: (title: String, body: String)?
    /// Set while a save runs, so a trigger fired from inside it cannot save (and insert) twice.
    @ObservationIgnored private var isSaving = false

    /// An editor for `entry`, or for a new entry (created now, saved on the first trigger with text) when nil.
    public init(store: DiaryStore, entry: DiaryEntry? = nil, now: Date = Date()) {
        self.store = store
        if let entry {
            id = entry.id
            createdAt = entry.createdAt
            text = entry.editorText
            isNew = false
            saved = (entry.title, entry.body)
        } else {
            id = UUID()
            // Whole milliseconds, as the server keeps them.
            createdAt = now.truncatedToMilliseconds
            text = ""
            isNew = true
        }
    }

    /// The entry as the store has it now; nil before a new entry's first save.
    public var entry: DiaryEntry? { store.entry(id: id) }

    /// Whether the menu's share and delete apply: the entry exists.
    public var isExisting: Bool { !isNew && !isDeleted }

    /// What the share sheet gets; nil while there is nothing saved.
    public var shareText: String? { entry?.shareText }

    // MARK: Autosave triggers

    /// The text view's text changed: keeps it and saves.
    public func textChanged(_ text: String) {
        self.text = text
        save()
    }

    /// Editing ended (the text view resigned): saves.
    public func editingEnded() {
        save()
    }

    /// The screen is going away (back to the list): saves.
    public func leaving() {
        save()
    }

    /// The app entered the background: saves.
    public func enteredBackground() {
        save()
    }

    /// Saves the text if there is something to save; returns whether anything was written.
    @discardableResult
    public func save() -> Bool {
        guard !isDeleted, !isSaving, let parts = DiaryText.split(text) else { return false }
        let (title, body) = parts
        isSaving = true
        defer { isSaving = false }
        if isNew {
            guard store.create(id: id, title: title, body: body, createdAt: createdAt, fetchingWeather: true) != nil else { return false }
            isNew = false
            saved = (title, body)
            return true
        }
        if let saved, saved.title == title, saved.body == body { return false }
        switch store.save(id: id, title: title, body: body) {
        case .updated?:
            saved = (title, body)
            return true
        case .unchanged?:
            saved = (title, body)
            return false
        case .missing?:
            // Deleted on another device while open here: the text typed since is written back as the entry
            // (the server brings it back from its tombstone). Deleted here: nothing to save.
            guard !store.isDeletedLocally(id) else { return false }
            guard store.create(id: id, title: title, body: body, createdAt: createdAt, fetchingWeather: false) != nil else { return false }
            saved = (title, body)
            return true
        case nil:
            return false
        }
    }

    /// Deletes the entry (the menu's delete, after the confirmation); nothing is saved afterwards. A new entry
    /// that was never saved is simply dropped.
    @discardableResult
    public func delete() -> Bool {
        isDeleted = true
        return isNew ? false : store.delete(id: id)
    }
}
