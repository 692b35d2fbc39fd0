import Foundation
import Hummingbird
import SproutWire

/// `POST /api/reports`: anyone signed in (a Bearer token or the web app's session) reports a post, comment,
/// product or board post they can see, with a reason.
struct ReportsController<Context: CallerRequestContext> {
    typealias SignedIn = SignedInContext<Context, ReportError>

    let reports: Reports
    var clock = WallClock.system

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.add(middleware: CallerDependentHeadersMiddleware())
        routes.group(context: SignedIn.self).post(use: file)
        return routes
    }

    @Sendable func file(_ request: Request, context: SignedIn) async throws -> Response {
        let body = try await request.jsonBody(ReportRequestJSON.self, limit: 8 * 1024, refusal: ReportError.unreadableBody)
        guard let kind = ModeratedKind(rawValue: body.kind) else {
            throw ReportError.badRequest("kind must be one of \(ModeratedKind.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard body.id > 0 else { throw ReportError.targetNotFound }
        let reason = body.reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Reports.reasonLength.contains(reason.count) else {
            throw ReportError.badRequest("reason must be 1 to \(Reports.reasonLength.upperBound) characters.")
        }
        let report = try await reports.file(kind: kind, targetID: body.id, reason: reason, by: context.account, at: clock.now.truncatedToMilliseconds)
        return try Response.json(report.json, status: .created)
    }
}
