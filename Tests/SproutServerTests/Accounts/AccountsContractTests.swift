import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// Register, login, change password and `/users/me`: Strapi v3's JSON and error bodies, exactly.
@Suite struct AccountsContractTests {
    static var strapiTimestamp: Regex<Substring> { /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/ }

    @Test func registerAnswersTheStrapiAuthResponse() async throws {
        let fixture = try Fixture.json("community/auth-local.reconstructed.json")
        try await withTestApp { client, _ in
            let response = try await client.sendForm(.post, "/auth/local/register", "username=sesac&email=SeSAC@Example.com&password=password1")
            #expect(response.status == .ok)
            let json = try #require(response.json)
            #expect(json.shape == fixture.shape)
            #expect(json["user"]?["email"] == .string("sesac@example.com"))
            #expect(json["user"]?["username"] == .string("sesac"))
            #expect(json["user"]?["role"] == fixture["user"]?["role"])
            #expect(json["user"]?["blocked"] == .null)
            #expect(json["user"]?["password"] == nil)
            let stamp = try #require(json["user"]?["created_at"]?.string)
            #expect(stamp.wholeMatch(of: Self.strapiTimestamp) != nil, "\(stamp)")
            let jwt = try #require(json["jwt"]?.string)
            #expect(jwt.split(separator: ".").count == 3)
        }
    }

