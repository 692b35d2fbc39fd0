"""The Mail Plug Board in the browser: the log-in prompt, the board menu (the last board reopened), posts with their
badges and endless scrolling 30 at a time, search by target with highlighted matches and recent searches, a post
(a view counted; edit and delete for its writer only, deleting after a confirmation; a reply with "Re: " and the Re
badge), the one form for writing, replying and editing, and the last board and recent searches kept per account."""

import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from helpers import fill, is_shown, log_in, log_out, screenshot, submit_enabled, text_of, wait

BOARDS = ["공지사항", "자유게시판", "익명게시판"]
NO_RESULTS = "검색 결과가 없습니다.\n다른 검색어를 입력해 보세요."
NO_HISTORY = "게시글의 제목, 내용 또는 작성자에 포함된 단어 또는 문장을 검색해주세요."


# ---- Helpers -----------------------------------------------------------------------------------------

def settle_list(driver):
    wait(driver, lambda d: d.find_element(By.ID, "post-list").get_attribute("aria-busy") == "false"
         and not d.find_element(By.ID, "loading").is_displayed()
         and d.find_elements(By.CSS_SELECTOR, ".board-menu-button"), message="the board never finished loading")


def settle_post(driver):
    wait(driver, lambda d: not d.find_element(By.ID, "loading").is_displayed(), message="the post never loaded")


def settle_form(driver):
    wait(driver, lambda d: d.find_element(By.ID, "board-form").get_attribute("aria-busy") == "false"
         or is_shown(d, "form-error"), message="the form never finished loading")


def menu(driver):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#board-menu .board-menu-name")]


def selected_board(driver):
    return driver.execute_script(
        "const b = document.querySelector('#board-menu .board-menu-button[aria-pressed=\"true\"]');"
        " return b ? b.querySelector('.board-menu-name').textContent : null")


def open_board(driver, name):
    for button in driver.find_elements(By.CSS_SELECTOR, "#board-menu .board-menu-button"):
        if button.find_element(By.CSS_SELECTOR, ".board-menu-name").text == name:
            button.click()
            wait(driver, lambda d: selected_board(d) == name)
            settle_list(driver)
            return
    raise AssertionError(f"no board {name!r} in {menu(driver)}")


def row_ids(driver):
    return [int(i) for i in driver.execute_script(
        "return [...document.querySelectorAll('#post-list li.board-post')].map(e => e.dataset.id)")]


def row(driver, post_id):
    return driver.find_element(By.CSS_SELECTOR, f'#post-list li.board-post[data-id="{post_id}"]')


def badges(element):
    return [b.text for b in element.find_elements(By.CSS_SELECTOR, ".board-badges .board-badge")]


def marks(element, selector):
    return [m.text for m in element.find_elements(By.CSS_SELECTOR, f"{selector} mark")]


def search(driver, text, target="all"):
    Select(driver.find_element(By.ID, "search-target")).select_by_value(target)
    settle_list(driver)
    field = fill(driver, "search-query", text)
    field.send_keys(Keys.ENTER)
    wait(driver, lambda d: d.find_element(By.ID, "post-count").text.startswith(
        {"all": "전체", "title": "제목", "contents": "내용", "writer": "작성자"}[target] + " 검색 결과"))
    settle_list(driver)


def history(driver):
    """The recent searches shown, as (target label, text) pairs, top first."""
    return [(item.find_element(By.CSS_SELECTOR, ".search-history-target").text,
             item.find_element(By.CSS_SELECTOR, ".search-history-text").text)
            for item in driver.find_elements(By.CSS_SELECTOR, "#history-list .search-history-item")]


def history_item(driver, label, text):
    for item in driver.find_elements(By.CSS_SELECTOR, "#history-list .search-history-item"):
        if (item.find_element(By.CSS_SELECTOR, ".search-history-target").text,
                item.find_element(By.CSS_SELECTOR, ".search-history-text").text) == (label, text):
            return item
    raise AssertionError(f"no recent search {(label, text)} in {history(driver)}")


def local_day(driver):
    """Today as yy-MM-dd in the browser's time zone."""
    return driver.execute_script(
        "const d = new Date(), p = (n) => String(n).padStart(2, '0');"
        " return `${p(d.getFullYear() % 100)}-${p(d.getMonth() + 1)}-${p(d.getDate())}`")


def scroll_to_bottom(driver):
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")


def board_requests(driver):
    return [name for name in driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
            if re.search(r"/api/v2/boards/\d+/posts\?", name)]


def list_requests(driver):
    """The list's page requests (the pinned block above it asks `?pinned=true` once per board shown)."""
    return [name for name in board_requests(driver) if "pinned=true" not in name]


def wait_for_saved_post(driver, server, board_id) -> int:
    """After sending the form: waits for the new post's page, and returns the post's id."""
    wait(driver, lambda d: re.fullmatch(re.escape(server.url(f"/board/{board_id}/posts/")) + r"\d+", d.current_url))
    settle_post(driver)
    return int(driver.current_url.rsplit("/", 1)[1])


