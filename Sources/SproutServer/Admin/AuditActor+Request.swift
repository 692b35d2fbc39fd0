import Hummingbird

extension AuditActor {
    /// A signed-in account making a change through a request: its name, the client's address, the user agent and
    /// the request id.
    init(account: Account, request: Request, client: String?, requestID: String) {
        self.init(
            name: account.username, accountID: account.id, client: client,
            userAgent: request.headers[.userAgent], requestID: requestID
        )
    }

    /// The signed-in account making a console write.
    init(console account: Account, request: Request, context: some CallerRequestContext) {
        self.init(account: account, request: request, client: context.client.address, requestID: context.id)
    }
}
