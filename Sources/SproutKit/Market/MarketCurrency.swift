/// A product's currency code. The market's apps offer `KRW` and `USD` (a segmented control); answers may name
/// another code, which is kept as it came.
public struct MarketCurrency: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The code as the server writes it (`"KRW"`).
    public let rawValue: String

    /// A currency with the code `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Korean won.
    public static let krw = MarketCurrency(rawValue: "KRW")
    /// US dollar.
    public static let usd = MarketCurrency(rawValue: "USD")
    /// The currencies a product may be registered in, in the order the apps show them.
    public static let supported: [MarketCurrency] = [.krw, .usd]

    /// Whether a product may be registered in this currency.
    public var isSupported: Bool { Self.supported.contains(self) }

    /// The code.
    public var description: String { rawValue }
}
