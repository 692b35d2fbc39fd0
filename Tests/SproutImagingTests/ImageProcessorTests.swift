import Testing

@testable import SproutImaging

/// The rejection `process` throws for `bytes`, or nil when it accepts them.
private func rejection(of bytes: [UInt8], limits: ImageLimits = ImageLimits()) -> ImageRejection? {
    do {
        _ = try ImageProcessor.process(bytes, limits: limits)
        return nil
    } catch {
        return error
    }
}

private func isUnreadable(_ rejection: ImageRejection?) -> Bool {
    if case .unreadable = rejection { return true }
    return false
}

@Suite("Thumbnails")
struct ThumbnailTests {
    @Test func jpeg1200x800GivesA300x200JPEG() throws {
        let original = try TestImages.jpeg(TestImages.cornerBitmap(width: 1200, height: 800))
        let processed = try ImageProcessor.process(original)
        #expect(processed.format == .jpeg)
        #expect((processed.width, processed.height) == (1200, 800))
        #expect((processed.thumbnailWidth, processed.thumbnailHeight) == (300, 200))
        // What the bytes really are, not what the struct says.
        let header = try ImageProcessor.dimensions(of: processed.thumbnail)
        #expect(header.format == .jpeg && header.width == 300 && header.height == 200)
        let thumbnail = try TestImages.decode(processed.thumbnail)
        #expect((thumbnail.width, thumbnail.height, thumbnail.channels) == (300, 200, 3))
        #expect(TestImages.isRed(TestImages.rgb(thumbnail, 10, 10)))
        #expect(TestImages.isBlue(TestImages.rgb(thumbnail, 290, 190)))
        // The red quarter ends at x = 75: the box filter keeps the edge where it was.
        #expect(TestImages.isRed(TestImages.rgb(thumbnail, 72, 47)))
        #expect(TestImages.isBlue(TestImages.rgb(thumbnail, 78, 53)))
    }

    @Test func pngWithAlpha640x480GivesA300x225PNGWithAlpha() throws {
        let original = try TestImages.png(TestImages.cornerBitmap(width: 640, height: 480, alpha: true))
        let processed = try ImageProcessor.process(original)
        #expect(processed.format == .png)
        #expect((processed.width, processed.height) == (640, 480))
        let thumbnail = try TestImages.decode(processed.thumbnail)
        #expect((thumbnail.width, thumbnail.height, thumbnail.channels) == (300, 225, 4))
        #expect((processed.thumbnailWidth, processed.thumbnailHeight) == (300, 225))
        func alpha(_ x: Int, _ y: Int) -> UInt8 { thumbnail.pixels[(y * 300 + x) * 4 + 3] }
        #expect(alpha(10, 10) == 255 && alpha(140, 200) == 255)
        #expect(alpha(160, 10) == 0 && alpha(299, 224) == 0)
        #expect(TestImages.isRed(TestImages.rgb(thumbnail, 10, 10)))
    }

    @Test func transparentPixelsDoNotDarkenTheirNeighbours() throws {
        // Columns alternate opaque white and transparent black; halving averages one of each.
        let pixels = (0..<600 * 4).flatMap { index -> [UInt8] in
            index % 2 == 0 ? [255, 255, 255, 255] : [0, 0, 0, 0]
        }
        let original = try TestImages.png(Bitmap(width: 600, height: 4, channels: 4, pixels: pixels))
        let thumbnail = try TestImages.decode(ImageProcessor.process(original).thumbnail)
        #expect((thumbnail.width, thumbnail.height, thumbnail.channels) == (300, 2, 4))
        let distinct = Set(stride(from: 0, to: thumbnail.pixels.count, by: 4).map { Array(thumbnail.pixels[$0..<$0 + 4]) })
        // Half covered, and white where covered: averaged by alpha, not a half-transparent gray.
        #expect(distinct == [[255, 255, 255, 128]])
    }

