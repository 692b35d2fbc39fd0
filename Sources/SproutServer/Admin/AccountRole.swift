/// What an account may do beyond its own data. Read from the account's row on every request, so a change made on
/// one node holds on every node from the next request.
public enum AccountRole: String, Sendable, CaseIterable, Codable {
    /// Everyone: their own data and what the apps allow.
    case user
    /// Moderates content (hide, restore, delete; reports; notices on read-only boards). Cannot manage accounts,
    /// roles, vendors or backups.
    case moderator
    /// Everything the console offers.
    case admin

    /// Whether the console is open to this role at all.
    public var mayModerate: Bool { self != .user }
    /// Accounts, roles, vendors, boards, backups and the audit log.
    public var mayAdminister: Bool { self == .admin }
}
