/// The 64-bit FNV-1a hash: stable across launches and platforms (unlike `Hasher`), for naming cache files.
/// Not a cryptographic hash; the image cache checks the URL stored in a file before trusting it.
enum FNV1a {
    static func hash64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The hash as 16 lowercase hex digits.
    static func hex64(_ text: String) -> String {
        let hex = String(hash64(text), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
