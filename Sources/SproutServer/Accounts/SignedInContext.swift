import Hummingbird

/// What a route group that needs an account answers every other caller, in its contract's shape.
protocol SignInRefusal {
    static func refusal(for caller: Caller) -> any Error
}

/// The request context of routes that need an account. A route group declares it in one line,
/// `routes.group(context: SignedInContext<Context, StrapiError>.self)`: the context is made from the parent's only
/// when the caller is an account, so handlers hold `account` without checking, and anyone else gets the
/// `Refusal`'s answer before the handler runs.
struct SignedInContext<Parent: CallerRequestContext, Refusal: SignInRefusal>: ChildRequestContext, CallerRequestContext {
    var coreContext: CoreRequestContextStorage
    var client: ClientOrigin
    var caller: Caller
    let record: RequestRecord
    let account: Account
    let credential: Caller.Credential

    init(context: Parent) throws {
        guard case .account(let account, let credential) = context.caller else { throw Refusal.refusal(for: context.caller) }
        // The parent's storage as it is: route parameters are already in it.
        coreContext = context.coreContext
        client = context.client
        caller = context.caller
        record = context.record
        self.account = account
        self.credential = credential
    }
}
