import Foundation

/// The title rule the Todos server enforces, checked on the device first so a person hears about it at once.
public enum TodoValidation {
    /// Fewest characters a title may have after trimming.
    public static let minimumTitleLength = 6
    /// Most characters a title may have.
    public static let maximumTitleLength = 255

    /// Why a title cannot be saved.
    public enum Failure: Error, Equatable, Sendable {
        case empty
        case tooShort
        case tooLong

        /// The same sentence the server would answer with.
        public var message: String {
            switch self {
            case .empty: "제목(title)은 필수입니다."
            case .tooShort: "제목(title)은 \(minimumTitleLength)자 이상이어야 합니다."
            case .tooLong: "제목(title)은 \(maximumTitleLength)자를 넘을 수 없습니다."
            }
        }
    }

    /// The title as it will be saved (trimmed), or why it cannot be. Lengths count Unicode code points, as the server does.
    public static func validTitle(_ raw: String) -> Result<String, Failure> {
        let title = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let length = title.unicodeScalars.count
        if length == 0 { return .failure(.empty) }
        if length < minimumTitleLength { return .failure(.tooShort) }
        if length > maximumTitleLength { return .failure(.tooLong) }
        return .success(title)
    }
}
