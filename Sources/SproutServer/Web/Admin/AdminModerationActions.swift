import Foundation
import Hummingbird
import NIOCore

/// The console's moderation writes: `POST /admin/moderation/hide|restore|delete|dismiss` with `kind`, one `id` field per
/// item (up to `Moderation.maximumBatch`), the form token and `back` (the console page to return to). Behind the
/// moderator gate, with the same checks as the account actions (`ConsoleWriteGuard`: form token, then the rate
/// limit; the site-wide origin check before both); a deletion also needs the acting moderator's password and the
/// "cannot be undone" box. `Moderation` does the work in one transaction and writes one audit entry per item it
/// changed; the page then says how many that was.
struct AdminModerationActions<Context: CallerRequestContext> {
    let renderer: WebPageRenderer
    let moderation: Moderation
    let service: AccountsService
    let writeGuard: ConsoleWriteGuard
    let cookie: SessionCookie
    let maxBodySize: Int

    func add(to staff: RouterGroup<Context>) {
        staff.post("moderation/{action}") { request, context in try await self.act(request, context: context) }
    }

    private func act(_ request: Request, context: Context) async throws -> Response {
        guard let moderator = context.caller.account, let token = context.caller.sessionToken,
            let action = context.parameters.get("action").flatMap(ConsoleModerationAction.init(rawValue:))
        else { throw HTTPError(.notFound) }
        var body = request
        let form: ModerationForm
        do {
            form = try ModerationForm(try await body.collectedBody(limit: maxBodySize).readableBytesView)
        } catch is BodyReadingError {
            throw HTTPError(.badRequest)
        } catch is ModerationForm.Malformed {
            throw HTTPError(.badRequest)
        }
        do {
            try await writeGuard.check(form.fields, sessionToken: token, accountID: moderator.id)
        } catch let refusal as ConsoleWriteGuard.Refusal {
            return try ConsoleRefusalPage.render(refusal, back: "/admin/moderation", renderer: renderer, request: request, account: moderator)
        }
        let back = Self.backAddress(form.fields["back"]?.asText)
        func comeBack(_ query: String) -> Response { .seeOther(back + (back.contains("?") ? "&" : "?") + query) }
        guard let kind = form.fields["kind"]?.asText.flatMap(ModeratedKind.init(rawValue:)) else { return comeBack("error=kind") }
        guard !form.ids.isEmpty else { return comeBack("error=none") }
        guard form.ids.count <= Moderation.maximumBatch else { return comeBack("error=too-many") }
        let actor = AuditActor(console: moderator, request: request, context: context)
        if action == .delete {
            guard form.fields["confirm"]?.asText == "1" else { return comeBack("error=confirm") }
            // The acting moderator's password again, counted by the login limiter like a login (as the account deletion).
            do {
                try await service.confirmPassword(form.fields["password"]?.asText ?? "", of: moderator, address: actor.client ?? "unknown")
            } catch let refusal as StrapiError {
                return comeBack(refusal.status == .tooManyRequests ? "error=password-limit" : "error=password")
            }
        }
        let changed = if let contentAction = action.contentAction {
            try await moderation.apply(contentAction, to: kind, ids: form.ids, by: actor)
        } else {
            try await moderation.dismissReports(of: kind, ids: form.ids, by: actor)
        }
        return comeBack("done=\(action.done)&count=\(changed.count)")
    }

    /// Only the console's own moderation pages: anything else goes back to the list.
    static func backAddress(_ back: String?) -> String {
        guard let back, back.hasPrefix("/admin/moderation") || back.hasPrefix("/admin/reports"),
            !back.contains("\\"), !back.contains("#"), back.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { return "/admin/moderation" }
        return back
    }
}

/// What a console moderation form asks: one of `Moderation.Action` on the items, or closing their reports.
enum ConsoleModerationAction: String {
    case hide, restore, delete, dismiss

    /// The change to the items themselves; nil for `dismiss`, which changes only their reports.
    var contentAction: Moderation.Action? { Moderation.Action(rawValue: rawValue) }

    /// The page's message code afterwards (`ModerationFlash`).
    var done: String {
        switch self {
        case .hide: "hidden"
        case .restore: "restored"
        case .delete: "deleted"
        case .dismiss: "dismissed"
        }
    }
}

/// A moderation form's body. The site's form reader keeps the last of repeated fields and takes at most
/// `FormFields.maximumCount` of them, but a bulk action sends up to 1,000 `id` fields besides the others: so the
/// `id` pairs are read here, and the few other fields by the ordinary reader.
struct ModerationForm {
    let ids: [Int]
    let fields: FormFields

    /// More than this many non-`id` fields is no form of the console's.
    static let maximumOtherFields = 20

    /// An `id` that is not a positive number, or too many other fields: answered 400.
    struct Malformed: Error {}

    init(_ bytes: some Collection<UInt8>) throws {
        var ids: [Int] = []
        var others: [UInt8] = []
        var otherCount = 0
        for pair in bytes.split(separator: UInt8(ascii: "&")) {
            if pair.starts(with: Array("id=".utf8)) {
                guard let id = Int(String(decoding: pair.dropFirst(3), as: UTF8.self)), id > 0 else { throw Malformed() }
                ids.append(id)
                guard ids.count <= Moderation.maximumBatch + 1 else { break }
            } else {
                otherCount += 1
                guard otherCount <= Self.maximumOtherFields else { throw Malformed() }
                if !others.isEmpty { others.append(UInt8(ascii: "&")) }
                others.append(contentsOf: pair)
            }
        }
        self.ids = ids
        fields = URLEncodedForm.parse(others)
    }
}

/// Where an item is seen in the web app: `/community/posts/12`, a comment on its post's page, `/market/products/3`,
/// `/board/2/posts/40`. The lists carry what comments and board posts need (`ModeratedKind.parentColumn`).
enum ModeratedItemLinks {
    static func link(_ kind: ModeratedKind, id: Int, parentID: Int?) -> String {
        switch kind {
        case .post: return "/community/posts/\(id)"
        case .product: return "/market/products/\(id)"
        case .comment: return parentID.map { "/community/posts/\($0)#comments-title" } ?? fallback(kind)
        case .boardPost: return parentID.map { "/board/\($0)/posts/\(id)" } ?? fallback(kind)
        }
    }

    /// For an item that is gone: the app's front page.
    static func fallback(_ kind: ModeratedKind) -> String {
        switch kind {
        case .post, .comment: "/community"
        case .product: "/market"
        case .boardPost: "/board"
        }
    }
}
