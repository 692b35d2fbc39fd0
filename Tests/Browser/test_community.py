"""The Community in the browser: the feed (newest or oldest first, paging), a post with its comments, writing,
editing and deleting posts and comments with owner-only controls and delete confirmations."""

import re

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import fill, is_shown, log_in, log_out, screenshot, submit_enabled, text_of, wait

DATE = re.compile(r"\d{4}/\d{2}/\d{2} (오전|오후) \d{2}:\d{2}( \(수정됨\))?")


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
    assert DATE.fullmatch(first.find_element(By.CSS_SELECTOR, ".post-date").text)
    second = browser.find_elements(By.CSS_SELECTOR, "#post-list li.post-card")[1]
    assert second.find_element(By.CSS_SELECTOR, ".post-author").text == "bob"
    assert second.find_element(By.CSS_SELECTOR, ".post-comments").text == "댓글 0개"
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "community-feed")

    # "더 보기" fetches the rest; then the end is said and the button goes.
    assert is_shown(browser, "more") and not is_shown(browser, "list-end")
    browser.find_element(By.ID, "more").click()
    wait(browser, lambda d: len(feed_ids(d)) == 25)
    settle_feed(browser)
    assert feed_ids(browser) == newest_first
    assert is_shown(browser, "list-end") and not is_shown(browser, "more")

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
    assert is_shown(browser, "list-empty") and not is_shown(browser, "more")


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
    assert DATE.fullmatch(text_of(browser, "post-date")) and text_of(browser, "post-date").endswith("(수정됨)")
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
    assert DATE.fullmatch(row.find_element(By.CSS_SELECTOR, ".comment-date").text)
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
    log_in(browser, server, "reader", next_path=f"/community/posts/{post['id']}")
    settle_post(browser)
    server.community.delete_post(author, post["id"])
    fill(browser, "comment-text", "사라진 글에 다는 댓글")
    browser.find_element(By.ID, "comment-submit").click()
    wait(browser, lambda d: is_shown(d, "comment-error"))
    assert text_of(browser, "comment-error") == f"댓글을 등록하지 못했어요.. post {post['id']} does not exist."
    assert comment_rows(browser) == []

    browser.get(server.url(f"/community/posts/{post['id']}"))
    wait(browser, lambda d: is_shown(d, "notice"))
    assert text_of(browser, "notice") == "게시물을 찾을 수 없어요. 삭제되었을 수 있어요."


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
