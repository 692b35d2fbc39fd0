import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import SproutServer

/// The Diary's pages: the list and the one editor (`/diary/new`, `/diary/{uuid}`), for accounts only, as the diary
/// API is. What their script does (listing, autosave, weather, share, delete) is tested in Tests/Browser/test_diary.py.
@Suite struct WebDiaryPagesTests {
    @Test(arguments: ["/diary", "/diary/new", "/diary/0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9"])
    func signedOutVisitorsSeeAPromptToLogIn(path: String) async throws {
        try await withTestApp { client, _ in
            let page = try await client.page(path)
            #expect(page.status == .ok)
            #expect(page.body.contains(#"id="sign-in-prompt""#))
            #expect(page.body.contains("일기는 로그인한 사람만 쓰고 볼 수 있어요."))
            #expect(page.body.contains(#"href="/account/login?next=\#(path)" id="prompt-login""#))
            #expect(!page.body.contains("diary.js"), "nothing to run without an account")
            #expect(page.body.contains(#"<a href="/diary" aria-current="page">"#))
        }
    }

    @Test func theListAndTheEditorCarryTheirPartsAndScript() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("diarist")
            let cookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("diarist"))
            let list = try await client.page("/diary", cookie: cookie)
            #expect(list.body.contains("<title>일기 · Sprout</title>"))
            for id in ["entry-list", "entry-row", "new-entry-link", "entry-count", "loading", "list-empty", "list-end", "retry", "sentinel"] {
                #expect(list.body.contains(#"id="\#(id)""#), "the list is missing #\(id)")
            }
            #expect(list.body.contains("/static/diary.js?v="))

            let new = try await client.page("/diary/new", cookie: cookie)
            #expect(new.body.contains("<title>새 일기 · Sprout</title>"))
            #expect(new.body.contains(#"id="diary-entry-page" aria-labelledby"#), "a new entry has no id yet")
            let edit = try await client.page("/diary/0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9", cookie: cookie)
            #expect(edit.body.contains(#"data-entry-id="0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9""#), "lowercase, as the API answers")
            for id in ["entry-text", "title-preview", "save-status", "save-error", "save-retry", "share-button", "share-feedback",
                       "delete-button", "delete-dialog", "delete-confirm", "delete-cancel", "weather", "weather-icon", "entry-date"] {
                #expect(edit.body.contains(#"id="\#(id)""#), "the editor is missing #\(id)")
            }
            #expect(edit.body.contains("진짜요?") && edit.body.contains("정말로 삭제 하시겠어요?"))
            #expect(edit.body.contains("/static/diary.js?v="))
        }
    }

    @Test(arguments: ["/diary/not-a-uuid", "/diary/1", "/diary/0F1E2D3C-4B5A-4978-8695"])
    func editorPagesNeedAUUID(path: String) async throws {
        try await withTestApp { client, _ in
            let page = try await client.page(path)
            #expect(page.status == .notFound)
        }
    }

    /// The pages are the browser's; the diary API is `/api/diary/…` and stays in the document.
    @Test func theDiaryPagesAreBrowserRoutesAndItsAPIIsNot() {
        for path in ["/diary", "/diary/new", "/diary/{id}"] {
            #expect(BrowserRoutes.contains(path), "\(path)")
        }
        #expect(!BrowserRoutes.contains("/api/diary/entries"))
        #expect(!BrowserRoutes.contains("/api/weather"))
    }
}
