import Hummingbird

/// Who is asking a board: an account, or `BOARD_API_TOKEN` (reads everything, writes nothing, owns nothing).
enum BoardCaller: Sendable {
    case account(Account)
    case staticToken

    var accountID: Int? { account?.id }

    var account: Account? {
        if case .account(let account) = self { return account }
        return nil
    }
}

/// The context of every board route. Every board call needs a Bearer token — an account's JWT, or the static
/// token the original handed to every app — or the web app's session cookie; anyone else gets the board's 401
/// before the handler runs.
struct BoardRequestContext<Parent: CallerRequestContext>: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let caller: BoardCaller
    /// The client's address, for the audit entries of moderators' changes.
    let clientAddress: String?

    init(context: Parent) throws {
        switch context.caller {
        case .account(let account, _): caller = .account(account)
        case .boardAPIToken: caller = .staticToken
        case .anonymous, .rejected: throw BoardError.unauthorized
        }
        clientAddress = context.client.address
        // The parent's storage as it is: route parameters are already in it.
        coreContext = context.coreContext
    }
}
