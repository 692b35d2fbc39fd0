import Foundation
import SproutWire

/// The weather attached to an entry: OpenWeather's `main` and `icon`, with `description` and the temperature in
/// °C when the writer had them, as the server answered it. The kit never makes weather up.
public typealias DiaryWeather = DiaryWeatherJSON

/// One diary entry as this device keeps it.
public struct DiaryEntry: Sendable, Hashable, Identifiable {
    /// The entry's id, made on the device (the server keys entries by it).
    public var id: UUID
    /// The first line of the text; never empty.
    public var title: String
    /// The rest of the text; may be empty.
    public var body: String
    /// When the entry was first written, in whole milliseconds (what the server keeps).
    public var createdAt: Date
    /// The weather when the entry was first saved; nil when there was none to be had (or it has not come yet).
    public var weather: DiaryWeather?
    /// Whether the device holds a change to this entry that the server has not got yet.
    public var hasUnpushedChanges: Bool
    /// Why the server refused this entry's last push (a 400 or 413), as a sentence; nil otherwise. The entry is
    /// pushed again once it is edited.
    public var pushRefusal: String?

    /// An entry from its parts.
    public init(
        id: UUID, title: String, body: String, createdAt: Date, weather: DiaryWeather? = nil, hasUnpushedChanges: Bool = false,
        pushRefusal: String? = nil
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.weather = weather
        self.hasUnpushedChanges = hasUnpushedChanges
        self.pushRefusal = pushRefusal
    }

    /// The text the editor opens with: `title + "\n" + body` (the title alone when the body is empty).
    public var editorText: String { DiaryText.editorText(title: title, body: body) }

    /// What the share sheet gets: see `DiaryText.shareText(title:body:)`.
    public var shareText: String { DiaryText.shareText(title: title, body: body) }

    /// The first non-blank line of the body, for the list cell.
    public var preview: String { DiaryText.preview(of: body) }

    /// OpenWeather's icon image for `weather` (`https://openweathermap.org/img/wn/{icon}@2x.png`, 100×100 PNG).
    public var weatherIconURL: URL? {
        weather.flatMap { URL(string: "https://openweathermap.org/img/wn/\($0.icon)@2x.png") }
    }
}
