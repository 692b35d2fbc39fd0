import NIOConcurrencyHelpers

/// What is learned about a request further in that its access line needs: the account that made it. One per
/// request, shared by reference between the outer middleware that writes the line and `CallerMiddleware`, which
/// resolves the caller after it (the context itself is a value, so a change further in never comes back out).
final class RequestRecord: Sendable {
    private let account = NIOLockedValueBox<Int?>(nil)

    var accountID: Int? {
        get { account.withLockedValue { $0 } }
        set { account.withLockedValue { $0 = newValue } }
    }
}

/// A request context with a `RequestRecord`.
protocol RecordedRequestContext: ClientOriginRequestContext {
    var record: RequestRecord { get }
}