def signed_in_on_board(driver, server, username, board=None):
    """Logs in from the log-in page straight back to /board, and opens `board` when one is named."""
    log_in(driver, server, username, next_path="/board")
    settle_list(driver)
    if board:
        open_board(driver, board)


def reader(server, username="reader"):
    account = server.community.sign_up(username)
    return account, server.board.boards(account)


# ---- Signed out --------------------------------------------------------------------------------------

def test_signed_out_visitors_get_the_log_in_prompt_on_every_board_page(browser, server):
    for path in ["/board", "/board/2/posts/1", "/board/2/write", "/board/2/posts/1/edit"]:
        browser.get(server.url(path))
        assert is_shown(browser, "sign-in-prompt"), path
        assert "게시판의 글은 로그인한 사람만 읽고 쓸 수 있어요." in text_of(browser, "sign-in-prompt")
        assert not browser.find_elements(By.ID, "board-page") and not browser.find_elements(By.ID, "board-form")
    server.community.sign_up("returning")
    browser.get(server.url("/board"))
    browser.find_element(By.ID, "prompt-login").click()
    wait(browser, lambda d: "/account/login?next=/board" in d.current_url)
    fill(browser, "login-identifier", "returning")
    fill(browser, "login-password", "password1")
    browser.find_element(By.ID, "login-submit").click()
    wait(browser, lambda d: d.current_url == server.url("/board"))
    settle_list(browser)
    assert menu(browser) == BOARDS


# ---- The menu ----------------------------------------------------------------------------------------

def test_the_menu_lists_the_boards_and_the_last_board_reopens(browser, server):
    reader(server)
    signed_in_on_board(browser, server, "reader")
    assert menu(browser) == BOARDS
    # The first visit opens the first board: the notices, read-only, with no posts yet.
    assert selected_board(browser) == "공지사항"
    assert text_of(browser, "board-name") == "공지사항"
    assert browser.find_element(By.ID, "search-query").get_attribute("placeholder") == "공지사항에서 검색"
    assert not is_shown(browser, "write-link"), "no 글쓰기 in a board that is not writable"
    assert text_of(browser, "list-empty") == "등록된 게시글이 없습니다."
    assert text_of(browser, "post-count") == "게시글 0개"

    open_board(browser, "자유게시판")
    assert browser.find_element(By.ID, "search-query").get_attribute("placeholder") == "자유게시판에서 검색"
    assert is_shown(browser, "write-link")
    assert browser.find_element(By.ID, "write-link").get_attribute("pathname") == "/board/2/write"

    browser.refresh()
    settle_list(browser)
    assert selected_board(browser) == "자유게시판", "the board opened last reopens"
    assert text_of(browser, "board-name") == "자유게시판"
    browser.get(server.url("/"))
    browser.get(server.url("/board"))
    settle_list(browser)
    assert selected_board(browser) == "자유게시판"

    # A board that is gone (archived, say) falls back to the first.
    browser.execute_script("localStorage.setItem('sprout.board.last@' + Sprout.me.id, '999')")
    browser.refresh()
    settle_list(browser)
    assert selected_board(browser) == "공지사항"

    # The notice board's form says it cannot be written in, and cannot be sent.
    browser.get(server.url("/board/1/write"))
    settle_form(browser)
    assert text_of(browser, "form-error") == "이 게시판에는 글을 쓸 수 없습니다."
    assert not submit_enabled(browser, "board-submit")


# ---- Writing, editing, deleting ----------------------------------------------------------------------

