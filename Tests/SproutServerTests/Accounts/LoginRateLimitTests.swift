import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// 10 failures for one identifier, or 20 from one address, within 15 minutes: 429 until the window passes.
@Suite struct LoginRateLimitTests {
    @Test func tenFailuresForOneIdentifierAreFollowedBy429() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("target")
            for _ in 0..<10 {
                #expect(try await client.sendForm(.post, "/auth/local", "identifier=target&password=wrong-pass").status == .badRequest)
            }
            let limited = try await client.sendForm(.post, "/auth/local", "identifier=target&password=password1")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.json?["statusCode"]?.int == 429)
            #expect(limited.json?["message"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.ratelimit"))
            // The budget is the account's, whichever identifier names it (its email, in any case); another account
            // is not limited.
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=TARGET@Example.com&password=x").status == .tooManyRequests)
            try await client.signUp("bystander")
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=bystander&password=password1").status == .ok)
        }
    }

    /// Check-then-act let 200 concurrent guesses all be checked (the password fell at guess 199). Each attempt
    /// is now counted before its password is checked: at most the limit are checked, the rest are refused.
    @Test func twoHundredConcurrentGuessesGetAtMostTenPasswordChecks() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("target")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<200 {
                    let password = index == 199 ? "password1" : "guess-\(index)"
                    // Username and email take turns: one account, one budget.
                    let identifier = index.isMultiple(of: 2) ? "target" : "target@example.com"
                    group.addTask { try await client.sendForm(.post, "/auth/local", "identifier=\(identifier)&password=\(password)").status }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            let checked = statuses.filter { $0 != .tooManyRequests }
            #expect(checked.count <= LoginThrottle.failuresPerIdentifier, "\(checked.count) passwords were checked")
            #expect(statuses.count(where: { $0 == .tooManyRequests }) >= 190)
        }
    }

    @Test func concurrentPasswordChangesGetAtMostTenChecks() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("changer")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<60 {
                    group.addTask {
                        try await client.sendForm(.post, "/custom/change-password", "currentPassword=wrong-\(index)&newPassword=newpass1&confirmNewPassword=newpass1",
                                                  headers: account.bearer).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 != .tooManyRequests }.count <= LoginThrottle.failuresPerIdentifier)
        }
    }

    @Test func theLimitEndsWhenTheWindowHasPassed() async throws {
        let time = TestWallClock()
        try await withTestApp(clock: time.clock) { client, _ in
            try await client.signUp("patient")
            for _ in 0..<10 {
                try await client.sendForm(.post, "/auth/local", "identifier=patient&password=wrong-pass")
            }
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=patient&password=password1").status == .tooManyRequests)
            time.advance(by: LoginThrottle.window - 1)
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=patient&password=password1").status == .tooManyRequests)
            time.advance(by: 2)
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=patient&password=password1").status == .ok)
        }
    }

    @Test func twentyFailuresFromOneAddressAreFollowedBy429ForAnyIdentifier() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("victim")
            for index in 0..<20 {
                try await client.sendForm(.post, "/auth/local", "identifier=guess\(index)&password=wrong-pass")
            }
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=victim&password=password1").status == .tooManyRequests)
        }
    }

    @Test func aSuccessfulLoginClearsItsIdentifiersFailures() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("typo")
            for _ in 0..<9 { try await client.sendForm(.post, "/auth/local", "identifier=typo&password=wrong-pass") }
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=typo&password=password1").status == .ok)
            for _ in 0..<9 { try await client.sendForm(.post, "/auth/local", "identifier=typo&password=wrong-pass") }
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=typo&password=password1").status == .ok)
        }
    }

    @Test func theLimiterIsSharedByEveryProcessOnTheDatabase() async throws {
        try await withTestApp { client, database in
            try await client.signUp("shared")
            for _ in 0..<10 { try await client.sendForm(.post, "/auth/local", "identifier=shared&password=wrong-pass") }
            let second = try database.secondProcess()
            let status = try await second.test(.router) { other in
                try await other.sendForm(.post, "/auth/local", "identifier=shared&password=password1").status
            }
            #expect(status == .tooManyRequests)
        }
    }
}
