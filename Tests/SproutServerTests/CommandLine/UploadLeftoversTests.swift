import Foundation
import Testing

/// What a crash leaves of uploads, as an operator meets it: `sprout serve` sweeps old staged uploads at start.
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

    private static func write(_ path: String, age: TimeInterval) throws {
        try Data("not really an image".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: path)
    }
}
