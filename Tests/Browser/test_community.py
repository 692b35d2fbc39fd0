"""The Community in the browser: the feed (newest or oldest first, endless scrolling, refresh), a post with its
comments, writing, editing and deleting posts and comments with owner-only controls and delete confirmations,
length counters, Ctrl+Enter, and relative times."""

import re
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import fill, hold_live_stream, is_shown, log_in, log_out, screenshot, submit_enabled, text_of, wait

# The full date, in a time's title; the text itself is relative ("방금 전", "3분 전", …).
DATE = re.compile(r"\d{4}/\d{2}/\d{2} (오전|오후) \d{2}:\d{2}")
EDITED_TITLE = re.compile(DATE.pattern + r" \(수정: " + DATE.pattern + r"\)")


def feed_ids(driver):
    return [int(i) for i in driver.execute_script(
        "return [...document.querySelectorAll('#post-list li.post-card')].map(e => e.dataset.id)")]


def settle_feed(driver):
    wait(driver, lambda d: d.find_element(By.ID, "post-list").get_attribute("aria-busy") == "false",
         message="the feed never finished loading")


def settle_post(driver):
    wait(driver, lambda d: not d.find_element(By.ID, "loading").is_displayed(), message="the post never loaded")


def comment_rows(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#comment-list li.comment")


def test_the_feed_shows_author_text_date_and_comment_count_with_paging_and_order(browser, server):
    alice = server.community.sign_up("alice")
    bob = server.community.sign_up("bob")
    posts = [server.community.post(alice if n % 2 else bob, f"새싹 이야기 {n:02d}번째 글") for n in range(1, 26)]
    server.community.comment(bob, posts[-1]["id"], "첫 댓글")
    server.community.comment(alice, posts[-1]["id"], "둘째 댓글")

    log_in(browser, server, "alice")
    settle_feed(browser)
    newest_first = [p["id"] for p in reversed(posts)]
    assert feed_ids(browser) == newest_first[:20]
    first = browser.find_element(By.CSS_SELECTOR, "#post-list li.post-card")
    assert first.find_element(By.CSS_SELECTOR, ".post-author").text == "alice"
    assert first.find_element(By.CSS_SELECTOR, ".post-text").text == "새싹 이야기 25번째 글"
    assert first.find_element(By.CSS_SELECTOR, ".post-comments").text == "댓글 2개"
    first_date = first.find_element(By.CSS_SELECTOR, ".post-date")
    assert first_date.text == "방금 전" and DATE.fullmatch(first_date.get_attribute("title"))
    assert first_date.get_attribute("datetime") == posts[-1]["created_at"]
    second = browser.find_elements(By.CSS_SELECTOR, "#post-list li.post-card")[1]
    assert second.find_element(By.CSS_SELECTOR, ".post-author").text == "bob"
    assert second.find_element(By.CSS_SELECTOR, ".post-comments").text == "댓글 0개"
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "community-feed")

    # Scrolling down fetches the rest (there is no "더 보기" to press); then the end is said.
    assert not browser.find_elements(By.ID, "more") and not is_shown(browser, "list-end")
    browser.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    wait(browser, lambda d: len(feed_ids(d)) == 25)
    settle_feed(browser)
    assert feed_ids(browser) == newest_first
    assert is_shown(browser, "list-end")

    browser.execute_script("window.scrollTo(0, 0)")
    browser.find_element(By.ID, "sort-oldest").click()
    wait(browser, lambda d: d.find_element(By.ID, "sort-oldest").get_attribute("aria-pressed") == "true")
    settle_feed(browser)
    assert feed_ids(browser) == [p["id"] for p in posts][:20]
    browser.find_element(By.ID, "sort-newest").click()
    settle_feed(browser)
    wait(browser, lambda d: feed_ids(d)[:1] == newest_first[:1])

    # A post leads to its page.
    browser.find_element(By.CSS_SELECTOR, "#post-list li.post-card a").click()
    wait(browser, lambda d: d.current_url == server.url(f"/community/posts/{posts[-1]['id']}"))
    settle_post(browser)
    assert [r.find_element(By.CSS_SELECTOR, ".comment-text").text for r in comment_rows(browser)] == ["첫 댓글", "둘째 댓글"]
    assert text_of(browser, "comment-count") == "2개"


