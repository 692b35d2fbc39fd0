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

    enum FixtureError: Error { case noRow(Int) }
}
