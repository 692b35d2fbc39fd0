/// The market's pieces, made once per application from its configuration.
struct MarketParts: Sendable {
    let products: MarketProducts
    let vendors: MarketVendors
    let storage: any MarketImageStorage
    let json: MarketJSON

    init(
        _ configuration: SproutConfiguration, executor: any SQLExecutor, sealer: SecretSealer, images: SystemImageProcessor,
        clock: WallClock = .system, metrics: SproutMetrics = .off
    ) {
        switch configuration.market.imageStorage {
        case .files: storage = FileImageStorage(dataDirectory: configuration.data.directory)
        case .database: storage = DatabaseImageStorage(executor: executor)
        }
        vendors = MarketVendors(repository: SQLVendorRepository(executor: executor, sealer: sealer), clock: clock)
        products = MarketProducts(
            repository: SQLMarketRepository(executor: executor), vendors: vendors.repository, storage: storage, images: images,
            limits: MarketUploadLimits(maximumImageBytes: configuration.market.maxImageBytes),
            uploadRate: MarketUploadRate(ledger: RateLimitLedger(executor: executor), perHour: configuration.market.uploadsPerHour, clock: clock),
            clock: clock, metrics: metrics.market
        )
        json = MarketJSON(publicURL: configuration.server.publicURL)
    }
}
