import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutWire

/// What can be reported to the moderators.
public enum ReportableKind: String, Sendable, CaseIterable, Codable {
    /// A community post.
    case post
    /// A community comment.
    case comment
    /// A market product.
    case product
    /// A board post.
    case boardPost = "board-post"
}

/// Reporting an item of any app to Sprout's moderators (`POST /api/reports`, `docs/moderation.md`).
///
/// Every call needs the account's Bearer token: use `Session.reports`, or any `APIClient` whose token provider
/// supplies it. Reporting an item again while one's report of it is open answers that same report.
public struct ReportsClient: Sendable {
    /// The client requests go through.
    public let client: APIClient

    /// A reason is 1 to this many characters (after trimming).
    public static let maximumReasonLength = 1_000

    /// Reports through `client`, with whatever token its provider supplies.
    public init(client: APIClient) {
        self.client = client
    }

    /// Whether `reason` would be taken: something besides white space, at most `maximumReasonLength` characters.
    public static func isAcceptableReason(_ reason: String) -> Bool {
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        return !trimmed.isEmpty && trimmed.count <= maximumReasonLength
    }

    /// Files the report (201). The reason is checked here first, so an empty or long one sends nothing.
    /// - Throws: `.invalidRequest` for a reason the server would refuse, `.unauthorized` without an account,
    ///   `.notFound` for an item that is gone or hidden from the caller, `.rateLimited` after 30 an hour.
    @discardableResult
    public func report(_ kind: ReportableKind, id: Int, reason: String) async throws(SproutError) -> ReportJSON {
        guard Self.isAcceptableReason(reason) else {
            throw SproutError(service: .reports, kind: .invalidRequest, during: .report)
        }
        let body = ReportRequestJSON(kind: kind.rawValue, id: id, reason: reason.trimmingCharacters(in: .whitespacesAndNewlines))
        do {
            return try await client.send(Request<ReportJSON>(method: .post, path: "/api/reports", body: .encodable(body)))
        } catch {
            throw SproutError(error, service: .reports, during: .report)
        }
    }
}

extension SproutError {
    /// The sentence for a failed report.
    static func reportMessage(for kind: Kind) -> String {
        switch kind {
        case .offline: APIError.connectionFailedMessage
        case .cancelled: "요청이 취소되었습니다."
        case .invalidRequest: "신고 사유를 1자 이상 1,000자 이하로 적어 주세요."
        case .unauthorized: "로그인한 뒤에 신고할 수 있습니다."
        case .notFound: "삭제되었거나 볼 수 없는 글입니다."
        case .rateLimited: "신고가 너무 많습니다. 잠시 후 다시 시도해 주세요."
        default: "신고하지 못했습니다."
        }
    }
}

extension Session {
    /// Reporting to the moderators as this session.
    public var reports: ReportsClient { ReportsClient(client: apiClient) }
}
