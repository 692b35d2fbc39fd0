/// Where a product is deleted, as the lookup step of the delete flow found it: v2's
/// `/api/products/{id}/{product secret}` or the path v3's `archived` lookup answered.
public struct MarketDeleteTarget: Sendable, Hashable {
    /// The product to delete.
    public var productID: Int
    /// The path of the `DELETE`.
    public var path: String

    /// A target with the given values.
    public init(productID: Int, path: String) {
        self.productID = productID
        self.path = path
    }
}
