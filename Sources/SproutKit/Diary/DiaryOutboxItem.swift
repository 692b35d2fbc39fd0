import Foundation
import SproutWire

/// One change the device holds that the server has not acknowledged: an entry to `PUT`, or a deletion to send.
/// The outbox is not a table of its own: it is every row of the entry table whose local `revision` is ahead of
/// the last revision the server acknowledged, so an entry edited ten times offline is pushed once, as it is now.
public struct DiaryOutboxItem: Sendable, Hashable {
    /// The entry.
    public var id: UUID
    /// The entry's local revision: bumped by every local change. A push acknowledged for an older revision
    /// leaves the entry in the outbox.
    public var revision: Int64
    /// True for a deletion (a local tombstone), false for a write.
    public var isDeletion: Bool
    /// True when the only change is the weather that arrived after the entry was pushed (no edit of the text):
    /// the engine then checks the server's version first, so as not to undo another device's edit with it.
    public var isWeatherOnly: Bool
    /// The server's `updatedAt` of the version this change started from, sent as `baseUpdatedAt`; nil for an
    /// entry the server has not had.
    public var baseUpdatedAt: String?
    /// The text and weather to write (for a deletion, what the entry held).
    public var title: String
    /// See `title`.
    public var body: String
    /// When the entry was first written, whole milliseconds since 1970.
    public var createdAtMilliseconds: Int64
    /// The entry's weather, if it has any.
    public var weather: DiaryWeather?

    /// The `PUT` body for this change.
    public var write: DiaryEntryWriteJSON {
        DiaryEntryWriteJSON(
            title: title, body: body, createdAt: DiaryTimestamp.string(fromMilliseconds: createdAtMilliseconds), weather: weather,
            baseUpdatedAt: baseUpdatedAt
        )
    }
}
