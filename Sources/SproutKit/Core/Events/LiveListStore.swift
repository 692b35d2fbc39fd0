/// A list store that follows an `EventStream`: `FeedStore`, `BoardPostsStore`, `ProductListStore`, `TodoListStore`.
@MainActor
public protocol LiveListStore: AnyObject {
    /// Applies one live update; events of topics the store does not show are ignored.
    func apply(_ event: LiveEvent) async
}

extension LiveListStore {
    /// Applies every event of `stream` until it ends; throws what ends it (`EventStream`'s terminal errors).
    /// Cancelling the task that follows closes the stream:
    ///
    /// ```swift
    /// let following = Task { try await feed.follow(session.events([.community])) }
    /// // … when the screen goes away:
    /// following.cancel()
    /// ```
    public func follow(_ stream: EventStream) async throws {
        for try await event in stream {
            await apply(event)
        }
    }
}
