import Foundation
import SproutWire

/// The board app's own words (`shared/contracts/community-board-diary-api.md` §B.6), for screens built on the kit.
public enum BoardText {
    /// A board with no posts.
    public static let noPosts = "등록된 게시글이 없습니다."
    /// The search screen with no text and no history.
    public static let searchHint = "게시글의 제목, 내용 또는 작성자에 포함된 단어 또는 문장을 검색해주세요."
    /// A search that found nothing (the app's text, with its line break and space).
    public static let noResults = "검색 결과가 없습니다.\n 다른 검색어를 입력해 보세요."
    /// The notice badge.
    public static let noticeBadge = "공지"
    /// The reply badge.
    public static let replyBadge = "Re"
    /// How an anonymous board shows every writer.
    public static let anonymousWriter = BoardWriterJSON.anonymous.displayName

    /// The search field's placeholder: `{board name}에서 검색`.
    public static func searchPlaceholder(boardName: String) -> String {
        "\(boardName)에서 검색"
    }

    /// A target row of the search screen: `전체 : text`, `제목 : text`, …
    public static func targetRow(_ target: BoardSearchTarget, text: String) -> String {
        "\(target.label) : \(text)"
    }

    /// A row's date, `yy-MM-dd` in `timeZone` (the device's unless given).
    public static func rowDate(_ date: Date, timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        func twoDigits(_ number: Int?) -> String {
            let number = (number ?? 0) % 100
            return number < 10 ? "0\(number)" : "\(number)"
        }
        return "\(twoDigits(parts.year))-\(twoDigits(parts.month))-\(twoDigits(parts.day))"
    }
}