def test_an_empty_feed_invites_the_first_post(browser, server):
    server.community.sign_up("first")
    log_in(browser, server, "first")
    settle_feed(browser)
    assert is_shown(browser, "list-empty") and not is_shown(browser, "list-end")


def test_write_edit_and_delete_a_post(browser, server):
    author = server.community.sign_up("writer")
    log_in(browser, server, "writer")
    browser.find_element(By.ID, "write-link").click()
    wait(browser, lambda d: d.current_url == server.url("/community/write"))
    assert browser.find_element(By.ID, "write-title").text == "새 글"
    assert not submit_enabled(browser, "post-submit")
    fill(browser, "post-text-input", "   ")
    assert not submit_enabled(browser, "post-submit"), "white space alone is not a post"
    fill(browser, "post-text-input", "오늘 베란다에\n상추 씨앗을 심었어요 🌱")
    wait(browser, lambda d: submit_enabled(d, "post-submit"))
    browser.find_element(By.ID, "post-submit").click()

    wait(browser, lambda d: re.fullmatch(re.escape(server.url("/community/posts/")) + r"\d+", d.current_url))
    post_id = int(browser.current_url.rsplit("/", 1)[1])
    settle_post(browser)
    assert text_of(browser, "post-text") == "오늘 베란다에\n상추 씨앗을 심었어요 🌱"
    assert text_of(browser, "post-author") == "writer"
    assert text_of(browser, "flash") == "글을 올렸어요."
    assert server.community.get_post(author, post_id)["text"] == "오늘 베란다에\n상추 씨앗을 심었어요 🌱"

    # Edit: the same screen, filled in.
    browser.find_element(By.ID, "post-edit").click()
    wait(browser, lambda d: d.current_url == server.url(f"/community/write?post={post_id}"))
    assert browser.find_element(By.ID, "write-title").text == "글 수정"
    wait(browser, lambda d: d.find_element(By.ID, "post-text-input").get_attribute("value").startswith("오늘 베란다에"))
    fill(browser, "post-text-input", "상추 씨앗을 심었어요. 싹이 났어요!")
    browser.find_element(By.ID, "post-submit").click()
    wait(browser, lambda d: d.current_url == server.url(f"/community/posts/{post_id}"))
    settle_post(browser)
    assert text_of(browser, "post-text") == "상추 씨앗을 심었어요. 싹이 났어요!"
    assert text_of(browser, "post-date") == "방금 전 (수정됨)"
    assert EDITED_TITLE.fullmatch(browser.find_element(By.ID, "post-date").get_attribute("title"))
    assert server.community.get_post(author, post_id)["text"] == "상추 씨앗을 심었어요. 싹이 났어요!"

    # Delete asks first; cancelling keeps the post.
    browser.find_element(By.ID, "post-delete").click()
    dialog = browser.find_element(By.ID, "delete-dialog")
    wait(browser, lambda d: dialog.is_displayed())
    assert text_of(browser, "delete-dialog-title") == "게시물을 삭제하시겠어요?"
    screenshot(browser, "community-delete-post-dialog")
    browser.find_element(By.ID, "delete-cancel").click()
    wait(browser, lambda d: not dialog.is_displayed())
    assert server.community.get_post(author, post_id) is not None

    browser.find_element(By.ID, "post-delete").click()
    wait(browser, lambda d: dialog.is_displayed())
    browser.find_element(By.ID, "delete-confirm").click()
    wait(browser, lambda d: d.current_url == server.url("/community"))
    assert text_of(browser, "flash") == "게시물을 삭제했어요."
    settle_feed(browser)
    assert post_id not in feed_ids(browser)
    assert server.community.get_post(author, post_id) is None