    @Test func pngWithoutAlphaStaysWithoutAlpha() throws {
        let original = try TestImages.png(TestImages.cornerBitmap(width: 640, height: 480))
        let thumbnail = try TestImages.decode(ImageProcessor.process(original).thumbnail)
        #expect((thumbnail.width, thumbnail.height, thumbnail.channels) == (300, 225, 3))
    }

    @Test(arguments: [ImageFormat.jpeg, .png])
    func smallImageIsNotUpscaled(format: ImageFormat) throws {
        let bitmap = TestImages.cornerBitmap(width: 200, height: 100)
        let original = format == .jpeg ? try TestImages.jpeg(bitmap) : try TestImages.png(bitmap)
        let processed = try ImageProcessor.process(original)
        #expect((processed.thumbnailWidth, processed.thumbnailHeight) == (200, 100))
        let thumbnail = try TestImages.decode(processed.thumbnail)
        #expect((thumbnail.width, thumbnail.height) == (200, 100))
        #expect(processed.format == format)
    }

    @Test func portraitKeepsItsAspect() throws {
        let original = try TestImages.jpeg(TestImages.cornerBitmap(width: 800, height: 1200))
        let processed = try ImageProcessor.process(original)
        let thumbnail = try TestImages.decode(processed.thumbnail)
        #expect((thumbnail.width, thumbnail.height) == (200, 300))
        #expect(TestImages.isRed(TestImages.rgb(thumbnail, 5, 5)))
    }

    @Test func grayJPEGMakesAGrayThumbnail() throws {
        let original = try TestImages.jpeg(TestImages.cornerBitmap(width: 900, height: 600, gray: true))
        let thumbnail = try TestImages.decode(ImageProcessor.process(original).thumbnail)
        #expect((thumbnail.width, thumbnail.height, thumbnail.channels) == (300, 200, 1))
    }

    @Test func configuredLongestSideAndRounding() throws {
        let original = try TestImages.png(TestImages.cornerBitmap(width: 1001, height: 3))
        let processed = try ImageProcessor.process(original, limits: ImageLimits(thumbnailLongestSide: 100))
        // 3 × 100 / 1001 rounds to 0: the short side stays at least 1 pixel.
        #expect((processed.thumbnailWidth, processed.thumbnailHeight) == (100, 1))
        #expect(ImageProcessor.thumbnailSize(1000, 667, longestSide: 300) == (300, 200))  // 200.1
        #expect(ImageProcessor.thumbnailSize(1000, 669, longestSide: 300) == (300, 201))  // 200.7
        #expect(ImageProcessor.thumbnailSize(300, 300, longestSide: 300) == (300, 300))
    }

    @Test func areaAverageOfAnEvenCheckerboardIsItsMeanGray() throws {
        var pixels = [UInt8]()
        for y in 0..<600 { for x in 0..<600 { pixels.append((x + y) % 2 == 0 ? 0 : 255) } }
        let original = try TestImages.png(Bitmap(width: 600, height: 600, channels: 1, pixels: pixels))
        let thumbnail = try TestImages.decode(ImageProcessor.process(original).thumbnail)
        #expect(thumbnail.width == 300 && thumbnail.pixels.allSatisfy { (127...128).contains($0) })
    }

    @Test func concurrentCallsGiveTheSameResult() async throws {
        let jpeg = try TestImages.jpeg(TestImages.noiseBitmap(width: 700, height: 500, seed: 7))
        let expected = try ImageProcessor.process(jpeg)
        try await withThrowingTaskGroup(of: ProcessedImage.self) { group in
            for _ in 0..<8 { group.addTask { try ImageProcessor.process(jpeg) } }
            for try await result in group { #expect(result == expected) }
        }
    }
}

@Suite("EXIF orientation")
struct OrientationTests {
    /// Where the stored top-left corner is displayed for each orientation.
    enum Corner { case topLeft, topRight, bottomRight, bottomLeft }

