import Foundation
import HTTPTypes
import Testing
@testable import SproutServer

/// Email addresses shown only to their owner (security review, point 18): every signed-in user could read every
/// author's address in Strapi's author objects and the board's `writer.emailAddress`. Others now get a masked
/// address of the same type; `EMAIL_VISIBILITY=everyone` restores the original behaviour.
@Suite struct EmailPrivacyTests {
    @Test func othersSeeAnAuthorsAddressMaskedAndTheAuthorSeesItWhole() async throws {
        try await withTestApp { client, _ in
            let alice = try await client.signUp("alice")
            let bob = try await client.signUp("bob")
            let post = try await client.createPost("hello", as: alice)
            let comment = try await client.createComment("hi", on: post, as: alice)

            for path in ["/posts/\(post)", "/comments/\(comment)"] {
                #expect(try await client.send(.get, path, headers: bob.bearer).json?["user"]?["email"] == .string("a***@example.com"))
                #expect(try await client.send(.get, path, headers: alice.bearer).json?["user"]?["email"] == .string("alice@example.com"))
            }
            #expect(try await client.send(.get, "/posts", headers: bob.bearer).json?[0]?["user"]?["email"] == .string("a***@example.com"))
            #expect(try await client.send(.get, "/comments", headers: bob.bearer).json?[0]?["user"]?["email"] == .string("a***@example.com"))
            // One's own answers keep one's address: the app shows it on the profile.
            #expect(try await client.send(.get, "/users/me", headers: bob.bearer).json?["email"] == .string("bob@example.com"))
        }
    }

    @Test func theBoardMasksTheWriterForEveryoneButTheWriter() async throws {
        try await withTestApp(configure: { $0.board.apiToken = "static-board-token" }) { client, _ in
            let writer = try await client.signUp("writer")
            let reader = try await client.signUp("reader")
            let id = try #require(try await client.writePost("제목", "본문", as: writer)["postId"]?.int)
            let path = "/api/v2/boards/\(SeedBoard.free)/posts/\(id)"
            #expect(try await client.send(.get, path, headers: reader.bearer).json?["writer"]?["emailAddress"] == .string("w***@example.com"))
            #expect(try await client.send(.get, path, headers: [.authorization: "Bearer static-board-token"]).json?["writer"]?["emailAddress"] == .string("w***@example.com"))
            #expect(try await client.send(.get, path, headers: writer.bearer).json?["writer"]?["emailAddress"] == .string("writer@example.com"))
            let list = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts", headers: reader.bearer)
            #expect(list.json?["value"]?[0]?["writer"]?["emailAddress"] == .string("w***@example.com"))
        }
    }

    @Test func emailVisibilityEveryoneShowsAddressesAsTheOriginalsDid() async throws {
        try await withTestApp(configure: { $0.accounts.emailVisibility = .everyone }) { client, _ in
            let alice = try await client.signUp("alice")
            let bob = try await client.signUp("bob")
            let post = try await client.createPost("hello", as: alice)
            #expect(try await client.send(.get, "/posts/\(post)", headers: bob.bearer).json?["user"]?["email"] == .string("alice@example.com"))
            let id = try #require(try await client.writePost("제목", "본문", as: alice)["postId"]?.int)
            let board = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts/\(id)", headers: bob.bearer)
            #expect(board.json?["writer"]?["emailAddress"] == .string("alice@example.com"))
        }
    }

    @Test func maskingKeepsTheFirstCharacterAndTheDomain() {
        #expect(EmailDisclosure.masked("alice@example.com") == "a***@example.com")
        #expect(EmailDisclosure.masked("한글@예시.kr") == "한***@예시.kr")
        #expect(EmailDisclosure.masked("@example.com") == "***@example.com")
        #expect(EmailDisclosure.masked("no-at-sign") == "***")
    }

    @Test func theSettingIsReadFromTheEnvironment() throws {
        #expect(try SproutConfiguration.fromEnvironment([:]).accounts.emailVisibility == .owner)
        #expect(try SproutConfiguration.fromEnvironment(["EMAIL_VISIBILITY": "Everyone"]).accounts.emailVisibility == .everyone)
        #expect(throws: ConfigurationError.self) { try SproutConfiguration.fromEnvironment(["EMAIL_VISIBILITY": "nobody"]) }
        #expect(try SproutConfiguration.fromEnvironment(["SIGNUPS_PER_ADDRESS_PER_HOUR": "0"]).accounts.signUpsPerAddressPerHour == 0)
        #expect(throws: ConfigurationError.self) { try SproutConfiguration.fromEnvironment(["SIGNUPS_PER_ADDRESS_PER_HOUR": "-1"]) }
    }
}
