import SproutWire

extension Session {
    /// The market API as this session: its token for the vendor calls, and `credentials` (when given) for
    /// product changes.
    public func market(generation: MarketAPIGeneration = .v3, credentials: MarketVendorCredentials? = nil) -> MarketClient {
        MarketClient(client: apiClient, generation: generation, credentials: credentials)
    }
}
