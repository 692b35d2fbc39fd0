extension Session {
    /// The Diary API as this session: its requests carry the account's token, and a 401 signs the session out.
    public var diary: DiaryClient { DiaryClient(client: apiClient) }
}
