/// The checks the SeSAC app makes on the device before it sends a form.
public enum CommunityValidation {
    /// What the app says when a new password and its confirmation differ.
    public static let passwordMismatchMessage = "비밀번호가 일치하지 않습니다."
    /// What the kit says when a submit is attempted with an empty field (the app keeps the button disabled).
    public static let emptyFieldMessage = "모든 항목을 입력해 주세요."
    /// What the kit says when a post or comment would be saved with no text.
    public static let emptyTextMessage = "내용을 입력해 주세요."

    /// Whether the sign-up form may be sent: every field non-empty (the app's `formIsValid`).
    public static func canSignUp(username: String, email: String, password: String) -> Bool {
        allFilled(username, email, password)
    }

    /// Whether the login form may be sent: every field non-empty.
    public static func canLogIn(identifier: String, password: String) -> Bool {
        allFilled(identifier, password)
    }

    /// Whether the change-password form may be sent: every field non-empty. That the new password and its
    /// confirmation match is checked on submit, with `passwordMismatchMessage`, as the app does.
    public static func canChangePassword(current: String, new: String, confirmation: String) -> Bool {
        allFilled(current, new, confirmation)
    }

    /// Whether a post or comment text may be saved: something other than white space.
    public static func isValidText(_ text: String) -> Bool {
        !text.allSatisfy(\.isWhitespace)
    }

    /// Empty means no characters at all: a password of spaces is a password, as on the server.
    private static func allFilled(_ fields: String...) -> Bool {
        fields.allSatisfy { !$0.isEmpty }
    }
}
