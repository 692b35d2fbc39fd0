import Foundation
import Testing

/// Plugins/EmbedResources on files that could break a string literal: `Samples/` is embedded into this test target
/// as SproutServer's web folders are into the server, and every file must come back byte for byte — delimiters and
/// escapes of raw strings, no final newline, only newlines, an empty file, carriage returns, Latin-1, every byte
/// value, a PNG.
@Suite struct EmbeddedSamplesTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Samples")

    @Test func everySampleComesBackByteForByte() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.samples.path).filter { !$0.hasPrefix(".") }
        let embedded = try #require(EmbeddedResources.folders["Samples"])
        #expect(Set(embedded.map(\.name)) == Set(names))
        #expect(EmbeddedResources.folders.count == 1)
        for file in embedded {
            let bytes = try [UInt8](Data(contentsOf: Self.samples.appendingPathComponent(file.name)))
            #expect(file.bytes == bytes, "\(file.name)")
        }
    }
}
