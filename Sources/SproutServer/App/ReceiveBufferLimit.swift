import NIOCore

/// Sizes the buffer each socket read fills: it starts at 1 KiB and grows (by doubling, after a read that filled
/// it) to at most 16 KiB. NIO's default starts at 2 KiB and grows to 64 KiB.
///
/// - The maximum: a request body waits in up to ten reads per connection until the handler takes them, so with 64
///   uploads arriving at once the default held about 40 MiB of bodies; at 16 KiB the same run peaked 35 MiB lower,
///   at the same rate (release build, wrk -c64, three 270 KB pictures a request: 146–150 MiB → 114 MiB).
/// - The start: a connection keeps its last read buffer for as long as it is open, and an event stream's is open
///   for minutes with nothing more to read. 1 KiB holds a whole request from the apps, wrk and most browsers; a
///   larger one costs one more read on the same wake-up. Per idle stream (`scripts/bench --events`): about 1 KiB
///   less.
enum ReceiveBufferLimit {
    static let initialReadBytes = 1024
    static let maximumReadBytes = 16 * 1024

    /// Set on each connection as its pipeline is made (Hummingbird has no child channel options of its own).
    static func apply(to channel: any Channel) {
        let allocator = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: initialReadBytes, maximum: maximumReadBytes)
        try? channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: allocator)
    }
}
