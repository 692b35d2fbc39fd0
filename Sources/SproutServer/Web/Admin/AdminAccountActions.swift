import Foundation
import Hummingbird

/// The console's writes on an account, as HTML form POSTs under `/admin/accounts/{id}/…` (admins only, behind
/// `AdminGate`): block (with a reason) and unblock, sign out everywhere, change role, delete. Each goes through
/// `AccountAdministration`, the code the `sprout account` commands use, which writes the audit entry in the same
/// transaction as the change; the console only adds who did it (`AuditActor`: the admin, the client, the request
/// id). Before any of it: the site-wide origin check (`CrossSiteRequestGuard`), the session's form token and the
/// admin's rate limit (`ConsoleWriteGuard`). Afterwards the browser goes back to the page with a message.
struct AdminAccountActions<Context: CallerRequestContext> {
    let renderer: WebPageRenderer
    let administration: AccountAdministration
    let service: AccountsService
    let writeGuard: ConsoleWriteGuard
    let cookie: SessionCookie
    let maxBodySize: Int

    func add(to admins: RouterGroup<Context>) {
        admins.post("accounts/{id}/block") { request, context in
            try await self.act(request, context) { id, fields, actor, _ in
                guard let reason = fields["reason"]?.asText?.trimmingCharacters(in: .whitespacesAndNewlines), !reason.isEmpty else { return .error("reason") }
                _ = try await administration.setBlocked(String(id), true, reason: reason, by: actor)
                return .done("blocked")
            }
        }
        admins.post("accounts/{id}/unblock") { request, context in
            try await self.act(request, context) { id, _, actor, _ in
                _ = try await administration.setBlocked(String(id), false, by: actor)
                return .done("unblocked")
            }
        }
        admins.post("accounts/{id}/sign-out") { request, context in
            try await self.act(request, context, allowedOnSelf: true) { id, _, actor, _ in
                _ = try await administration.signOutEverywhere(String(id), by: actor)
                return .done("signed-out")
            }
        }
        admins.post("accounts/{id}/send-reset") { request, context in
            try await self.act(request, context, allowedOnSelf: true) { id, _, actor, _ in
                _ = try await administration.sendPasswordReset(String(id), by: actor)
                return .done("reset-sent")
            }
        }
        admins.post("accounts/{id}/role") { request, context in
            try await self.act(request, context) { id, fields, actor, _ in
                guard let role = fields["role"]?.asText.flatMap(AccountRole.init(rawValue:)) else { return .error("role") }
                let before = try await administration.find(String(id)).role
                guard before != role else { return .done("unchanged") }
                _ = try await administration.setRole(String(id), role, by: actor)
                return .done("role")
            }
        }
        admins.post("accounts/{id}/delete") { request, context in
            try await self.act(request, context) { id, fields, actor, admin in
                // The acting admin's password again, counted by the login limiter like a login (as `DELETE /users/me`).
                do {
                    try await service.confirmPassword(fields["password"]?.asText ?? "", of: admin, address: actor.client ?? "unknown")
                } catch let refusal as StrapiError {
                    return .error(refusal.status == .tooManyRequests ? "password-limit" : "password")
                }
                _ = try await administration.delete(String(id), by: actor)
                return .redirect("/admin/accounts?done=deleted")
            }
        }
    }

    enum Outcome {
        case done(String)
        case error(String)
        case redirect(String)
    }

    /// The checks every write shares, then `action` on the account of the path, then back to its page.
    private func act(
        _ request: Request, _ context: Context, allowedOnSelf: Bool = false,
        _ action: (Int, FormFields, AuditActor, Account) async throws -> Outcome
    ) async throws -> Response {
        guard let admin = context.caller.account, let token = context.caller.sessionToken,
            let id = context.parameters.get("id").flatMap(Int.init), id > 0
        else { throw HTTPError(.notFound) }
        let fields = try await request.bodyFields(limit: maxBodySize) { _ in HTTPError(.badRequest) }
        do {
            try await writeGuard.check(fields, sessionToken: token, accountID: admin.id)
        } catch let refusal as ConsoleWriteGuard.Refusal {
            let back = "/" + request.uri.path.split(separator: "/").prefix(3).joined(separator: "/")
            return try ConsoleRefusalPage.render(refusal, back: back, renderer: renderer, request: request, account: admin)
        }
        guard try await administration.accounts.find(id: id) != nil else { throw HTTPError(.notFound) }
        let page = "/admin/accounts/\(id)"
        if admin.id == id, !allowedOnSelf { return .seeOther(page + "?error=self") }
        let actor = AuditActor(console: admin, request: request, context: context)
        do {
            switch try await action(id, fields, actor, admin) {
            case .done(let code): return .seeOther(page + "?done=" + code)
            case .error(let code): return .seeOther(page + "?error=" + code)
            case .redirect(let path): return .seeOther(path)
            }
        } catch AccountAdministrationError.notFound {
            throw HTTPError(.notFound)
        } catch AccountAdministrationError.busy {
            return .seeOther(page + "?error=busy")
        }
    }
}
