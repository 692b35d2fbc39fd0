import Foundation

/// The register and edit form's rules, with the app's alert texts where it had them (§9 of the contract) and
/// the kit's own where it did not. The server checks the same rules; checking them here first lets a person
/// hear about a mistake before anything is sent.
public enum ProductFormValidation {
    /// Fewest characters a name may have after trimming.
    public static let minimumNameLength = 3
    /// Most characters a name may have after trimming.
    public static let maximumNameLength = 100
    /// Most characters a description may have.
    public static let maximumDescriptionLength = 1000
    /// Fewest images a new product may have.
    public static let minimumImageCount = 1
    /// Most images a product may have.
    public static let maximumImageCount = 5

    /// Why the form cannot be sent.
    public enum Failure: Error, Sendable, Equatable {
        /// The trimmed name has fewer than 3 characters.
        case nameTooShort
        /// The trimmed name has more than 100 characters.
        case nameTooLong
        /// The description has more than 1,000 characters.
        case descriptionTooLong
        /// A new product has no image.
        case noImage
        /// A sixth image was added.
        case tooManyImages
        /// Price, discount or stock is empty.
        case missingNumber(Field)
        /// Price, discount or stock is not a number (a whole number for stock, at least 0 for all three).
        case notANumber(Field)
        /// The discount is larger than the price.
        case discountAbovePrice
        /// A currency other than KRW or USD.
        case unsupportedCurrency

        /// The sentence to show.
        public var message: String {
            switch self {
            case .nameTooShort: "상품명은 세 글자 이상 입력되어야 합니다."
            case .nameTooLong, .descriptionTooLong: "글자수가 초과되었습니다."
            case .noImage: "이미지를 한 장 이상 추가해 주세요."
            case .tooManyImages: "이미지를 추가할 수 없습니다."
            case .missingNumber: "값이 없습니다."
            case .notANumber: "숫자만 입력할 수 있습니다."
            case .discountAbovePrice: "할인 금액은 상품 가격보다 클 수 없습니다."
            case .unsupportedCurrency: "통화는 KRW 또는 USD만 선택할 수 있습니다."
            }
        }
    }

    /// The form's number fields.
    public enum Field: String, Sendable, CaseIterable {
        case price
        case discountedPrice
        case stock
    }

    /// The trimmed name, or why it cannot be saved. Lengths count characters as a person sees them (Swift's
    /// `Character`s), as Sprout does.
    public static func validName(_ raw: String) -> Result<String, Failure> {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let length = name.count
        if length < minimumNameLength { return .failure(.nameTooShort) }
        if length > maximumNameLength { return .failure(.nameTooLong) }
        return .success(name)
    }

    /// The description as it will be saved (not trimmed), or why it cannot be.
    public static func validDescription(_ text: String) -> Result<String, Failure> {
        text.count > maximumDescriptionLength ? .failure(.descriptionTooLong) : .success(text)
    }

    /// An amount typed into a number pad: digits with at most one decimal point, surrounding white space ignored.
    public static func validAmount(_ raw: String, field: Field) -> Result<Decimal, Failure> {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return .failure(.missingNumber(field)) }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isNumber = parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) } && parts.count <= 2
        guard isNumber, let value = Decimal(string: text, locale: MarketWire.posix) else { return .failure(.notANumber(field)) }
        return .success(value)
    }

    /// A stock typed into a number pad: digits only.
    public static func validStock(_ raw: String) -> Result<Int, Failure> {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return .failure(.missingNumber(.stock)) }
        guard text.allSatisfy(\.isASCIIDigit), let value = Int(text) else { return .failure(.notANumber(.stock)) }
        return .success(value)
    }
}

extension Character {
    /// `0`…`9` only (not the other scripts' digits `isNumber` accepts).
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
