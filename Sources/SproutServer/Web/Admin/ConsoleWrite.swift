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
        } catch ConsoleWriteGuard.Refusal.formToken {
            return .failure(Refused(response: try refusal(.forbidden, "이 양식은 더 쓸 수 없어요", "페이지를 새로 불러온 뒤 다시 해 주세요.", request, account)))
        } catch ConsoleWriteGuard.Refusal.rateLimited {
            return .failure(Refused(response: try refusal(
                .tooManyRequests, "관리 작업이 너무 많아요", "1분에 \(ConsoleWriteGuard.writesPerWindow)번까지 할 수 있어요. 잠시 뒤에 다시 해 주세요.", request, account
            )))
        }
        let actor = AuditActor(
            name: account.username, accountID: account.id, client: context.client.address,
            userAgent: request.headers[.userAgent], requestID: context.id
        )
        return .success(Checked(fields: fields, actor: actor, account: account))
    }

    struct Refused: Error {
        let response: Response
    }

    private struct RefusalContext {
        let heading: String
        let explanation: String
        let back: String
    }

    private func refusal(_ status: HTTPResponse.Status, _ heading: String, _ explanation: String, _ request: Request, _ account: Account) throws -> Response {
        let back = "/" + request.uri.path.split(separator: "/").prefix(2).joined(separator: "/")
        return try renderer.render(
            "admin-refusal", context: RefusalContext(heading: heading, explanation: explanation, back: back),
            title: heading, current: nil, visitor: WebVisitor(account), request: request, status: status
        )
    }
}
