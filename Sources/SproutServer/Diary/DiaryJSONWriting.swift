import SproutWire

// The Diary's answers, written by hand as the shared JSONEncoder writes them (sorted keys, `weather` an explicit
// null, a weather's nil `description` and `tempC` left out): JSONEncoder took a quarter of the CPU of a pull of 100
// changes (565–586 → 427–431 µs a pull on SQLite). `DiaryJSONWriterTests` keeps the bytes equal to JSONEncoder's.

extension DiaryWeatherJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw("{")
        if let description {
            writer.raw(#""description":"#)
            writer.string(description)
            writer.raw(",")
        }
        writer.raw(#""icon":"#)
        writer.string(icon)
        writer.raw(#","main":"#)
        writer.string(main)
        if let tempC {
            writer.raw(#","tempC":"#)
            writer.encoderNumber(tempC)
        }
        writer.raw("}")
    }
}

extension DiaryEntryJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.entry(body: body, createdAt: createdAt, deleted: deleted, id: id, title: title, updatedAt: updatedAt, weather: weather)
    }
}

extension DiaryChangeJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        guard !deleted else {
            writer.raw(#"{"deleted":true,"id":"#)
            writer.string(id)
            writer.raw(#","updatedAt":"#)
            writer.string(updatedAt)
            writer.raw("}")
            return
        }
        writer.entry(
            body: body ?? "", createdAt: createdAt ?? updatedAt, deleted: false, id: id, title: title ?? "", updatedAt: updatedAt,
            weather: weather
        )
    }
}

extension JSONWriter {
    /// An entry, as an entry and as a live change: the same keys.
    fileprivate mutating func entry(
        body: String, createdAt: String, deleted: Bool, id: String, title: String, updatedAt: String, weather: DiaryWeatherJSON?
    ) {
        raw(#"{"body":"#)
        string(body)
        raw(#","createdAt":"#)
        string(createdAt)
        raw(#","deleted":"#)
        bool(deleted)
        raw(#","id":"#)
        string(id)
        raw(#","title":"#)
        string(title)
        raw(#","updatedAt":"#)
        string(updatedAt)
        raw(#","weather":"#)
        if let weather { weather.writeJSON(into: &self) } else { raw("null") }
        raw("}")
    }
}

extension DiaryChangesJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"changes":"#)
        changes.writeJSON(into: &writer)
        writer.raw(#","hasMore":"#)
        writer.bool(hasMore)
        writer.raw(#","now":"#)
        writer.string(now)
        writer.raw("}")
    }
}

extension DiaryPageJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"entries":"#)
        entries.writeJSON(into: &writer)
        writer.raw(#","total":"#)
        writer.int(total)
        writer.raw("}")
    }
}
