import Foundation
import SproutKit
import SproutWire
import Testing

/// `SproutError`: one type for every service, each sorting by its own contract, with the server's data kept.
@Suite struct SproutErrorTests {
    static func status(_ code: Int, body: String) -> APIError {
        let data = Data(body.utf8)
        let parsed = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        let fieldErrors = (parsed?["errors"] as? [String: [String]]) ?? [:]
        return .status(code: code, message: parsed?["message"] as? String, fieldErrors: fieldErrors, body: data)
    }

    @Test func laravelFieldErrorsAreKept() {
        let error = Self.status(422, body: #"{"message":"The title field is required.","errors":{"title":["The title field is required."]}}"#)
        let sorted = error.sorted(for: .todos)
        #expect(sorted.service == .todos && sorted.kind == .invalidRequest && sorted.statusCode == 422)
        #expect(sorted.fieldErrors == ["title": ["The title field is required."]])
        #expect(sorted.serverMessage == "The title field is required." && sorted.message == error.message)
    }

    @Test func eachServiceSortsTheSameStatusByItsOwnContract() {
        let conflict = Self.status(409, body: #"{"message":"taken"}"#)
        #expect(conflict.sorted(for: .market).kind == .conflict)
        #expect(conflict.sorted(for: .diary).kind == .unavailable && conflict.sorted(for: .diary).isRetryable)
        #expect(conflict.sorted(for: .board).kind == .other)
        #expect(conflict.sorted(for: .community).kind == .other)
        let offline = APIError.transport(underlying: StubError.offline)
        #expect(offline.sorted(for: .board).kind == .offline && offline.sorted(for: .community).kind == .other)
    }

    @Test func strapiIdsAreKeptAsData() {
        let body = CommunityFixtures.formError(id: "Auth.form.error.email.taken", message: "Email is already taken.")
        let sorted = SproutError(Self.status(400, body: body), service: .community)
        #expect(sorted.kind == .emailTaken && sorted.messageID == "Auth.form.error.email.taken")
        #expect(sorted.serverMessage == "Email is already taken." && sorted.message == "이미 사용 중인 이메일입니다.")
    }

    @Test func anErrorFromItsPartsTakesTheServicesSentence() {
        let storage = SproutError.storage(StubError.offline, service: .diary, during: .sync)
        #expect(storage.kind == .storage && storage.message == "기기에 일기를 저장하지 못했습니다." && storage.detail != nil)
        #expect(storage.description.hasPrefix("diary sync failed: storage"))
        let board = SproutError(service: .board, kind: .forbidden, during: .write)
        #expect(board.message == "이 게시판에는 글을 쓸 수 없습니다.")
    }
}
