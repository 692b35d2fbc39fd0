import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import SproutServer

/// The Board's pages: the board (menu, posts, search), a post, and the form for writing and editing, all for
/// accounts only, as the board API is. What their script does (listing, endless scrolling, search and its history,
/// writing, editing, deleting) is tested in Tests/Browser/test_board.py.
@Suite struct WebBoardPagesTests {
    @Test(arguments: ["/board", "/board/2/posts/7", "/board/2/write", "/board/2/posts/7/edit"])
    func signedOutVisitorsSeeAPromptToLogIn(path: String) async throws {
        try await withTestApp { client, _ in
            let page = try await client.page(path)
            #expect(page.status == .ok)
            #expect(page.body.contains(#"id="sign-in-prompt""#))
            #expect(page.body.contains("게시판 <span class=\"app-card-english\">Board</span>"))
            #expect(page.body.contains("게시판의 글은 로그인한 사람만 읽고 쓸 수 있어요."))
            #expect(page.body.contains(#"href="/account/login?next=\#(path)" id="prompt-login""#))
            #expect(!page.body.contains("board.js"), "nothing to run without an account")
            #expect(page.body.contains(#"<a href="/board" aria-current="page">"#))
        }
    }

    @Test func theBoardPageHasItsMenuSearchHistoryAndEndlessList() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("reader")
            let cookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("reader"))
            let page = try await client.page("/board", cookie: cookie)
            #expect(page.status == .ok)
            #expect(page.body.contains("<title>게시판 · Sprout</title>"))
            for id in ["board-menu", "board-menu-item", "write-link", "search-form", "search-target", "search-query", "search-clear",
                       "search-history", "history-list", "history-empty", "history-clear", "history-row", "post-list", "post-row",
                       "loading", "list-empty", "list-end", "retry", "sentinel"] {
                #expect(page.body.contains(#"id="\#(id)""#), "the board page is missing #\(id)")
            }
            for target in [#"<option value="all">전체</option>"#, #"<option value="title">제목</option>"#,
                           #"<option value="contents">내용</option>"#, #"<option value="writer">작성자</option>"#] {
                #expect(page.body.contains(target))
            }
            #expect(page.body.contains("게시글의 제목, 내용 또는 작성자에 포함된 단어 또는 문장을 검색해주세요."))
            #expect(page.body.contains(##"<a class="button" href="#" id="write-link" hidden>글쓰기</a>"##), "shown for writable boards only")
            #expect(page.body.contains("/static/board.js?v="))
            #expect(!page.body.contains(#"id="sign-in-prompt""#))
        }
    }

    @Test func thePostPageAndTheFormCarryTheirIDs() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("writer")
            let cookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("writer"))
            let post = try await client.page("/board/3/posts/41", cookie: cookie)
            #expect(post.body.contains(#"data-board-id="3" data-post-id="41""#))
            for id in ["post-title", "post-badges", "post-writer", "post-date", "post-views", "post-contents", "post-actions",
                       "post-edit", "post-delete", "delete-dialog", "delete-confirm", "delete-cancel"] {
                #expect(post.body.contains(#"id="\#(id)""#), "the post page is missing #\(id)")
            }
            #expect(post.body.contains("게시글을 삭제하시겠습니까?"))
            #expect(post.body.contains("/static/board.js?v="))

            let write = try await client.page("/board/2/write", cookie: cookie)
            #expect(write.body.contains("<title>글쓰기 · Sprout</title>"))
            #expect(write.body.contains(#"<form class="post-form board-form" id="board-form" data-board-id="2" novalidate>"#))
            #expect(write.body.contains(#"id="board-submit" disabled>등록</button>"#))
            #expect(write.body.contains(#"href="/board">취소</a>"#))

            #expect(!write.body.contains("data-reply-to") && !write.body.contains(#"id="reply-to""#))
            #expect(post.body.contains(#"id="post-reply""#) && post.body.contains(#"id="post-parent-link""#))

            let reply = try await client.page("/board/2/write?reply=41", cookie: cookie)
            #expect(reply.body.contains("<title>답글 쓰기 · Sprout</title>"))
            #expect(reply.body.contains(#"data-board-id="2" data-reply-to="41" novalidate>"#))
            #expect(reply.body.contains(#"href="/board/2/posts/41">취소</a>"#), "cancelling a reply goes back to its post")
            #expect(reply.body.contains(#"<a id="reply-to-link" href="/board/2/posts/41">"#))

            let edit = try await client.page("/board/2/posts/9/edit", cookie: cookie)
            #expect(edit.body.contains("<title>글 수정 · Sprout</title>"))
            #expect(edit.body.contains(#"data-board-id="2" data-post-id="9" novalidate>"#))
            #expect(edit.body.contains(#"id="board-submit" disabled>수정 완료</button>"#))
            #expect(edit.body.contains(#"href="/board/2/posts/9">취소</a>"#))
            for id in ["board-title-input", "board-contents-input", "form-error"] {
                #expect(edit.body.contains(#"id="\#(id)""#), "the form is missing #\(id)")
            }
        }
    }

    @Test(arguments: ["/board/0/posts/1", "/board/x/posts/1", "/board/2/posts/-1", "/board/2/posts/abc/edit", "/board/0/write",
                      "/board/2/write?reply=0", "/board/2/write?reply=x", "/board/2/write?reply=-4"])
    func boardPagesNeedPositiveIDs(path: String) async throws {
        try await withTestApp { client, _ in
            let page = try await client.page(path)
            #expect(page.status == .notFound)
        }
    }

    /// The pages are the browser's; the board API is `/api/v2/boards…` and stays in the document.
    @Test func theBoardPagesAreBrowserRoutesAndItsAPIIsNot() {
        for path in ["/board", "/board/{boardId}/posts/{postId}", "/board/{boardId}/posts/{postId}/edit", "/board/{boardId}/write"] {
            #expect(BrowserRoutes.contains(path), "\(path)")
        }
        #expect(!BrowserRoutes.contains("/api/v2/boards"))
        #expect(!BrowserRoutes.contains("/api/v2/boards/{boardId}/posts"))
    }
}
