import Foundation
import SproutWire

extension APIError {
    /// The market's error body, when this is a `.status` failure that has one: `{"code", "message"}`.
    public var marketErrorBody: MarketErrorJSON? {
        guard case .status(_, _, _, let body) = self else { return nil }
        return try? JSONDecoder().decode(MarketErrorJSON.self, from: body)
    }

    /// This failure as a market screen tells it apart, during `operation`.
    public func marketError(during operation: MarketError.Operation? = nil) -> MarketError {
        MarketError(self, during: operation)
    }
}

/// A market failure sorted into what a screen handles differently, with a Korean sentence to show: the app's
/// own alert text for the operation that failed (§9 of the contract), except that a dropped connection always
/// says "인터넷 연결에 실패하였습니다." and a 400 shows the server's explanation of the broken rule.
public struct MarketError: Error, Sendable, Equatable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// 400: a broken rule, a bad image, a wrong product secret or token; `serverMessage` says which.
        case invalidRequest
        /// 401: no `identifier` or one no vendor has (product changes), or no account (vendor calls).
        case unauthorized
        /// 403: a missing or wrong vendor secret, or someone else's product.
        case forbidden
        /// 404: the product (or the account's vendor) does not exist.
        case notFound
        /// 409: the account already is a vendor, or the vendor name is taken.
        case conflict
        /// 413: the images are larger than the server takes.
        case tooLarge
        /// No answer: no network, refused connection, timeout.
        case offline
        /// The calling task was cancelled; nothing to show.
        case cancelled
        /// Anything else: another status, an unreadable answer, a request that could not be made.
        case other
    }

    /// What was being done, which picks the app's alert text.
    public enum Operation: Sendable, Equatable, CaseIterable {
        /// `GET /healthChecker`.
        case healthCheck
        /// A page of the list or a search.
        case loadList
        /// A product's detail.
        case loadProduct
        /// Registering a product.
        case register
        /// Modifying a product.
        case modify
        /// The delete flow's lookup (v2 product secret, v3 archived path).
        case lookUpDeleteTarget
        /// The delete flow's `DELETE`.
        case delete
        /// Registering the account as a vendor, reading it, or a new vendor secret.
        case vendor
    }

    /// What went wrong.
    public let kind: Kind
    /// What was being done, when the caller said.
    public let operation: Operation?
    /// The HTTP status, when the server answered.
    public let statusCode: Int?
    /// The server's own `message`, when it sent one.
    public let serverMessage: String?
    /// A sentence to show a person.
    public let message: String

    /// Sorts `error`, which happened during `operation`.
    public init(_ error: APIError, during operation: Operation? = nil) {
        self.operation = operation
        statusCode = error.statusCode
        serverMessage = error.marketErrorBody?.message ?? {
            if case .status(_, let message?, _, _) = error { return message }
            return nil
        }()
        switch error {
        case .transport: kind = .offline
        case .cancelled: kind = .cancelled
        case .status(let code, _, _, _): kind = Self.kinds[code] ?? .other
        case .decoding, .invalidRequest: kind = .other
        }
        switch (kind, serverMessage) {
        case (.offline, _):
            message = Self.offlineMessage
        case (.invalidRequest, let detail?) where !detail.isEmpty:
            message = detail
        default:
            message = operation.flatMap(Self.message(for:)) ?? Self.message(for: kind) ?? error.message
        }
    }

    /// What any operation says when the connection failed.
    public static let offlineMessage = APIError.connectionFailedMessage

    static let kinds: [Int: Kind] = [400: .invalidRequest, 401: .unauthorized, 403: .forbidden, 404: .notFound, 409: .conflict, 413: .tooLarge]

    /// The app's alert for a failed operation; nil where the app had none.
    public static func message(for operation: Operation) -> String? {
        switch operation {
        case .loadList: "상품 리스트를 불러오는데 실패하였습니다."
        case .loadProduct: "상품을 불러오는데 실패하였습니다."
        case .register: "상품 등록 실패하였습니다."
        case .modify: "상품 수정에 실패하였습니다."
        case .lookUpDeleteTarget: "상품의 Secret을 불러오는데 실패하였습니다."
        case .delete: "상품 삭제 실패하였습니다"
        case .healthCheck, .vendor: nil
        }
    }

    /// The kit's sentence for a kind, where no operation's text applies.
    public static func message(for kind: Kind) -> String? {
        switch kind {
        case .invalidRequest: "요청을 처리할 수 없습니다. 입력한 값을 확인해 주세요."
        case .unauthorized: "판매자 인증에 실패하였습니다. 다시 로그인해 주세요."
        case .forbidden: "비밀번호가 틀렸거나 권한이 없는 상품입니다."
        case .notFound: "상품을 찾을 수 없습니다."
        case .conflict: "이미 판매자로 등록되었거나 사용 중인 판매자 이름입니다."
        case .tooLarge: "이미지의 용량이 너무 큽니다."
        case .offline: offlineMessage
        case .cancelled: "요청이 취소되었습니다."
        case .other: nil
        }
    }
}