def test_add_edit_and_delete_comments(browser, server):
    other = server.community.sign_up("poster")
    me = server.community.sign_up("commenter")
    post = server.community.post(other, "댓글을 기다리는 글")
    log_in(browser, server, "commenter", next_path=f"/community/posts/{post['id']}")
    settle_post(browser)
    assert text_of(browser, "comment-count") == "0개"
    assert is_shown(browser, "comments-empty")

    assert not submit_enabled(browser, "comment-submit")
    fill(browser, "comment-text", "  ")
    assert not submit_enabled(browser, "comment-submit")
    fill(browser, "comment-text", "저도 심어 볼게요!")
    wait(browser, lambda d: submit_enabled(d, "comment-submit"))
    browser.find_element(By.ID, "comment-submit").click()
    wait(browser, lambda d: len(comment_rows(d)) == 1)
    assert text_of(browser, "comment-count") == "1개"
    assert browser.find_element(By.ID, "comment-text").get_attribute("value") == ""
    assert not submit_enabled(browser, "comment-submit")
    row = comment_rows(browser)[0]
    assert row.find_element(By.CSS_SELECTOR, ".comment-author").text == "commenter"
    assert row.find_element(By.CSS_SELECTOR, ".comment-date").text == "방금 전"
    assert DATE.fullmatch(row.find_element(By.CSS_SELECTOR, ".comment-date").get_attribute("title"))
    saved = server.community.comments(me, post["id"])
    assert [(c["comment"], c["user"]["id"]) for c in saved] == [("저도 심어 볼게요!", me["id"])]

    # Edit in place.
    row.find_element(By.CSS_SELECTOR, ".comment-edit").click()
    editor = row.find_element(By.CSS_SELECTOR, ".comment-edit-input")
    assert editor.get_attribute("value") == "저도 심어 볼게요!"
    editor.send_keys(Keys.CONTROL, "a")
    editor.send_keys(Keys.DELETE)
    wait(browser, lambda d: not row.find_element(By.CSS_SELECTOR, ".comment-save").is_enabled())
    editor.send_keys("저도 내일 심어 볼게요!")
    row.find_element(By.CSS_SELECTOR, ".comment-save").click()
    wait(browser, lambda d: not row.find_elements(By.CSS_SELECTOR, ".comment-edit-form"))
    assert row.find_element(By.CSS_SELECTOR, ".comment-text").text == "저도 내일 심어 볼게요!"
    assert server.community.comments(me, post["id"])[0]["comment"] == "저도 내일 심어 볼게요!"
    screenshot(browser, "community-post")

    # Delete asks first, in the app's words.
    row.find_element(By.CSS_SELECTOR, ".comment-delete").click()
    dialog = browser.find_element(By.ID, "delete-dialog")
    wait(browser, lambda d: dialog.is_displayed())
    assert text_of(browser, "delete-dialog-title") == "댓글을 삭제하시겠어요?"
    browser.find_element(By.ID, "delete-confirm").click()
    wait(browser, lambda d: len(comment_rows(d)) == 0)
    assert text_of(browser, "comment-count") == "0개"
    assert server.community.comments(me, post["id"]) == []


