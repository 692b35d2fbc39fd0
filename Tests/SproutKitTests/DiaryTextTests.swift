import Foundation
import SproutKit
import Testing

/// The editor's text split into title and body as the original app did (§C.2), and the texts made from an entry.
@Suite struct DiaryTextTests {
    @Test func theTitleIsTheFirstLineAndTheBodyEverythingAfterIt() {
        let parts = DiaryText.split("제목\n첫 줄\n\n둘째 문단\n")
        #expect(parts?.title == "제목" && parts?.body == "첫 줄\n\n둘째 문단\n")
    }

    @Test func aTextWithoutALineBreakIsATitleWithAnEmptyBody() {
        let parts = DiaryText.split("제목만")
        #expect(parts?.title == "제목만" && parts?.body == "")
    }

    @Test func onlyTheFirstLineBreakSplits() {
        #expect(DiaryText.split("a\n")?.body == "")
        #expect(DiaryText.split("a\n\nb")?.body == "\nb")
        #expect(DiaryText.split("a\r\nb\r\nc").map { [$0.title, $0.body] } == ["a", "b\r\nc"])
        #expect(DiaryText.split("a\rb").map { [$0.title, $0.body] } == ["a", "b"])
    }

    @Test func anEmptyOrBlankFirstLineIsNothingToSave() {
        #expect(DiaryText.split("") == nil)
        #expect(DiaryText.split("\n본문만") == nil)
        #expect(DiaryText.split("   \n본문") == nil)
        #expect(DiaryText.split("\t ") == nil)
        #expect(DiaryText.split("  제목  \n")?.title == "  제목  ")
    }

    @Test func theEditorTextJoinsTitleAndBodyWithOneLineBreak() throws {
        #expect(DiaryText.editorText(title: "제목", body: "본문") == "제목\n본문")
        #expect(DiaryText.editorText(title: "제목", body: "") == "제목")
        for text in ["제목\n본문", "제목", "제목\n\n둘째\n"] {
            let parts = try #require(DiaryText.split(text))
            #expect(DiaryText.editorText(title: parts.title, body: parts.body) == text)
        }
    }

    @Test func theShareTextPutsABlankLineBetweenTitleAndBody() {
        #expect(DiaryText.shareText(title: "제목", body: "본문") == "제목\n\n본문")
        #expect(DiaryText.shareText(title: "제목", body: "") == "제목")
        let entry = DiaryEntry(id: UUID(), title: "제목", body: "\n\n첫 문단\n둘째", createdAt: Date())
        #expect(entry.preview == "첫 문단" && entry.editorText == "제목\n\n\n첫 문단\n둘째")
    }
}
