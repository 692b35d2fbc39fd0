import Crypto
import Foundation

extension MarketVendor {
    /// The product secret of the v2 and v3 delete flows: a lowercase UUID derived from the vendor secret and the
    /// product id (HMAC-SHA256, its first 16 bytes, marked as a version 8 UUID). Nothing is stored, so rotating the
    /// vendor secret re-issues every product secret at once, and a product secret that leaked (the access log
    /// once held `DELETE /api/products/{id}/{secret}`) ends with the vendor secret that made it.
    func productSecret(of productID: Int) -> String {
        var bytes = Array(Self.productSecretDigest(vendorSecret: secret, productID: productID).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: a UUID of the application's own making (RFC 9562)
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // the RFC's variant
        let uuid = UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
        return uuid.uuidString.lowercased()
    }

    /// Whether `candidate` is the product's secret, compared in constant time (as digests), any case.
    func isProductSecret(_ candidate: String, of productID: Int) -> Bool {
        SHA256.hash(data: Data(candidate.lowercased().utf8)) == SHA256.hash(data: Data(productSecret(of: productID).utf8))
    }

    private static func productSecretDigest(vendorSecret: String, productID: Int) -> HashedAuthenticationCode<SHA256> {
        HMAC<SHA256>.authenticationCode(
            for: Data("sprout.market.product-secret.\(productID)".utf8), using: SymmetricKey(data: Data(vendorSecret.utf8))
        )
    }
}
