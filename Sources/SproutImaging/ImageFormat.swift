/// The image formats the Open Market accepts, recognised by their content's signature only.
public enum ImageFormat: String, Sendable, CaseIterable {
    /// JPEG (JFIF or EXIF), signature `FF D8 FF`.
    case jpeg
    /// PNG, signature `89 50 4E 47 0D 0A 1A 0A`.
    case png

    /// The media type to serve the image (and its thumbnail) with.
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        }
    }

    /// The file extension to store the image under, without a dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        }
    }

    /// The leading bytes every file of the format starts with.
    var signature: [UInt8] {
        switch self {
        case .jpeg: [0xFF, 0xD8, 0xFF]
        case .png: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        }
    }

    /// The format whose signature `bytes` start with, or nil.
    init?(signatureOf bytes: UnsafeRawBufferPointer) {
        guard let format = Self.allCases.first(where: { bytes.starts(with: $0.signature) }) else { return nil }
        self = format
    }
}
