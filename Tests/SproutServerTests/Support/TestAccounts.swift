import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import SproutServer

/// A signed-up account in a test: its id, its token, and the header that carries it.
struct TestAccount: Sendable {
    let id: Int
    let username: String
    let token: String
    var bearer: HTTPFields { [.authorization: "Bearer \(token)"] }
}

extension TestClientProtocol {
    /// Signs up `username` (email `username@example.com`, password `password1`) through the API.
    @discardableResult
    func signUp(_ username: String, password: String = "password1") async throws -> TestAccount {
        let response = try await sendForm(.post, "/auth/local/register", "username=\(username)&email=\(username)@example.com&password=\(password)")
        guard response.status == .ok, let token = response.json?["jwt"]?.string, let id = response.json?["user"]?["id"]?.int else {
            throw TestFailure("sign-up failed: \(response.status) \(String(describing: response.json))")
        }
        SuiteLog.noteSecret(password)
        SuiteLog.noteSecret(token)
        return TestAccount(id: id, username: username, token: token)
    }

    /// Logs `username` in through the API and returns a new token of the account.
    func logIn(_ username: String, password: String = "password1") async throws -> TestAccount {
        let response = try await sendForm(.post, "/auth/local", "identifier=\(username)&password=\(password)")
        guard response.status == .ok, let token = response.json?["jwt"]?.string, let id = response.json?["user"]?["id"]?.int else {
            throw TestFailure("login failed: \(response.status) \(String(describing: response.json))")
        }
        SuiteLog.noteSecret(password)
        SuiteLog.noteSecret(token)
        return TestAccount(id: id, username: username, token: token)
    }

    /// Sends a form body with the given extra headers.
    @discardableResult
    func sendForm(_ method: HTTPRequest.Method, _ uri: String, _ form: String, headers: HTTPFields) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, json: JSON?) {
        var all = headers
        all[.contentType] = "application/x-www-form-urlencoded"
        return try await send(method, uri, headers: all, body: form)
    }

    /// Creates a post as `account` and returns its id.
    @discardableResult
    func createPost(_ text: String, as account: TestAccount) async throws -> Int {
        let response = try await sendForm(.post, "/posts", "text=\(text.formEncoded)", headers: account.bearer)
        guard response.status == .ok, let id = response.json?["id"]?.int else {
            throw TestFailure("post failed: \(response.status) \(String(describing: response.json))")
        }
        return id
    }

    /// Comments on a post as `account` and returns the comment's id.
    @discardableResult
    func createComment(_ text: String, on postID: Int, as account: TestAccount) async throws -> Int {
        let response = try await sendForm(.post, "/comments", "comment=\(text.formEncoded)&post=\(postID)", headers: account.bearer)
        guard response.status == .ok, let id = response.json?["id"]?.int else {
            throw TestFailure("comment failed: \(response.status) \(String(describing: response.json))")
        }
        return id
    }
}

extension String {
    /// Percent-encoded for a form value.
    var formEncoded: String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return addingPercentEncoding(withAllowedCharacters: allowed) ?? self
    }
}

extension SproutDatabase {
    /// A token for `accountID` of token generation `generation`, signed with the database's key as if issued at
    /// `date` (expired when older than 30 days), or with another secret when `secret` is given.
    func token(
        for accountID: Int, generation: Int = 0, issuedAt date: Date = Date(), lifetime: TimeInterval = AccountTokens.lifetime,
        secret: String? = nil
    ) async throws -> String {
        try await AccountTokens(configuredSecret: secret, secrets: ServerSecrets(executor: executor, sealer: .forTests))
            .issue(accountID: accountID, generation: generation, at: date, lifetime: lifetime)
    }
}

extension SproutDatabase {
    /// Another application on the same database with its own connections, as a second `sprout serve` would be.
    func secondProcess(configure: (inout SproutConfiguration) -> Void = { _ in }) throws -> StartCheckedApplication<some ApplicationProtocol> {
        let logger = testLogger()
        let database = try SproutDatabase(settings: settings, migrations: SproutMigrations.all, logger: logger)
        var configuration = SproutConfiguration(server: ServerSettings(hostname: "127.0.0.1", port: 0))
        configuration.accounts.passwordHashCost = 4
        configuration.diary.weather.provider = .off
        configuration.accounts.signUpsPerAddressPerHour = 0
        configuration.market.uploadsPerHour = 0
        configuration.data.secretsKey = SecretSealer.testKey
        configure(&configuration)
        // A start that fails (its migrations under load) fails the test's requests instead of hanging the test.
        return StartCheckedApplication(buildApplication(configuration, database: database, logger: logger))
    }
}
