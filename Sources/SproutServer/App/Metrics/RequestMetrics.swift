import CoreMetrics
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers

/// Requests by route template, method and status class: a count and a duration histogram, and how many are in
/// flight. Every label value comes from a closed set — the router's own templates (`/api/v2/todos/{id}`, or
/// `unmatched` for any path no route has), seven methods or `other`, five status classes — so no request, however
/// strange its path or method, can add a series of its own.
final class RequestMetrics: Sendable {
    private struct Key: Hashable {
        let route: String
        let method: String
        let statusClass: Int
    }

    private struct Series: Sendable {
        let count: CoreMetrics.Counter
        let duration: CoreMetrics.Timer
        /// Only for 4xx: the 429s among them, every rate limit's refusals.
        let refusals: CoreMetrics.Counter?
    }

    let inFlight: Meter
    /// Off, requests are not even looked up: nothing is kept, so nothing need be found.
    let isOn: Bool
    private let factory: any MetricsFactory
    private let series = NIOLockedValueBox<[Key: Series]>([:])

    static let unmatchedRoute = "unmatched"
    private static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    init(factory: any MetricsFactory, isOn: Bool) {
        self.factory = factory
        self.isOn = isOn
        inFlight = Meter(label: "sprout_http_requests_in_flight", factory: factory)
    }

    func record(route: String?, method: HTTPRequest.Method, status: HTTPResponse.Status, duration: Duration) {
        let key = Key(
            route: route ?? Self.unmatchedRoute,
            method: Self.methods.contains(method.rawValue) ? method.rawValue : "other",
            statusClass: min(max(status.code / 100, 1), 5)
        )
        let found = series.withLockedValue { all in
            if let existing = all[key] { return existing }
            let dimensions = [("route", key.route), ("method", key.method), ("status", "\(key.statusClass)xx")]
            let made = Series(
                count: CoreMetrics.Counter(label: "sprout_http_requests_total", dimensions: dimensions, factory: factory),
                duration: CoreMetrics.Timer(label: "sprout_http_request_duration_seconds", dimensions: dimensions, factory: factory),
                refusals: key.statusClass == 4
                    ? CoreMetrics.Counter(label: "sprout_rate_limit_refusals_total", dimensions: [("route", key.route)], factory: factory)
                    : nil
            )
            all[key] = made
            return made
        }
        found.count.increment()
        found.duration.recordNanoseconds(duration.nanoseconds)
        if status == .tooManyRequests { found.refusals?.increment() }
    }
}

extension Duration {
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
