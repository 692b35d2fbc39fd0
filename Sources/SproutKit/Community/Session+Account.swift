import Foundation

/// The account's settings beyond sign-up and login: a forgotten password, email confirmation, signing out
/// everywhere and deleting the account. Each returns false with `errorMessage` set when it fails.
extension Session {
    /// Asks for a reset link by mail. True whenever the server took the request: it answers the same whether or
    /// not the address has an account, so the screen says "if it has one, a mail is on its way".
    @discardableResult
    public func requestPasswordReset(email: String) async -> Bool {
        let email = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !email.isEmpty else { return refuse(CommunityValidation.emptyFieldMessage) }
        return await perform { try await CommunityClient(client: anonymousClient).requestPasswordReset(email: email) }
    }

    /// Sets a new password with the code from the reset mail (the `code` of its link) and signs in as the account.
    /// Every other token and session of the account stops working.
    @discardableResult
    public func resetPassword(code: String, password: String, confirmation: String) async -> Bool {
        guard !code.isEmpty, !password.isEmpty, !confirmation.isEmpty else { return refuse(CommunityValidation.emptyFieldMessage) }
        guard password == confirmation else { return refuse(CommunityValidation.passwordMismatchMessage) }
        return await authenticate { (client) throws(APIError) in try await client.resetPassword(code: code, password: password, confirmation: confirmation) }
    }

    /// Mails the email confirmation link again.
    @discardableResult
    public func resendEmailConfirmation(email: String) async -> Bool {
        let email = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !email.isEmpty else { return refuse(CommunityValidation.emptyFieldMessage) }
        return await perform { try await CommunityClient(client: anonymousClient).resendEmailConfirmation(email: email) }
    }

    /// Signs the account out everywhere else: every other device's token and every browser session stop working;
    /// this session stays signed in.
    @discardableResult
    public func signOutEverywhere() async -> Bool {
        guard isSignedIn else { return refuse(Self.signInFirstMessage) }
        return await perform { try await community.signOutEverywhere() }
    }

    /// Deletes the account and everything it holds in every app, after the server checks the password again, and
    /// signs out (`signOutReason` `.accountDeleted`). Cannot be undone.
    @discardableResult
    public func deleteAccount(password: String) async -> Bool {
        guard !password.isEmpty else { return refuse(CommunityValidation.emptyFieldMessage) }
        guard isSignedIn else { return refuse(Self.signInFirstMessage) }
        let deleted = await perform { try await community.deleteAccount(password: password) }
        if deleted { signOut(reason: .accountDeleted) }
        return deleted
    }

    /// Runs one call with `isWorking` set; a failure is reported.
    private func perform(_ call: () async throws -> Void) async -> Bool {
        guard !isWorking else { return false }
        isWorking = true
        defer { isWorking = false }
        do {
            try await call()
            dismissError()
            return true
        } catch {
            report(error)
            return false
        }
    }
}
