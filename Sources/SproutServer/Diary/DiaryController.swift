import Foundation
import Hummingbird
import SproutWire

/// Sprout's own Diary API at `/api/diary/entries…` (docs/diary-api.md): per-account entries with client-made ids,
/// idempotent `PUT`, tombstones, paging, `since` for sync, and the versions a write replaced.
struct DiaryController<Context: CallerRequestContext> {
    /// Every route's context: the Diary answers anyone without an account 401.
    typealias SignedIn = SignedInContext<Context, DiaryError>

    let repository: SQLDiaryRepository
    /// The time of day (`buildApplication` hands in the application's).
    var clock = WallClock.system

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.add(middleware: CallerDependentHeadersMiddleware())
        let signedIn = routes.group(context: SignedIn.self)
        signedIn.get("entries", use: list)
        signedIn.get("entries/{entryId}", use: show)
        signedIn.put("entries/{entryId}", use: put)
        signedIn.delete("entries/{entryId}", use: delete)
        signedIn.get("entries/{entryId}/versions", use: versions)
        return routes
    }

    @Sendable func list(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        switch try DiaryInput.listQuery(request.queryFields) {
        case .page(let limit, let offset):
            let page = try await repository.page(accountID: account.id, limit: limit, offset: offset)
            return try Response.json(DiaryPageJSON(entries: page.entries.map(\.json), total: page.total))
        case .changes(let since, let limit):
            let changes = try await repository.changes(accountID: account.id, since: since, limit: limit, now: clock.now)
            return try Response.json(DiaryChangesJSON(
                changes: changes.changes.map(\.change),
                now: DiaryTimestamp.string(fromMilliseconds: Int64(changes.nowMilliseconds)), hasMore: changes.hasMore
            ))
        }
    }

    @Sendable func show(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        guard let entry = try await repository.entry(accountID: account.id, id: try entryID(context)), !entry.deleted else {
            throw DiaryError.notFound
        }
        return try Response.json(entry.json)
    }

    @Sendable func put(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        let id = try entryID(context)
        let body = try await request.jsonBody(DiaryWriteBody.self, limit: DiaryInput.maximumRequestBytes, refusal: DiaryError.unreadableBody)
        switch try await repository.put(accountID: account.id, id: id, write: body.write, now: clock.now) {
        case .created(let entry): return try Response.json(entry.json, status: .created)
        case .replaced(let entry): return try Response.json(entry.json)
        }
    }

    @Sendable func delete(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        let id = try entryID(context)
        let base = try DiaryInput.deleteBase(query: request.queryFields, ifMatch: request.headers[.ifMatch])
        let tombstone: DiaryEntry
        switch try await repository.delete(accountID: account.id, id: id, base: base, now: clock.now) {
        case .deleted(let entry): tombstone = entry
        case .notFound: throw DiaryError.notFound
        case .moved: throw DiaryError.movedSinceBase
        }
        return try Response.json(DiaryTombstoneJSON(
            id: tombstone.id, updatedAt: DiaryTimestamp.string(fromMilliseconds: Int64(tombstone.updatedMilliseconds))
        ))
    }

    @Sendable func versions(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        guard let versions = try await repository.versions(accountID: account.id, id: try entryID(context)) else {
            throw DiaryError.neverSeen
        }
        return try Response.json(DiaryVersionsJSON(versions: versions.map(\.json)))
    }

    private func entryID(_ context: SignedIn) throws -> String {
        try DiaryInput.entryID(context.parameters.get("entryId"))
    }
}
