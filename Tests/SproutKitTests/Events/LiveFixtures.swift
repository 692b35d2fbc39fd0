import Foundation
import SproutKit

/// Live events as the server would send them, with `item` taken from a list endpoint's own answer.
enum LiveFixture {
    /// A change event.
    static func change(_ topic: LiveTopic, _ action: String, id: Int, parent: Int? = nil, item: Data? = nil) -> LiveEvent {
        .change(LiveChange(topic: topic.name, seq: 1, action: action, id: String(id), parentID: parent.map(String.init), item: item))
    }

    /// The list element whose `idKey` is `id`, from a list answer: a bare array, or the array under `arrayKey`.
    static func element(of list: Data, under arrayKey: String? = nil, idKey: String = "id", id: Int) throws -> Data {
        let root = try JSONSerialization.jsonObject(with: list)
        var container: Any? = root
        if let arrayKey { container = (root as? [String: Any])?[arrayKey] }
        let array = container as? [[String: Any]] ?? []
        guard let row = array.first(where: { ($0[idKey] as? NSNumber)?.intValue == id }) else {
            throw FixtureError.noRow(id)
        }
        return try JSONSerialization.data(withJSONObject: row)
    }

    /// `row` with some fields changed, as the server would send the row after an edit.
    static func edited(_ row: Data, _ changes: [String: Any]) throws -> Data {
        var object = try JSONSerialization.jsonObject(with: row) as? [String: Any] ?? [:]
        object.merge(changes) { _, new in new }
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// A change as a frame of `GET /api/events`, with `item` inside its data as the server writes it.
    static func frame(_ topic: LiveTopic, _ action: String, seq: Int, id: Int, item: Data?) throws -> String {
        var object: [String: Any] = ["topic": topic.name, "seq": seq, "action": action, "id": String(id), "parentId": NSNull()]
        if let item { object["item"] = try JSONSerialization.jsonObject(with: item) }
        let data = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        return "event: \(action)\nid: \(topic.name)=\(seq)\ndata: \(data)\n\n"
    }

    enum FixtureError: Error { case noRow(Int) }
}

/// `eventually`, for conditions on main-actor stores: waits (up to five seconds) until `condition` holds.
@MainActor
func eventuallyOnMain(_ condition: () -> Bool) async throws {
    for _ in 0..<500 {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    throw StubError.timedOut
}
