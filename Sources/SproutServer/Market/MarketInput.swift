import Foundation

/// Reads and checks the fields of a register `params` part or a PATCH body. Numbers arrive as JSON numbers or
/// as numeric strings (the seed app builds both bodies as `[String: String]`); every rule is a 400 that says
/// which field is wrong.
enum MarketInput {
    static let nameLength = 3...100
    static let maximumDescriptionLength = 1000
    /// No real price is larger; bigger numbers would lose whole units in a double.
    static let maximumAmount = 1_000_000_000_000.0
    static let maximumStock = 1_000_000_000

    static func draft(_ fields: FormFields) throws(MarketError) -> MarketProductDraft {
        guard let name = try text(fields, "name") else { throw .badRequest("name is required.") }
        guard let price = try amount(fields, "price") else { throw .badRequest("price is required.") }
        guard let currency = try currency(fields) else { throw .badRequest("currency is required (KRW or USD).") }
        let draft = MarketProductDraft(
            name: try checkedName(name),
            description: try checkedDescription(try description(fields) ?? ""),
            currency: currency,
            price: price,
            discountedPrice: try amount(fields, "discounted_price") ?? 0,
            stock: try stock(fields) ?? 0
        )
        try checkDiscount(draft.discountedPrice, price: draft.price)
        return draft
    }

    static func changes(_ fields: FormFields) throws(MarketError) -> MarketProductChanges {
        MarketProductChanges(
            name: try text(fields, "name").map { name throws(MarketError) in try checkedName(name) },
            description: try description(fields).map { text throws(MarketError) in try checkedDescription(text) },
            currency: try currency(fields),
            price: try amount(fields, "price"),
            discountedPrice: try amount(fields, "discounted_price"),
            stock: try stock(fields),
            thumbnailImageID: try integer(fields, "thumbnail_id", range: 1...Int.max)
        )
    }

    /// The vendor secret in a body; nil when missing (a 403, not a 400: it is a credential).
    static func secret(_ fields: FormFields) -> String? {
        guard let secret = fields["secret"]?.asText, !secret.isEmpty else { return nil }
        return secret
    }

    static func checkDiscount(_ discount: Double, price: Double) throws(MarketError) {
        guard discount <= price else { throw .badRequest("discounted_price may not be larger than price.") }
    }

    // MARK: - Fields

    private static func checkedName(_ name: String) throws(MarketError) -> String {
        let trimmed = name.trimmingWhitespace
        guard nameLength.contains(trimmed.count) else {
            throw .badRequest("name must be \(nameLength.lowerBound) to \(nameLength.upperBound) characters long.")
        }
        return trimmed
    }

    private static func checkedDescription(_ description: String) throws(MarketError) -> String {
        guard description.count <= maximumDescriptionLength else {
            throw .badRequest("description may be at most \(maximumDescriptionLength) characters long.")
        }
        return description
    }

    /// `description` (v3) or `descriptions` (v2); the v3 key wins when both are sent.
    private static func description(_ fields: FormFields) throws(MarketError) -> String? {
        if let value = try text(fields, "description") { return value }
        return try text(fields, "descriptions")
    }

    private static func text(_ fields: FormFields, _ name: String) throws(MarketError) -> String? {
        switch fields[name] {
        case nil, .null: return nil
        case .text(let text): return text
        case .number(let literal): return literal
        case .bool, .structured: throw .badRequest("\(name) must be text.")
        case .invalidText: throw .badRequest("\(name) must be UTF-8 text without NUL characters.")
        }
    }

    private static func currency(_ fields: FormFields) throws(MarketError) -> MarketCurrency? {
        guard let text = try text(fields, "currency") else { return nil }
        guard let currency = MarketCurrency(rawValue: text.trimmingWhitespace.uppercased()) else {
            throw .badRequest("currency must be KRW or USD.")
        }
        return currency
    }

    private static func amount(_ fields: FormFields, _ name: String) throws(MarketError) -> Double? {
        guard let literal = try numberLiteral(fields, name) else { return nil }
        guard let value = Double(literal), value.isFinite, value >= 0, value <= maximumAmount else {
            throw .badRequest("\(name) must be a number from 0 to \(Int(maximumAmount)).")
        }
        return value
    }

    private static func stock(_ fields: FormFields) throws(MarketError) -> Int? {
        try integer(fields, "stock", range: 0...maximumStock)
    }

    private static func integer(_ fields: FormFields, _ name: String, range: ClosedRange<Int>) throws(MarketError) -> Int? {
        guard let literal = try numberLiteral(fields, name) else { return nil }
        // `3` and `"3"`, and `3.0` as a JSON number spelled so by some encoders; never 3.5.
        let value = Int(literal) ?? Double(literal).flatMap { $0.rounded() == $0 && abs($0) < 1e15 ? Int($0) : nil }
        guard let value, range.contains(value) else {
            throw .badRequest("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }

    /// A JSON number or a numeric string, white space around it allowed; an empty string counts as absent.
    private static func numberLiteral(_ fields: FormFields, _ name: String) throws(MarketError) -> String? {
        switch fields[name] {
        case nil, .null: return nil
        case .number(let literal): return literal
        case .text(let text):
            let trimmed = text.trimmingWhitespace
            return trimmed.isEmpty ? nil : trimmed
        case .bool, .structured, .invalidText: throw .badRequest("\(name) must be a number.")
        }
    }
}
