@testable import SproutServer

extension SQLStatement {
    /// SQL a test writes by hand, its placeholders numbered by hand (`$1` is the first value), as the executors
    /// receive it: tests probe the executors themselves, not only statements built by interpolation.
    init(_ sql: String, _ binds: SQLValue...) {
        self.init(sql: sql, binds: binds)
    }
}