    static let cases: [(orientation: UInt16, corner: Corner)] = [
        (1, .topLeft), (2, .topRight), (3, .bottomRight), (4, .bottomLeft),
        (5, .topLeft), (6, .topRight), (7, .bottomRight), (8, .bottomLeft),
    ]

    @Test(arguments: cases, [false, true])
    func thumbnailIsTurnedUpright(testCase: (orientation: UInt16, corner: Corner), bigEndian: Bool) throws {
        // Stored landscape 400 × 200 with a red top-left quarter.
        let stored = try TestImages.jpeg(TestImages.cornerBitmap(width: 400, height: 200))
        let original = TestImages.inserting(
            TestImages.exifSegment(orientation: testCase.orientation, bigEndian: bigEndian), into: stored)
        let processed = try ImageProcessor.process(original)
        let turned = testCase.orientation >= 5
        #expect((processed.width, processed.height) == (turned ? (200, 400) : (400, 200)))
        #expect(try ImageProcessor.dimensions(of: original).width == processed.width)

        let thumbnail = try TestImages.decode(processed.thumbnail)
        let (width, height) = turned ? (150, 300) : (300, 150)
        #expect((thumbnail.width, thumbnail.height) == (width, height))
        #expect((processed.thumbnailWidth, processed.thumbnailHeight) == (width, height))
        // The thumbnail carries no EXIF: it decodes upright without it.
        #expect(!containsExif(processed.thumbnail))

        let corners: [Corner: (Int, Int)] = [
            .topLeft: (5, 5), .topRight: (width - 6, 5),
            .bottomRight: (width - 6, height - 6), .bottomLeft: (5, height - 6),
        ]
        for (corner, point) in corners {
            let color = TestImages.rgb(thumbnail, point.0, point.1)
            if corner == testCase.corner {
                #expect(TestImages.isRed(color), "\(corner) should hold the stored top-left corner")
            } else {
                #expect(TestImages.isBlue(color), "\(corner) should be background")
            }
        }
    }

    private func containsExif(_ bytes: [UInt8]) -> Bool {
        let exif = Array("Exif".utf8)
        return bytes.indices.dropLast(exif.count).contains { Array(bytes[$0..<$0 + exif.count]) == exif }
    }

    @Test func orientation6On400x200Gives150x300() throws {
        let stored = try TestImages.jpeg(TestImages.cornerBitmap(width: 400, height: 200))
        let original = TestImages.inserting(TestImages.exifSegment(orientation: 6, bigEndian: false), into: stored)
        let processed = try ImageProcessor.process(original)
        let thumbnail = try TestImages.decode(processed.thumbnail)
        #expect((thumbnail.width, thumbnail.height) == (150, 300))
        #expect(TestImages.isRed(TestImages.rgb(thumbnail, 144, 5)))  // top-right
        #expect(TestImages.isBlue(TestImages.rgb(thumbnail, 5, 5)))
    }