def test_owner_only_controls_are_hidden_on_other_accounts_writing(browser, server):
    owner = server.community.sign_up("owner")
    visitor = server.community.sign_up("visitor")
    post = server.community.post(owner, "주인이 쓴 글")
    server.community.comment(owner, post["id"], "주인이 단 댓글")
    server.community.comment(visitor, post["id"], "방문자가 단 댓글")

    log_in(browser, server, "visitor", next_path=f"/community/posts/{post['id']}")
    settle_post(browser)
    assert not is_shown(browser, "post-actions")
    rows = comment_rows(browser)
    assert [r.find_element(By.CSS_SELECTOR, ".comment-actions").is_displayed() for r in rows] == [False, True]

    # The edit screen for someone else's post says so and cannot be sent.
    browser.get(server.url(f"/community/write?post={post['id']}"))
    wait(browser, lambda d: is_shown(d, "form-error"))
    assert text_of(browser, "form-error") == "내 글만 고칠 수 있어요."
    assert not submit_enabled(browser, "post-submit")

    # And the owner sees them on the same page.
    log_out(browser)
    log_in(browser, server, "owner", next_path=f"/community/posts/{post['id']}")
    settle_post(browser)
    assert is_shown(browser, "post-actions")
    assert [r.find_element(By.CSS_SELECTOR, ".comment-actions").is_displayed() for r in comment_rows(browser)] == [True, False]


def test_server_errors_are_shown(browser, server):
    author = server.community.sign_up("author")
    server.community.sign_up("reader")
    post = server.community.post(author, "곧 사라질 글")
    hold_live_stream(browser)  # else the deletion's event would show the not-found panel before the comment
    log_in(browser, server, "reader", next_path=f"/community/posts/{post['id']}")
    settle_post(browser)
    server.community.delete_post(author, post["id"])
    fill(browser, "comment-text", "사라진 글에 다는 댓글")
    browser.find_element(By.ID, "comment-submit").click()
    wait(browser, lambda d: is_shown(d, "comment-error"))
    assert text_of(browser, "comment-error") == "댓글을 등록하지 못했어요. 글을 찾을 수 없어요. 삭제되었을 수 있어요."
    assert comment_rows(browser) == []

    # Opened again, the post that is gone gets the site's not-found panel (Sprout.notFound), as a malformed id does.
    browser.get(server.url(f"/community/posts/{post['id']}"))
    wait(browser, lambda d: is_shown(d, "error-page"))
    assert text_of(browser, "error-explanation") == "게시물을 찾을 수 없어요. 삭제되었을 수 있어요."
    assert browser.title == "페이지를 찾을 수 없어요 · Sprout"


def test_a_session_ended_elsewhere_sends_the_feed_to_log_in(browser, server):
    server.community.sign_up("elsewhere")
    log_in(browser, server, "elsewhere")
    settle_feed(browser)
    # The session ends on the server (another tab logged out): the cookie stays but names nobody.
    browser.execute_script("return fetch('/web/session', {method: 'DELETE'}).then(r => r.status)")
    browser.find_element(By.ID, "sort-oldest").click()
    wait(browser, lambda d: "/account/login?next=" in d.current_url)


UNNAMED_CONTROLS = """
    const named = (e) => e.labels?.length || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby')
                          || (e.tagName === 'BUTTON' && e.textContent.trim());
    return [...document.querySelectorAll('input, button, select, textarea')].filter(e => !named(e)).map(e => e.outerHTML);"""


def test_every_control_on_the_account_and_community_screens_has_a_name(browser, server):
    author = server.community.sign_up("named")
    post = server.community.post(author, "이름표를 확인할 글")
    server.community.comment(author, post["id"], "이름표를 확인할 댓글")
    for path in ["/account/signup", "/account/login"]:
        browser.get(server.url(path))
        assert browser.execute_script(UNNAMED_CONTROLS) == [], path
    log_in(browser, server, "named")
    for path in ["/community", f"/community/posts/{post['id']}", "/community/write", "/account/password"]:
        browser.get(server.url(path))
        if path.startswith("/community/posts/"):
            settle_post(browser)
            comment_rows(browser)[0].find_element(By.CSS_SELECTOR, ".comment-edit").click()
        assert browser.execute_script(UNNAMED_CONTROLS) == [], path


# ---- Endless scrolling and refresh -------------------------------------------------------------------

def posts_requests(driver):
    """The `_start` of every feed request the page made, in order."""
    return driver.execute_script("""
        return performance.getEntriesByType('resource').map(e => new URL(e.name))
            .filter(u => u.pathname === '/posts').map(u => Number(u.searchParams.get('_start')));""")


