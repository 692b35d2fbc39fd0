import Foundation
import Hummingbird

/// The console's pages (`/admin…`), rendered on the server like the rest of the web app and usable without
/// script: the overview (moderators and admins), the accounts and an account's page, the audit log (admins).
/// Every route is behind `AdminGate`; the writes (`AdminAccountActions`) are form POSTs that come back here with a
/// message (`?done=` or `?error=`, fixed codes, so a link cannot put words in the console's mouth).
struct AdminPages<Context: CallerRequestContext> {
    let renderer: WebPageRenderer
    let administration: AccountAdministration
    let audit: AuditTrail
    let statistics: ConsoleStatistics
    let sessions: WebSessions
    let actions: AdminAccountActions<Context>
    let clock: WallClock

    static var pageSize: Int { 50 }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        let cookie = actions.cookie
        routes.group("admin").add(middleware: AdminGate(required: .moderator, sessions: sessions, cookie: cookie))
            .get { request, context in try await self.overview(request, context: context) }
        let admins = routes.group("admin").add(middleware: AdminGate(required: .admin, sessions: sessions, cookie: cookie))
        admins.get("accounts") { request, context in try await self.accounts(request, context: context) }
        admins.get("accounts/{id}") { request, context in try await self.account(request, context: context) }
        admins.get("audit") { request, context in try await self.auditLog(request, context: context) }
        actions.add(to: admins)
        return routes
    }

    // MARK: - Shared

    struct ConsoleNav {
        let isAdmin: Bool
        let overview: Bool
        let accounts: Bool
        let audit: Bool
    }

    private func render(_ template: String, _ page: Any, title: String, request: Request, context: Context) throws -> Response {
        guard let account = context.caller.account else { throw HTTPError(.notFound) }
        return try renderer.render(template, context: page, title: title + " · 관리", current: nil, visitor: WebVisitor(account), request: request)
    }

    private func nav(_ context: Context, current: String) -> ConsoleNav {
        ConsoleNav(
            isAdmin: context.caller.account?.role.mayAdminister ?? false,
            overview: current == "overview", accounts: current == "accounts", audit: current == "audit"
        )
    }

    // MARK: - Overview

    private struct CountItem {
        let name: String
        let value: String
    }

    private struct DayRow {
        let day: String
        let signUps: Int
        let content: Int
    }

    private struct OverviewContext {
        let nav: ConsoleNav
        let counts: [CountItem]
        let signUpChart: String
        let contentChart: String
        let days: [DayRow]
        let openReports: String
        let backup: String
        let backupTime: String?
        let databaseSize: String
        let freeDisk: String
        /// When the counts and charts were counted (kept for a minute).
        let countedAt: String
    }

    private func overview(_ request: Request, context: Context) async throws -> Response {
        let now = clock.now
        let figures = try await statistics.overviewFigures(now: now)
        let (counts, signUps, content) = (figures.counts, figures.signUps, figures.content)
        let start = ConsoleStatistics.chartStart(now: figures.countedAt)
        let labels = (0..<ConsoleStatistics.days).map { ConsoleFormat.day(start.addingTimeInterval(Double($0) * 86_400)) }
        let backup = statistics.newestBackup()
        let page = OverviewContext(
            nav: nav(context, current: "overview"),
            counts: [
                CountItem(name: "계정", value: ConsoleFormat.number(figures.accounts)),
                CountItem(name: "할 일", value: ConsoleFormat.number(counts.todos)),
                CountItem(name: "커뮤니티 글", value: ConsoleFormat.number(counts.posts)),
                CountItem(name: "댓글", value: ConsoleFormat.number(counts.comments)),
                CountItem(name: "상품", value: ConsoleFormat.number(counts.products)),
                CountItem(name: "게시판 글", value: ConsoleFormat.number(counts.boardPosts)),
                CountItem(name: "일기", value: ConsoleFormat.number(counts.diaryEntries)),
            ],
            signUpChart: SVGBarChart(title: "하루 가입 수 (최근 30일, UTC)", bars: zip(labels, signUps).map { .init(label: $0, value: $1) }, id: "chart-signups").svg,
            contentChart: SVGBarChart(title: "하루 새 글과 항목 수 (최근 30일, UTC)", bars: zip(labels, content).map { .init(label: $0, value: $1) }, id: "chart-content").svg,
            days: (0..<ConsoleStatistics.days).reversed().map { DayRow(day: labels[$0], signUps: signUps[$0], content: content[$0]) },
            openReports: ConsoleFormat.number(try await statistics.openReports()),
            backup: backup.map { ConsoleFormat.time($0.at) } ?? "없음",
            backupTime: backup.map { ConsoleFormat.machineTime($0.at) },
            databaseSize: ConsoleFormat.bytes(try await statistics.databaseBytes()),
            freeDisk: ConsoleFormat.bytes(statistics.freeDiskBytes()),
            countedAt: ConsoleFormat.time(figures.countedAt)
        )
        return try render("admin-overview", page, title: "개요", request: request, context: context)
    }

    // MARK: - Accounts

    private struct AccountRow {
        let id: Int
        let username: String
        let email: String
        let role: String
        let blocked: Bool
        let created: String
    }

    private struct AccountsContext {
        let nav: ConsoleNav
        let flash: ConsoleFlash?
        let query: String
        let rows: [AccountRow]
        let total: String
        /// "1–50"; nil when nothing was found (a Mustache section is shown for any string, even an empty one).
        let range: String?
        let previous: String?
        let next: String?
    }

    private func accounts(_ request: Request, context: Context) async throws -> Response {
        let query = request.uri.queryParameters.get("q") ?? ""
        let page = max(1, request.uri.queryParameters.get("page").flatMap { Int($0) } ?? 1)
        let found = try await administration.search(query, offset: (page - 1) * Self.pageSize, limit: Self.pageSize)
        let link: (Int) -> String = { number in "/admin/accounts?q=" + Self.queryValue(query) + "&page=\(number)" }
        let first = (page - 1) * Self.pageSize + 1
        let accountsContext = AccountsContext(
            nav: nav(context, current: "accounts"),
            flash: ConsoleFlash(request),
            query: query,
            rows: found.accounts.map {
                AccountRow(id: $0.id, username: $0.username, email: $0.email, role: ConsoleFormat.role($0.role), blocked: $0.blocked,
                           created: ConsoleFormat.time($0.createdAt))
            },
            total: ConsoleFormat.number(found.total),
            range: found.accounts.isEmpty ? nil : "\(ConsoleFormat.number(first))–\(ConsoleFormat.number(first + found.accounts.count - 1))",
            previous: page > 1 ? link(page - 1) : nil,
            next: first - 1 + found.accounts.count < found.total ? link(page + 1) : nil
        )
        return try render("admin-accounts", accountsContext, title: "계정", request: request, context: context)
    }

    private struct SessionRow {
        let device: String
        let address: String
        let lastSeen: String
    }

    private struct RoleOption {
        let value: String
        let name: String
        let selected: Bool
    }

    private struct AccountContext {
        let nav: ConsoleNav
        let flash: ConsoleFlash?
        let id: Int
        let username: String
        let email: String
        let role: String
        let roles: [RoleOption]
        let blocked: Bool
        let blockedReason: String?
        let created: String
        let lastLogin: String
        let counts: [CountItem]
        let sessions: [SessionRow]
        let csrf: String
        /// The acting admin's own account: its block, role and deletion are not offered (they would lock them out).
        let isSelf: Bool
        let auditLink: String
    }

    private func account(_ request: Request, context: Context) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap(Int.init), id > 0,
            let account = try await administration.accounts.find(id: id),
            let token = context.caller.sessionToken
        else { throw HTTPError(.notFound) }
        let counts = try await statistics.counts(account: id)
        let page = AccountContext(
            nav: nav(context, current: "accounts"),
            flash: ConsoleFlash(request),
            id: account.id, username: account.username, email: account.email, role: ConsoleFormat.role(account.role),
            roles: AccountRole.allCases.map { RoleOption(value: $0.rawValue, name: ConsoleFormat.role($0), selected: $0 == account.role) },
            blocked: account.isBlocked, blockedReason: account.blockedReason,
            created: ConsoleFormat.time(account.createdAt), lastLogin: ConsoleFormat.time(account.lastLoginAt),
            counts: [
                CountItem(name: "할 일", value: ConsoleFormat.number(counts.todos)),
                CountItem(name: "커뮤니티 글", value: ConsoleFormat.number(counts.posts)),
                CountItem(name: "댓글", value: ConsoleFormat.number(counts.comments)),
                CountItem(name: "상품", value: ConsoleFormat.number(counts.products)),
                CountItem(name: "게시판 글", value: ConsoleFormat.number(counts.boardPosts)),
                CountItem(name: "일기", value: ConsoleFormat.number(counts.diaryEntries)),
            ],
            sessions: try await sessions.list(accountID: id).map {
                SessionRow(device: $0.device ?? "알 수 없는 기기", address: $0.address ?? "알 수 없음", lastSeen: ConsoleFormat.time($0.lastSeenAt ?? $0.createdAt))
            },
            csrf: ConsoleWriteGuard.formToken(sessionToken: token),
            isSelf: context.caller.account?.id == id,
            auditLink: "/admin/audit?target=" + Self.queryValue("account:\(id)")
        )
        return try render("admin-account", page, title: account.username, request: request, context: context)
    }

    // MARK: - Audit log

    private struct ChangeRow {
        let field: String
        let before: String
        let after: String
    }

    private struct AuditRow {
        let id: Int
        let time: String
        let machineTime: String
        let actor: String
        let action: String
        let target: String
        let changes: [ChangeRow]
        let client: String
        let requestID: String
    }

    private struct AuditContext {
        let nav: ConsoleNav
        let actor: String
        let action: String
        let target: String
        let rows: [AuditRow]
        let next: String?
        let filtered: Bool
    }

    private func auditLog(_ request: Request, context: Context) async throws -> Response {
        let parameters = request.uri.queryParameters
        func filter(_ name: String) -> String? {
            parameters.get(name).map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let actor = filter("actor"), action = filter("action"), target = filter("target")
        let before = filter("before").flatMap(Int.init)
        let records = try await audit.list(AuditFilter(actor: actor, action: action, target: target, beforeID: before, limit: Self.pageSize))
        let next = records.count == Self.pageSize ? records.last.map { last in
            "/admin/audit?" + [("actor", actor), ("action", action), ("target", target)].compactMap { name, value in
                value.map { "\(name)=" + Self.queryValue($0) }
            }.joined(separator: "&") + (actor == nil && action == nil && target == nil ? "" : "&") + "before=\(last.id)"
        } : nil
        let page = AuditContext(
            nav: nav(context, current: "audit"),
            actor: actor ?? "", action: action ?? "", target: target ?? "",
            rows: records.map { record in
                AuditRow(
                    id: record.id, time: ConsoleFormat.time(record.at), machineTime: ConsoleFormat.machineTime(record.at),
                    actor: record.actor, action: record.action, target: record.target,
                    changes: record.changes.keys.sorted().map { field in
                        ChangeRow(field: field, before: record.changes[field]?.before ?? "—", after: record.changes[field]?.after ?? "—")
                    },
                    client: record.client ?? "—", requestID: record.requestID ?? "—"
                )
            },
            next: next,
            filtered: actor != nil || action != nil || target != nil
        )
        return try render("admin-audit", page, title: "감사 기록", request: request, context: context)
    }

    static func queryValue(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~:")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

/// The message a console page shows after an action (`?done=` or `?error=`): one of the fixed texts below.
struct ConsoleFlash {
    let text: String
    let isError: Bool

    static let done: [String: String] = [
        "blocked": "계정을 막았어요. 다음 로그인 때 이유가 보여요.",
        "unblocked": "계정 막기를 풀었어요.",
        "signed-out": "이 계정을 모든 기기에서 로그아웃시켰어요.",
        "reset-sent": "비밀번호 재설정 메일을 보냈어요. 링크는 한 시간 동안 쓸 수 있어요.",
        "role": "역할을 바꿨어요.",
        "deleted": "계정을 삭제했어요.",
        "unchanged": "바뀐 것이 없어요.",
    ]
    static let errors: [String: String] = [
        "password": "비밀번호가 맞지 않아요. 계정을 삭제하지 않았어요.",
        "password-limit": "비밀번호를 너무 여러 번 틀렸어요. 잠시 뒤에 다시 해 주세요.",
        "self": "내 계정은 여기서 막거나, 역할을 바꾸거나, 삭제할 수 없어요.",
        "reason": "막는 이유를 적어 주세요. 다음 로그인 때 이 계정에 보여요.",
        "role": "알 수 없는 역할이에요.",
        "busy": "계정이 계속 바뀌고 있어요. 다시 해 주세요.",
    ]

    init?(_ request: Request) {
        if let code = request.uri.queryParameters.get("done"), let text = Self.done[code] {
            self.text = text
            isError = false
        } else if let code = request.uri.queryParameters.get("error"), let text = Self.errors[code] {
            self.text = text
            isError = true
        } else {
            return nil
        }
    }
}
