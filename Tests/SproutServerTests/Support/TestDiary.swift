import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SproutWire
@testable import SproutServer

/// An answer of the Diary API: its status and body, decodable as any wire type.
struct DiaryAnswer: Sendable {
    let status: HTTPResponse.Status
    let body: Data

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch {
            throw TestFailure("\(status) \(String(decoding: body, as: UTF8.self)) is not \(type): \(error)")
        }
    }

    var entry: DiaryEntryJSON { get throws { try decode(DiaryEntryJSON.self) } }
    var message: String? { try? decode(DiaryErrorJSON.self).message }
}

extension TestClientProtocol {
    func diary(_ method: HTTPRequest.Method, _ uri: String, body: String? = nil, as account: TestAccount?) async throws -> DiaryAnswer {
        try await execute(uri: uri, method: method, headers: account?.bearer ?? [:], body: body.map { ByteBuffer(string: $0) }) { response in
            DiaryAnswer(status: response.status, body: Data(buffer: response.body))
        }
    }

    /// `PUT /api/diary/entries/{id}` with `write` as JSON.
    func putEntry(_ id: String, _ write: DiaryEntryWriteJSON, as account: TestAccount) async throws -> DiaryAnswer {
        let body = String(decoding: try JSONEncoder().encode(write), as: UTF8.self)
        return try await diary(.put, "/api/diary/entries/\(id)", body: body, as: account)
    }

    /// Every change after `since`, following `hasMore`; answers them and the last `now`.
    func diaryChanges(since: String, as account: TestAccount, limit: Int = 100) async throws -> (changes: [DiaryChangeJSON], now: String) {
        var since = since
        var all: [DiaryChangeJSON] = []
        while true {
            let answer = try await diary(.get, "/api/diary/entries?since=\(since)&limit=\(limit)", as: account)
            guard answer.status == .ok else { throw TestFailure("since failed: \(answer.status) \(answer.message ?? "")") }
            let page = try answer.decode(DiaryChangesJSON.self)
            all += page.changes
            since = page.now
            if !page.hasMore { return (all, page.now) }
        }
    }
}

enum DiaryTest {
    static let epoch = "1970-01-01T00:00:00Z"
    static func newID() -> String { UUID().uuidString.lowercased() }
    static let clouds = DiaryWeatherJSON(main: "Clouds", description: "few clouds", icon: "02n", tempC: 14.1)
}
