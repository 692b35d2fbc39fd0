import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// `sprout account list|show|reset-password|block|unblock`, through `AccountAdministration`.
@Suite struct AccountAdministrationTests {
    @Test func listAndShowFindAccountsByIdUsernameOrEmail() async throws {
        try await withTestApp { client, database in
            let alice = try await client.signUp("alice")
            try await client.signUp("bob")
            let administration = AccountAdministration(database: database, passwordHashCost: 4)
            #expect(try await administration.list().map(\.username) == ["alice", "bob"])
            #expect(try await administration.list(afterID: alice.id).map(\.username) == ["bob"])
            #expect(try await administration.find("\(alice.id)").username == "alice")
            #expect(try await administration.find("ALICE@example.com").id == alice.id)
            await #expect(throws: AccountAdministrationError.notFound("nobody")) { try await administration.find("nobody") }
        }
    }

    @Test func resetPasswordLetsTheNewOneInAndNotTheOld() async throws {
        try await withTestApp { client, database in
            try await client.signUp("forgetful")
            let administration = AccountAdministration(database: database, passwordHashCost: 4)
            let generated = try await administration.resetPassword("forgetful", by: .commandLine())
            #expect(generated.count >= 12)
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=forgetful&password=password1").status == .badRequest)
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=forgetful&password=\(generated)").status == .ok)
            await #expect(throws: AccountAdministrationError.self) { try await administration.resetPassword("forgetful", to: "abc", by: .commandLine()) }
        }
    }

    @Test func blockingCutsOffTokensSessionsAndLoginUntilUnblocked() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("troll")
            let session = try await WebSessions(executor: database.executor).start(accountID: account.id)
            let administration = AccountAdministration(database: database, passwordHashCost: 4)
            #expect(try await administration.setBlocked("troll", true, by: .commandLine()).blocked)
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).status == .unauthorized)
            #expect(try await client.send(.get, "/users/me", headers: [.cookie: "\(WebSessions.cookieName)=\(session)"]).status == .forbidden)
            #expect(try await client.sendForm(.post, "/posts", "text=spam", headers: account.bearer).status == .unauthorized)
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=troll&password=password1").status == .badRequest)
            #expect(try await administration.setBlocked("troll", false, by: .commandLine()).blocked == false)
            // Unblocked, the account logs in again; its tokens from before the block stay dead (TokenRevocationTests).
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=troll&password=password1").status == .ok)
        }
    }
}
