import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

@Suite struct TodoSeederTests {
    /// `sprout seed` fills the shared list with todos whose dates agree with their ids, newest first.
    @Test func seedingAddsTodosToTheSharedListInCreationOrder() async throws {
        try await withTestApp { client, database in
            try await TodoSeeder(database: database).seed(count: 25)
            let page = try #require(try await client.send(.get, "/api/v2/todos?per_page=100").json)
            #expect(page["meta"]?["total"] == .number(25))
            let ids = page["data"]?.array?.compactMap { $0["id"]?.int } ?? []
            #expect(ids == ids.sorted(by: >))
            let stamps = page["data"]?.array?.compactMap { $0["created_at"]?.string } ?? []
            #expect(stamps == stamps.sorted(by: >))
            #expect(Set(stamps).count == 25)
            let search = try await client.send(.get, "/api/v2/todos/search?query=todo").json
            #expect(search?["meta"]?["total"]?.int ?? 0 > 0)
        }
    }
}
