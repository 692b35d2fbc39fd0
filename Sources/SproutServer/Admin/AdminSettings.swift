/// The console and the audit log.
///
/// | variable | default |
/// |---|---|
/// | `AUDIT_RETENTION_DAYS` | `0`: audit entries are kept for ever; otherwise entries older than this many days are removed as new ones are written |
public struct AdminSettings: Sendable {
    /// Days an audit entry is kept; nil: for ever.
    public var auditRetentionDays: Int?

    static let variables = ["AUDIT_RETENTION_DAYS"]

    public init(auditRetentionDays: Int? = nil) {
        self.auditRetentionDays = auditRetentionDays
    }

    static func read(from reader: EnvironmentReader) throws -> AdminSettings {
        let days = try reader.int("AUDIT_RETENTION_DAYS", in: 0...36_500, default: 0, unit: "days", zeroMeans: "kept for ever")
        return AdminSettings(auditRetentionDays: days == 0 ? nil : days)
    }
}
