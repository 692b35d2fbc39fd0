import Foundation
import Hummingbird

/// The console's operations pages, admins only (`AdminGate(required: .admin)`): backups (the archives, "back up
/// now" with its progress, downloads), the board menu (create, rename, move, archive, writable, delete) and the
/// market's vendors (disable, enable, new secret). Each write is a form POST through the same administration code
/// as `sprout backup`, `sprout board` and `sprout vendor`, which writes the audit entry with the change.
struct AdminOperationsPages<Context: CallerRequestContext> {
    let renderer: WebPageRenderer
    let backups: BackupJobs
    let boards: BoardAdministration
    let vendors: VendorAdministration
    let sessions: WebSessions
    let cookie: SessionCookie
    let write: ConsoleWrite<Context>

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        let admins = routes.group("admin").add(middleware: AdminGate(required: .admin, sessions: sessions, cookie: cookie))
        admins.get("backups") { request, context in try await self.backupsPage(request, context) }
        admins.post("backups") { request, context in try await self.startBackup(request, context) }
        admins.get("backups/{name}") { request, context in try await self.download(request, context) }
        admins.get("boards") { request, context in try await self.boardsPage(request, context) }
        admins.post("boards") { request, context in
            try await self.act(request, context, back: "/admin/boards") { fields, actor in
                _ = try await boards.create(
                    name: fields["name"]?.asText ?? "", type: fields["type"]?.asText ?? "normal", writable: fields["writable"]?.asText != "no", by: actor
                )
                return "board-created"
            }
        }
        admins.post("boards/{id}/{action}") { request, context in try await self.boardAction(request, context) }
        admins.get("vendors") { request, context in try await self.vendorsPage(request, context) }
        admins.post("vendors/{id}/{action}") { request, context in try await self.vendorAction(request, context) }
        return routes
    }

    // MARK: - Backups

    private struct JobRow {
        let id: Int
        let state: String
        let running: Bool
        let phase: String
        let bytes: String
        let actor: String
        let started: String
        let archive: String?
        let error: String?
    }

    private struct ArchiveRow {
        let name: String
        let bytes: String
        let modified: String
    }

    private struct BackupsContext {
        let nav: ConsoleNavLinks
        let flash: ConsoleFlash?
        let csrf: String
        let running: Bool
        let jobs: [JobRow]
        let archives: [ArchiveRow]
        let directory: String
    }

    private func backupsPage(_ request: Request, _ context: Context) async throws -> Response {
        let jobs = try await backups.recent(limit: 10)
        let page = BackupsContext(
            nav: ConsoleNavLinks(current: "backups"),
            flash: ConsoleFlash(request, done: Self.done, errors: Self.errors),
            csrf: try csrf(context),
            running: jobs.contains { $0.state == .running },
            jobs: jobs.map { job in
                JobRow(
                    id: job.id, state: Self.stateName(job.state), running: job.state == .running, phase: Self.phaseName(job.phase),
                    bytes: ConsoleFormat.bytes(job.bytes), actor: job.actor, started: ConsoleFormat.time(job.startedAt),
                    archive: job.archive, error: job.error
                )
            },
            archives: try backups.archives().map {
                ArchiveRow(name: $0.name, bytes: ConsoleFormat.bytes($0.bytes), modified: ConsoleFormat.time($0.modifiedAt))
            },
            directory: backups.directory
        )
        return try render("admin-backups", page, title: "백업", request, context)
    }

    private func startBackup(_ request: Request, _ context: Context) async throws -> Response {
        try await act(request, context, back: "/admin/backups") { _, actor in
            do {
                _ = try await backups.start(by: actor)
                return "backup-started"
            } catch BackupJobError.alreadyRunning {
                throw ConsoleRefusal("backup-running")
            }
        }
    }

    /// The archive, streamed from disk (a backup can be larger than memory), by its exact archive name only.
    private func download(_ request: Request, _ context: Context) async throws -> Response {
        guard let name = context.parameters.get("name"), let path = backups.archivePath(named: name) else { throw HTTPError(.notFound) }
        let body = try await FileIO().loadFile(path: path, context: context)
        var headers: HTTPFields = [.contentType: "application/x-tar", .contentDisposition: "attachment; filename=\"\(name)\""]
        headers[.cacheControl] = "private, no-store"
        return Response(status: .ok, headers: headers, body: body)
    }

    static func stateName(_ state: BackupJob.State) -> String {
        switch state {
        case .running: "진행 중"
        case .finished: "완료"
        case .failed: "실패"
        case .abandoned: "중단됨"
        }
    }

    static func phaseName(_ phase: String) -> String {
        switch phase {
        case "starting": "시작하는 중"
        case "copying": "데이터베이스 복사 중"
        case "archiving": "보관 파일 쓰는 중"
        case "finished": "완료"
        case "failed": "실패"
        default: "중단됨"
        }
    }

    // MARK: - Boards

    private struct BoardRow {
        let id: Int
        let name: String
        let type: String
        let writable: Bool
        let archived: Bool
        let position: Int
        let isFirst: Bool
        let isLast: Bool
    }

    private struct BoardsContext {
        let nav: ConsoleNavLinks
        let flash: ConsoleFlash?
        let csrf: String
        let boards: [BoardRow]
    }

    private func boardsPage(_ request: Request, _ context: Context) async throws -> Response {
        let list = try await boards.list()
        let page = BoardsContext(
            nav: ConsoleNavLinks(current: "boards"),
            flash: ConsoleFlash(request, done: Self.done, errors: Self.errors),
            csrf: try csrf(context),
            boards: list.enumerated().map { index, board in
                BoardRow(
                    id: board.id, name: board.displayName, type: Self.boardTypeName(board.type), writable: board.writable,
                    archived: board.archived, position: index + 1, isFirst: index == 0, isLast: index == list.count - 1
                )
            }
        )
        return try render("admin-boards", page, title: "게시판", request, context)
    }

    private func boardAction(_ request: Request, _ context: Context) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap(Int.init), id > 0, let action = context.parameters.get("action") else {
            throw HTTPError(.notFound)
        }
        return try await act(request, context, back: "/admin/boards") { fields, actor in
            do {
                switch action {
                case "rename": _ = try await boards.rename(id: id, to: fields["name"]?.asText ?? "", by: actor); return "board-renamed"
                case "move":
                    guard let position = fields["position"]?.asText.flatMap(Int.init) else { throw ConsoleRefusal("board-invalid") }
                    _ = try await boards.move(id: id, to: position, by: actor)
                    return "board-moved"
                case "archive": _ = try await boards.setArchived(id: id, true, by: actor); return "board-archived"
                case "unarchive": _ = try await boards.setArchived(id: id, false, by: actor); return "board-unarchived"
                case "writable": _ = try await boards.setWritable(id: id, fields["writable"]?.asText == "yes", by: actor); return "board-writable"
                case "delete": _ = try await boards.delete(id: id, by: actor); return "board-deleted"
                default: throw HTTPError(.notFound)
                }
            } catch BoardAdministrationError.notFound {
                throw HTTPError(.notFound)
            } catch BoardAdministrationError.notEmpty {
                throw ConsoleRefusal("board-not-empty")
            } catch BoardAdministrationError.invalid {
                throw ConsoleRefusal("board-invalid")
            }
        }
    }

    static func boardTypeName(_ type: String) -> String {
        switch type {
        case "notice": "공지"
        case "anonymous": "익명"
        default: "일반"
        }
    }

    // MARK: - Vendors

    private struct VendorRow {
        let id: Int
        let name: String
        let accountID: Int
        let disabled: Bool
        let created: String
    }

    private struct VendorsContext {
        let nav: ConsoleNavLinks
        let flash: ConsoleFlash?
        let csrf: String
        let vendors: [VendorRow]
        let next: String?
    }

    private func vendorsPage(_ request: Request, _ context: Context) async throws -> Response {
        let after = max(0, request.uri.queryParameters.get("after").flatMap { Int($0) } ?? 0)
        let list = try await vendors.list(afterID: after, limit: 51)
        let page = VendorsContext(
            nav: ConsoleNavLinks(current: "vendors"),
            flash: ConsoleFlash(request, done: Self.done, errors: Self.errors),
            csrf: try csrf(context),
            vendors: list.prefix(50).map {
                VendorRow(id: $0.id, name: $0.name, accountID: $0.accountID, disabled: $0.disabled, created: ConsoleFormat.time($0.createdAt))
            },
            next: list.count > 50 ? "/admin/vendors?after=\(list[49].id)" : nil
        )
        return try render("admin-vendors", page, title: "판매자", request, context)
    }

    private func vendorAction(_ request: Request, _ context: Context) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap(Int.init), id > 0, let action = context.parameters.get("action") else {
            throw HTTPError(.notFound)
        }
        return try await act(request, context, back: "/admin/vendors") { _, actor in
            do {
                switch action {
                case "disable": _ = try await vendors.setDisabled(String(id), true, by: actor); return "vendor-disabled"
                case "enable": _ = try await vendors.setDisabled(String(id), false, by: actor); return "vendor-enabled"
                case "rotate-secret": _ = try await vendors.rotateSecret(String(id), by: actor); return "vendor-secret"
                default: throw HTTPError(.notFound)
                }
            } catch VendorAdministrationError.notAVendor {
                throw HTTPError(.notFound)
            }
        }
    }

    // MARK: - Shared

    /// A checked write (`ConsoleWrite`), then `action`, then back to `back` with its message.
    private func act(
        _ request: Request, _ context: Context, back: String, _ action: (FormFields, AuditActor) async throws -> String
    ) async throws -> Response {
        switch try await write.check(request, context) {
        case .failure(let refused): return refused.response
        case .success(let checked):
            do {
                return .seeOther(back + "?done=" + (try await action(checked.fields, checked.actor)))
            } catch let refusal as ConsoleRefusal {
                return .seeOther(back + "?error=" + refusal.code)
            }
        }
    }

    private func csrf(_ context: Context) throws -> String {
        guard let token = context.caller.sessionToken else { throw HTTPError(.notFound) }
        return ConsoleWriteGuard.formToken(sessionToken: token)
    }

    private func render(_ template: String, _ page: Any, title: String, _ request: Request, _ context: Context) throws -> Response {
        guard let account = context.caller.account else { throw HTTPError(.notFound) }
        return try renderer.render(template, context: page, title: title + " · 관리", current: nil, visitor: WebVisitor(account), request: request)
    }

    static var done: [String: String] { OperationsMessages.done }
    static var errors: [String: String] { OperationsMessages.errors }
}

