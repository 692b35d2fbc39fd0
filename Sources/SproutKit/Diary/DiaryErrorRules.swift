/// How the Diary sorts a failure: by status, with 409, 429 and 5xx as "cannot answer now" (`isRetryable`), and
/// a sentence for every kind; the server's own `{"message"}` (English) is kept in `serverMessage`.
extension SproutError {
    static func diaryKind(of error: APIError) -> Kind {
        switch httpKind(of: error) {
        case .conflict, .rateLimited: .unavailable  // tried again later, as a server that does not answer
        case .forbidden: .other
        case let kind: kind
        }
    }

    /// The Diary's sentence for a failure of `kind` during `operation`.
    public static func diaryMessage(for kind: Kind, during operation: Operation? = nil) -> String {
        switch kind {
        case .offline: return APIError.connectionFailedMessage
        case .cancelled: return "요청이 취소되었습니다."
        case .unauthorized: return "로그인이 필요합니다. 다시 로그인해 주세요."
        case .notFound: return "삭제되었거나 없는 일기입니다."
        case .tooLarge: return "일기가 너무 깁니다."
        case .storage: return "기기에 일기를 저장하지 못했습니다."
        case .invalidRequest where operation == .save || operation == .sync: return "일기의 제목과 내용을 확인해 주세요."
        case .unavailable where operation == .weather: return "날씨 정보를 가져오지 못했습니다."
        case .unavailable: return "서버가 잠시 응답하지 않습니다. 잠시 후 다시 시도해 주세요."
        default:
            switch operation {
            case .save: return "일기를 저장하지 못했습니다."
            case .delete: return "일기를 삭제하지 못했습니다."
            case .versions: return "이전 기록을 불러오지 못했습니다."
            case .weather: return "날씨 정보를 가져오지 못했습니다."
            case .sync: return "일기를 동기화하지 못했습니다."
            default: return "일기를 불러오지 못했습니다."
            }
        }
    }
}