def test_write_edit_and_delete_a_post(browser, server):
    account, boards = reader(server, "writer")
    other = server.community.sign_up("neighbour")
    older = server.board.write(other, boards["자유게시판"], "먼저 쓴 글", "이웃이 먼저 썼어요")
    signed_in_on_board(browser, server, "writer", "자유게시판")
    assert row_ids(browser) == [older["postId"]]

    browser.find_element(By.ID, "write-link").click()
    wait(browser, lambda d: d.current_url == server.url("/board/2/write"))
    settle_form(browser)
    assert text_of(browser, "write-title") == "글쓰기 자유게시판"
    assert not submit_enabled(browser, "board-submit")
    fill(browser, "board-title-input", "주간 회의 안내")
    assert not submit_enabled(browser, "board-submit"), "a title alone is not a post"
    fill(browser, "board-contents-input", "   ")
    assert not submit_enabled(browser, "board-submit"), "white space is no contents"
    fill(browser, "board-contents-input", "월요일 10시에 모여요.\n회의실은 3층입니다.")
    wait(browser, lambda d: submit_enabled(d, "board-submit"))
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "board-form")
    browser.find_element(By.ID, "board-submit").click()

    post_id = wait_for_saved_post(browser, server, 2)
    assert text_of(browser, "flash") == "게시글을 등록했습니다."
    assert text_of(browser, "post-title-text") == "주간 회의 안내"
    assert text_of(browser, "post-contents") == "월요일 10시에 모여요.\n회의실은 3층입니다."
    assert text_of(browser, "post-writer") == "writer"
    assert text_of(browser, "post-board") == "자유게시판"
    assert re.fullmatch(re.escape(local_day(browser)) + r" \d{2}:\d{2}", text_of(browser, "post-date"))
    assert text_of(browser, "post-views") == "조회 1", "opening the post counted a view"
    assert is_shown(browser, "post-actions")
    browser.refresh()
    settle_post(browser)
    assert text_of(browser, "post-views") == "조회 2"
    saved = server.board.post(account, 2, post_id)
    assert (saved["title"], saved["contents"], saved["isOwner"]) == ("주간 회의 안내", "월요일 10시에 모여요.\n회의실은 3층입니다.", True)

    # Back in the list it is first, with the new badge.
    browser.find_element(By.LINK_TEXT, "← 목록으로").click()
    wait(browser, lambda d: d.current_url == server.url("/board"))
    settle_list(browser)
    assert selected_board(browser) == "자유게시판"
    assert row_ids(browser) == [post_id, older["postId"]]
    first = row(browser, post_id)
    assert first.find_element(By.CSS_SELECTOR, ".board-post-title").text == "주간 회의 안내"
    assert first.find_element(By.CSS_SELECTOR, ".board-badge-new").is_displayed()
    assert first.find_element(By.CSS_SELECTOR, ".board-post-writer").text == "writer"
    assert first.find_element(By.CSS_SELECTOR, ".board-post-date").text == local_day(browser)
    assert first.find_element(By.CSS_SELECTOR, ".board-post-views").text == "조회 3"

    # Edit: the same form, filled in.
    first.find_element(By.CSS_SELECTOR, "a").click()
    settle_post(browser)
    browser.find_element(By.ID, "post-edit").click()
    wait(browser, lambda d: d.current_url == server.url(f"/board/2/posts/{post_id}/edit"))
    settle_form(browser)
    assert text_of(browser, "write-title") == "글 수정 자유게시판"
    assert browser.find_element(By.ID, "board-title-input").get_attribute("value") == "주간 회의 안내"
    assert browser.find_element(By.ID, "board-contents-input").get_attribute("value") == "월요일 10시에 모여요.\n회의실은 3층입니다."
    fill(browser, "board-title-input", "주간 회의 안내 (장소 변경)")
    fill(browser, "board-contents-input", "월요일 10시에 모여요.\n회의실은 5층으로 바뀌었어요.")
    browser.find_element(By.ID, "board-submit").click()
    wait(browser, lambda d: d.current_url == server.url(f"/board/2/posts/{post_id}"))
    settle_post(browser)
    assert text_of(browser, "flash") == "게시글을 수정했습니다."
    assert text_of(browser, "post-title-text") == "주간 회의 안내 (장소 변경)"
    assert text_of(browser, "post-contents") == "월요일 10시에 모여요.\n회의실은 5층으로 바뀌었어요."
    assert server.board.post(account, 2, post_id)["title"] == "주간 회의 안내 (장소 변경)"
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "board-post")

    # Delete asks first; cancelling keeps the post.
    browser.find_element(By.ID, "post-delete").click()
    dialog = browser.find_element(By.ID, "delete-dialog")
    wait(browser, lambda d: dialog.is_displayed())
    assert text_of(browser, "delete-dialog-title") == "게시글을 삭제하시겠습니까?"
    screenshot(browser, "board-delete-dialog")
    browser.find_element(By.ID, "delete-cancel").click()
    wait(browser, lambda d: not dialog.is_displayed())
    assert server.board.post(account, 2, post_id) is not None

    browser.find_element(By.ID, "post-delete").click()
    wait(browser, lambda d: dialog.is_displayed())
    browser.find_element(By.ID, "delete-confirm").click()
    wait(browser, lambda d: d.current_url == server.url("/board"))
    assert text_of(browser, "flash") == "게시글을 삭제했습니다."
    settle_list(browser)
    assert row_ids(browser) == [older["postId"]]
    assert server.board.post(account, 2, post_id) is None


