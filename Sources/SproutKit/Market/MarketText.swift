/// The open-market app's own words (`shared/contracts/market-api.md` §9), for screens built on the kit.
public enum MarketText {
    /// The title of every result and error alert.
    public static let alertTitle = "알림"
    /// The button that closes an alert.
    public static let confirm = "확인"
    /// The description view's placeholder.
    public static let descriptionPlaceholder = "제품 상세 설명"
    /// The list/grid switch's items.
    public static let listSegment = "LIST"
    /// The list/grid switch's items.
    public static let gridSegment = "GRID"
    /// The edit item of a product's action sheet.
    public static let edit = "수정"
    /// The delete item of a product's action sheet.
    public static let delete = "삭제"
    /// The delete alert's question.
    public static let deleteQuestion = "정말 삭제하시겠습니까?"
    /// The delete alert's text field placeholder: the vendor secret.
    public static let secretPrompt = "암호를 입력해주세요"

    /// After a product was registered.
    public static let registered = "상품 등록하였습니다."
    /// After a product was deleted.
    public static let deleted = "상품 삭제 완료하였습니다"

    /// A stock of 0.
    public static let soldOut = "품절"

    /// The stock line of a list cell and the detail: `품절`, or `잔여수량 : {n}`.
    public static func stock(_ count: Int) -> String {
        count <= 0 ? soldOut : "잔여수량 : \(count)"
    }

    /// The detail screen's image counter: `{index}/{count}`, from 1.
    public static func imageCounter(index: Int, count: Int) -> String {
        "\(index)/\(count)"
    }
}