def scroll_to_bottom(driver):
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_feed_scrolls_endlessly_one_request_at_a_time_without_duplicates(request, server, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    author = server.community.sign_up("scroller")
    posts = [server.community.post(author, f"끝없이 내려가는 글 {n:02d}") for n in range(1, 46)]
    log_in(driver, server, "scroller")
    settle_feed(driver)
    assert feed_ids(driver) == [p["id"] for p in reversed(posts)][:20]
    assert not driver.find_elements(By.ID, "more"), "no 더 보기 button: scrolling loads"

    # Slowed down, the loading line shows, and scrolling on meanwhile asks for nothing more.
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 700, "downloadThroughput": -1, "uploadThroughput": -1})
    scroll_to_bottom(driver)
    wait(driver, lambda d: is_shown(d, "loading"), message="no loading line while the next page loads")
    for _ in range(5):
        scroll_to_bottom(driver)
        driver.execute_script("window.scrollBy(0, -50)")
        scroll_to_bottom(driver)
    settle_feed(driver)
    # (A request is in the resource timeline once it has finished.)
    assert posts_requests(driver) == [0, 20], "one request at a time"
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    # A post written meanwhile shifts the pages by one; nothing is shown twice and nothing is skipped.
    newer = server.community.post(author, "스크롤하는 동안 새로 쓴 글")
    deadline = time.monotonic() + 20
    while not is_shown(driver, "list-end"):
        assert time.monotonic() < deadline, f"the end never came ({len(feed_ids(driver))} posts)"
        scroll_to_bottom(driver)
        time.sleep(0.1)
    settle_feed(driver)
    ids = feed_ids(driver)
    assert len(ids) == len(set(ids)) == 45
    assert ids == [p["id"] for p in reversed(posts)]
    assert newer["id"] not in ids, "a newer post appears with a refresh, not in the middle"
    requests = posts_requests(driver)
    assert requests == sorted(set(requests)) and requests[:2] == [0, 20], requests
    assert driver.execute_script("return document.documentElement.scrollWidth") <= driver.execute_script("return innerWidth")
    screenshot(driver, f"community-feed-end-{size}")

    # Refresh (up by the feed's title) reloads the feed from the top: the new post first, 20 again.
    driver.execute_script("window.scrollTo(0, 0)")
    driver.find_element(By.ID, "refresh").click()
    wait(driver, lambda d: feed_ids(d)[:1] == [newer["id"]])
    settle_feed(driver)
    assert feed_ids(driver) == [newer["id"]] + [p["id"] for p in reversed(posts)][:19]
    assert not is_shown(driver, "list-end")
    screenshot(driver, f"community-feed-refreshed-{size}")


def test_refresh_shows_new_comment_counts_and_keeps_the_order(browser, server):
    author = server.community.sign_up("counter")
    posts = [server.community.post(author, f"오래된순으로 보는 글 {n}") for n in range(1, 4)]
    log_in(browser, server, "counter")
    settle_feed(browser)
    browser.find_element(By.ID, "sort-oldest").click()
    wait(browser, lambda d: feed_ids(d) == [p["id"] for p in posts])
    server.community.comment(author, posts[0]["id"], "새로고침하면 보이는 댓글")
    browser.find_element(By.ID, "refresh").click()
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#post-list li.post-card .post-comments").text == "댓글 1개")
    settle_feed(browser)
    assert feed_ids(browser) == [p["id"] for p in posts], "still oldest first"
    assert browser.find_element(By.ID, "sort-oldest").get_attribute("aria-pressed") == "true"


# ---- Length counters and Ctrl+Enter ------------------------------------------------------------------

