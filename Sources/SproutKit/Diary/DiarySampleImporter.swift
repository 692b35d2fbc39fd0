import Foundation
import SproutWire

/// Imports the original app's sample data (`sample.json`, its DEBUG list): a JSON array of
/// `{"title", "body", "created_at"}` with `created_at` in **Unix seconds**. The app read it with a default
/// `JSONDecoder`, which takes numbers as seconds since 2001 and dated every entry December 2051; this reads them
/// as seconds since 1970 (`1608651333` is 2020-12-22T15:35:33Z).
public enum DiarySampleImporter {
    /// One element of the sample.
    public struct SampleEntry: Decodable, Sendable, Equatable {
        /// The entry's title.
        public var title: String
        /// The entry's body.
        public var body: String
        /// When it was written.
        public var createdAt: Date

        private enum CodingKeys: String, CodingKey {
            case title, body
            case createdAt = "created_at"
        }
    }

    /// Reads the sample.
    /// - Throws: `DecodingError` when `data` is not that array.
    public static func read(_ data: Data) throws -> [SampleEntry] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode([SampleEntry].self, from: data)
    }

    /// The sample as new entries, each with a fresh id and no weather (the sample has none, and the kit makes none
    /// up). A title and body are put through `DiaryText.split` as if typed, so a title with a line break keeps
    /// only its first line as the title; one with nothing to save is skipped.
    public static func entries(from data: Data) throws -> [DiaryEntry] {
        try read(data).compactMap { sample in
            guard let parts = DiaryText.split(DiaryText.editorText(title: sample.title, body: sample.body)) else { return nil }
            let createdAt = sample.createdAt.truncatedToMilliseconds
            return DiaryEntry(id: UUID(), title: parts.title, body: parts.body, createdAt: createdAt, hasUnpushedChanges: true)
        }
    }

    /// Adds the sample to `store` as new entries (pushed by the next sync). Returns them.
    /// - Throws: `DecodingError` when `data` is not the sample's array.
    @MainActor
    @discardableResult
    public static func importSample(_ data: Data, into store: DiaryStore) throws -> [DiaryEntry] {
        let entries = try entries(from: data)
        store.add(entries)
        return entries
    }
}
