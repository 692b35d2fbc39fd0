import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import Testing
@testable import SproutServer

/// Tokens and web sessions that end when they should (security review, point 4): a password change ends every
/// credential but the caller's, an administrator's reset, block and unblock end them all, on every process on the
/// database, and no token may live longer than 30 days.
@Suite struct TokenRevocationTests {
    static let change = "currentPassword=password1&newPassword=newpass1&confirmNewPassword=newpass1"

    @Test func aPasswordChangeEndsEveryOtherTokenAndSessionButTheCallersToken() async throws {
        try await withTestApp { client, database in
            let phone = try await client.signUp("changer")
            let tablet = try await client.logIn("changer")
            let laptop = try await client.logIn("changer")
            let browser = try await WebSessions(executor: database.executor).start(accountID: phone.id)

            let changed = try await client.sendForm(.post, "/custom/change-password", Self.change, headers: tablet.bearer)
            #expect(changed.status == .ok)

            // The app that changed it keeps its token, as the SeSAC app expects; nothing else works any more.
            #expect(try await client.send(.get, "/users/me", headers: tablet.bearer).status == .ok)
            #expect(try await client.send(.get, "/users/me", headers: phone.bearer).status == .unauthorized)
            #expect(try await client.send(.get, "/users/me", headers: laptop.bearer).status == .unauthorized)
            #expect(try await client.send(.get, "/api/v2/todos", headers: laptop.bearer).status == .unauthorized)
            #expect(try await client.send(.get, "/users/me", headers: Self.cookie(browser)).status == .forbidden)
            // A login with the new password gets a token of the new generation.
            let fresh = try await client.logIn("changer", password: "newpass1")
            #expect(try await client.send(.get, "/users/me", headers: fresh.bearer).status == .ok)
        }
    }

    @Test func aSecondChangeFromAnotherTokenEndsTheTokenTheFirstKept() async throws {
        try await withTestApp { client, _ in
            let first = try await client.signUp("twice")
            #expect(try await client.sendForm(.post, "/custom/change-password", Self.change, headers: first.bearer).status == .ok)
            let second = try await client.logIn("twice", password: "newpass1")
            let again = "currentPassword=newpass1&newPassword=newpass2&confirmNewPassword=newpass2"
            #expect(try await client.sendForm(.post, "/custom/change-password", again, headers: second.bearer).status == .ok)
            #expect(try await client.send(.get, "/users/me", headers: second.bearer).status == .ok)
            #expect(try await client.send(.get, "/users/me", headers: first.bearer).status == .unauthorized)
        }
    }

    @Test func aPasswordChangeInTheBrowserKeepsThatSessionAndEndsTheRest() async throws {
        try await withTestApp { client, database in
            let app = try await client.signUp("surfer")
            let sessions = WebSessions(executor: database.executor)
            let here = try await sessions.start(accountID: app.id)
            let elsewhere = try await sessions.start(accountID: app.id)

            var headers = Self.cookie(here)
            headers[.origin] = "http://localhost"  // the router tests' own origin (WebSessionTests.ownOrigin)
            #expect(try await client.sendForm(.post, "/custom/change-password", Self.change, headers: headers).status == .ok)

            #expect(try await client.send(.get, "/users/me", headers: Self.cookie(here)).status == .ok)
            #expect(try await client.send(.get, "/users/me", headers: Self.cookie(elsewhere)).status == .forbidden)
            #expect(try await client.send(.get, "/users/me", headers: app.bearer).status == .unauthorized)
        }
    }

