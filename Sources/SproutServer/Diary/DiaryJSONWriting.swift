import SproutWire

// The Diary's answers, written by hand as the shared JSONEncoder writes them (sorted keys, `weather` an explicit
// null, a weather's nil `description` and `tempC` left out): a pull of 100 changes spent most of its handler time
// in JSONEncoder. `DiaryJSONWriterTests` keeps the bytes equal to JSONEncoder's.

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

extension JSONWriter {
    /// `weather` as the Diary writes it: an object, or `null`.
    fileprivate mutating func weather(_ weather: DiaryWeatherJSON?) {
        if let weather { weather.writeJSON(into: &self) } else { raw("null") }
    }
}

extension DiaryEntryJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"body":"#)
        writer.string(body)
        writer.raw(#","createdAt":"#)
        writer.string(createdAt)
        writer.raw(#","deleted":"#)
        writer.bool(deleted)
        writer.raw(#","id":"#)
        writer.string(id)
        writer.raw(#","title":"#)
        writer.string(title)
        writer.raw(#","updatedAt":"#)
        writer.string(updatedAt)
        writer.raw(#","weather":"#)
        writer.weather(weather)
        writer.raw("}")
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
        writer.raw(#"{"body":"#)
        writer.string(body ?? "")
        writer.raw(#","createdAt":"#)
        writer.string(createdAt ?? updatedAt)
        writer.raw(#","deleted":false,"id":"#)
        writer.string(id)
        writer.raw(#","title":"#)
        writer.string(title ?? "")
        writer.raw(#","updatedAt":"#)
        writer.string(updatedAt)
        writer.raw(#","weather":"#)
        writer.weather(weather)
        writer.raw("}")
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
