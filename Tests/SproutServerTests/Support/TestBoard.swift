import Foundation
import HTTPTypes
import HummingbirdTesting
@testable import SproutServer

/// The seed boards' ids on a fresh database.
enum SeedBoard {
    static let notices = 1
    static let free = 2
    static let anonymous = 3
}

extension TestClientProtocol {
    /// Writes a post in a board as `account` and returns its JSON.
    @discardableResult
    func writePost(_ title: String, _ contents: String, board: Int = SeedBoard.free, as account: TestAccount, parent: Int? = nil) async throws -> JSON {
        var headers = account.bearer
        headers[.contentType] = "application/json"
        let body = try String(decoding: JSONEncoder().encode(["title": title, "contents": contents]), as: UTF8.self)
        let withParent = parent.map { body.dropLast() + ", \"parentPostId\": \($0)}" }.map(String.init) ?? body
        let response = try await send(.post, "/api/v2/boards/\(board)/posts", headers: headers, body: withParent)
        guard response.status == .created, let json = response.json else {
            throw TestFailure("post failed: \(response.status) \(String(describing: response.json))")
        }
        return json
    }

    /// The ids a board search answers, and its total.
    func searchBoard(_ text: String, target: String = "all", board: Int = SeedBoard.free, as account: TestAccount, offset: Int = 0, limit: Int = 30) async throws -> (ids: [Int], total: Int) {
        let encoded = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
        let response = try await send(.get, "/api/v2/boards/\(board)/posts?search=\(encoded)&searchTarget=\(target)&offset=\(offset)&limit=\(limit)", headers: account.bearer)
        guard response.status == .ok, let json = response.json else { throw TestFailure("search failed: \(response.status)") }
        return (json["value"]?.array?.compactMap { $0["postId"]?.int } ?? [], json["total"]?.int ?? -1)
    }
}
