import Foundation
import HTTPTypes
import Testing
@testable import SproutServer

/// `/metrics`' content: what is counted, and that no request can add series of its own.
@Suite struct MetricsTests {
    /// Every series of an exposition, by name and labels, without values.
    static func series(_ text: String) -> Set<String> {
        Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("process_") }.compactMap { line in
            line.lastIndex(of: " ").map { String(line[..<$0]) }
        })
    }

    /// The value of the one series written exactly `series` (name and labels).
    static func value(_ text: String, _ series: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    static let methods: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch, HTTPRequest.Method("PURGE")!, HTTPRequest.Method("X-\(UUID().uuidString.prefix(8))")!]

    static func unknownPath(_ index: Int) -> String {
        let noise = UUID().uuidString
        switch index % 5 {
        case 0: return "/\(noise)"
        case 1: return "/\(noise)/\(index)/\(noise.prefix(4))"
        case 2: return "/api/v2/\(noise)"
        case 3: return "/static/\(noise).css"
        default: return "/wp-admin/\(noise).php?x=\(index)"
        }
    }

    @Test func tenThousandRequestsToRandomUnknownPathsAddNoSeries() async throws {
        let metrics = SproutMetrics.prometheus()
        try await withTestApp(metrics: metrics) { client, _ in
            // One of each shape and method first: the series they land in (route NotFound or a template's 4xx).
            for (index, method) in Self.methods.enumerated() {
                for shape in 0..<5 { _ = try await client.send(method, Self.unknownPath(shape + 5 * index)) }
            }
            let before = Self.series(metrics.exposition())
            for index in 0..<10_000 {
                _ = try await client.send(Self.methods[index % Self.methods.count], Self.unknownPath(index))
            }
            let after = metrics.exposition()
            #expect(Self.series(after) == before)
            #expect(Self.series(after).count < 400, "\(Self.series(after).count) series")
            let notFound = Self.value(after, #"sprout_http_requests_total{route="NotFound",method="GET",status="4xx"}"#) ?? 0
            #expect(notFound >= 1000)
        }
    }

    @Test func loginFailuresRefusalsUploadsThumbnailsAndQueriesAreCounted() async throws {
        let metrics = SproutMetrics.prometheus()
        try await withTestApp(metrics: metrics, configure: { $0.market.uploadsPerHour = 1 }) { client, _ in
            try await client.signUp("counted")
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=counted&password=wrong-one").status == .badRequest)
            let vendor = try await client.makeVendor("seller")
            let image = try TestImages.jpeg(width: 64, height: 48)
            let parts: [TestPart] = [.params(MarketUploadAbuseTests.params(vendor)), .image(image)]
            #expect(try await client.register(parts: parts, identifier: vendor.identifier).status == .created)
            #expect(try await client.register(parts: parts, identifier: vendor.identifier).status == .tooManyRequests)

            let text = metrics.exposition()
            #expect(Self.value(text, "sprout_login_failures_total") == 1)
            #expect(Self.value(text, "sprout_market_uploads_total") == 1)
            #expect(Self.value(text, "sprout_market_thumbnails_total") == 1)
            let refusals = text.split(separator: "\n").filter { $0.hasPrefix("sprout_rate_limit_refusals_total{") && $0.hasSuffix(" 1") }
            #expect(refusals.count == 1, "\(refusals)")
            for kind in ["read", "write"] {
                #expect((Self.value(text, #"sprout_db_query_duration_seconds_count{kind="\#(kind)"}"#) ?? 0) > 0, "\(kind)")
            }
            if TestDatabasePlace.postgresURL == nil {
                #expect((Self.value(text, "sprout_sqlite_writer_batch_size_count") ?? 0) > 0)
                #expect(Self.value(text, "sprout_sqlite_writer_queue_depth") == 0)
            }
            #expect(Self.value(text, "sprout_postgres_connection_errors_total") == 0)
            #expect(Self.value(text, "sprout_http_requests_in_flight") == 0)
            #expect((Self.value(text, "process_resident_memory_bytes") ?? 0) > 1_000_000)
            #expect((Self.value(text, "process_open_fds") ?? 0) > 2)
            #expect((Self.value(text, "process_cpu_seconds_total") ?? 0) > 0)
        }
    }

    @Test func durationBucketsGoFromOneMillisecondToTenSeconds() async throws {
        let metrics = SproutMetrics.prometheus()
        try await withTestApp(metrics: metrics) { client, _ in
            _ = try await client.send(.get, "/health")
            let buckets = metrics.exposition().split(separator: "\n")
                .filter { $0.hasPrefix(#"sprout_http_request_duration_seconds_bucket{route="/health""#) }
                .compactMap { line in line.range(of: #"le=""#).map { line[$0.upperBound...].prefix { $0 != "\"" } } }
            #expect(buckets.first == "0.001")
            #expect(buckets.dropLast().last == "10.0")
            #expect(buckets.last == "+Inf")
        }
    }

    /// `serve --backup-every`'s schedule records each backup: when it finished, how long it took, its size; and failures.
    @Test func scheduledBackupsAreRecorded() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sprout-backup-metrics-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        var configuration = SproutConfiguration(data: DataSettings(directory: data, secretsKey: SecretSealer.testKey))
        configuration.backup.every = .seconds(3600)
        let database = try SproutDatabase(settings: configuration.data.database, migrations: SproutMigrations.all, logger: testLogger())
        try await database.withOpen { try await $0.migrate() }
        let metrics = SproutMetrics.prometheus()
        let schedule = try #require(BackupSchedule.services(configuration, logger: testLogger(), metrics: metrics).first as? BackupSchedule)
        let before = Date().timeIntervalSince1970
        await schedule.backUpOnce()
        let text = metrics.exposition()
        #expect((Self.value(text, "sprout_backup_last_success_timestamp_seconds") ?? 0) >= before.rounded(.down))
        #expect((Self.value(text, "sprout_backup_size_bytes") ?? 0) > 10_000)
        #expect((Self.value(text, "sprout_backup_duration_seconds") ?? 0) > 0)
        #expect(Self.value(text, "sprout_backup_failures_total") == 0)

        // A backup directory that cannot be made: the failure is counted, the last success stays.
        var broken = configuration
        broken.backup.directory = "/proc/sprout-cannot-write-here"
        let failing = try #require(BackupSchedule.services(broken, logger: testLogger(), metrics: metrics).first as? BackupSchedule)
        await failing.backUpOnce()
        #expect(Self.value(metrics.exposition(), "sprout_backup_failures_total") == 1)
        #expect(BackupSchedule.services(SproutConfiguration(), logger: testLogger(), metrics: metrics).isEmpty)
    }

    @Test func offMeansNothingIsKept() async throws {
        try await withTestApp { client, _ in
            _ = try await client.send(.get, "/health")
        }
        #expect(SproutMetrics.off.exposition().isEmpty)
        #expect(!SproutMetrics.off.isOn)
    }
}
