import Foundation
import SproutWire

/// The wire shapes read as the kit's models: `MarketTimestamp` dates, `Decimal` money, `URL`s.
///
/// Money is `Decimal`: the server writes JSON doubles (`2.36`), and a double's shortest text (`"2.36"`) read as a
/// decimal is exactly what the server meant, so `price − discountedPrice` and "discount ≤ price" come out as a
/// person reckons them (`2.36 − 0.71` is `1.65`, not `1.6499999999999999`). Requests go back as doubles.
enum MarketWire {
    static func date(_ text: String, _ what: @autoclosure () -> String) throws -> Date {
        guard let date = MarketTimestamp.date(from: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unreadable timestamp \"\(text)\" in \(what())"))
        }
        return date
    }

    static func url(_ text: String, _ what: @autoclosure () -> String) throws -> URL {
        guard !text.isEmpty, let url = URL(string: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unreadable URL \"\(text)\" in \(what())"))
        }
        return url
    }

    /// The decimal a JSON double stands for (`2.36` → 2.36 exactly).
    static func money(_ value: Double) -> Decimal {
        Decimal(string: String(describing: value), locale: posix) ?? Decimal(value)
    }

    /// The double to write for a decimal amount.
    static func double(_ value: Decimal) -> Double {
        NSDecimalNumber(decimal: value).doubleValue
    }

    static let posix = Locale(identifier: "en_US_POSIX")
}

extension MarketProductSummaryJSON {
    func summary() throws -> MarketProductSummary {
        MarketProductSummary(
            id: id, vendorID: vendorID, vendorName: vendorName, name: name, description: description,
            thumbnailURL: thumbnail.isEmpty ? nil : URL(string: thumbnail), currency: MarketCurrency(rawValue: currency),
            price: MarketWire.money(price), discountedPrice: MarketWire.money(discountedPrice),
            bargainPrice: MarketWire.money(bargainPrice), stock: stock,
            createdAt: try MarketWire.date(createdAt, "product \(id)"), issuedAt: try MarketWire.date(issuedAt, "product \(id)")
        )
    }
}

extension MarketImageJSON {
    func image() throws -> MarketImage {
        MarketImage(
            id: id, url: try MarketWire.url(url, "image \(id)"), thumbnailURL: try MarketWire.url(thumbnailURL, "image \(id)"),
            issuedAt: try MarketWire.date(issuedAt, "image \(id)")
        )
    }
}

extension MarketProductJSON {
    func product() throws -> MarketProduct {
        MarketProduct(
            id: id, vendorID: vendorID, name: name, description: description ?? "",
            thumbnailURL: thumbnail.isEmpty ? nil : URL(string: thumbnail), currency: MarketCurrency(rawValue: currency),
            price: MarketWire.money(price), discountedPrice: MarketWire.money(discountedPrice),
            bargainPrice: MarketWire.money(bargainPrice), stock: stock,
            createdAt: try MarketWire.date(createdAt, "product \(id)"), issuedAt: try MarketWire.date(issuedAt, "product \(id)"),
            images: try images.map { try $0.image() }, vendor: MarketProduct.Vendor(id: vendors.id, name: vendors.name),
            isHidden: hidden ?? false
        )
    }
}

extension MarketPageJSON {
    func page() throws -> MarketPage {
        MarketPage(
            products: try pages.map { try $0.summary() }, pageNo: pageNo, itemsPerPage: itemsPerPage, totalCount: totalCount,
            lastPage: lastPage, hasNext: hasNext, hasPrev: hasPrev
        )
    }
}

extension MarketVendorJSON {
    var vendor: MarketVendor { MarketVendor(id: id, name: name, identifier: identifier, secret: secret) }
}
