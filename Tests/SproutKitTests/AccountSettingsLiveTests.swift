import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
@testable import SproutServer
import Testing

/// The kit's account settings against a real server: a forgotten password reset with the mailed code, signing
/// out everywhere, a new username, and deleting the account — and the other devices' sessions seeing their
/// tokens die as a clean signed-out state.
@MainActor
@Suite struct AccountSettingsLiveTests {
    @Test func aForgottenPasswordIsResetWithTheMailedCodeAndOtherDevicesAreSignedOut() async throws {
        try await withLiveServerAndDatabase { base, database in
            let phone = try await CommunityLiveTests.signedUp("forgetter", base: base)
            let feed = FeedStore(session: phone)
            let tablet = CommunityLiveTests.session(base)
            #expect(await tablet.requestPasswordReset(email: "forgetter@example.com"))
            #expect(await tablet.requestPasswordReset(email: "nobody@example.com"), "the same answer for an unknown address")
            #expect(await tablet.requestPasswordReset(email: "  ") == false && tablet.errorMessage != nil)

            // No SMTP on the test server: the mail waits in the outbox, as an operator would find it.
            let mail = try #require(try await MailAdministration(database: database).list().first)
            let link = try #require(mail.body.split(whereSeparator: \.isWhitespace).first { $0.contains("reset-password?code=") })
            let code = try #require(URLComponents(string: String(link))?.queryItems?.first?.value)

            #expect(await tablet.resetPassword(code: "wrong", password: "new-password", confirmation: "new-password") == false)
            #expect((tablet.lastError as? APIError)?.sorted(for: .community).kind == .invalidCode)
            #expect(await tablet.resetPassword(code: code, password: "new-password", confirmation: "other") == false)
            #expect(await tablet.resetPassword(code: code, password: "new-password", confirmation: "new-password"))
            #expect(tablet.user?.username == "forgetter")

            await feed.refresh()
            #expect(phone.state == .signedOut && phone.signOutReason == .tokenRejected)
            #expect(await phone.logIn(identifier: "forgetter", password: "new-password"))
        }
    }

    @Test func signingOutEverywhereLeavesOnlyThisDeviceSignedIn() async throws {
        try await withLiveServer { base in
            let here = try await CommunityLiveTests.signedUp("everywhere", base: base)
            let there = CommunityLiveTests.session(base)
            #expect(await there.logIn(identifier: "everywhere", password: "password-everywhere"))
            #expect(await here.signOutEverywhere())
            await there.refreshUser()
            #expect(there.state == .signedOut && there.signOutReason == .tokenRejected)
            await here.refreshUser()
            #expect(here.user?.username == "everywhere")
            #expect(try await here.community.sessions().isEmpty, "an app signs in with tokens, not browser sessions")
            let renamed = try await here.community.updateProfile(username: "elsewhere")
            #expect(renamed.user.username == "elsewhere" && renamed.emailConfirmationSentTo == nil)
        }
    }

    @Test func deletingTheAccountAsksForThePasswordAndSignsOut() async throws {
        try await withLiveServer { base in
            let session = try await CommunityLiveTests.signedUp("leaving", base: base)
            #expect(await session.deleteAccount(password: "wrong") == false)
            #expect((session.lastError as? APIError)?.sorted(for: .community).kind == .invalidCredentials)
            #expect(session.isSignedIn)
            #expect(await session.deleteAccount(password: "password-leaving"))
            #expect(session.state == .signedOut && session.signOutReason == .accountDeleted)
            #expect(await session.logIn(identifier: "leaving", password: "password-leaving") == false)
        }
    }
}