    @Test func tokenPayloadIsStrapisIdIatExpWithThirtyDaysPlusRevocationClaims() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("payload")
            let part = String(account.token.split(separator: ".")[1])
            var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            let payload = try JSON(parsing: try #require(Data(base64Encoded: base64)))
            // Strapi's three claims, plus Sprout's revocation claims (TokenRevocationTests), which no app reads.
            #expect(payload.keys == ["id", "iat", "exp", "gen", "jti"])
            #expect(payload["id"]?.int == account.id)
            let lifetime = try #require(payload["exp"]?.int) - (try #require(payload["iat"]?.int))
            #expect(lifetime == 30 * 24 * 3600)
        }
    }

    @Test func loginWorksWithUsernameOrEmailInAnyCase() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("sesac")
            for identifier in ["sesac", "sesac@example.com", "SESAC@Example.COM"] {
                let response = try await client.sendForm(.post, "/auth/local", "identifier=\(identifier.formEncoded)&password=password1")
                #expect(response.status == .ok, "\(identifier)")
                #expect(response.json?["user"]?["id"]?.int == account.id)
                #expect(response.json?["jwt"]?.string != nil)
            }
            // Usernames are exact.
            let wrongCase = try await client.sendForm(.post, "/auth/local", "identifier=SESAC&password=password1")
            #expect(wrongCase.status == .badRequest)
        }
    }

    @Test func loginAcceptsJSONAndUnlabelledBodies() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("bodies")
            let json = try await client.sendJSON(.post, "/auth/local", #"{"identifier":"bodies","password":"password1"}"#)
            #expect(json.status == .ok)
            let unlabelled = try await client.send(.post, "/auth/local", body: "identifier=bodies&password=password1")
            #expect(unlabelled.status == .ok)
        }
    }

    @Test func badCredentialsAnswerTheCapturedNestedError() async throws {
        let captured = try Fixture.json("community/strapi-v3-error-invalid-identifier.json")
        try await withTestApp { client, _ in
            try await client.signUp("sesac")
            let wrongPassword = try await client.sendForm(.post, "/auth/local", "identifier=sesac&password=nope-nope")
            #expect(wrongPassword.status == .badRequest)
            #expect(wrongPassword.json == captured)
            let unknownUser = try await client.sendForm(.post, "/auth/local", "identifier=nobody&password=password1")
            #expect(unknownUser.json == captured)
        }
    }

    @Test(arguments: [
        ("password=password1", "Auth.form.error.email.provide"),
        ("identifier=sesac", "Auth.form.error.password.provide"),
        ("identifier=%20%20&password=x", "Auth.form.error.email.provide"),
    ])
    func loginWithMissingFieldsNamesTheField(form: String, id: String) async throws {
        try await withTestApp { client, _ in
            let response = try await client.sendForm(.post, "/auth/local", form)
            #expect(response.status == .badRequest)
            #expect(response.json?["message"]?[0]?["messages"]?[0]?["id"] == .string(id))
            #expect(response.json?["data"] == response.json?["message"])
        }
    }

    @Test(arguments: [
        ("email=a@example.com&password=password1", "Auth.form.error.username.provide"),
        ("username=alice&password=password1", "Auth.form.error.email.provide"),
        ("username=alice&email=a@example.com", "Auth.form.error.password.provide"),
        ("username=alice&email=not-an-email&password=password1", "Auth.form.error.email.format"),
        ("username=alice&email=a@example.com&password=%24a%24b%24c%24d", "Auth.form.error.password.format"),
        ("username=alice&email=a@example.com&password=short", "Auth.form.error.password.format"),
        ("username=al&email=a@example.com&password=password1", "Auth.form.error.username.format"),
        ("username=x%40example.com&email=a@example.com&password=password1", "Auth.form.error.username.format"),
    ])
    func registerRefusesBadInputWithStrapisIDs(form: String, id: String) async throws {
        try await withTestApp { client, _ in
            let response = try await client.sendForm(.post, "/auth/local/register", form)
            #expect(response.status == .badRequest, "\(form)")
            #expect(response.json?["message"]?[0]?["messages"]?[0]?["id"] == .string(id), "\(form): \(String(describing: response.json))")
            #expect(response.json?["statusCode"]?.int == 400)
            #expect(response.json?["error"] == .string("Bad Request"))
        }
    }

    @Test func emailsAreUniqueWhateverTheirCaseAndUsernamesAreUnique() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("first")
            let sameEmail = try await client.sendForm(.post, "/auth/local/register", "username=second&email=FIRST@example.com&password=password1")
            #expect(sameEmail.json?["message"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.email.taken"))
            let sameName = try await client.sendForm(.post, "/auth/local/register", "username=first&email=other@example.com&password=password1")
            #expect(sameName.json?["message"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.username.taken"))
        }
    }

    @Test func concurrentSignUpsForOneNameMakeOneAccount() async throws {
        try await withTestApp { client, database in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        try await client.sendForm(.post, "/auth/local/register", "username=racer&email=racer\(index)@example.com&password=password1").status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1)
            #expect(statuses.filter { $0 == .badRequest }.count == 5)
            let count = try await database.executor.readFirst(SQLStatement("SELECT count(*) FROM accounts"), as: SQLInt.self)?.value
            #expect(count == 1)
        }
    }

    @Test func meAnswersTheUserWithRoleObjectPostsAndComments() async throws {
        let fixture = try Fixture.json("community/change-password.reconstructed.json")
        try await withTestApp { client, _ in
            let account = try await client.signUp("sesac")
            let postID = try await client.createPost("오늘 새싹 과제 다 하신 분?", as: account)
            try await client.createComment("저요!", on: postID, as: account)
            let response = try await client.send(.get, "/users/me", headers: account.bearer)
            #expect(response.status == .ok)
            let json = try #require(response.json)
            #expect(json.keys == fixture.keys)
            #expect(json["role"] == fixture["role"])
            #expect(json["posts"]?[0]?.keys == fixture["posts"]?[0]?.keys)
            #expect(json["posts"]?[0]?["user"]?.int == account.id)
            #expect(json["comments"]?[0]?.keys == fixture["comments"]?[0]?.keys)
            #expect(json["comments"]?[0]?["post"]?.int == postID)
            #expect(response.headers[.cacheControl] == "private, no-store")
            #expect(response.headers[.vary] == "Authorization, Cookie")
        }
    }

    @Test func meWithoutTokenIsForbiddenAndWithABadOneUnauthorized() async throws {
        let forbidden = try Fixture.json("community/strapi-v3-error-forbidden.json")
        let invalid = try Fixture.json("community/strapi-v3-error-invalid-token.json")
        try await withTestApp { client, _ in
            let anonymous = try await client.send(.get, "/users/me")
            #expect(anonymous.status == .forbidden)
            #expect(anonymous.json == forbidden)
            let bad = try await client.send(.get, "/users/me", headers: [.authorization: "Bearer not.a.token"])
            #expect(bad.status == .unauthorized)
            #expect(bad.json == invalid)
            let lowercaseScheme = try await client.signUp("lower")
            let ok = try await client.send(.get, "/users/me", headers: [.authorization: "bearer \(lowercaseScheme.token)"])
            #expect(ok.status == .ok)
        }
    }

    @Test func expiredTokensAndTokensSignedWithAnotherKeyAreRefused() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("expiry")
            let expired = try await database.token(for: account.id, issuedAt: Date().addingTimeInterval(-31 * 24 * 3600))
            let foreign = try await database.token(for: account.id, secret: "some other server's secret, 32 bytes or more")
            let fresh = try await database.token(for: account.id)
            #expect(try await client.send(.get, "/users/me", headers: [.authorization: "Bearer \(expired)"]).status == .unauthorized)
            #expect(try await client.send(.get, "/users/me", headers: [.authorization: "Bearer \(foreign)"]).status == .unauthorized)
            #expect(try await client.send(.get, "/users/me", headers: [.authorization: "Bearer \(fresh)"]).status == .ok)
        }
    }

    @Test func changePasswordChecksTheCurrentOneAndTheConfirmation() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("changer")
            let wrong = try await client.sendForm(.post, "/custom/change-password", "currentPassword=wrong-one&newPassword=newpass1&confirmNewPassword=newpass1", headers: account.bearer)
            #expect(wrong.status == .badRequest)
            #expect(wrong.json?["message"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.invalid"))
            let mismatch = try await client.sendForm(.post, "/custom/change-password", "currentPassword=password1&newPassword=newpass1&confirmNewPassword=newpass2", headers: account.bearer)
            #expect(mismatch.json?["message"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.password.matching"))
            let anonymous = try await client.sendForm(.post, "/custom/change-password", "currentPassword=password1&newPassword=newpass1&confirmNewPassword=newpass1")
            #expect(anonymous.status == .forbidden)

            let changed = try await client.sendForm(.post, "/custom/change-password", "currentPassword=password1&newPassword=newpass1&confirmNewPassword=newpass1", headers: account.bearer)
            #expect(changed.status == .ok)
            #expect(changed.json?["id"]?.int == account.id)
            #expect(changed.json?["role"]?["type"] == .string("authenticated"))
            // The app keeps its token after a change (every other one ends: TokenRevocationTests).
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).status == .ok)
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=changer&password=password1").status == .badRequest)
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=changer&password=newpass1").status == .ok)
        }
    }

    @Test func blockedAccountsCannotLogInOrUseTheirTokens() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("blocked")
            _ = try await SQLAccountRepository(executor: database.executor).setBlocked(id: account.id, true, at: Date())
            let login = try await client.sendForm(.post, "/auth/local", "identifier=blocked&password=password1")
            #expect(login.status == .badRequest)
            #expect(login.json?["message"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.blocked"))
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).status == .unauthorized)
            #expect(try await client.send(.get, "/api/v2/todos", headers: account.bearer).status == .unauthorized)
        }
    }

    @Test func theGeneratedSigningKeyIsKeptInTheDatabaseForEveryProcess() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("shared")
            // A second application on the same database (another `sprout serve`) accepts the first one's token.
            let second = try database.secondProcess()
            let status = try await second.test(.router) { other in
                try await other.send(.get, "/users/me", headers: account.bearer).status
            }
            #expect(status == .ok)
            let stored = try await database.executor.readFirst(SQLStatement("SELECT value FROM sprout_secrets WHERE name = 'jwt'"), as: SQLTextValue.self)
            #expect((stored?.value.count ?? 0) >= 43)
        }
    }

    @Test func aConfiguredJWTSecretSignsTokens() async throws {
        try await withTestApp(configure: { $0.accounts.jwtSecret = "a configured secret of at least 32 bytes" }) { client, database in
            let account = try await client.signUp("configured")
            let sameKey = try await database.token(for: account.id, secret: "a configured secret of at least 32 bytes")
            #expect(try await client.send(.get, "/users/me", headers: [.authorization: "Bearer \(sameKey)"]).status == .ok)
            let stored = try await database.executor.readFirst(SQLStatement("SELECT value FROM sprout_secrets WHERE name = 'jwt'"), as: SQLTextValue.self)
            #expect(stored == nil)
        }
    }
}
