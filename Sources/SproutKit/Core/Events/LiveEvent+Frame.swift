import Foundation

extension LiveEvent {
    /// The event a frame of `GET /api/events` stands for; nil for a frame this version does not read (an
    /// unknown name, or data that is not the documented JSON), which the stream skips.
    init?(frame: ServerSentEvent) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(frame.data.utf8))) as? [String: Any] else { return nil }
        switch frame.event {
        case "ready":
            guard let topics = object["topics"] as? [String: Any] else { return nil }
            self = .ready(cursors: topics.compactMapValues { ($0 as? NSNumber)?.intValue })
        case "reset":
            guard let topic = object["topic"] as? String else { return nil }
            self = .reset(topic: topic)
        default:
            guard let change = LiveChange(object: object) else { return nil }
            self = .change(change)
        }
    }
}

extension LiveChange {
    /// A change from its frame's JSON; `item` stays the server's JSON, for the list's own decoder.
    init?(object: [String: Any]) {
        guard let topic = object["topic"] as? String, let seq = (object["seq"] as? NSNumber)?.intValue,
              let action = object["action"] as? String, let id = object["id"] as? String else { return nil }
        var item: Data?
        if let row = object["item"], !(row is NSNull) {
            item = try? JSONSerialization.data(withJSONObject: row, options: [.fragmentsAllowed])
        }
        self.init(topic: topic, seq: seq, action: action, id: id, parentID: object["parentId"] as? String, item: item)
    }
}
