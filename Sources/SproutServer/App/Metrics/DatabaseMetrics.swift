import CoreMetrics

/// Database time by kind of statement, waits for a connection or the writer, the SQLite writer's queue and
/// batches, PostgreSQL's write batches, and PostgreSQL connection errors.
struct DatabaseMetrics: Sendable {
    enum Kind: String, CaseIterable {
        /// A plain read; `slow_read`: a search, which may wait for one of a few connections; `write`: any write,
        /// a batch of them or a transaction (on SQLite, including its wait for the writer).
        case read, slowRead = "slow_read", write
    }

    enum Pool: String, CaseIterable {
        /// Slow reads waiting for one of their few connections.
        case slowReads = "slow_reads"
        /// SQLite writes waiting for the writer's next batch.
        case sqliteWriter = "sqlite_writer"
    }

    static let batchSizeName = "sprout_sqlite_writer_batch_size"
    static let postgresBatchSizeName = "sprout_postgres_write_batch_size"
    static let batchSizeBuckets: [Double] = [1, 2, 4, 8, 16, 32, 64, 128]

    private let queries: [Kind: CoreMetrics.Timer]
    private let waits: [Pool: CoreMetrics.Timer]
    let writerQueueDepth: Meter
    let writerBatchSize: Recorder
    let postgresBatchSize: Recorder
    let postgresConnectionErrors: CoreMetrics.Counter

    init(factory: any MetricsFactory) {
        queries = Dictionary(uniqueKeysWithValues: Kind.allCases.map {
            ($0, CoreMetrics.Timer(label: "sprout_db_query_duration_seconds", dimensions: [("kind", $0.rawValue)], factory: factory))
        })
        waits = Dictionary(uniqueKeysWithValues: Pool.allCases.map {
            ($0, CoreMetrics.Timer(label: "sprout_db_pool_wait_seconds", dimensions: [("pool", $0.rawValue)], factory: factory))
        })
        writerQueueDepth = Meter(label: "sprout_sqlite_writer_queue_depth", factory: factory)
        writerBatchSize = Recorder(label: Self.batchSizeName, factory: factory)
        postgresBatchSize = Recorder(label: Self.postgresBatchSizeName, factory: factory)
        postgresConnectionErrors = CoreMetrics.Counter(label: "sprout_postgres_connection_errors_total", factory: factory)
    }

    func record(_ kind: Kind, since started: ContinuousClock.Instant) {
        queries[kind]?.recordNanoseconds(started.duration(to: .now).nanoseconds)
    }

    func recordWait(_ pool: Pool, since started: ContinuousClock.Instant) {
        waits[pool]?.recordNanoseconds(started.duration(to: .now).nanoseconds)
    }
}
