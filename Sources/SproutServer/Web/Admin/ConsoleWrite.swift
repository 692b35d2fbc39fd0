import Foundation
import Hummingbird

/// The steps every console form POST shares, for the pages that are not an account's: the gate has let the caller
/// in; here the body is read, the session's form token and the acting account's rate limit are checked
/// (`ConsoleWriteGuard`), and the actor the audit log names is made (the account, its address and user agent, the
/// request id). A refusal is the console's refusal page.
struct ConsoleWrite<Context: CallerRequestContext> {
    let renderer: WebPageRenderer
    let writeGuard: ConsoleWriteGuard
    let maxBodySize: Int

    struct Checked {
        let fields: FormFields
        let actor: AuditActor
        let account: Account
    }

    /// The checked write, or the refusal page to answer instead.
    func check(_ request: Request, _ context: Context) async throws -> Result<Checked, Refused> {
        guard let account = context.caller.account, let token = context.caller.sessionToken else { throw HTTPError(.notFound) }
        let fields = try await request.bodyFields(limit: maxBodySize) { _ in HTTPError(.badRequest) }
        do {
            try await writeGuard.check(fields, sessionToken: token, accountID: account.id)
        } catch let refusal as ConsoleWriteGuard.Refusal {
            let back = "/" + request.uri.path.split(separator: "/").prefix(2).joined(separator: "/")
            return .failure(Refused(response: try ConsoleRefusalPage.render(refusal, back: back, renderer: renderer, request: request, account: account)))
        }
        return .success(Checked(fields: fields, actor: AuditActor(console: account, request: request, context: context), account: account))
    }

    struct Refused: Error {
        let response: Response
    }
}
