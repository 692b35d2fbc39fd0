import Foundation
import SproutWire

extension APIError {
    /// The market's error body, when this is a `.status` failure that has one: `{"code", "message"}`.
    public var marketErrorBody: MarketErrorJSON? {
        guard case .status(_, _, _, let body) = self else { return nil }
        return try? JSONDecoder().decode(MarketErrorJSON.self, from: body)
    }
}

/// How the market sorts a failure: the app's own alert text for the operation that failed (§9 of the contract),
/// except that a dropped connection always says `인터넷 연결에 실패하였습니다.` and a 400 shows the server's
/// explanation of the broken rule.
extension SproutError {
    static func marketKind(of error: APIError) -> Kind {
        switch error {
        case .transport: return .offline
        case .cancelled: return .cancelled
        case .status(let code, _, _, _):
            let kinds: [Int: Kind] = [400: .invalidRequest, 401: .unauthorized, 403: .forbidden, 404: .notFound, 409: .conflict, 413: .tooLarge]
            return kinds[code] ?? .other
        case .decoding, .invalidRequest: return .other
        }
    }

    static func marketMessage(for kind: Kind, during operation: Operation?, serverMessage: String?) -> String? {
        switch (kind, serverMessage) {
        case (.offline, _): APIError.connectionFailedMessage
        case (.invalidRequest, let detail?) where !detail.isEmpty: detail
        default: operation.flatMap(marketMessage(for:)) ?? marketMessage(for: kind)
        }
    }

    /// The market app's alert for a failed operation; nil where the app had none (or the operation is not the
    /// market's).
    public static func marketMessage(for operation: Operation) -> String? {
        switch operation {
        case .loadList: "상품 리스트를 불러오는데 실패하였습니다."
        case .loadProduct: "상품을 불러오는데 실패하였습니다."
        case .register: "상품 등록 실패하였습니다."
        case .modify: "상품 수정에 실패하였습니다."
        case .lookUpDeleteTarget: "상품의 Secret을 불러오는데 실패하였습니다."
        case .delete: "상품 삭제 실패하였습니다"
        default: nil
        }
    }

    /// The kit's market sentence for a kind, where no operation's text applies.
    public static func marketMessage(for kind: Kind) -> String? {
        switch kind {
        case .invalidRequest: "요청을 처리할 수 없습니다. 입력한 값을 확인해 주세요."
        case .unauthorized: "판매자 인증에 실패하였습니다. 다시 로그인해 주세요."
        case .forbidden: "비밀번호가 틀렸거나 권한이 없는 상품입니다."
        case .notFound: "상품을 찾을 수 없습니다."
        case .conflict: "이미 판매자로 등록되었거나 사용 중인 판매자 이름입니다."
        case .tooLarge: "이미지의 용량이 너무 큽니다."
        case .offline: APIError.connectionFailedMessage
        case .cancelled: "요청이 취소되었습니다."
        default: nil
        }
    }
}