def set_value(driver, field, value):
    """Puts a long text in a field at once (typing 2,000 characters would take a minute) as an input event would."""
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))",
                          field, value)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_length_counters_count_characters_as_the_server_does(request, server, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    author = server.community.sign_up("lengthy")
    post = server.community.post(author, "길이를 세는 글")
    log_in(driver, server, "lengthy", next_path=f"/community/posts/{post['id']}")
    settle_post(driver)
    field = driver.find_element(By.ID, "comment-text")
    assert text_of(driver, "comment-length") == "0/2,000"
    field.send_keys("안녕하세요")
    assert text_of(driver, "comment-length") == "5/2,000"
    set_value(driver, field, "안녕하세요 👋")
    assert text_of(driver, "comment-length") == "7/2,000"
    # A thumbs-up with a skin tone is 2 code points and 4 UTF-16 units, but one character to the server (Swift's
    # Character): 2,000 of them fit, 2,001 do not.
    thumb = "\U0001F44D\U0001F3FD"
    set_value(driver, field, thumb * 2001)
    wait(driver, lambda d: text_of(d, "comment-length") == "2,001/2,000")
    assert is_shown(driver, "comment-length-error") and "2,000자까지" in text_of(driver, "comment-length-error")
    assert not submit_enabled(driver, "comment-submit") and field.get_attribute("aria-invalid") == "true"
    field.send_keys(Keys.CONTROL, Keys.ENTER)  # nor does Ctrl+Enter send it
    time.sleep(0.3)
    assert comment_rows(driver) == []
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    screenshot(driver, f"community-comment-too-long-{size}")
    assert driver.execute_script("return document.documentElement.scrollWidth") <= driver.execute_script("return innerWidth")
    set_value(driver, field, thumb * 2000)
    wait(driver, lambda d: submit_enabled(d, "comment-submit"))
    assert text_of(driver, "comment-length") == "2,000/2,000" and not is_shown(driver, "comment-length-error")
    driver.find_element(By.ID, "comment-submit").click()
    wait(driver, lambda d: len(comment_rows(d)) == 1)
    assert server.community.comments(author, post["id"])[0]["comment"] == thumb * 2000
    assert text_of(driver, "comment-length") == "0/2,000"

    # The post form counts to 10,000 the same way, for a new post and when editing.
    driver.get(server.url(f"/community/write?post={post['id']}"))
    text = driver.find_element(By.ID, "post-text-input")
    wait(driver, lambda d: text.get_attribute("value") == "길이를 세는 글")
    assert text_of(driver, "post-length") == "8/10,000"
    set_value(driver, text, "가" * 10001)
    wait(driver, lambda d: is_shown(d, "length-error"))
    assert text_of(driver, "post-length") == "10,001/10,000" and not submit_enabled(driver, "post-submit")
    set_value(driver, text, "가" * 10000)
    wait(driver, lambda d: submit_enabled(d, "post-submit"))
    assert not is_shown(driver, "length-error")


def test_ctrl_enter_sends_a_comment_and_saves_an_edit(browser, server):
    author = server.community.sign_up("keyboarder")
    post = server.community.post(author, "키보드로 댓글 달기")
    log_in(browser, server, "keyboarder", next_path=f"/community/posts/{post['id']}")
    settle_post(browser)
    field = browser.find_element(By.ID, "comment-text")
    assert text_of(browser, "comment-keys") == "Ctrl+Enter로 등록"
    field.send_keys("첫 줄")
    field.send_keys(Keys.ENTER)  # Enter alone is a line break
    field.send_keys("둘째 줄")
    assert comment_rows(browser) == []
    ActionChains(browser).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()
    wait(browser, lambda d: len(comment_rows(d)) == 1)
    assert server.community.comments(author, post["id"])[0]["comment"] == "첫 줄\n둘째 줄"
    assert field.get_attribute("value") == ""

    # ⌘+Enter (Meta) does the same, here in the edit form.
    row = comment_rows(browser)[0]
    row.find_element(By.CSS_SELECTOR, ".comment-edit").click()
    editor = row.find_element(By.CSS_SELECTOR, ".comment-edit-input")
    editor.send_keys(" 고침")
    ActionChains(browser).key_down(Keys.META).send_keys(Keys.ENTER).key_up(Keys.META).perform()
    wait(browser, lambda d: not row.find_elements(By.CSS_SELECTOR, ".comment-edit-form"))
    assert server.community.comments(author, post["id"])[0]["comment"] == "첫 줄\n둘째 줄 고침"

    # An empty comment is not sent by the keys either.
    field.send_keys(Keys.CONTROL, Keys.ENTER)
    time.sleep(0.3)
    assert len(server.community.comments(author, post["id"])) == 1


# ---- Relative times ----------------------------------------------------------------------------------

# Installed before the page's scripts: a clock the test can move (`__clockOffset`, ms) and a record of the page's
# intervals, so "kept current" can be checked without waiting for the real interval.
FAKE_CLOCK = """
    (() => {
      const RealDate = Date;
      window.__clockOffset = 0;
      class MovableDate extends RealDate {
        constructor(...args) { if (args.length === 0) super(RealDate.now() + window.__clockOffset); else super(...args); }
        static now() { return RealDate.now() + window.__clockOffset; }
      }
      window.Date = MovableDate;
      window.__intervals = [];
      const realSetInterval = window.setInterval;
      window.setInterval = (callback, delay, ...rest) => {
        window.__intervals.push({ callback, delay });
        return realSetInterval(callback, delay, ...rest);
      };
    })();"""


def test_times_are_relative_kept_current_and_carry_the_full_date(browser, server):
    author = server.community.sign_up("timely")
    post = server.community.post(author, "시간이 흐르는 글")
    server.community.comment(author, post["id"], "시간이 흐르는 댓글")
    script = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_CLOCK})
    try:
        log_in(browser, server, "timely", next_path=f"/community/posts/{post['id']}")
        settle_post(browser)
        post_date = browser.find_element(By.ID, "post-date")
        comment_date = comment_rows(browser)[0].find_element(By.CSS_SELECTOR, ".comment-date")
        assert post_date.text == "방금 전" and comment_date.text == "방금 전"
        assert post_date.get_attribute("datetime") == post["created_at"]
        full = post_date.get_attribute("title")
        assert DATE.fullmatch(full)
        delays = browser.execute_script("return window.__intervals.map(i => i.delay)")
        assert delays and min(delays) <= 60_000, "times are refreshed at least every minute"

        def at(offset_ms):
            browser.execute_script("window.__clockOffset = arguments[0]; window.__intervals.forEach(i => i.callback())", offset_ms)
            return post_date.text

        minute, hour, day = 60_000, 3_600_000, 86_400_000
        assert at(45_000) == "방금 전"
        assert at(3 * minute) == "3분 전"
        assert at(59 * minute) == "59분 전"
        assert at(2 * hour) == "2시간 전"
        assert at(23 * hour) == "23시간 전"
        # A day and a minute later is the calendar day after (unless the post was written in the minute before
        # midnight, when it is two): "어제".
        created_minute = browser.execute_script("const d = new Date(arguments[0]); return d.getHours() * 60 + d.getMinutes()",
                                                post["created_at"])
        if created_minute < 23 * 60 + 58:
            assert at(day + minute) == "어제"
        ten_days = at(10 * day)
        assert re.fullmatch(r"\d{4}/\d{2}/\d{2}", ten_days) and full.startswith(ten_days)
        assert comment_date.text == ten_days, "comments are kept current too"
        assert post_date.get_attribute("title") == full, "the title keeps the full date"

        # The feed's times too.
        browser.execute_script("window.__clockOffset = 0")
        browser.get(server.url("/community"))
        settle_feed(browser)
        card_date = browser.find_element(By.CSS_SELECTOR, "#post-list .post-date")
        assert card_date.text == "방금 전" and DATE.fullmatch(card_date.get_attribute("title"))
        browser.execute_script("window.__clockOffset = 5 * 60000; window.__intervals.forEach(i => i.callback())")
        assert card_date.text == "5분 전"
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
