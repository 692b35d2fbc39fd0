import Foundation
import SproutKit
import SproutWire
import Testing

/// Strapi's error bodies reach a screen as their id, the server's text and a Korean sentence.
@Suite struct CommunityErrorTests {
    static func failure(status: Int, body: String) async -> APIError? {
        let client = APIClient(baseURL: FakeCommunityServer.base, transport: StubTransport.answering(status: status, body: body))
        do {
            _ = try await client.send(Request<Data>(path: "/auth/local"))
            return nil
        } catch {
            return error
        }
    }

    @Test func theCapturedInvalidIdentifierBodyGivesItsIdAndText() async throws {
        let error = try #require(await Self.failure(status: 400, body: CommunityFixtures.errorInvalidIdentifier))
        #expect(error.statusCode == 400)
        #expect(error.strapiMessageID == "Auth.form.error.invalid")
        #expect(error.strapiError?.readableMessage == "Identifier or password invalid.")
        // The status case itself keeps the server's own text, as for every other service.
        #expect(error.message == "Identifier or password invalid.")
        let community = error.sorted(for: .community)
        #expect(community.kind == .invalidCredentials)
        #expect(community.messageID == "Auth.form.error.invalid")
        #expect(community.serverMessage == "Identifier or password invalid.")
        #expect(community.message == "아이디 또는 비밀번호가 올바르지 않습니다.")
    }

    @Test(arguments: [
        ("Auth.form.error.email.taken", SproutError.Kind.emailTaken),
        ("Auth.form.error.username.taken", .usernameTaken),
        ("Auth.form.error.email.format", .invalidEmail),
        ("Auth.form.error.email.provide", .missingEmail),
        ("Auth.form.error.username.provide", .missingUsername),
        ("Auth.form.error.password.provide", .missingPassword),
        ("Auth.form.error.username.format", .invalidUsername),
        ("Auth.form.error.password.format", .invalidPassword),
        ("Auth.form.error.password.matching", .passwordsDoNotMatch),
        ("Auth.form.error.blocked", .blocked),
        ("Auth.form.error.confirmed", .unconfirmed),
    ])
    func everyFormIdHasItsKindAndAKoreanSentence(id: String, kind: SproutError.Kind) async throws {
        let error = try #require(await Self.failure(status: 400, body: CommunityFixtures.formError(id: id, message: "English text")))
        let community = error.sorted(for: .community)
        #expect(community.kind == kind)
        #expect(community.messageID == id && community.serverMessage == "English text")
        #expect(community.message != "English text" && !community.message.isEmpty)
    }

    @Test func aFormatErrorSaysWhichRuleWasBroken() async throws {
        let body = CommunityFixtures.formError(id: "Auth.form.error.password.format", message: "Your password must be at least 6 characters long.")
        let community = try #require(await Self.failure(status: 400, body: body)).sorted(for: .community)
        #expect(community.message == "비밀번호의 형식이 올바르지 않습니다. (Your password must be at least 6 characters long.)")
    }

    @Test func theLoginRateLimitIs429WithItsId() async throws {
        let body = CommunityFixtures.formError(status: 429, id: "Auth.form.error.ratelimit", message: "Too many attempts, please try again in a minute.")
        let community = try #require(await Self.failure(status: 429, body: body)).sorted(for: .community)
        #expect(community.kind == .rateLimited && community.statusCode == 429)
        #expect(community.message == "로그인 시도가 너무 많습니다. 잠시 후 다시 시도해 주세요.")
    }

    @Test func anUnknownFormIdShowsTheServersText() async throws {
        let body = CommunityFixtures.formError(id: "Auth.form.error.something.new", message: "Something new.")
        let community = try #require(await Self.failure(status: 400, body: body)).sorted(for: .community)
        #expect(community.kind == .otherFormError && community.message == "Something new.")
    }

    @Test func plainBoomBodiesAreSortedByStatus() async throws {
        let token = try #require(await Self.failure(status: 401, body: CommunityFixtures.errorInvalidToken))
        #expect(token.sorted(for: .community).kind == .unauthorized && token.sorted(for: .community).serverMessage == "Invalid token.")
        #expect(token.strapiMessageID == nil && token.message == "Invalid token.")
        let forbidden = try #require(await Self.failure(status: 403, body: CommunityFixtures.errorForbidden)).sorted(for: .community)
        #expect(forbidden.kind == .forbidden && forbidden.serverMessage == "Forbidden")
        let missing = try #require(await Self.failure(status: 404, body: CommunityFixtures.errorNotFound)).sorted(for: .community)
        #expect(missing.kind == .notFound && missing.statusCode == 404)
    }

    @Test func aBodyThatIsNotStrapisFallsBackToTheGenericMessage() async throws {
        let error = try #require(await Self.failure(status: 502, body: "<html>Bad Gateway</html>"))
        #expect(error.strapiError == nil)
        let community = error.sorted(for: .community)
        #expect(community.kind == .other && community.serverMessage == nil)
        #expect(community.message == error.message)
        let laravel = try #require(await Self.failure(status: 401, body: #"{"message":"Unauthenticated."}"#)).sorted(for: .community)
        #expect(laravel.kind == .unauthorized && laravel.message == "로그인이 만료되었습니다. 다시 로그인해 주세요.")
    }

    @Test func noConnectionIsOther() {
        let community = APIError.transport(underlying: StubError.offline).sorted(for: .community)
        #expect(community.kind == .other && community.statusCode == nil)
        #expect(community.message == APIError.transport(underlying: StubError.offline).message)
    }
}
