/// What one sync did.
public struct DiarySyncReport: Sendable, Equatable {
    /// Entries written to the server (`PUT`).
    public var pushed = 0
    /// Of those, the ones the server created (201): new, or brought back from a tombstone.
    public var created = 0
    /// Deletions sent to the server (an entry it no longer had counts too).
    public var deleted = 0
    /// Deletions withdrawn: another device had edited the entry after the version deleted here (the server
    /// answered 409), so the entry is back on the device with that edit rather than lost unseen.
    public var withdrawn = 0
    /// Entries the server refused (400, 413); they wait on the device for an edit.
    public var refused = 0
    /// Changes pulled from the server that changed an entry on the device.
    public var applied = 0
    /// Pages of changes pulled.
    public var pages = 0

    /// A report of nothing done.
    public init() {}
}
