import NIOCore

/// Caps the buffer each socket read fills at 16 KiB (NIO's default grows to 64 KiB). A request body waits in up
/// to ten reads per connection until the handler takes them, so with 64 uploads arriving at once the default held
/// about 40 MiB of bodies; at 16 KiB the same run peaked 35 MiB lower, at the same rate (release build, wrk -c64,
/// three 270 KB pictures a request: 146–150 MiB → 114 MiB). Requests that fit in one read are unchanged.
enum ReceiveBufferLimit {
    static let maximumReadBytes = 16 * 1024

    /// Set on each connection as its pipeline is made (Hummingbird has no child channel options of its own).
    static func apply(to channel: any Channel) {
        let allocator = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: maximumReadBytes)
        try? channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: allocator)
    }
}
