import Foundation

extension Session {
    /// The live updates of `topics`, read with this session's token; a 401 signs the session out, as for any
    /// request of its clients.
    /// - Parameter lastEventID: the last `id` an earlier stream of the same topics delivered, to resume from it.
    public func events(_ topics: [LiveTopic], lastEventID: String? = nil) -> EventStream {
        EventStream(client: apiClient, topics: topics, lastEventID: lastEventID)
    }
}
