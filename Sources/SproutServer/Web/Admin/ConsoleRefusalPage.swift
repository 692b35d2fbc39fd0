import Foundation
import Hummingbird

/// The page a refused console write answers (a stale form, too many writes), with a way back. Shared by every
/// console write.
enum ConsoleRefusalPage {
    private struct Page {
        let heading: String
        let explanation: String
        let back: String
    }

    /// The page for a refusal of `ConsoleWriteGuard`.
    static func render(_ refusal: ConsoleWriteGuard.Refusal, back: String, renderer: WebPageRenderer, request: Request, account: Account) throws -> Response {
        let (status, heading, explanation): (HTTPResponse.Status, String, String) = switch refusal {
        case .formToken: (.forbidden, "이 양식은 더 쓸 수 없어요", "페이지를 새로 불러온 뒤 다시 해 주세요.")
        case .rateLimited:
            (.tooManyRequests, "관리 작업이 너무 많아요", "1분에 \(ConsoleWriteGuard.writesPerWindow)번까지 할 수 있어요. 잠시 뒤에 다시 해 주세요.")
        }
        return try renderer.render(
            "admin-refusal", context: Page(heading: heading, explanation: explanation, back: back),
            title: heading, current: nil, visitor: WebVisitor(account), request: request, status: status
        )
    }
}
