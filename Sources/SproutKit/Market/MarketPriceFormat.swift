import Foundation

/// Money as the market's cells show it: `"{currency} {amount with thousands separators}"` (`KRW 1,300,000`,
/// `USD 2.36`), the same on every device whatever its locale.
public enum MarketPriceFormat {
    /// `amount` in `currency`: up to two fraction digits, none for whole amounts.
    public static func string(_ amount: Decimal, currency: MarketCurrency) -> String {
        "\(currency.rawValue) \(number(amount))"
    }

    /// The list price of a product.
    public static func price(of product: MarketProductSummary) -> String {
        string(product.price, currency: product.currency)
    }

    /// What a product sells for (the apps show it after the struck-through price when there is a discount).
    public static func bargainPrice(of product: MarketProductSummary) -> String {
        string(product.bargainPrice, currency: product.currency)
    }

    private static func number(_ amount: Decimal) -> String {
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.numberStyle = .decimal
        formatter.usesGroupingSeparator = true
        formatter.groupingSeparator = ","
        formatter.groupingSize = 3
        formatter.decimalSeparator = "."
        formatter.minimumFractionDigits = 0
        formatter.maximumFractionDigits = 2
        return formatter.string(from: NSDecimalNumber(decimal: amount)) ?? "\(amount)"
    }
}