def test_someone_elses_post_has_no_edit_or_delete_and_the_server_message_is_shown(browser, server):
    visitor, boards = reader(server, "visitor")
    owner = server.community.sign_up("owner")
    post = server.board.write(owner, boards["자유게시판"], "주인이 쓴 글", "주인만 고칠 수 있어요")
    log_in(browser, server, "visitor", next_path=f"/board/2/posts/{post['postId']}")
    settle_post(browser)
    assert text_of(browser, "post-title-text") == "주인이 쓴 글"
    assert text_of(browser, "post-writer") == "owner"
    assert not is_shown(browser, "post-actions")

    browser.get(server.url(f"/board/2/posts/{post['postId']}/edit"))
    settle_form(browser)
    assert text_of(browser, "form-error") == "내 글만 수정할 수 있습니다."
    assert not submit_enabled(browser, "board-submit")

    # A post gone meanwhile: the server's answer is shown, and the form can be sent again.
    mine = server.board.write(visitor, boards["자유게시판"], "곧 사라질 글", "내용")
    browser.get(server.url(f"/board/2/posts/{mine['postId']}/edit"))
    settle_form(browser)
    status, _ = server.board.request("DELETE", f"/2/posts/{mine['postId']}", token=visitor["token"])
    assert status == 204
    fill(browser, "board-title-input", "고친 제목")
    browser.find_element(By.ID, "board-submit").click()
    wait(browser, lambda d: is_shown(d, "form-error"))
    # The server's answer in Korean (site.js's api() translates every refusal; "No post in this board has this id.").
    assert text_of(browser, "form-error") == "게시글을 수정하지 못했습니다. 게시글을 찾을 수 없어요. 삭제되었을 수 있어요."
    assert submit_enabled(browser, "board-submit")

    # Opened again, the post that is gone gets the site's not-found panel (Sprout.notFound), as a malformed id does.
    browser.get(server.url(f"/board/2/posts/{mine['postId']}"))
    wait(browser, lambda d: is_shown(d, "error-page"))
    assert text_of(browser, "error-explanation") == "게시글을 찾을 수 없습니다. 삭제되었을 수 있어요."
    assert browser.title == "페이지를 찾을 수 없어요 · Sprout"


# ---- Badges ------------------------------------------------------------------------------------------

# Sprout's boards have no attachments, and every seeded post is new: to see the clip and a row without the new
# badge, this rewrites the answer for one title on its way to the page.
REWRITE_ANSWER = """
    const original = window.fetch;
    window.fetch = async (...args) => {
        const response = await original(...args);
        if (!String(args[0]).includes('/posts?')) return response;
        const body = await response.clone().json();
        for (const post of body.value || []) {
            if (post.title === '첨부가 있는 오래된 글') { post.attachmentsCount = 2; post.isNewPost = false; }
        }
        return new Response(JSON.stringify(body), {status: response.status, headers: response.headers});
    };"""


@pytest.mark.board_posts(51)
def test_badges_for_notices_replies_new_posts_attachments_and_the_anonymous_board(browser, server):
    account, boards = reader(server, "badger")
    parent = server.board.write(account, boards["자유게시판"], "질문 있어요", "답 좀 주세요")
    reply = server.board.write(account, boards["자유게시판"], "답변입니다", "이렇게 하세요", parent=parent["postId"])
    clip = server.board.write(account, boards["자유게시판"], "첨부가 있는 오래된 글", "첨부")
    script = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": REWRITE_ANSWER})
    try:
        signed_in_on_board(browser, server, "badger")
        # Seeded notices (posts 0 and 50 of the seed) carry 공지.
        assert selected_board(browser) == "공지사항"
        notices = browser.find_elements(By.CSS_SELECTOR, "#post-list li.board-post")
        assert len(notices) == 2
        assert all(badges(n) == ["공지"] for n in notices)
        assert all(n.find_element(By.CSS_SELECTOR, ".board-badge-new").is_displayed() for n in notices)

        open_board(browser, "자유게시판")
        assert row_ids(browser)[:3] == [clip["postId"], reply["postId"], parent["postId"]]
        assert badges(row(browser, reply["postId"])) == ["Re"]
        assert badges(row(browser, parent["postId"])) == []
        assert row(browser, parent["postId"]).find_element(By.CSS_SELECTOR, ".board-badge-new").is_displayed()
        assert not row(browser, parent["postId"]).find_element(By.CSS_SELECTOR, ".board-clip").is_displayed()
        clipped = row(browser, clip["postId"])
        assert clipped.find_element(By.CSS_SELECTOR, ".board-clip").is_displayed()
        assert clipped.find_element(By.CSS_SELECTOR, ".board-clip").get_attribute("aria-label") == "첨부파일"
        assert not clipped.find_element(By.CSS_SELECTOR, ".board-badge-new").is_displayed()
        browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
        screenshot(browser, "board-badges")

        # The anonymous board: seeded posts and one written here show 익명, never the account.
        open_board(browser, "익명게시판")
        seeded = browser.find_elements(By.CSS_SELECTOR, "#post-list li.board-post")
        assert len(seeded) == 4
        browser.find_element(By.ID, "write-link").click()
        wait(browser, lambda d: d.current_url == server.url("/board/3/write"))
        settle_form(browser)
        fill(browser, "board-title-input", "익명으로 남기는 건의")
        fill(browser, "board-contents-input", "휴게실에 커피머신이 있으면 좋겠어요.")
        browser.find_element(By.ID, "board-submit").click()
        wait_for_saved_post(browser, server, 3)
        assert text_of(browser, "post-writer") == "익명"
        assert [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#post-badges .board-badge")] == ["익명"]
        assert is_shown(browser, "post-actions"), "the writer still owns it"
        browser.get(server.url("/board"))
        settle_list(browser)
        assert selected_board(browser) == "익명게시판"
        rows = browser.find_elements(By.CSS_SELECTOR, "#post-list li.board-post")
        assert len(rows) == 5
        assert all(badges(r) == ["익명"] for r in rows)
        assert {r.find_element(By.CSS_SELECTOR, ".board-post-writer").text for r in rows} == {"익명"}
        assert rows[0].find_element(By.CSS_SELECTOR, ".board-post-title").text == "익명으로 남기는 건의"
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


# ---- Endless scrolling -------------------------------------------------------------------------------

@pytest.mark.board_posts(70)
def test_endless_scrolling_loads_30_posts_at_a_time(browser, server):
    account, boards = reader(server, "scroller")
    expected = [p["postId"] for p in server.board.posts(account, boards["자유게시판"])["value"]]
    assert len(expected) == 63  # 70 seeded: 2 notices, 5 anonymous
    signed_in_on_board(browser, server, "scroller", "자유게시판")
    assert row_ids(browser) == expected[:30]
    assert text_of(browser, "post-count") == "게시글 63개"
    assert not is_shown(browser, "list-end")
    first = browser.find_elements(By.CSS_SELECTOR, "#post-list li.board-post")[0]
    assert first.find_element(By.CSS_SELECTOR, ".board-post-date").text == local_day(browser)
    assert re.fullmatch(r"조회 \d+", first.find_element(By.CSS_SELECTOR, ".board-post-views").text)
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "board-list")

    scroll_to_bottom(browser)
    wait(browser, lambda d: len(row_ids(d)) == 60, message="the second 30 never came")
    settle_list(browser)
    assert row_ids(browser) == expected[:60]
    scroll_to_bottom(browser)
    wait(browser, lambda d: len(row_ids(d)) == 63)
    settle_list(browser)
    assert row_ids(browser) == expected
    wait(browser, lambda d: is_shown(d, "list-end"))
    offsets = [re.search(r"offset=(\d+)", name).group(1) for name in list_requests(browser) if "/boards/2/" in name]
    assert offsets == ["0", "30", "60"], "one request per page, 30 apart, and none after the last"
    assert all("limit=30" in name for name in list_requests(browser))
    assert [name for name in board_requests(browser) if "pinned=true" in name and "/boards/2/" in name] != [], \
        "the pinned block was asked for"


