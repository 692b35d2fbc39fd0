import Foundation

/// The register, login and change-password forms, checked in the order Strapi's `Auth.js` checks them, with
/// Strapi's message ids. Where Strapi left a rule to its model (username at least 3 characters, password at
/// least 6), Sprout states it with the nearest id; the bounds above are Sprout's (bcrypt reads 72 bytes).
enum AccountInput {
    static let usernameLength = 3...50
    static let passwordBytes = 6...72
    static let emailMaximumLength = 254

    struct Registration {
        let username: String
        let email: String
        let password: String
    }

    struct Login {
        let identifier: String
        let password: String
        /// True when the identifier is an email address: it is looked up, lowercased, among emails.
        var isEmail: Bool { AccountInput.isEmailAddress(identifier) }
    }

    struct PasswordChange {
        let current: String
        let new: String
    }

    static func registration(from fields: FormFields) throws(StrapiError) -> Registration {
        guard let password = text(fields["password"]), !password.isEmpty else { throw .passwordMissing }
        guard let email = text(fields["email"])?.trimmingWhitespace, !email.isEmpty else { throw .emailMissing }
        guard let username = text(fields["username"])?.trimmingWhitespace, !username.isEmpty else { throw .usernameMissing }
        try checkPassword(password)
        try checkEmail(email)
        try checkUsername(username)
        return Registration(username: username, email: email.lowercased(), password: password)
    }

    /// `PUT /users/me`: a new username, a new email address, or both (each trimmed; the email lowercased).
    static func profileChange(from fields: FormFields) throws(StrapiError) -> ProfileChange {
        let username = text(fields["username"])?.trimmingWhitespace
        let email = text(fields["email"])?.trimmingWhitespace
        if let username { try checkUsername(username) }
        if let email { try checkEmail(email) }
        guard username != nil || email != nil else { throw .usernameMissing }
        return ProfileChange(username: username, email: email?.lowercased())
    }

    struct ProfileChange {
        let username: String?
        let email: String?
    }

    static func checkEmail(_ email: String) throws(StrapiError) {
        guard !email.isEmpty else { throw .emailMissing }
        guard email.count <= emailMaximumLength, isEmailAddress(email) else { throw .emailFormat }
    }

    static func checkUsername(_ username: String) throws(StrapiError) {
        guard !username.isEmpty else { throw .usernameMissing }
        guard usernameLength.contains(username.count) else {
            throw .usernameFormat("Your username must be \(usernameLength.lowerBound) to \(usernameLength.upperBound) characters long.")
        }
        guard !username.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .usernameFormat("Your username cannot contain control characters.")
        }
        guard !isEmailAddress(username) else {
            // A username that looks like an email would be looked up among emails at login, and never found.
            throw .usernameFormat("Your username cannot be an email address.")
        }
    }

    static func login(from fields: FormFields) throws(StrapiError) -> Login {
        guard let identifier = text(fields["identifier"])?.trimmingWhitespace, !identifier.isEmpty else { throw .identifierMissing }
        guard let password = text(fields["password"]), !password.isEmpty else { throw .passwordMissing }
        return Login(identifier: identifier, password: password)
    }

    static func passwordChange(from fields: FormFields) throws(StrapiError) -> PasswordChange {
        guard let current = text(fields["currentPassword"]), !current.isEmpty,
            let new = text(fields["newPassword"]), !new.isEmpty
        else { throw .passwordMissing }
        guard let confirmation = text(fields["confirmNewPassword"]), confirmation == new else { throw .passwordsDiffer }
        try checkPassword(new)
        return PasswordChange(current: current, new: new)
    }

    static func checkPassword(_ password: String) throws(StrapiError) {
        guard password.utf8.count >= passwordBytes.lowerBound else {
            throw .passwordFormat("Your password must be at least \(passwordBytes.lowerBound) characters long.")
        }
        guard password.utf8.count <= passwordBytes.upperBound else {
            throw .passwordFormat("Your password must be at most \(passwordBytes.upperBound) bytes long.")
        }
        guard hasAtMostThreeDollars(password) else { throw .passwordDollars }
    }

    /// Whether a password meets every rule above (the administrator's reset checks the same ones).
    static func isAcceptablePassword(_ password: String) -> Bool {
        passwordBytes.contains(password.utf8.count) && hasAtMostThreeDollars(password)
    }

    private static func hasAtMostThreeDollars(_ password: String) -> Bool {
        password.utf8.lazy.filter { $0 == UInt8(ascii: "$") }.count <= 3
    }

    private static func text(_ value: FieldValue?) -> String? {
        value?.asText
    }

    /// Strapi's email pattern: a local part of dot-separated atoms without `<>()[]\.,;:@"` or spaces, `@`, and a
    /// domain of letter/digit/hyphen labels ending in a top-level name of at least two letters.
    static func isEmailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let forbidden = Set("<>()[]\\,;:\"@")
        let atoms = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard !atoms.isEmpty, atoms.allSatisfy({ atom in
            !atom.isEmpty && !atom.contains(where: { forbidden.contains($0) || $0.isWhitespace })
        }) else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let topLevel = labels.last, topLevel.count >= 2,
            topLevel.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