    @Test func malformedExifIsIgnored() throws {
        let stored = try TestImages.jpeg(TestImages.cornerBitmap(width: 400, height: 200))
        let exif = Array("Exif".utf8) + [0, 0]
        let payloads: [[UInt8]] = [
            exif,  // no TIFF at all
            exif + [0x49, 0x49, 42, 0, 0xFF, 0xFF, 0xFF, 0x7F],  // IFD0 far past the end
            exif + [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0xFF, 0xFF],  // 65,535 entries announced, none there
            exif + [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 9, 0, 0],  // value 9
            exif + [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3],  // entry cut short
            exif + [0x58, 0x58, 0, 42, 0, 0, 0, 8],  // unknown byte order
            exif + [0x49, 0x49, 43, 0, 8, 0, 0, 0],  // not TIFF's 42
            Array("Exig".utf8) + [0, 0, 0x49, 0x49, 42, 0, 8, 0, 0, 0],
        ]
        for payload in payloads {
            let original = TestImages.inserting(TestImages.app1(payload), into: stored)
            let processed = try ImageProcessor.process(original)
            #expect((processed.width, processed.height) == (400, 200))
            #expect((processed.thumbnailWidth, processed.thumbnailHeight) == (300, 150))
        }
        // Parsed directly as well, including every prefix of a valid payload.
        let valid = Array(TestImages.exifSegment(orientation: 6, bigEndian: true).dropFirst(4))
        for end in 0...valid.count {
            let orientation = valid[..<end].withUnsafeBytes { ExifOrientation(exifPayload: $0) }
            #expect(orientation.value == (end >= 26 ? 6 : 1))  // the value's two bytes end at 26
        }
    }
}

@Suite("Rejections")
struct RejectionTests {
    @Test func truncatedJPEGIsUnreadable() throws {
        let jpeg = try TestImages.jpeg(TestImages.noiseBitmap(width: 640, height: 480, seed: 1))
        let rejection = rejection(of: Array(jpeg.prefix(jpeg.count / 2)))
        #expect(isUnreadable(rejection), "got \(String(describing: rejection))")
        // libjpeg's "Premature end of JPEG file" is only a warning; it must still fail.
        #expect(rejection?.description.contains("Premature end") == true)
    }

    @Test func truncatedPNGIsUnreadable() throws {
        let png = try TestImages.png(TestImages.noiseBitmap(width: 320, height: 240, seed: 2))
        #expect(isUnreadable(rejection(of: Array(png.prefix(png.count / 2)))))
        #expect(isUnreadable(rejection(of: Array(png.prefix(40)))))
    }

    @Test func pngDeclaring50000x50000IsTooManyPixels() {
        // A valid signature and IHDR (with a correct CRC), a few bytes of data: a decompression bomb's header.
        let bomb = TestImages.pngSignature + TestImages.ihdr(width: 50_000, height: 50_000)
            + TestImages.chunk("IDAT", TestImages.zlibStored([0, 0, 0, 0])) + TestImages.chunk("IEND", [])
        #expect(bomb.count < 100)
        #expect(rejection(of: bomb) == .tooManyPixels(width: 50_000, height: 50_000))
        // Also when only libpng's reading of the header could tell (an IHDR below 40 MP passes the raw check).
        let limits = ImageLimits(maximumPixels: 1_000)
        #expect(rejection(of: TestImages.pngSignature + TestImages.ihdr(width: 100, height: 100), limits: limits)
            == .tooManyPixels(width: 100, height: 100))
    }

    @Test func jpegFrameDeclaring50000x50000IsTooManyPixels() throws {
        let jpeg = try TestImages.jpeg(TestImages.cornerBitmap(width: 64, height: 48))
        let bomb = TestImages.settingFrameSize(of: jpeg, width: 50_000, height: 50_000)
        #expect(bomb.count < 2_000)
        #expect(rejection(of: bomb) == .tooManyPixels(width: 50_000, height: 50_000))
        #expect(try ImageProcessor.dimensions(of: bomb) == (.jpeg, 50_000, 50_000))
    }

