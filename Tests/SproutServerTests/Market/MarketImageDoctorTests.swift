import Foundation
import Testing
@testable import SproutServer

/// `MarketImageDoctor`, behind `sprout doctor`, on database storage (the command's own test covers files).
@Suite struct MarketImageDoctorTests {
    /// `sprout doctor` on database storage: blobs no image row names, and image rows whose blobs are gone.
    @Test func theDoctorFindsOrphanAndMissingBlobsAndFixRemovesOnlyTheOrphans() async throws {
        try await withTestApp(configure: { $0.market.imageStorage = .database }) { client, database in
            let vendor = try await client.makeVendor("doctor")
            let product = try await client.registerProduct(as: vendor)
            let thumbnail = try #require(product["images"]?[0]?["thumbnail_url"]?.string.flatMap { URL(string: $0)?.lastPathComponent })
            let doctor = MarketImageDoctor(executor: database.executor, kind: .database, dataDirectory: MarketUploadStagingTests.temporaryDataDirectory())
            let healthy = try await doctor.examine(fix: false)
            #expect(healthy.problemsFound == 0 && healthy.imageRows == 1 && healthy.filesLookedAt == 2, "\(healthy.text)")

            let orphan = MarketImageFileName.randomKey() + ".png"
            try await database.executor.writeAll([
                SQLStatement("INSERT INTO market_image_blobs (key, bytes) VALUES ($1, $2)", .text(orphan), .bytes([1, 2, 3])),
                SQLStatement("DELETE FROM market_image_blobs WHERE key = $1", .text(thumbnail)),
            ])
            let found = try await doctor.examine(fix: false)
            #expect(found.count(of: .orphanBlobs) == 1 && found.count(of: .missing) == 1 && found.problemsRemaining == 2, "\(found.text)")
            #expect(found.text.contains(orphan) && found.text.contains(thumbnail), "\(found.text)")

            let fixed = try await doctor.examine(fix: true)
            #expect(fixed.problemsFound == 2 && fixed.problemsRemaining == 1, "\(fixed.text)")
            #expect(try await database.marketCount("market_image_blobs") == 1)
            #expect(try await database.marketCount("market_images") == 1)
            let after = try await doctor.examine(fix: false)
            #expect(after.count(of: .orphanBlobs) == 0 && after.count(of: .missing) == 1, "\(after.text)")
        }
    }
}