# ---- Search ------------------------------------------------------------------------------------------

def seed_for_search(server):
    alice = server.community.sign_up("alice")
    bob = server.community.sign_up("bob")
    fan = server.community.sign_up("swiftfan")
    boards = server.board.boards(alice)
    free = boards["자유게시판"]
    posts = {
        "notice_title": server.board.write(alice, free, "이번 주 공지사항입니다", "회의실은 3층입니다"),
        "notice_contents": server.board.write(bob, free, "점심 메뉴", "오늘 점심은 공지 없이 자유롭게"),
        "swift": server.board.write(fan, free, "SWIFT study group", "Bring a laptop"),
        "weekly": server.board.write(alice, free, "Weekly update", "nothing new"),
    }
    # The same word in another board is not found from this one.
    server.board.write(alice, boards["익명게시판"], "익명 공지사항입니다", "다른 게시판")
    return posts


def test_search_by_each_target_highlights_the_matches(browser, server):
    posts = seed_for_search(server)
    ids = {name: p["postId"] for name, p in posts.items()}
    signed_in_on_board(browser, server, "alice", "자유게시판")
    assert len(row_ids(browser)) == 4

    # 전체: title, contents or writer; Korean inside a longer word.
    search(browser, "공지", "all")
    assert row_ids(browser) == [ids["notice_contents"], ids["notice_title"]]
    assert text_of(browser, "post-count") == "전체 검색 결과 2개"
    assert marks(row(browser, ids["notice_title"]), ".board-post-title") == ["공지"]
    assert row(browser, ids["notice_title"]).find_element(By.CSS_SELECTOR, ".board-post-title").text == "이번 주 공지사항입니다"
    assert marks(row(browser, ids["notice_contents"]), ".board-post-title") == [], "the match is in its contents"
    assert is_shown(browser, "search-clear")

    search(browser, "공지", "title")
    assert row_ids(browser) == [ids["notice_title"]]
    assert text_of(browser, "post-count") == "제목 검색 결과 1개"
    assert marks(row(browser, ids["notice_title"]), ".board-post-title") == ["공지"]

    search(browser, "공지", "contents")
    assert row_ids(browser) == [ids["notice_contents"]]

    # Latin, in any case: the highlight keeps the text's own case.
    search(browser, "swift", "title")
    assert row_ids(browser) == [ids["swift"]]
    assert marks(row(browser, ids["swift"]), ".board-post-title") == ["SWIFT"]

    search(browser, "ALI", "writer")
    assert row_ids(browser) == [ids["weekly"], ids["notice_title"]]
    assert [marks(row(browser, i), ".board-post-writer") for i in row_ids(browser)] == [["ali"], ["ali"]]
    assert marks(row(browser, ids["weekly"]), ".board-post-title") == [], "a writer search marks writers only"

    search(browser, "Swift", "all")
    swift = row(browser, ids["swift"])
    assert row_ids(browser) == [ids["swift"]]
    assert marks(swift, ".board-post-title") == ["SWIFT"] and marks(swift, ".board-post-writer") == ["swift"]
    assert swift.find_element(By.CSS_SELECTOR, ".board-post-writer").text == "swiftfan"
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "board-search-results")

    # Nothing found.
    search(browser, "없는검색어", "all")
    assert row_ids(browser) == []
    assert text_of(browser, "list-empty") == NO_RESULTS
    assert text_of(browser, "post-count") == "전체 검색 결과 0개"

    # Clearing goes back to the board's posts.
    browser.find_element(By.ID, "search-clear").click()
    settle_list(browser)
    assert len(row_ids(browser)) == 4
    assert text_of(browser, "post-count") == "게시글 4개"
    assert not is_shown(browser, "search-clear")


