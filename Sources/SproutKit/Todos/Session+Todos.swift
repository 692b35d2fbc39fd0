extension Session {
    /// The todos API as this session: with a token, each account has its own list.
    public var todos: TodosClient { TodosClient(client: apiClient) }
}
