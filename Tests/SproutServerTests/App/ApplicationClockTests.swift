import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// The application reads the time of day from the clock `buildApplication` is given (issue 26, point 7): what it
/// stores and what it decides by the time follow that clock, so tests move it instead of sleeping.
@Suite struct ApplicationClockTests {
    @Test func storedTimestampsAreTheApplicationsClock() async throws {
        let time = TestWallClock(Date(timeIntervalSince1970: 1_800_000_000))  // 2027-01-15T08:00:00Z
        try await withTestApp(clock: time.clock) { client, _ in
            let todo = try await client.sendForm(.post, "/api/v2/todos", "title=clocked&is_done=false")
            #expect(todo.json?["data"]?["created_at"]?.string?.hasPrefix("2027-01-15T08:00:00") == true, "\(todo.json as Any)")
            let account = try await client.signUp("clocked")
            let post = try await client.sendForm(.post, "/posts", "text=clocked", headers: account.bearer)
            #expect(post.json?["created_at"]?.string == "2027-01-15T08:00:00.000Z")
        }
    }

    @Test func aTokenEndsWhenTheClockPassesItsThirtyDays() async throws {
        let time = TestWallClock()
        try await withTestApp(clock: time.clock) { client, _ in
            let account = try await client.signUp("expiring")
            time.advance(by: AccountTokens.lifetime - 1)
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).status == .ok)
            time.advance(by: 2)
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).status == .unauthorized)
        }
    }

    @Test func aWebSessionEndsWhenTheClockPassesItsLifetime() async throws {
        let time = TestWallClock()
        try await withTestApp(clock: time.clock) { client, database in
            let account = try await client.signUp("browsing")
            let token = try await WebSessions(executor: database.executor, clock: time.clock).start(accountID: account.id)
            let cookie: HTTPFields = [.cookie: "\(WebSessions.cookieName)=\(token)"]
            #expect(try await client.send(.get, "/users/me", headers: cookie).status == .ok)
            time.advance(by: WebSessions.lifetime - 1)
            #expect(try await client.send(.get, "/users/me", headers: cookie).status == .ok)
            time.advance(by: 2)
            // An expired cookie is no credential: Strapi's 403 for a caller who is not signed in.
            #expect(try await client.send(.get, "/users/me", headers: cookie).status == .forbidden)
        }
    }
}
