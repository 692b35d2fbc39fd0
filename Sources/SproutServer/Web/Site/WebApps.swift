/// The five apps Sprout serves, as the web shell lists them: navigation and home cards.
struct WebApp: Sendable {
    let slug: String
    let name: String
    let englishName: String
    let icon: String
    let summary: String
    /// Why a signed-out visitor sees the log-in prompt on this app's pages (`sign-in-prompt.mustache`).
    let signInReason: String
    /// Whether the app's own page is for accounts only: a signed-out visitor gets the log-in prompt and no script.
    let accountOnly: Bool
    /// Stored rather than computed: Mustache reads values through `Mirror`, which sees stored properties only.
    let path: String

    init(slug: String, name: String, englishName: String, icon: String, summary: String, signInReason: String = "", accountOnly: Bool = false) {
        self.slug = slug
        self.name = name
        self.englishName = englishName
        self.icon = icon
        self.summary = summary
        self.signInReason = signInReason
        self.accountOnly = accountOnly
        self.path = "/\(slug)"
    }

    static let all: [WebApp] = [
        WebApp(slug: "todos", name: "할 일", englishName: "Todos", icon: "✓",
               summary: "REST_TODO의 할 일 목록. 추가하고, 찾고, 완료하고, 즐겨찾기로 모아 보세요."),
        WebApp(slug: "diary", name: "일기", englishName: "Diary", icon: "✎",
               summary: "그날의 날씨와 함께 남기는 하루 일기. 쓰는 대로 저장돼요.",
               signInReason: "일기는 로그인한 사람만 쓰고 볼 수 있어요. 내 일기는 나만 봐요.", accountOnly: true),
        WebApp(slug: "community", name: "커뮤니티", englishName: "Community", icon: "✉",
               summary: "글을 쓰고 댓글로 이야기를 나누는 커뮤니티. 로그인해서 함께해요.",
               signInReason: "커뮤니티의 글과 댓글은 로그인한 사람만 볼 수 있어요.", accountOnly: true),
        WebApp(slug: "market", name: "마켓", englishName: "Open Market", icon: "₩",
               summary: "상품을 올리고 둘러보는 오픈 마켓.",
               signInReason: "판매자 등록과 상품 등록·수정은 로그인한 사람만 할 수 있어요. 상품 목록은 로그인하지 않아도 볼 수 있어요."),
        WebApp(slug: "board", name: "게시판", englishName: "Board", icon: "☰",
               summary: "공지사항, 자유게시판, 익명게시판. 글을 읽고, 찾고, 써 보세요.",
               signInReason: "게시판의 글은 로그인한 사람만 읽고 쓸 수 있어요.", accountOnly: true),
    ]
}
