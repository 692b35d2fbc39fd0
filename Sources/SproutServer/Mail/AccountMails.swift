import Foundation

/// The mails accounts receive, Korean first and English after, with links built from `PUBLIC_URL`.
enum AccountMails {
    /// The web page that takes a reset code (`/account/reset-password?code=…`).
    static func passwordReset(to account: Account, code: String, publicURL: String) -> OutgoingMail {
        let link = url(publicURL, "/account/reset-password", query: "code", code)
        return OutgoingMail(
            recipient: account.email,
            subject: "[Sprout] 비밀번호 재설정 / Reset your password",
            body: """
                \(account.username)님, 안녕하세요.

                Sprout 계정의 비밀번호를 새로 정하려면 한 시간 안에 아래 링크를 여세요.
                \(link)

                요청하지 않으셨다면 이 메일은 무시하세요. 비밀번호는 그대로입니다.

                ---

                Hello \(account.username),

                To choose a new password for your Sprout account, open this link within an hour:
                \(link)

                If you did not ask for this, ignore this mail: your password stays as it is.
                """,
            purpose: AccountCodes.Purpose.passwordReset.rawValue
        )
    }

    /// Strapi's confirmation route, which confirms and then redirects to the configured page.
    static func emailConfirmation(username: String, address: String, code: String, publicURL: String) -> OutgoingMail {
        let link = url(publicURL, "/auth/email-confirmation", query: "confirmation", code)
        return OutgoingMail(
            recipient: address,
            subject: "[Sprout] 이메일 주소 확인 / Confirm your email address",
            body: """
                \(username)님, 안녕하세요.

                이 주소(\(address))가 Sprout 계정의 이메일이 맞는지 확인하려면 한 시간 안에 아래 링크를 여세요.
                \(link)

                요청하지 않으셨다면 이 메일은 무시하세요.

                ---

                Hello \(username),

                To confirm \(address) as your Sprout account's email address, open this link within an hour:
                \(link)

                If you did not ask for this, ignore this mail.
                """,
            purpose: AccountCodes.Purpose.emailConfirmation.rawValue
        )
    }

    private static func url(_ publicURL: String, _ path: String, query name: String, _ value: String) -> String {
        let base = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        // Codes are base64url: nothing in them needs escaping in a query.
        return "\(base)\(path)?\(name)=\(value)"
    }
}