def test_titles_with_markup_stay_text_when_highlighted(browser, server):
    account, boards = reader(server, "marker")
    post = server.board.write(account, boards["자유게시판"], "<b>굵게</b> & <img src=x onerror=alert(1)>", "markup")
    signed_in_on_board(browser, server, "marker", "자유게시판")
    search(browser, "<b>", "title")
    title = row(browser, post["postId"]).find_element(By.CSS_SELECTOR, ".board-post-title")
    assert title.text == "<b>굵게</b> & <img src=x onerror=alert(1)>"
    assert marks(row(browser, post["postId"]), ".board-post-title") == ["<b>"]
    assert title.find_elements(By.CSS_SELECTOR, "b, img") == []


def test_recent_searches_are_kept_without_duplicates_most_recent_first(browser, server):
    seed_for_search(server)
    signed_in_on_board(browser, server, "bob", "자유게시판")
    assert not is_shown(browser, "search-history")
    browser.find_element(By.ID, "search-query").click()
    wait(browser, lambda d: is_shown(d, "search-history"))
    assert text_of(browser, "history-empty") == NO_HISTORY
    assert history(browser) == [] and not is_shown(browser, "history-clear")

    search(browser, "공지", "all")
    assert not is_shown(browser, "search-history"), "hidden while the box has text"
    search(browser, "공지", "title")
    search(browser, "swift", "writer")
    search(browser, "공지", "all")  # again: moves to the top, not a second entry

    # Emptying the box lists the board again and shows the history.
    fill(browser, "search-query", "")
    browser.find_element(By.ID, "search-query").send_keys(" ", Keys.BACKSPACE)
    wait(browser, lambda d: is_shown(d, "search-history"))
    settle_list(browser)
    assert text_of(browser, "post-count") == "게시글 4개"
    assert history(browser) == [("전체", "공지"), ("작성자", "swift"), ("제목", "공지")]
    assert not is_shown(browser, "history-empty") and is_shown(browser, "history-clear")
    screenshot(browser, "board-search-history")

    # × deletes one, and the list stays open.
    history_item(browser, "작성자", "swift").find_element(By.CSS_SELECTOR, ".search-history-delete").click()
    wait(browser, lambda d: history(d) == [("전체", "공지"), ("제목", "공지")])
    assert is_shown(browser, "search-history")

    # Kept in this browser.
    browser.refresh()
    settle_list(browser)
    browser.find_element(By.ID, "search-query").click()
    wait(browser, lambda d: is_shown(d, "search-history"))
    assert history(browser) == [("전체", "공지"), ("제목", "공지")]

    # Clicking one restores its text and target and searches again (and it becomes the most recent).
    history_item(browser, "제목", "공지").find_element(By.CSS_SELECTOR, ".search-history-run").click()
    wait(browser, lambda d: text_of(d, "post-count") == "제목 검색 결과 1개")
    settle_list(browser)
    assert browser.find_element(By.ID, "search-query").get_attribute("value") == "공지"
    assert Select(browser.find_element(By.ID, "search-target")).first_selected_option.text == "제목"
    assert marks(browser.find_element(By.CSS_SELECTOR, "#post-list li.board-post"), ".board-post-title") == ["공지"]
    assert not is_shown(browser, "search-history")

    browser.find_element(By.ID, "search-clear").click()
    wait(browser, lambda d: is_shown(d, "search-history"))
    assert history(browser) == [("제목", "공지"), ("전체", "공지")]

    # 전체 삭제 clears them all.
    browser.find_element(By.ID, "history-clear").click()
    wait(browser, lambda d: history(d) == [])
    assert text_of(browser, "history-empty") == NO_HISTORY
    assert not is_shown(browser, "history-clear")
    assert browser.execute_script("return localStorage.getItem('sprout.board.history@' + Sprout.me.id)") == "[]"


# ---- Names and phone width ---------------------------------------------------------------------------

UNNAMED_CONTROLS = """
    const named = (e) => e.labels?.length || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby')
                          || (e.tagName === 'BUTTON' && e.textContent.trim());
    return [...document.querySelectorAll('input, button, select, textarea')].filter(e => !named(e)).map(e => e.outerHTML);"""


