import Foundation
import Observation

/// One post's screen without its UI: its detail (opening it counts a view), and writing, editing and deleting
/// one's own posts in a writable board. Empty fields are refused on the device, sending nothing.
@MainActor
@Observable
public final class BoardPostStore {
    /// The board the post is in.
    public let board: Board
    /// The post's id; nil for a post not written yet.
    public private(set) var postID: Int?
    /// The post as last loaded or saved.
    public private(set) var post: BoardPost?
    /// Whether a load, write, edit or delete is under way.
    public private(set) var isWorking = false
    /// The post is gone: deleted here, or the server no longer has it.
    public private(set) var isDeleted = false
    /// The last failure, sorted (nil for a refusal on the device).
    public private(set) var lastError: SproutError?
    /// The last failure as a sentence to show; `dismissError()` clears it.
    public private(set) var errorMessage: String?

    private let client: BoardClient

    /// The longest title the server takes, in characters.
    public static let maximumTitleLength = 200
    /// The longest contents the server takes, in characters.
    public static let maximumContentsLength = 20_000
    /// What an empty title or contents says.
    public static let emptyFieldMessage = "제목과 내용을 입력해 주세요."
    /// What a too long title or contents says.
    public static let tooLongMessage = "제목은 200자, 내용은 20,000자까지 쓸 수 있습니다."

    /// A store for the post `postID` of `board`, or, without one, for a post to write.
    public init(client: BoardClient, board: Board, postID: Int? = nil) {
        self.client = client
        self.board = board
        self.postID = postID
    }

    /// A store for a post already in a list (shown at once; `load()` fetches it again and counts a view).
    public convenience init(client: BoardClient, board: Board, post: BoardPost) {
        self.init(client: client, board: board, postID: post.id)
        self.post = post
    }

    /// Whether a post may be written in the board.
    public var canWrite: Bool { board.writable }
    /// Whether the post shown may be edited and deleted: the caller wrote it, in a board it may write in.
    public var canEdit: Bool { board.writable && post?.isOwner == true && !isDeleted }

    /// Fetches the post (the server counts a view). A 404 marks it deleted.
    public func load() async {
        guard let postID else { return }
        await perform(.loadPost) { (client) throws(APIError) in
            self.post = try await client.post(boardID: self.board.id, postID: postID)
        }
    }

    /// Writes a new post, or a reply to `parentPostID`; returns it, or nil with `errorMessage` set.
    @discardableResult
    public func write(title: String, contents: String, parentPostID: Int? = nil) async -> BoardPost? {
        guard let fields = checked(title: title, contents: contents) else { return nil }
        await perform(.write) { (client) throws(APIError) in
            let post = try await client.createPost(boardID: self.board.id, title: fields.title, contents: fields.contents, parentPostID: parentPostID)
            self.post = post
            self.postID = post.id
        }
        return lastError == nil ? post : nil
    }

    /// Saves a new title and contents for the post; returns it as it now is, or nil with `errorMessage` set.
    @discardableResult
    public func edit(title: String, contents: String) async -> BoardPost? {
        guard let postID else { return nil }
        guard let fields = checked(title: title, contents: contents) else { return nil }
        await perform(.edit) { (client) throws(APIError) in
            self.post = try await client.updatePost(boardID: self.board.id, postID: postID, title: fields.title, contents: fields.contents)
        }
        return lastError == nil ? post : nil
    }

    /// Deletes the post; true once it is gone (a post the server no longer has counts as deleted).
    @discardableResult
    public func delete() async -> Bool {
        guard let postID else { return false }
        await perform(.delete) { (client) throws(APIError) in
            try await client.deletePost(boardID: self.board.id, postID: postID)
            self.isDeleted = true
        }
        return isDeleted
    }

    /// Clears the error once it has been shown.
    public func dismissError() {
        errorMessage = nil
        lastError = nil
    }

    private func checked(title: String, contents: String) -> (title: String, contents: String)? {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        let contents = contents.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty, !contents.isEmpty else {
            refuse(Self.emptyFieldMessage)
            return nil
        }
        guard title.count <= Self.maximumTitleLength, contents.count <= Self.maximumContentsLength else {
            refuse(Self.tooLongMessage)
            return nil
        }
        return (title, contents)
    }

    private func refuse(_ message: String) {
        lastError = nil
        errorMessage = message
    }

    private func perform(_ operation: SproutError.Operation, _ work: (BoardClient) async throws(APIError) -> Void) async {
        isWorking = true
        defer { isWorking = false }
        dismissError()
        do {
            try await work(client)
        } catch {
            let sorted = error.sorted(for: .board, during: operation)
            if sorted.kind == .cancelled { return }
            if sorted.kind == .notFound, operation != .write {
                isDeleted = true
                // Deleting what is already gone succeeded.
                if operation == .delete { return }
            }
            lastError = sorted
            errorMessage = sorted.message
        }
    }
}
