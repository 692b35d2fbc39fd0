import CoreMetrics
import Foundation
import Prometheus

/// What Sprout measures, recorded through swift-metrics into a Prometheus registry of this process's own
/// (`METRICS_PORT` turns it on). Off, every series records into swift-metrics' no-op handler, and the database's
/// executor is not wrapped at all, so metrics cost nothing unless asked for. docs/operations.md lists the series.
///
/// An instance, not swift-metrics' global bootstrap: each application (and each test's) has its own registry.
public final class SproutMetrics: Sendable {
    /// No registry: nothing is kept.
    public static let off = SproutMetrics(registry: nil)

    let registry: PrometheusCollectorRegistry?
    let requests: RequestMetrics
    let database: DatabaseMetrics
    let accounts: AccountMetrics
    let market: MarketMetrics
    let backups: BackupMetrics

    public var isOn: Bool { registry != nil }

    /// A fresh registry, with duration buckets from 1 ms to 10 s.
    public static func prometheus() -> SproutMetrics {
        SproutMetrics(registry: PrometheusCollectorRegistry())
    }

    private init(registry: PrometheusCollectorRegistry?) {
        self.registry = registry
        let factory: any MetricsFactory
        if let registry {
            var prometheus = PrometheusMetricsFactory(registry: registry)
            prometheus.defaultDurationHistogramBuckets = Self.durationBuckets
            prometheus.valueHistogramBuckets = [
                DatabaseMetrics.batchSizeName: DatabaseMetrics.batchSizeBuckets,
                DatabaseMetrics.postgresBatchSizeName: DatabaseMetrics.batchSizeBuckets,
            ]
            factory = prometheus
        } else {
            factory = NOOPMetricsHandler.instance
        }
        requests = RequestMetrics(factory: factory, isOn: registry != nil)
        database = DatabaseMetrics(factory: factory)
        accounts = AccountMetrics(factory: factory)
        market = MarketMetrics(factory: factory)
        backups = BackupMetrics(factory: factory)
    }

    static let durationBuckets: [Duration] = [
        .milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    /// The text Prometheus scrapes: every recorded series, then the process's memory, CPU and open files as read
    /// from /proc at this moment. Empty when off.
    public func exposition() -> String {
        guard let registry else { return "" }
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return String(decoding: bytes, as: UTF8.self) + ProcessMetrics.read().exposition()
    }
}

/// Wrong passwords given at login or at a password change. (Rate-limit refusals are counted from the 429s,
/// by route: `RequestMetrics`.)
struct AccountMetrics: Sendable {
    let loginFailures: CoreMetrics.Counter

    init(factory: any MetricsFactory) {
        loginFailures = CoreMetrics.Counter(label: "sprout_login_failures_total", factory: factory)
    }
}

/// Market uploads accepted and thumbnails made from them.
struct MarketMetrics: Sendable {
    let uploads: CoreMetrics.Counter
    let thumbnails: CoreMetrics.Counter

    init(factory: any MetricsFactory) {
        uploads = CoreMetrics.Counter(label: "sprout_market_uploads_total", factory: factory)
        thumbnails = CoreMetrics.Counter(label: "sprout_market_thumbnails_total", factory: factory)
    }
}

/// The last good backup: when it finished, how long it took, how large it is.
struct BackupMetrics: Sendable {
    let lastSuccess: CoreMetrics.Gauge
    let duration: CoreMetrics.Gauge
    let size: CoreMetrics.Gauge
    let failures: CoreMetrics.Counter

    init(factory: any MetricsFactory) {
        lastSuccess = CoreMetrics.Gauge(label: "sprout_backup_last_success_timestamp_seconds", factory: factory)
        duration = CoreMetrics.Gauge(label: "sprout_backup_duration_seconds", factory: factory)
        size = CoreMetrics.Gauge(label: "sprout_backup_size_bytes", factory: factory)
        failures = CoreMetrics.Counter(label: "sprout_backup_failures_total", factory: factory)
    }

    func record(_ backup: BackupResult) {
        lastSuccess.record(backup.finishedAt.timeIntervalSince1970)
        duration.record(Double(backup.duration.components.seconds) + Double(backup.duration.components.attoseconds) / 1e18)
        size.record(backup.bytes)
    }
}
