extension EventItems {
    /// The readers every topic's events are enriched with.
    static func standard(executor: any SQLExecutor) -> EventItems {
        EventItems()
    }
}
