import Foundation
import Observation

/// The SeSAC post screen without its UI: a post and its comments, commenting, and the owner's edit and delete
/// of both. Edits and comment deletions show at once and are rolled back, with an error to show, when the
/// server refuses; `canEdit` tells the screen whether to offer them at all.
@MainActor
@Observable
public final class PostDetailStore {
    /// The post's id.
    public let postID: Int
    /// The post, once loaded (or as the feed handed it over).
    public private(set) var post: Post?
    /// Its comments, oldest first.
    public private(set) var comments: [Comment] = []
    /// Whether the post and comments are loading.
    public private(set) var isLoading = false
    /// Whether the comments have arrived at least once.
    public private(set) var hasLoadedComments = false
    /// Whether the post is gone: deleted here, or the server answered 404. The screen should close.
    public private(set) var isDeleted = false
    /// The last failure, as a sentence to show; `dismissError()` clears it.
    public private(set) var errorMessage: String?
    /// The last failure as a value.
    public private(set) var lastError: (any Error)?

    private let client: CommunityClient
    private let currentUserID: @MainActor () -> Int?

    /// - Parameters:
    ///   - postID: the post to show.
    ///   - post: the feed's copy, shown until `load()` brings the server's.
    ///   - client: the community API, signed in.
    ///   - currentUserID: the signed-in account's id, asked at each owner check.
    public init(postID: Int, post: Post? = nil, client: CommunityClient, currentUserID: @escaping @MainActor () -> Int?) {
        self.postID = postID
        self.post = post
        self.client = client
        self.currentUserID = currentUserID
    }

    /// A post screen as `session`: owner checks use the session's user id.
    public convenience init(postID: Int, post: Post? = nil, session: Session) {
        self.init(postID: postID, post: post, client: session.community) { [weak session] in session?.userID }
    }

    // MARK: Owner checks

    /// Whether the signed-in account wrote `post`, so edit and delete may show.
    public func canEdit(post: Post) -> Bool {
        guard let userID = currentUserID() else { return false }
        return post.author.id == userID
    }

    /// Whether the signed-in account wrote `comment`, so its edit and delete may show.
    public func canEdit(comment: Comment) -> Bool {
        guard let userID = currentUserID() else { return false }
        return comment.author.id == userID
    }

    /// Whether the shown post's edit and delete may show.
    public var canEditPost: Bool { post.map { canEdit(post: $0) } ?? false }

    // MARK: Loading

    /// Loads the post and its comments together.
    public func load() async {
        isLoading = true
        defer { isLoading = false }
        async let loadedPost = Self.result { [client, postID] () throws(APIError) in try await client.post(id: postID) }
        async let loadedComments = Self.result { [client, postID] () throws(APIError) in try await client.comments(postID: postID) }
        let (postResult, commentsResult) = await (loadedPost, loadedComments)
        switch postResult {
        case .success(let fresh):
            post = fresh
        case .failure(let error):
            if error.statusCode == 404 { markDeleted() }
            report(error)
        }
        switch commentsResult {
        case .success(let fresh):
            comments = fresh
            hasLoadedComments = true
            syncSummaries()
        case .failure(let error):
            // The post's failure, when both failed, is the one worth showing.
            if case .success = postResult { report(error) }
        }
    }

    // MARK: Comments

    /// Adds a comment at the end once the server has it (not before: it needs the server's id). Returns false
    /// (with `errorMessage` set) for an empty text or when the server refuses.
    @discardableResult
    public func addComment(_ text: String) async -> Bool {
        guard validate(text) else { return false }
        do {
            let comment = try await client.createComment(postID: postID, text: text)
            if !comments.contains(where: { $0.id == comment.id }) { comments.append(comment) }
            syncSummaries()
            return true
        } catch {
            if error.statusCode == 404 { markDeleted() }
            report(error)
            return false
        }
    }

    /// Changes a comment's text in place at once; rolled back if the server refuses.
    @discardableResult
    public func editComment(id: Int, text: String) async -> Bool {
        guard validate(text), let index = comments.firstIndex(where: { $0.id == id }) else { return false }
        let original = comments[index]
        comments[index].text = text
        syncSummaries()
        do {
            let saved = try await client.updateComment(id: id, postID: postID, text: text)
            if let current = comments.firstIndex(where: { $0.id == id }) { comments[current] = saved }
            syncSummaries()
            return true
        } catch {
            rollBack(original, at: index, after: error)
            return false
        }
    }

    /// Takes a comment away at once; put back in its place if the server refuses.
    @discardableResult
    public func deleteComment(id: Int) async -> Bool {
        guard let index = comments.firstIndex(where: { $0.id == id }) else { return false }
        let original = comments[index]
        comments.remove(at: index)
        syncSummaries()
        do {
            try await client.deleteComment(id: id)
            return true
        } catch .status(code: 404, _, _, _) {
            // Already gone on the server: what the person wanted has happened.
            return true
        } catch {
            rollBack(original, at: index, after: error)
            return false
        }
    }

    // MARK: The post

    /// Changes the post's text in place at once; rolled back if the server refuses.
    @discardableResult
    public func editPost(text: String) async -> Bool {
        guard validate(text), let original = post else { return false }
        post?.text = text
        do {
            var saved = try await client.updatePost(id: postID, text: text)
            // The comments shown are the fuller, newer list.
            if hasLoadedComments { saved.comments = comments.map(\.summary) }
            post = saved
            return true
        } catch {
            report(error)
            if error.statusCode == 404 {
                markDeleted()
            } else {
                post?.text = original.text
            }
            return false
        }
    }

    /// Deletes the post (and, on the server, its comments); `isDeleted` turns true. Not shown before the server
    /// agrees: the screen closes on success, and a refusal leaves everything as it was.
    @discardableResult
    public func deletePost() async -> Bool {
        do {
            try await client.deletePost(id: postID)
            markDeleted()
            return true
        } catch .status(code: 404, _, _, _) {
            markDeleted()
            return true
        } catch {
            report(error)
            return false
        }
    }

    /// Clears the error once it has been shown.
    public func dismissError() {
        errorMessage = nil
        lastError = nil
    }

    // MARK: Helpers

    private static func result<Value: Sendable>(_ call: @Sendable () async throws(APIError) -> Value) async -> Result<Value, APIError> {
        do {
            return .success(try await call())
        } catch {
            return .failure(error)
        }
    }

    private func validate(_ text: String) -> Bool {
        guard CommunityValidation.isValidText(text) else {
            errorMessage = CommunityValidation.emptyTextMessage
            lastError = nil
            return false
        }
        return true
    }

    /// The post's own comment list ("댓글 N개") follows the comments shown.
    private func syncSummaries() {
        guard hasLoadedComments else { return }
        post?.comments = comments.map(\.summary)
    }

    private func markDeleted() {
        isDeleted = true
    }

    /// Undoes an optimistic comment change the server refused: `original` goes back where it was. A comment
    /// the server no longer has (404) stays away instead of coming back as a ghost.
    private func rollBack(_ original: Comment, at index: Int, after error: APIError) {
        report(error)
        if error.statusCode == 404 {
            comments.removeAll { $0.id == original.id }
        } else if let current = comments.firstIndex(where: { $0.id == original.id }) {
            comments[current] = original
        } else {
            comments.insert(original, at: min(index, comments.count))
        }
        syncSummaries()
    }

    private func report(_ error: APIError) {
        lastError = error
        errorMessage = error.sorted(for: .community).message
    }
}
