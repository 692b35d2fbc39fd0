import Foundation
import SproutKit
import SproutWire
import Testing

/// `SproutError`: each status sorted, the app's texts per operation, the server's explanation of a 400, and a
/// dropped connection.
@Suite struct MarketErrorTests {
    static func status(_ code: Int, _ message: String? = nil) -> APIError {
        let body = message.map { (try? JSONEncoder().encode(MarketErrorJSON(code: code, message: $0))) ?? Data() } ?? Data()
        return .status(code: code, message: message, fieldErrors: [:], body: body)
    }

    @Test func statusesSortIntoKinds() {
        let kinds: [Int: SproutError.Kind] = [400: .invalidRequest, 401: .unauthorized, 403: .forbidden, 404: .notFound, 409: .conflict, 413: .tooLarge, 500: .other]
        for (code, kind) in kinds {
            let error = Self.status(code, "server says \(code)").sorted(for: .market)
            #expect(error.kind == kind && error.statusCode == code && error.serverMessage == "server says \(code)")
        }
        #expect(APIError.cancelled.sorted(for: .market).kind == .cancelled)
        #expect(APIError.decoding(underlying: StubError.offline).sorted(for: .market).kind == .other)
    }

    @Test func aBadRequestShowsTheServersExplanation() {
        let error = Self.status(400, "할인 가격은 가격보다 클 수 없습니다.").sorted(for: .market, during: .register)
        #expect(error.kind == .invalidRequest && error.message == "할인 가격은 가격보다 클 수 없습니다.")
        #expect(Self.status(400).sorted(for: .market, during: .register).message == "상품 등록 실패하였습니다.")
        #expect(Self.status(400).sorted(for: .market).message == "요청을 처리할 수 없습니다. 입력한 값을 확인해 주세요.")
    }

    @Test func otherFailuresShowTheAppsTextForTheOperation() {
        let texts: [SproutError.Operation: String] = [
            .loadList: "상품 리스트를 불러오는데 실패하였습니다.",
            .loadProduct: "상품을 불러오는데 실패하였습니다.",
            .register: "상품 등록 실패하였습니다.",
            .modify: "상품 수정에 실패하였습니다.",
            .lookUpDeleteTarget: "상품의 Secret을 불러오는데 실패하였습니다.",
            .delete: "상품 삭제 실패하였습니다",
        ]
        for (operation, text) in texts {
            #expect(Self.status(403, "forbidden").sorted(for: .market, during: operation).message == text)
            #expect(Self.status(500).sorted(for: .market, during: operation).message == text)
        }
        #expect(Self.status(409, "taken").sorted(for: .market, during: .vendor).message == "이미 판매자로 등록되었거나 사용 중인 판매자 이름입니다.")
        #expect(Self.status(401).sorted(for: .market, during: .vendor).message == "판매자 인증에 실패하였습니다. 다시 로그인해 주세요.")
        #expect(Self.status(404).sorted(for: .market).message == "상품을 찾을 수 없습니다.")
    }

    @Test func aDroppedConnectionAlwaysSaysSo() {
        let offline = APIError.transport(underlying: URLError(.notConnectedToInternet))
        for operation in SproutError.Operation.allCases {
            let error = offline.sorted(for: .market, during: operation)
            #expect(error.kind == .offline && error.message == "인터넷 연결에 실패하였습니다." && error.statusCode == nil)
        }
    }
}