    @Test func anAdministratorsResetEndsEveryTokenAndSession() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("forgetful")
            let browser = try await WebSessions(executor: database.executor).start(accountID: account.id)
            _ = try await AccountAdministration(database: database, passwordHashCost: 4).resetPassword("forgetful", to: "newpass1", by: .commandLine())
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).status == .unauthorized)
            #expect(try await client.send(.get, "/users/me", headers: Self.cookie(browser)).status == .forbidden)
            let fresh = try await client.logIn("forgetful", password: "newpass1")
            #expect(try await client.send(.get, "/users/me", headers: fresh.bearer).status == .ok)
        }
    }

    @Test func unblockingDoesNotBringBackTokensFromBeforeTheBlock() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("troll")
            let administration = AccountAdministration(database: database, passwordHashCost: 4)
            _ = try await administration.setBlocked("troll", true, by: .commandLine())
            _ = try await administration.setBlocked("troll", false, by: .commandLine())
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).status == .unauthorized)
            let fresh = try await client.logIn("troll")
            #expect(try await client.send(.get, "/users/me", headers: fresh.bearer).status == .ok)
        }
    }

    /// The generation lives on the account row, which every process reads for every token: a change made
    /// through one process is refused by the other at its very next request.
    @Test func aRevocationThroughOneProcessIsRefusedByTheOther() async throws {
        try await withTestApp { client, database in
            let kept = try await client.signUp("roamer")
            let other = try await client.logIn("roamer")
            let second = try database.secondProcess()
            let statuses = try await second.test(.router) { secondClient in
                [
                    try await secondClient.send(.get, "/users/me", headers: other.bearer).status,
                    try await client.sendForm(.post, "/custom/change-password", Self.change, headers: kept.bearer).status,
                    try await secondClient.send(.get, "/users/me", headers: other.bearer).status,
                    try await secondClient.send(.get, "/users/me", headers: kept.bearer).status,
                ]
            }
            // Before the change the other token works there; after it, only the changer's.
            #expect(statuses == [.ok, .ok, .unauthorized, .ok])
        }
    }

    @Test func aTokenMadeToLiveLongerThanThirtyDaysIsRefused() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("forger")
            let thirty = try await database.token(for: account.id, lifetime: AccountTokens.lifetime)
            let longer = try await database.token(for: account.id, lifetime: AccountTokens.lifetime + 1)
            #expect(try await client.send(.get, "/users/me", headers: [.authorization: "Bearer \(thirty)"]).status == .ok)
            #expect(try await client.send(.get, "/users/me", headers: [.authorization: "Bearer \(longer)"]).status == .unauthorized)
        }
    }

    /// Tokens issued before generations (`{id, iat, exp}` alone) keep working after the upgrade, until the
    /// account's first revocation; the one that changed the password is kept like any other.
    @Test func tokensFromBeforeGenerationsWorkUntilTheFirstRevocation() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("veteran")
            let older = try await Self.tokenWithoutGeneration(for: account.id, database: database, issuedAt: Date(timeIntervalSinceNow: -60))
            let changer = try await Self.tokenWithoutGeneration(for: account.id, database: database, issuedAt: Date())
            #expect(try await client.send(.get, "/users/me", headers: [.authorization: "Bearer \(older)"]).status == .ok)
            #expect(try await client.sendForm(.post, "/custom/change-password", Self.change, headers: [.authorization: "Bearer \(changer)"]).status == .ok)
            #expect(try await client.send(.get, "/users/me", headers: [.authorization: "Bearer \(changer)"]).status == .ok)
            #expect(try await client.send(.get, "/users/me", headers: [.authorization: "Bearer \(older)"]).status == .unauthorized)
        }
    }

    static func cookie(_ session: String) -> HTTPFields {
        [.cookie: "\(WebSessions.cookieName)=\(session)"]
    }

    /// A token as Sprout issued them before generations: Strapi's `{id, iat, exp}` and nothing else.
    static func tokenWithoutGeneration(for accountID: Int, database: SproutDatabase, issuedAt date: Date) async throws -> String {
        struct StrapiPayload: JWTPayload {
            let id: Int
            let iat: IssuedAtClaim
            let exp: ExpirationClaim
            func verify(using algorithm: some JWTAlgorithm) async throws {}
        }
        let secret = try await ServerSecrets(executor: database.executor, sealer: .forTests).value(named: "jwt", generate: { ServerSecrets.randomToken(byteCount: 48) })
        let keys = JWTKeyCollection()
        await keys.add(hmac: AccountTokens.key(from: secret), digestAlgorithm: .sha256)
        let issued = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        return try await keys.sign(StrapiPayload(id: accountID, iat: IssuedAtClaim(value: issued), exp: ExpirationClaim(value: issued.addingTimeInterval(AccountTokens.lifetime))))
    }
}
