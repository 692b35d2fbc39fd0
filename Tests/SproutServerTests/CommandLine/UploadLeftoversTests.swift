import Foundation
import Testing

/// What a crash leaves of uploads, as an operator meets it: `sprout serve` sweeps old staged uploads at start,
/// and `sprout doctor` finds unreferenced and missing image files (`--fix` removes the unreferenced ones).
@Suite(.serialized) struct UploadLeftoversTests {
    @Test func serveRemovesStagedUploadsOlderThanAnHourAndKeepsFreshOnes() async throws {
        let data = SproutProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let staging = data + "/market-images/tmp"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let old = staging + "/" + String(repeating: "a", count: 32) + ".jpg.0123456789abcdef.part"
        let fresh = staging + "/" + String(repeating: "b", count: 32) + ".jpg.0123456789abcdef.part"
        try Self.write(old, age: 2 * 3600)
        try Self.write(fresh, age: 5 * 60)  // another server's upload, still in flight

        let port = try SproutProcess.freePort()
        let server = try SproutProcess(["serve", "--port", "\(port)", "--data-dir", data], environment: ["LOG_LEVEL": "info"])
        try await server.waitForOutput(containing: "in a browser")
        try await server.stop()
        #expect(!FileManager.default.fileExists(atPath: old), "the old staged file was not swept")
        #expect(FileManager.default.fileExists(atPath: fresh), "a fresh staged file was swept")
        #expect(server.standardError.contains("removed 1 staged upload files"), "\(server.standardError)")
    }

    @Test func doctorReportsOrphanAndMissingFilesAndFixRemovesOnlyWhatNothingRefersTo() async throws {
        let data = SproutProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let seeded = try await SproutProcess.run([
            "seed", "--todos", "0", "--accounts", "1", "--posts", "0", "--comments", "0", "--products", "2",
            "--board-posts", "0", "--diary-entries", "0", "--data-dir", data,
        ], limit: .seconds(120))
        #expect(seeded.status == 0, "\(seeded.errors)")
        let root = data + "/market-images"
        let stored = MarketUploadStagingTests.files(in: root)
        #expect(stored.count == 4 && !stored.contains { $0.hasPrefix("tmp/") }, "\(stored)")

        let healthy = try await SproutProcess.run(["doctor", "--data-dir", data])
        #expect(healthy.status == 0 && healthy.output.contains("No problems found."), "\(healthy.output) \(healthy.errors)")

        // A thumbnail lost, an old file nothing refers to, a fresh one (maybe an upload committing), a stale upload.
        let lost = try #require(stored.first { $0.contains("_thumb.") })
        try FileManager.default.removeItem(atPath: root + "/" + lost)
        let orphan = "ee/ee" + String(repeating: "0", count: 30) + ".jpg"
        let recent = "ee/ee" + String(repeating: "1", count: 30) + "_thumb.png"
        let staged = "tmp/" + String(repeating: "c", count: 32) + ".png.0123456789abcdef.part"
        for folder in ["ee", "tmp"] { try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true) }
        try Self.write(root + "/" + orphan, age: 3 * 3600)
        try Self.write(root + "/" + recent, age: 60)
        try Self.write(root + "/" + staged, age: 3 * 3600)

        let found = try await SproutProcess.run(["doctor", "--data-dir", data])
        #expect(found.status == 1, "\(found.status): \(found.output) \(found.errors)")
        #expect(found.output.contains("problem: 1 image files missing") && found.output.contains(lost), "\(found.output)")
        #expect(found.output.contains("problem: 1 image files no product image refers to") && found.output.contains(orphan), "\(found.output)")
        #expect(found.output.contains("problem: 1 staged uploads") && found.output.contains(staged), "\(found.output)")
        #expect(!found.output.contains(recent) && found.output.contains("3 problems found"), "\(found.output)")
        #expect(FileManager.default.fileExists(atPath: root + "/" + orphan), "doctor without --fix removed a file")

        let fixed = try await SproutProcess.run(["doctor", "--fix", "--data-dir", data])
        #expect(fixed.status == 1, "the missing file is still a problem: \(fixed.output)")
        #expect(fixed.output.contains("removed: 1 image files no product image refers to"), "\(fixed.output)")
        #expect(fixed.output.contains("problem: 1 image files missing") && fixed.output.contains("1 problem found"), "\(fixed.output)")
        #expect(!FileManager.default.fileExists(atPath: root + "/" + orphan))
        #expect(!FileManager.default.fileExists(atPath: root + "/" + staged))
        #expect(FileManager.default.fileExists(atPath: root + "/" + recent))
        let left = MarketUploadStagingTests.files(in: root)
        #expect(left.count == 4 && left.contains(recent), "the product's own files stay: \(left)")
    }

    private static func write(_ path: String, age: TimeInterval) throws {
        try Data("not really an image".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: path)
    }
}