    @Test func limitIsOnDisplayedPixelsAndInclusive() throws {
        let jpeg = try TestImages.jpeg(TestImages.cornerBitmap(width: 400, height: 200))
        #expect(rejection(of: jpeg, limits: ImageLimits(maximumPixels: 80_000)) == nil)
        #expect(rejection(of: jpeg, limits: ImageLimits(maximumPixels: 79_999)) == .tooManyPixels(width: 400, height: 200))
        let turned = TestImages.inserting(TestImages.exifSegment(orientation: 8, bigEndian: true), into: jpeg)
        #expect(rejection(of: turned, limits: ImageLimits(maximumPixels: 79_999))
            == .tooManyPixels(width: 200, height: 400))
    }

    @Test func textFileIsNotAnImage() {
        let text = Array("name,price\nwatering can,12.50\n".utf8)
        #expect(rejection(of: text) == .notAnImage)
        #expect(ImageProcessor.format(of: text) == nil)
        #expect(rejection(of: Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 40)) == .notAnImage)
        #expect(throws: ImageRejection.notAnImage) { try ImageProcessor.dimensions(of: text) }
    }

    @Test func emptyInputIsNotAnImage() {
        #expect(rejection(of: []) == .notAnImage)
        #expect(ImageProcessor.format(of: []) == nil)
        // A signature alone is an image that cannot be read.
        #expect(isUnreadable(rejection(of: [0xFF, 0xD8, 0xFF])))
        #expect(isUnreadable(rejection(of: TestImages.pngSignature)))
    }

    @Test func formatComesFromTheContentOnly() throws {
        // Whatever an upload is called or labelled, PNG bytes are a PNG and JPEG bytes a JPEG.
        let png = try TestImages.png(TestImages.cornerBitmap(width: 30, height: 20))
        let jpeg = try TestImages.jpeg(TestImages.cornerBitmap(width: 30, height: 20))
        #expect(ImageProcessor.format(of: png) == .png)
        #expect(try ImageProcessor.process(png).format == .png)
        #expect(ImageProcessor.format(of: jpeg) == .jpeg)
        #expect(try ImageProcessor.process(jpeg).format == .jpeg)
        #expect(ImageFormat.png.mediaType == "image/png" && ImageFormat.png.fileExtension == "png")
        #expect(ImageFormat.jpeg.mediaType == "image/jpeg" && ImageFormat.jpeg.fileExtension == "jpg")
    }

    @Test func garbageAfterAJPEGSignatureIsUnreadable() {
        var random = SeededRandom(seed: 42)
        for length in [1, 10, 100, 5_000] {
            let garbage = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(isUnreadable(rejection(of: [0xFF, 0xD8, 0xFF] + garbage)))
            #expect(isUnreadable(rejection(of: TestImages.pngSignature + garbage)))
        }
    }

    @Test func corruptJPEGDataIsUnreadable() throws {
        // Zero a run in the middle of the entropy-coded data (leaving markers and byte stuffing alone): libjpeg
        // only warns about that ("Corrupt JPEG data: ...") and would decode garbage; we refuse.
        var jpeg = try TestImages.jpeg(TestImages.noiseBitmap(width: 256, height: 256, seed: 3))
        for index in jpeg.count / 2..<jpeg.count / 2 + 64 where jpeg[index] != 0xFF && jpeg[index - 1] != 0xFF {
            jpeg[index] = 0
        }
        let rejection = rejection(of: jpeg)
        #expect(rejection?.description.contains("Corrupt JPEG data") == true, "got \(String(describing: rejection))")
    }

    @Test func cmykJPEGIsRefusedAsUnsupportedColourSpace() throws {
        let gray = try TestImages.jpeg(TestImages.cornerBitmap(width: 64, height: 48, gray: true))
        let cmyk = TestImages.declaringFourComponents(gray)
        #expect(rejection(of: cmyk) == .unreadable("unsupported colour space"))
    }
}

@Suite("PNG variants")
struct PNGVariantTests {
    @Test func sixteenBitRGBAPNG() throws {
        // 16-bit big-endian samples; red top-left quarter, right half transparent.
        let png = TestImages.handMadePNG(width: 640, height: 480, bitDepth: 16, colorType: 6, interlaced: false) { x, y in
            let color = x < 160 && y < 120 ? TestImages.red : TestImages.blue
            let alpha: UInt8 = x >= 320 ? 0 : 255
            return color.flatMap { [$0, $0] } + [alpha, alpha]
        }
        let processed = try ImageProcessor.process(png)
        let thumbnail = try TestImages.decode(processed.thumbnail)
        #expect((thumbnail.width, thumbnail.height, thumbnail.channels) == (300, 225, 4))
        #expect(TestImages.isRed(TestImages.rgb(thumbnail, 10, 10)))
        #expect(thumbnail.pixels[(10 * 300 + 200) * 4 + 3] == 0)
    }