def test_every_control_on_the_board_screens_has_a_name(browser, server):
    account, boards = reader(server, "named")
    post = server.board.write(account, boards["자유게시판"], "이름표를 확인할 글", "내용")
    signed_in_on_board(browser, server, "named", "자유게시판")
    search(browser, "이름표", "all")
    assert browser.execute_script(UNNAMED_CONTROLS) == []
    # Each page is checked once it has loaded: a page still fetching when the test ends would have its request
    # refused by the stopped server, and that error would reach the console check after the test.
    pages = [(f"/board/2/posts/{post['postId']}", settle_post), ("/board/2/write", settle_form),
             (f"/board/2/posts/{post['postId']}/edit", settle_form)]
    for path, settle in pages:
        browser.get(server.url(path))
        settle(browser)
        assert browser.execute_script(UNNAMED_CONTROLS) == [], path


def test_phone_width_has_no_sideways_scrolling_on_the_board(phone, server):
    account, boards = reader(server, "긴이름을가진게시판독자예요")
    for index in range(3):
        server.board.write(account, boards["자유게시판"], f"휴대폰에서 보는 게시글 {index + 1}: " + "아주 긴 제목 " * 20, "내용 " * 50)
    signed_in_on_board(phone, server, account["username"], "자유게시판")
    assert len(row_ids(phone)) == 3
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 390
    phone.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(phone, "phone-board")
    phone.get(server.url(f"/board/2/posts/{row_ids(phone)[0]}"))
    settle_post(phone)
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 390


