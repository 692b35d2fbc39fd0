import Foundation
import Hummingbird

/// The console's moderation list (`/admin/moderation`) and open reports (`/admin/reports`), for moderators and
/// admins. They only read (`ModerationQueue`, `Reports`); every change is a form POST to `AdminModerationActions`,
/// which goes through `Moderation` (the code `sprout moderate` uses) and comes back here with a message.
struct AdminModerationPages<Context: CallerRequestContext> {
    let renderer: WebPageRenderer
    let queue: ModerationQueue
    let reports: Reports
    let sessions: WebSessions
    let actions: AdminModerationActions<Context>

    static var pageSize: Int { 50 }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        let staff = routes.group("admin").add(middleware: AdminGate(required: .moderator, sessions: sessions, cookie: actions.cookie))
        staff.get("moderation") { request, context in try await self.moderation(request, context: context) }
        staff.get("reports") { request, context in try await self.reportsPage(request, context: context) }
        actions.add(to: staff)
        return routes
    }

    // MARK: - Moderation list

    private struct KindOption {
        let value: String
        let name: String
        let selected: Bool
    }

    private struct ItemRow {
        let kind: String
        let kindLabel: String
        let id: Int
        let author: String
        let excerpt: String
        let created: String
        let machineCreated: String
        let hidden: Bool
        let reports: Int
        let link: String
    }

    private struct ModerationContext {
        let nav: ModerationConsoleNav
        let flash: ModerationFlash?
        let kinds: [KindOption]
        let kind: String
        let author: String
        let query: String
        let reported: Bool
        let onlyHidden: Bool
        let rows: [ItemRow]
        let next: String?
        let csrf: String
        /// Where an action comes back to: this list with its filters (the form's `back`).
        let back: String
    }

    private func moderation(_ request: Request, context: Context) async throws -> Response {
        let parameters = request.uri.queryParameters
        func text(_ name: String) -> String? {
            parameters.get(name).map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let kind = text("kind").flatMap(ModeratedKind.init(rawValue:)) ?? .post
        let author = text("author"), query = text("q")
        let reported = text("reported") == "1", onlyHidden = text("hidden") == "1"
        let before = text("before").flatMap(Int.init)
        let items = try await queue.items(ModerationFilter(
            kind: kind, author: author, text: query, onlyReported: reported, onlyHidden: onlyHidden, beforeID: before, limit: Self.pageSize
        ))
        // The filters without the page: the base of "다음" and of where actions come back to.
        let filters = "/admin/moderation?kind=" + kind.rawValue
            + (author.map { "&author=" + AdminPages<Context>.queryValue($0) } ?? "")
            + (query.map { "&q=" + AdminPages<Context>.queryValue($0) } ?? "")
            + (reported ? "&reported=1" : "") + (onlyHidden ? "&hidden=1" : "")
        let page = ModerationContext(
            nav: try await ModerationConsoleNav.make(context, current: "moderation", reports: reports),
            flash: ModerationFlash(request),
            kinds: ModeratedKind.allCases.map { KindOption(value: $0.rawValue, name: $0.label, selected: $0 == kind) },
            kind: kind.rawValue, author: author ?? "", query: query ?? "", reported: reported, onlyHidden: onlyHidden,
            rows: items.map { item in
                ItemRow(
                    kind: kind.rawValue, kindLabel: kind.label, id: item.id, author: item.authorName, excerpt: item.excerpt,
                    created: ConsoleFormat.time(item.createdAt), machineCreated: ConsoleFormat.machineTime(item.createdAt),
                    hidden: item.hiddenAt != nil, reports: item.openReports, link: ModeratedItemLinks.link(kind, id: item.id, parentID: item.parentID)
                )
            },
            next: items.count == Self.pageSize ? items.last.map { filters + "&before=\($0.id)" } : nil,
            csrf: try Self.csrf(context),
            back: filters + (before.map { "&before=\($0)" } ?? "")
        )
        return try render("admin-moderation", page, title: "검토", request: request, context: context)
    }

    // MARK: - Reports

    private struct ReportRow {
        let kind: String
        let kindLabel: String
        let id: Int
        let excerpt: String
        let gone: Bool
        let hidden: Bool
        let reporters: Int
        let reason: String
        let last: String
        let machineLast: String
        let link: String
        let moderationLink: String
    }

    private struct ReportsContext {
        let nav: ModerationConsoleNav
        let flash: ModerationFlash?
        let kinds: [KindOption]
        let rows: [ReportRow]
        let previous: String?
        let next: String?
        let csrf: String
        let back: String
    }

    private func reportsPage(_ request: Request, context: Context) async throws -> Response {
        let parameters = request.uri.queryParameters
        let kind = parameters.get("kind").flatMap(ModeratedKind.init(rawValue:))
        let page = max(1, parameters.get("page").flatMap { Int($0) } ?? 1)
        // One more than a page, to know whether there is a next one.
        let found = try await reports.queue(kind: kind, limit: Self.pageSize + 1, offset: (page - 1) * Self.pageSize)
        let shown = Array(found.prefix(Self.pageSize))
        let base = "/admin/reports" + (kind.map { "?kind=" + $0.rawValue } ?? "")
        let link: (Int) -> String = { number in base + (kind == nil ? "?" : "&") + "page=\(number)" }
        let reportsContext = ReportsContext(
            nav: try await ModerationConsoleNav.make(context, current: "reports", reports: reports),
            flash: ModerationFlash(request),
            kinds: [KindOption(value: "", name: "모두", selected: kind == nil)]
                + ModeratedKind.allCases.map { KindOption(value: $0.rawValue, name: $0.label, selected: $0 == kind) },
            rows: shown.map { item in
                ReportRow(
                    kind: item.kind.rawValue, kindLabel: item.kind.label, id: item.targetID, excerpt: item.excerpt ?? "(삭제됨)",
                    gone: item.excerpt == nil, hidden: item.hidden, reporters: item.reporters, reason: item.latestReason,
                    last: ConsoleFormat.time(item.lastReportedAt), machineLast: ConsoleFormat.machineTime(item.lastReportedAt),
                    link: ModeratedItemLinks.link(item.kind, id: item.targetID, parentID: item.parentID),
                    // The list's page that starts with this item (ids below `before`), its row marked by the anchor.
                    moderationLink: "/admin/moderation?kind=\(item.kind.rawValue)&before=\(item.targetID + 1)#item-\(item.targetID)"
                )
            },
            previous: page > 1 ? link(page - 1) : nil,
            next: found.count > Self.pageSize ? link(page + 1) : nil,
            csrf: try Self.csrf(context),
            back: page > 1 ? link(page) : base
        )
        return try render("admin-reports", reportsContext, title: "신고", request: request, context: context)
    }

    // MARK: - Shared

    private static func csrf(_ context: Context) throws -> String {
        guard let token = context.caller.sessionToken else { throw HTTPError(.notFound) }
        return ConsoleWriteGuard.formToken(sessionToken: token)
    }

    private func render(_ template: String, _ page: Any, title: String, request: Request, context: Context) throws -> Response {
        guard let account = context.caller.account else { throw HTTPError(.notFound) }
        return try renderer.render(
            template, context: page, title: title + " · 관리", current: nil, scripts: ["admin-moderation.js"],
            visitor: WebVisitor(account), request: request
        )
    }
}

