import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

@Suite struct CommunitySeederTests {
    @Test func seedsAccountsPostsAndCommentsThatTheAPIServes() async throws {
        try await withTestApp { client, database in
            let result = try await CommunitySeeder(database: database).seed(accounts: 2, posts: 7, comments: 20)
            #expect(result.usernames == ["demo1", "demo2"])
            let password = try #require(result.newPassword)
            let login = try await client.sendForm(.post, "/auth/local", "identifier=demo1&password=\(password)")
            #expect(login.status == .ok)
            let token = try #require(login.json?["jwt"]?.string)
            let feed = try await client.send(.get, "/posts?_sort=created_at:desc", headers: [.authorization: "Bearer \(token)"])
            #expect(feed.json?.array?.count == 7)
            let comments = feed.json?.array?.reduce(0) { $0 + ($1["comments"]?.array?.count ?? 0) }
            #expect(comments == 20)

            // A second run reuses the accounts (their password stays) and adds more posts.
            let again = try await CommunitySeeder(database: database).seed(accounts: 2, posts: 3, comments: 0)
            #expect(again.newPassword == nil)
            #expect(try await client.send(.get, "/posts/count", headers: [.authorization: "Bearer \(token)"]).json == .number(10))
        }
    }
}
