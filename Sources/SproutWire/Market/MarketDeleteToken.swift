import Foundation

/// The v3 delete path: `POST /api/products/{id}/archived` answers `/api/products/` followed by the unpadded
/// base64url of `"{id}|{product secret}"`, and `DELETE` on that path deletes the product.
public struct MarketDeleteToken: Sendable, Equatable {
    public var productID: Int
    public var productSecret: String

    /// A token for a product and its secret.
    public init(productID: Int, productSecret: String) {
        self.productID = productID
        self.productSecret = productSecret
    }

    /// The token as it stands in the path.
    public var text: String {
        Data("\(productID)|\(productSecret)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The path the archived lookup answers.
    public var path: String { "/api/products/\(text)" }

    /// Reads a token (base64url or standard base64, padded or not); nil unless it holds `id|secret`.
    public init?(text: String) {
        guard !text.isEmpty, text.utf8.count <= 200 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64.append("=") }
        guard let data = Data(base64Encoded: base64), let decoded = String(data: data, encoding: .utf8) else { return nil }
        let parts = decoded.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let id = Int(parts[0]), id > 0, !parts[1].isEmpty else { return nil }
        productID = id
        productSecret = String(parts[1])
    }
}