# ---- Replies -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_replying_to_a_post_prefills_re_and_the_reply_has_the_re_badge(request, server, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    asker, boards = reader(server, "asker")
    question = server.board.write(asker, boards["자유게시판"], "화분 물은 얼마나 자주 주나요?", "상추 모종이에요.")
    server.community.sign_up("gardener")
    signed_in_on_board(driver, server, "gardener", "자유게시판")
    row(driver, question["postId"]).find_element(By.CSS_SELECTOR, "a").click()
    settle_post(driver)
    assert not is_shown(driver, "post-actions"), "someone else's post"
    assert not is_shown(driver, "post-parent"), "no reply itself"
    wait(driver, lambda d: is_shown(d, "post-reply"))
    assert text_of(driver, "post-reply") == "답글"
    driver.find_element(By.ID, "post-reply").click()

    wait(driver, lambda d: d.current_url == server.url(f"/board/2/write?reply={question['postId']}"))
    settle_form(driver)
    assert driver.title.startswith("답글 쓰기")
    assert text_of(driver, "write-title").startswith("답글 쓰기")
    assert is_shown(driver, "reply-to") and text_of(driver, "reply-to-link") == "화분 물은 얼마나 자주 주나요?"
    title = driver.find_element(By.ID, "board-title-input")
    assert title.get_attribute("value") == "Re: 화분 물은 얼마나 자주 주나요?"
    assert driver.switch_to.active_element == driver.find_element(By.ID, "board-contents-input"), "ready to write the answer"
    assert not submit_enabled(driver, "board-submit"), "the answer is still empty"
    driver.find_element(By.ID, "board-contents-input").send_keys("흙이 마르면 듬뿍 주세요.")
    wait(driver, lambda d: submit_enabled(d, "board-submit"))
    assert driver.execute_script("return document.documentElement.scrollWidth") <= driver.execute_script("return innerWidth")
    driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(driver, f"board-reply-form-{size}")
    driver.find_element(By.ID, "board-submit").click()

    reply_id = wait_for_saved_post(driver, server, 2)
    assert "답글을 등록했습니다." in driver.find_element(By.TAG_NAME, "body").text
    assert text_of(driver, "post-title-text") == "Re: 화분 물은 얼마나 자주 주나요?"
    assert [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#post-badges .board-badge")] == ["Re"]
    saved = server.board.post(asker, 2, reply_id)
    assert (saved["parentPostId"], saved["postType"], saved["contents"]) == (question["postId"], "reply", "흙이 마르면 듬뿍 주세요.")
    # The reply leads back to what it answers.
    assert is_shown(driver, "post-parent")
    assert driver.find_element(By.ID, "post-parent-link").get_attribute("pathname") == f"/board/2/posts/{question['postId']}"

    # In the list the reply carries Re, the question does not.
    driver.get(server.url("/board"))
    settle_list(driver)
    assert row_ids(driver)[:2] == [reply_id, question["postId"]]
    assert badges(row(driver, reply_id)) == ["Re"]
    assert badges(row(driver, question["postId"])) == []
    assert row(driver, reply_id).find_element(By.CSS_SELECTOR, ".board-badge-reply").is_displayed()

    # Replying to a reply says "Re: " once.
    driver.get(server.url(f"/board/2/posts/{reply_id}"))
    settle_post(driver)
    wait(driver, lambda d: is_shown(d, "post-reply"))
    driver.find_element(By.ID, "post-reply").click()
    settle_form(driver)
    wait(driver, lambda d: d.find_element(By.ID, "board-title-input").get_attribute("value") == "Re: 화분 물은 얼마나 자주 주나요?")


@pytest.mark.board_posts(3)
def test_there_is_no_reply_where_one_cannot_write(browser, server):
    account, boards = reader(server, "noticereader")
    notices = server.board.posts(account, boards["공지사항"])["value"]
    assert notices, "the seed has a notice"
    signed_in_on_board(browser, server, "noticereader")
    browser.get(server.url(f"/board/{boards['공지사항']}/posts/{notices[0]['postId']}"))
    settle_post(browser)
    assert text_of(browser, "post-board") == "공지사항"
    assert not is_shown(browser, "post-reply")
    # Asked for directly, the form refuses as it does for a new post there.
    browser.get(server.url(f"/board/{boards['공지사항']}/write?reply={notices[0]['postId']}"))
    settle_form(browser)
    assert text_of(browser, "form-error") == "이 게시판에는 글을 쓸 수 없습니다."
    assert not submit_enabled(browser, "board-submit")


def test_a_reply_to_a_post_that_is_gone_says_so(browser, server):
    account, boards = reader(server, "latecomer")
    post = server.board.write(account, boards["자유게시판"], "곧 지울 글", "내용")
    status, _ = server.board.request("DELETE", f"/{boards['자유게시판']}/posts/{post['postId']}", token=account["token"])
    assert status == 204
    signed_in_on_board(browser, server, "latecomer")
    browser.get(server.url(f"/board/2/write?reply={post['postId']}"))
    # The site's not-found panel (Sprout.notFound) takes the form's place: there is nothing to send.
    wait(browser, lambda d: is_shown(d, "error-page"))
    assert text_of(browser, "error-explanation") == "답글을 달 게시글을 찾을 수 없습니다. 삭제되었을 수 있어요."
    assert browser.title == "페이지를 찾을 수 없어요 · Sprout"
    assert not browser.find_elements(By.ID, "board-submit")


# ---- Kept per account --------------------------------------------------------------------------------

def sign_out(driver):
    """Logs out with the header's button, opening the header's menu first where a phone keeps the button in it."""
    button = driver.find_element(By.ID, "logout-button")
    if not button.is_displayed() and driver.find_elements(By.ID, "menu-button"):
        driver.find_element(By.ID, "menu-button").click()
        wait(driver, lambda d: button.is_displayed())
    log_out(driver)


def stored_keys(driver):
    return sorted(driver.execute_script("return Object.keys(localStorage).filter(k => k.startsWith('sprout.board.'))"))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_recent_searches_and_the_last_board_are_each_accounts_own_and_go_at_sign_out(request, server, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    seed_for_search(server)
    carol = server.community.sign_up("carol")
    # What an earlier version kept for the whole browser is dropped, not handed to whoever signs in.
    driver.get(server.url("/"))
    driver.execute_script("localStorage.setItem('sprout.board.searches', JSON.stringify([{text: '남의 검색', target: 'all'}]));"
                          " localStorage.setItem('sprout.board.last', '3')")

    signed_in_on_board(driver, server, "bob")
    assert selected_board(driver) == "공지사항", "the browser's old last board is nobody's"
    open_board(driver, "자유게시판")
    search(driver, "공지", "title")
    bob_id = driver.execute_script("return Sprout.me.id")
    assert stored_keys(driver) == [f"sprout.board.history@{bob_id}", f"sprout.board.last@{bob_id}"]
    fill(driver, "search-query", "")
    driver.find_element(By.ID, "search-query").send_keys(" ", Keys.BACKSPACE)
    wait(driver, lambda d: is_shown(d, "search-history"))
    assert history(driver) == [("제목", "공지")]

    # Another account in the same browser (bob's keys are still here while bob is only switched away from).
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    signed_in_on_board(driver, server, "carol")
    assert driver.execute_script("return Sprout.me.id") == carol["id"]
    assert selected_board(driver) == "공지사항", "bob's last board is bob's"
    driver.find_element(By.ID, "search-query").click()
    wait(driver, lambda d: is_shown(d, "search-history"))
    assert history(driver) == [], "bob's searches are bob's"
    assert text_of(driver, "history-empty") == NO_HISTORY
    open_board(driver, "익명게시판")
    search(driver, "커피", "contents")

    # Back to bob: his own, untouched by carol's.
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    signed_in_on_board(driver, server, "bob")
    assert selected_board(driver) == "자유게시판"
    driver.find_element(By.ID, "search-query").click()
    wait(driver, lambda d: is_shown(d, "search-history"))
    assert history(driver) == [("제목", "공지")]
    driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")

    # Signing out forgets them: signing in again starts afresh.
    sign_out(driver)
    assert f"sprout.board.history@{bob_id}" not in stored_keys(driver)
    assert f"sprout.board.last@{bob_id}" not in stored_keys(driver)
    signed_in_on_board(driver, server, "bob")
    assert selected_board(driver) == "공지사항"
    driver.find_element(By.ID, "search-query").click()
    wait(driver, lambda d: is_shown(d, "search-history"))
    assert history(driver) == []
