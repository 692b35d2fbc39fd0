import Foundation
import Observation

/// The diary's list screen without its UI, local-first: entries are written to and read from the device's
/// database (`DiaryDatabase`) and work fully offline; `sync()` exchanges them with the server when it can.
///
/// - `entries` are newest first by `createdAt` (ties: `id` descending), deleted ones left out.
/// - A new entry is saved first; its weather is asked for once, afterwards, and attached when it arrives (see
///   `DiaryWeatherSource`). No weather (no location, a 502 or 503, no network) leaves it without; edits never
///   ask again.
/// - Deleting an entry the server never had drops it; any other stays as a tombstone until the server has the
///   deletion.
/// - Failures of the database set `errorMessage`; a failed sync sets `lastSyncError` and keeps every local change.
@MainActor
@Observable
public final class DiaryStore {
    /// The live entries, newest first.
    public private(set) var entries: [DiaryEntry] = []
    /// Whether a sync is under way.
    public private(set) var isSyncing = false
    /// What the last successful sync did.
    public private(set) var lastSyncReport: DiarySyncReport?
    /// Why the last sync failed; nil after a success.
    public private(set) var lastSyncError: SproutError?
    /// What the last weather attempt came to (weather, no location, or why it failed); nil before the first.
    public private(set) var lastWeatherOutcome: DiaryWeatherSource.Outcome?
    /// The last failure as a sentence to show; `dismissError()` clears it.
    public private(set) var errorMessage: String?

    /// The diary on the device.
    public let database: DiaryDatabase
    @ObservationIgnored private let weatherSource: DiaryWeatherSource?
    @ObservationIgnored private let syncEngine: DiarySyncEngine?
    @ObservationIgnored private var weatherTasks: [UUID: Task<Void, Never>] = [:]

    /// - Parameters:
    ///   - database: the diary on the device.
    ///   - weather: where a new entry's weather comes from; nil saves entries without weather.
    ///   - syncEngine: what `sync()` runs; nil keeps the diary on the device only.
    public init(database: DiaryDatabase, weather: DiaryWeatherSource? = nil, syncEngine: DiarySyncEngine? = nil) {
        self.database = database
        weatherSource = weather
        self.syncEngine = syncEngine
        reload()
    }

    // MARK: Reading

    /// Reads the entries again from the database (after another connection wrote to it, say).
    public func reload() {
        perform {}
    }

    /// The live entry `id`, as last read.
    public func entry(id: UUID) -> DiaryEntry? {
        entries.first { $0.id == id }
    }

    /// What the share sheet gets for `entry`: its title, a blank line, then its body (the title alone when the
    /// body is empty).
    public func shareText(of entry: DiaryEntry) -> String {
        entry.shareText
    }

    /// An editor for `entry`, or for a new entry when nil.
    public func makeEditor(for entry: DiaryEntry? = nil) -> DiaryEditor {
        DiaryEditor(store: self, entry: entry)
    }

    // MARK: Writing

    /// Saves `text` as a new entry (see `DiaryText.split`), then asks for its weather once. Returns nil when the
    /// first line is empty (nothing to save) or `id` is already taken (a new entry is inserted once).
    @discardableResult
    public func create(text: String, id: UUID = UUID(), createdAt: Date = Date()) -> DiaryEntry? {
        guard let parts = DiaryText.split(text) else { return nil }
        return create(id: id, title: parts.title, body: parts.body, createdAt: createdAt, fetchingWeather: true)
    }

    /// Replaces the entry's text with `text`. Returns false when there is nothing to save (an empty first line,
    /// the same text) or no such entry; the weather is left alone.
    @discardableResult
    public func update(id: UUID, text: String) -> Bool {
        guard let parts = DiaryText.split(text) else { return false }
        return perform { try database.update(id: id, title: parts.title, body: parts.body) == .updated } ?? false
    }

    /// Deletes the entry. Returns false when there was none.
    @discardableResult
    public func delete(id: UUID) -> Bool {
        weatherTasks[id]?.cancel()
        return perform { try database.delete(id: id) } ?? false
    }

    /// Adds `entries` as they are (the sample data), without asking for weather; ids already taken are skipped.
    /// Returns how many were added.
    @discardableResult
    public func add(_ entries: [DiaryEntry]) -> Int {
        perform { try database.insert(entries) } ?? 0
    }

    /// Waits until every weather request under way has ended (for tests, and a pull to refresh).
    public func weatherRequestsFinished() async {
        while let task = weatherTasks.values.first {
            await task.value
        }
    }

    // MARK: Sync

    /// Runs one sync (push, then pull) and reads the entries again. Without a sync engine it does nothing.
    public func sync() async {
        guard let syncEngine, !isSyncing else { return }
        isSyncing = true
        defer { isSyncing = false }
        do {
            lastSyncReport = try await syncEngine.sync()
            lastSyncError = nil
        } catch {
            lastSyncError = error
        }
        reload()
    }

    /// Clears `errorMessage` once it has been shown.
    public func dismissError() {
        errorMessage = nil
    }

    // MARK: For the editor

    func create(id: UUID, title: String, body: String, createdAt: Date, fetchingWeather: Bool) -> DiaryEntry? {
        guard perform({ try database.insert(id: id, title: title, body: body, createdAt: createdAt) }) == true else { return nil }
        if fetchingWeather { startWeather(for: id) }
        return entry(id: id)
    }

    func save(id: UUID, title: String, body: String) -> DiaryDatabase.UpdateOutcome? {
        perform { try database.update(id: id, title: title, body: body) }
    }

    func isDeletedLocally(_ id: UUID) -> Bool {
        perform { try database.isDeletedLocally(id) } ?? false
    }

    // MARK: Helpers

    private func startWeather(for id: UUID) {
        guard let weatherSource else { return }
        weatherTasks[id] = Task { [weak self] in
            let outcome = await weatherSource.current()
            guard let self else { return }
            self.weatherTasks[id] = nil
            self.lastWeatherOutcome = outcome
            guard case .weather(let weather) = outcome, !Task.isCancelled else { return }
            self.perform { _ = try self.database.attachWeather(weather, to: id) }
        }
    }

    /// Runs a database change, then reads the entries again; a failure sets `errorMessage` and returns nil.
    @discardableResult
    private func perform<Value>(_ change: () throws -> Value) -> Value? {
        do {
            let value = try change()
            entries = try database.entries()
            return value
        } catch {
            errorMessage = SproutError.storage(error, service: .diary).message
            return nil
        }
    }

    /// The message a failed save or read shows.
    public static let storageFailureMessage = SproutError.diaryMessage(for: .storage)
}