    @Test func palettePNGWithTransparency() throws {
        let palette: [UInt8] = TestImages.red + TestImages.blue + [0, 0, 0]
        let png = TestImages.handMadePNG(
            width: 600, height: 400, bitDepth: 8, colorType: 3, interlaced: false,
            extraChunks: [TestImages.chunk("PLTE", palette), TestImages.chunk("tRNS", [255, 255, 0])]
        ) { x, y in [x < 150 && y < 100 ? 0 : (x >= 300 ? 2 : 1)] }
        let thumbnail = try TestImages.decode(ImageProcessor.process(png).thumbnail)
        #expect((thumbnail.width, thumbnail.height, thumbnail.channels) == (300, 200, 4))
        #expect(TestImages.isRed(TestImages.rgb(thumbnail, 10, 10)))
        #expect(TestImages.isBlue(TestImages.rgb(thumbnail, 100, 150)))
        #expect(thumbnail.pixels[(150 * 300 + 250) * 4 + 3] == 0)
    }

    @Test func interlacedPNG() throws {
        let png = TestImages.handMadePNG(width: 601, height: 399, bitDepth: 8, colorType: 2, interlaced: true) { x, y in
            x < 150 && y < 100 ? TestImages.red : TestImages.blue
        }
        let processed = try ImageProcessor.process(png)
        #expect((processed.width, processed.height) == (601, 399))
        let thumbnail = try TestImages.decode(processed.thumbnail)
        #expect((thumbnail.width, thumbnail.height, thumbnail.channels) == (300, 199, 3))
        #expect(TestImages.isRed(TestImages.rgb(thumbnail, 10, 10)))
        #expect(TestImages.isBlue(TestImages.rgb(thumbnail, 290, 190)))
    }

    @Test func grayPNGWithAlpha() throws {
        let png = TestImages.handMadePNG(width: 400, height: 400, bitDepth: 8, colorType: 4, interlaced: false) { x, _ in
            [200, x < 200 ? 255 : 0]
        }
        let thumbnail = try TestImages.decode(ImageProcessor.process(png).thumbnail)
        #expect((thumbnail.width, thumbnail.height, thumbnail.channels) == (300, 300, 2))
        #expect(thumbnail.pixels[(10 * 300 + 10) * 2] == 200)
    }

    /// A PNG already within the thumbnail's size, holding only pixels, is kept as it is: encoding it again cost
    /// about 6 ms of deflate for a 300×300 photo, 80 % of an upload's CPU.
    @Test func aSmallPlainPNGIsItsOwnThumbnail() throws {
        // Written by hand (stored deflate): encoded again, it would come out smaller.
        let png = TestImages.handMadePNG(width: 300, height: 200, bitDepth: 8, colorType: 2, interlaced: false) { x, y in
            [UInt8(x & 0xFF), UInt8(y & 0xFF), UInt8((x * y) & 0xFF)]
        }
        let processed = try ImageProcessor.process(png)
        let kept = processed.thumbnail == png  // (not inside #expect: a failure would print both files)
        #expect(kept, "a thumbnail of \(processed.thumbnail.count) bytes for a file of \(png.count)")
        #expect(processed.thumbnailIsTheOriginal)
        #expect((processed.thumbnailWidth, processed.thumbnailHeight) == (300, 200))
    }

