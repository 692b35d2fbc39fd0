extension Session {
    /// The board API as this session: its requests carry the account's token, and a 401 signs the session out.
    public var board: BoardClient { BoardClient(client: apiClient) }
}
