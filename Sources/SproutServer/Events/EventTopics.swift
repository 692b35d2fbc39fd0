import Foundation

/// The topics of one stream: as the client named them (`todos`) and as the log names them (`todos:7`).
struct EventTopics: Sendable, Equatable {
    struct Topic: Sendable, Equatable {
        /// As subscribed, and as sent back in `data.topic` and in the `id` line.
        let name: String
        /// As the log keeps it.
        let logName: String
    }

    let topics: [Topic]

    static let maximumTopics = 8

    /// A topic the client asked for, before the caller is known.
    enum Requested: Sendable, Equatable {
        case community, market, todos, diary
        case board(Int)

        var name: String {
            switch self {
            case .community: "community"
            case .market: "market"
            case .todos: "todos"
            case .diary: "diary"
            case .board(let id): "board:\(id)"
            }
        }
    }

    /// `community,board:3,todos` → the requested topics in their order, duplicates dropped.
    static func parse(_ text: String?) throws(EventStreamError) -> [Requested] {
        guard let text, !text.isEmpty, text.utf8.count <= 200 else {
            throw .badRequest("topics must name 1 to \(maximumTopics) topics: community, market, todos, diary, board:<id>.")
        }
        var requested: [Requested] = []
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = piece.trimmingCharacters(in: .whitespaces)
            let topic: Requested
            switch name {
            case "community": topic = .community
            case "market": topic = .market
            case "todos": topic = .todos
            case "diary": topic = .diary
            default:
                guard name.hasPrefix("board:"), let id = Int(name.dropFirst(6)), id > 0, String(id) == name.dropFirst(6) else {
                    throw .badRequest("Unknown topic \(name.debugDescription): topics are community, market, todos, diary, board:<id>.")
                }
                topic = .board(id)
            }
            if !requested.contains(topic) { requested.append(topic) }
        }
        guard requested.count <= maximumTopics else { throw .badRequest("At most \(maximumTopics) topics in one stream.") }
        return requested
    }

    /// `community=12,board:3=5` → cursors by topic name; parts that are not `name=number` are left out (a client
    /// that sends nonsense starts from now, as without the header).
    static func cursors(_ lastEventID: String?) -> [String: Int] {
        guard let lastEventID, lastEventID.utf8.count <= 1024 else { return [:] }
        var cursors: [String: Int] = [:]
        for part in lastEventID.split(separator: ",") {
            guard let equals = part.lastIndex(of: "="), let seq = Int(part[part.index(after: equals)...]), seq >= 0 else { continue }
            cursors[String(part[..<equals])] = seq
        }
        return cursors
    }
}