/// The operations pages' messages, by the fixed codes the redirects carry.
enum OperationsMessages {
    static let done: [String: String] = [
        "backup-started": "백업을 시작했어요. 이 페이지에서 진행 상황을 볼 수 있어요.",
        "board-created": "게시판을 만들었어요.",
        "board-renamed": "게시판 이름을 바꿨어요.",
        "board-moved": "게시판 순서를 바꿨어요.",
        "board-archived": "게시판을 보관했어요. 메뉴에서 빠지고 글은 읽기만 할 수 있어요.",
        "board-unarchived": "게시판을 다시 메뉴에 넣었어요.",
        "board-writable": "글쓰기 권한을 바꿨어요.",
        "board-deleted": "게시판을 삭제했어요.",
        "vendor-disabled": "판매자를 막았어요. 상품을 바꿀 수 없어요.",
        "vendor-enabled": "판매자 막기를 풀었어요.",
        "vendor-secret": "새 비밀값을 만들었어요. 판매자는 마켓의 판매자 페이지에서 볼 수 있어요.",
    ]

    static let errors: [String: String] = [
        "backup-running": "다른 백업이 진행 중이에요. 끝난 뒤에 다시 해 주세요.",
        "board-not-empty": "글이 있는 게시판은 삭제할 수 없어요. 보관해 주세요.",
        "board-invalid": "게시판 이름은 1자에서 50자까지, 종류는 일반·공지·익명 중 하나예요.",
    ]
}

/// A console action refused for a reason the page explains with a fixed message code.
struct ConsoleRefusal: Error {
    let code: String
    init(_ code: String) { self.code = code }
}

/// The console's navigation for pages that are admins' only.
struct ConsoleNavLinks {
    let isAdmin = true
    let overview = false
    let accounts = false
    let audit: Bool
    let backups: Bool
    let boards: Bool
    let vendors: Bool

    init(current: String) {
        audit = current == "audit"
        backups = current == "backups"
        boards = current == "boards"
        vendors = current == "vendors"
    }
}

extension ConsoleFlash {
    init(text: String, isError: Bool) {
        self.text = text
        self.isError = isError
    }

    /// The message a page's own codes name.
    init?(_ request: Request, done: [String: String], errors: [String: String]) {
        if let code = request.uri.queryParameters.get("done"), let text = done[code] {
            self.init(text: text, isError: false)
        } else if let code = request.uri.queryParameters.get("error"), let text = errors[code] {
            self.init(text: text, isError: true)
        } else {
            return nil
        }
    }
}