/// The message after a moderation action: a fixed text per code, with the number of items the action changed
/// (`?done=hidden&count=3`); only a number comes from the address, so a link cannot put words in the console's mouth.
struct ModerationFlash {
    let text: String
    let isError: Bool

    static let errors: [String: String] = [
        "password": "비밀번호가 맞지 않아요. 삭제하지 않았어요.",
        "password-limit": "비밀번호를 너무 여러 번 틀렸어요. 잠시 뒤에 다시 해 주세요.",
        "confirm": "삭제하려면 되돌릴 수 없다는 확인란을 선택해 주세요.",
        "none": "고른 항목이 없어요.",
        "too-many": "한 번에 \(ConsoleFormat.number(Moderation.maximumBatch))개까지 할 수 있어요.",
        "kind": "알 수 없는 종류예요.",
    ]

    init?(_ request: Request) {
        let parameters = request.uri.queryParameters
        if let code = parameters.get("done"), let count = parameters.get("count").flatMap({ Int($0) }), count >= 0 {
            let number = ConsoleFormat.number(count)
            let done: String? = switch code {
            case "hidden": "\(number)개 숨김 처리했어요"
            case "restored": "\(number)개 되살렸어요"
            case "deleted": "\(number)개 삭제했어요"
            case "dismissed": "\(number)개 항목의 신고를 닫았어요"
            default: nil
            }
            guard let done else { return nil }
            let text = count == 0 ? "바뀐 것이 없어요." : done
            self.text = text
            isError = false
        } else if let code = parameters.get("error"), let text = Self.errors[code] {
            self.text = text
            isError = true
        } else {
            return nil
        }
    }
}

/// The console's menu on these pages: `AdminPages.ConsoleNav`'s fields (the shared `admin-nav` template reads them
/// by name), and these pages' own with the number of items waiting in the reports queue, which the other pages
/// leave out (their menu then shows no number).
struct ModerationConsoleNav {
    let isAdmin: Bool
    let overview = false, accounts = false, audit = false
    let moderation: Bool
    let reports: Bool
    let openReports: String?

    static func make(_ context: some CallerRequestContext, current: String, reports: Reports) async throws -> ModerationConsoleNav {
        let open = try await reports.openItemCount()
        return ModerationConsoleNav(
            isAdmin: context.caller.account?.role.mayAdminister ?? false,
            moderation: current == "moderation", reports: current == "reports",
            openReports: open > 0 ? ConsoleFormat.number(open) : nil
        )
    }
}
