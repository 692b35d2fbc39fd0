import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// Sign-ups and vendor creations per client address and hour (security review, points 12 and 18): each sign-up
/// is a bcrypt hash, and its refusals tell which names exist, so one address gets `SIGNUPS_PER_ADDRESS_PER_HOUR`.
@Suite struct AddressRateLimitTests {
    @Test func signUpsBeyondTheHourlyLimitAreRefusedWith429AndFailedOnesCount() async throws {
        try await withTestApp(configure: { $0.accounts.signUpsPerAddressPerHour = 3 }) { client, _ in
            try await client.signUp("first")
            // Probing a taken name counts as a sign-up: that is how accounts are enumerated.
            let taken = try await client.sendForm(.post, "/auth/local/register", "username=first&email=other@example.com&password=password1")
            #expect(taken.status == .badRequest)
            try await client.signUp("second")
            let refused = try await client.sendForm(.post, "/auth/local/register", "username=third&email=third@example.com&password=password1")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.json?["message"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.ratelimit"))
            // The web app's sign-up form shares the budget.
            let web = try await client.send(
                .post, "/web/account", headers: [.contentType: "application/json"],
                body: #"{"username": "fourth", "email": "fourth@example.com", "password": "password1"}"#
            )
            #expect(web.status == .tooManyRequests)
            // Logging in is not a sign-up.
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=first&password=password1").status == .ok)
        }
    }

    @Test func concurrentSignUpsFromOneAddressGetExactlyTheLimit() async throws {
        try await withTestApp(configure: { $0.accounts.signUpsPerAddressPerHour = 5 }) { client, _ in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<30 {
                    group.addTask {
                        try await client.sendForm(.post, "/auth/local/register", "username=burst\(index)&email=burst\(index)@example.com&password=password1").status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 5)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 25)
        }
    }

    @Test func vendorCreationsBeyondTheHourlyLimitAreRefusedWith429() async throws {
        try await withTestApp(configure: { $0.accounts.signUpsPerAddressPerHour = 2 }) { client, database in
            let repository = SQLAccountRepository(executor: database.executor)
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<3 {
                // Accounts made directly, so the sign-up limit is not what stops them.
                let account = try #require(try await repository.create(username: "shop\(index)", email: "shop\(index)@example.com", passwordHash: "x", at: Date()))
                let token = try await database.token(for: account.id)
                let response = try await client.send(
                    .post, "/api/vendors", headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                    body: #"{"name": "shop \#(index)"}"#
                )
                statuses.append(response.status)
            }
            #expect(statuses == [.created, .created, .tooManyRequests])
        }
    }

    @Test func theLedgerForgetsEventsOlderThanTheWindowAndKeepsKeysApart() async throws {
        try await withTestApp { _, database in
            let ledger = RateLimitLedger(executor: database.executor)
            let start = Date()
            var answers: [Bool] = []
            for (key, seconds) in [("a", 0.0), ("a", 1), ("a", 2), ("b", 2), ("a", 3600.5), ("a", 3600.6)] {
                answers.append(try await ledger.claim(key, limit: 2, window: 3600, at: start.addingTimeInterval(seconds)))
            }
            // Two for "a", then none; "b" counts apart; an hour after the first, one place is free again.
            #expect(answers == [true, true, false, true, true, false])
        }
    }
}
