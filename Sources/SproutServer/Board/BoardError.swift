import HTTPTypes
import Hummingbird
import SproutWire

/// Every board error: `{"message": "…"}` (no client of the original decoded one; the contract settles on this).
struct BoardError: MessageError {
    let status: HTTPResponse.Status
    let message: String

    static let unauthorized = BoardError(status: .unauthorized, message: "A valid Bearer token is required.")
    static let boardNotFound = BoardError(status: .notFound, message: "No board has this id.")
    static let postNotFound = BoardError(status: .notFound, message: "No post in this board has this id.")
    static let notWritable = BoardError(status: .forbidden, message: "This board cannot be written in.")
    static let readOnlyToken = BoardError(status: .forbidden, message: "The API token can read boards but not write in them.")
    static let notYourPost = BoardError(status: .forbidden, message: "Only the post's writer may change it.")
    static let notManageable = BoardError(status: .forbidden, message: "Only moderators and admins may pin posts.")
    static let tooManyPinned = BoardError(
        status: .conflict, message: "This board already shows \(BoardAdministration.maximumPinnedPosts) pinned posts: unpin one first."
    )

    var body: BoardErrorJSON { BoardErrorJSON(message: message) }
}