    /// Text, EXIF or animation chunks, or bytes after the end, are not carried into a thumbnail: such a file is
    /// decoded and encoded again, as a larger one is.
    @Test(arguments: ["tEXt", "eXIf", "acTL", "trailing"])
    func aSmallPNGWithMoreThanPixelsIsEncodedAgain(extra: String) throws {
        let chunk = extra == "trailing" ? [] : [TestImages.chunk(extra, Array("Comment\0GPS 37.56 N".utf8))]
        var png = TestImages.handMadePNG(width: 120, height: 80, bitDepth: 8, colorType: 2, interlaced: false, extraChunks: chunk) { x, _ in
            x < 60 ? TestImages.red : TestImages.blue
        }
        if extra == "trailing" { png += Array("PK\u{3}\u{4} a zip after IEND".utf8) }
        let processed = try ImageProcessor.process(png)
        let encodedAgain = processed.thumbnail != png
        #expect(encodedAgain && !processed.thumbnailIsTheOriginal)
        for secret in ["GPS", "zip"] {
            let needle = Array(secret.utf8)
            #expect(!processed.thumbnail.indices.dropLast(2).contains { Array(processed.thumbnail[$0..<$0 + 3]) == needle }, "\(secret)")
        }
        let thumbnail = try TestImages.decode(processed.thumbnail)
        #expect((thumbnail.width, thumbnail.height) == (120, 80))
        #expect(TestImages.isRed(TestImages.rgb(thumbnail, 10, 10)))
    }

    @Test func badCRCInImageDataIsUnreadable() throws {
        var png = try TestImages.png(TestImages.noiseBitmap(width: 64, height: 64, seed: 4))
        png[png.count - 20] ^= 0x55  // inside the last IDAT's data
        #expect(isUnreadable(rejection(of: png)))
    }
}

@Suite("Hostile input")
struct FuzzTests {
    /// Random byte flips, insertions, deletions and truncations of a valid file; for PNG half the time with the
    /// chunk CRCs repaired so that the mutation reaches the decoder. Any outcome but a crash is fine.
    static func mutate(_ original: [UInt8], png: Bool, using random: inout SeededRandom) -> [UInt8] {
        var bytes = original
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            let index = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0: bytes.removeSubrange(index...)
            case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
            case 2: bytes.remove(at: index)
            case 3: bytes[index] = [0x00, 0xFF, 0x7F, 0x80][Int.random(in: 0..<4, using: &random)]
            default: bytes[index] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
            }
            if bytes.count < 4 { break }
        }
        return png && Bool.random(using: &random) ? TestImages.fixingCRCs(bytes) : bytes
    }

    @Test(arguments: [ImageFormat.jpeg, .png])
    func randomMutationsNeverCrash(format: ImageFormat) throws {
        let bitmap = TestImages.noiseBitmap(width: 48, height: 40, seed: 5)
        var base = format == .jpeg ? try TestImages.jpeg(bitmap) : try TestImages.png(bitmap)
        if format == .jpeg {
            base = TestImages.inserting(TestImages.exifSegment(orientation: 6, bigEndian: false), into: base)
        }
        var random = SeededRandom(seed: format == .jpeg ? 11 : 12)
        let limits = ImageLimits(maximumPixels: 4_000_000)
        var outcomes: [String: Int] = [:]
        for _ in 0..<200 {
            let mutated = Self.mutate(base, png: format == .png, using: &random)
            do {
                let processed = try ImageProcessor.process(mutated, limits: limits)
                // Whatever was accepted has a thumbnail that decodes to the size it claims.
                let thumbnail = try TestImages.decode(processed.thumbnail)
                #expect((thumbnail.width, thumbnail.height) == (processed.thumbnailWidth, processed.thumbnailHeight))
                outcomes["accepted", default: 0] += 1
            } catch let rejection as ImageRejection {
                switch rejection {
                case .notAnImage: outcomes["notAnImage", default: 0] += 1
                case .unreadable: outcomes["unreadable", default: 0] += 1
                case .tooManyPixels: outcomes["tooManyPixels", default: 0] += 1
                case .tooCostly: outcomes["tooCostly", default: 0] += 1
                }
            }
        }
        #expect(outcomes.values.reduce(0, +) == 200)
        #expect((outcomes["unreadable"] ?? 0) > 0)
        print("\(format) mutations:", outcomes.sorted { $0.key < $1.key })
    }
}
