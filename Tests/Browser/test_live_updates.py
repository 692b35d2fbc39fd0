"""Live updates in the browser (GET /api/events through site-live.js): the Community feed's 새 글 N개 button and a
post's comments as they are written, Todos across two windows, the board's and the market's lists, and the
header's 실시간 mark when the stream drops and comes back; and, on PostgreSQL, two people in two browsers served by
two nodes. Desktop, but for that phone: the phone width lays out the same parts (the phone's header mark is checked
in the last test by its state, not its look)."""

import os
import signal
import subprocess
import time
import urllib.parse

from selenium.webdriver.common.by import By

from helpers import fill, is_shown, log_in, sample_png, screenshot, submit_enabled, text_of, wait


def live(driver):
    wait(driver, lambda d: d.execute_script(
        "const e = document.getElementById('live-status'); return e && !e.hidden && e.dataset.state === 'open'"),
        message="the stream never opened")


def feed_ids(driver):
    return [int(i) for i in driver.execute_script(
        "return [...document.querySelectorAll('#post-list li.post-card')].map(e => e.dataset.id)")]


def comment_texts(driver):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#comment-list li.comment .comment-text")]


def test_new_posts_wait_in_a_button_and_comments_appear_under_the_open_post(browser, server):
    alice = server.community.sign_up("alice")
    bob = server.community.sign_up("bob")
    first = server.community.post(bob, "먼저 있던 글")
    log_in(browser, server, "alice")
    wait(browser, lambda d: feed_ids(d) == [first["id"]])
    live(browser)
    assert text_of(browser, "live-status") == "실시간"

    server.community.post(alice, "내가 다른 기기에서 쓴 글")  # the visitor's own: not counted
    newer = server.community.post(bob, "밥이 방금 쓴 글")
    wait(browser, lambda d: is_shown(d, "pending-posts"), message="no 새 글 button")
    assert text_of(browser, "pending-posts") == "새 글 1개"
    assert feed_ids(browser) == [first["id"]], "the list does not move by itself"
    screenshot(browser, "live-feed-pending")
    browser.find_element(By.ID, "pending-posts").click()
    wait(browser, lambda d: feed_ids(d) == [newer["id"], first["id"]])
    assert not is_shown(browser, "pending-posts")

    browser.get(server.url(f"/community/posts/{newer['id']}"))
    wait(browser, lambda d: is_shown(d, "comments-section"))
    live(browser)
    comment = server.community.comment(bob, newer["id"], "실시간 댓글이에요")
    wait(browser, lambda d: comment_texts(d) == ["실시간 댓글이에요"], message="the comment never appeared")
    assert text_of(browser, "comment-count") == "1개"
    status, _ = server.community.request("PUT", f"/comments/{comment['id']}",
                                         {"comment": "고친 댓글이에요", "post": newer["id"]}, bob["token"])
    assert status == 200
    wait(browser, lambda d: comment_texts(d) == ["고친 댓글이에요"], message="the edit never showed")
    status, _ = server.community.request("DELETE", f"/comments/{comment['id']}", token=bob["token"])
    assert status == 200
    wait(browser, lambda d: comment_texts(d) == [], message="the deleted comment stayed")


def test_todos_follow_another_window(browser, server):
    server.community.sign_up("planner")
    log_in(browser, server, "planner", next_path="/todos")
    first = browser.current_window_handle
    live(browser)
    browser.switch_to.new_window("window")
    second = browser.current_window_handle
    try:
        browser.get(server.url("/todos"))
        live(browser)
        browser.find_element(By.ID, "new-title").send_keys("다른 창에서 추가한 일")
        browser.find_element(By.ID, "create-submit").click()
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#todo-list li.todo"))

        browser.switch_to.window(first)
        row = '#todo-list li.todo'
        wait(browser, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, f"{row} .todo-title")] == ["다른 창에서 추가한 일"],
             message="the todo never appeared in the first window")
        browser.find_element(By.CSS_SELECTOR, f"{row} .todo-done").click()
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, row).get_attribute("data-done") == "true")

        browser.switch_to.window(second)
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, row).get_attribute("data-done") == "true",
             message="the other window never saw it done")
        assert browser.find_element(By.CSS_SELECTOR, f"{row} .todo-done").is_selected()
    finally:
        browser.switch_to.window(second)
        browser.close()
        browser.switch_to.window(first)


def test_board_and_market_lists_offer_new_items(browser, server):
    reader = server.community.sign_up("reader")
    writer = server.community.sign_up("writer")
    boards = server.board.boards(reader)
    log_in(browser, server, "reader", next_path="/board")
    wait(browser, lambda d: d.find_element(By.ID, "post-list").get_attribute("aria-busy") == "false")
    live(browser)
    # Another board than the first: the stream follows the menu.
    board_id = boards["자유게시판"]
    browser.find_element(By.CSS_SELECTOR, f'#board-menu .board-menu-button[data-board-id="{board_id}"]').click()
    wait(browser, lambda d: d.find_element(By.ID, "post-list").get_attribute("aria-busy") == "false")
    live(browser)
    post = server.board.write(writer, board_id, "실시간으로 보이는 글", "내용")
    wait(browser, lambda d: is_shown(d, "pending-posts"), message="no 새 글 button on the board")
    assert text_of(browser, "pending-posts") == "새 글 1개"
    browser.find_element(By.ID, "pending-posts").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'#post-list li[data-id="{post["postId"]}"]'),
         message="the new post was not listed")

    vendor = server.market.become_vendor(writer, "새싹상회")
    browser.get(server.url("/market"))
    wait(browser, lambda d: d.find_element(By.ID, "product-list").get_attribute("aria-busy") == "false")
    live(browser)
    product = server.market.register(vendor, "실시간 키보드", 89000, [("k.png", sample_png())], stock=1)
    wait(browser, lambda d: is_shown(d, "pending-products"), message="no 새 상품 button")
    assert text_of(browser, "pending-products") == "새 상품 1개"
    browser.find_element(By.ID, "pending-products").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'#product-list li[data-id="{product["id"]}"]'),
         message="the new product was not listed")


def test_two_people_on_two_nodes_see_each_others_writing_as_it_happens(second_node, browser, phone, server):
    """Alice's desktop browser is served by one node, Bob's phone by another, on one PostgreSQL: what each writes
    through the page reaches the other's open page through the other node's stream. (Two browsers, not two windows
    of one: each has its own cookies.) `second_node` comes first so that both pages are left before it stops."""
    server.community.sign_up("alice")
    server.community.sign_up("bob")
    log_in(browser, server, "alice")
    wait(browser, lambda d: d.find_element(By.ID, "post-list").get_attribute("aria-busy") == "false")
    live(browser)
    log_in(phone, second_node, "bob")
    wait(phone, lambda d: d.find_element(By.ID, "post-list").get_attribute("aria-busy") == "false")
    live(phone)

    browser.find_element(By.ID, "write-link").click()
    wait(browser, lambda d: d.current_url == server.url("/community/write"))
    fill(browser, "post-text-input", "첫 번째 노드에서 쓴 글")
    wait(browser, lambda d: submit_enabled(d, "post-submit"))
    browser.find_element(By.ID, "post-submit").click()
    wait(browser, lambda d: "/community/posts/" in d.current_url)
    post_id = int(browser.current_url.rsplit("/", 1)[1])
    wait(browser, lambda d: is_shown(d, "comments-section"))
    live(browser)

    wait(phone, lambda d: is_shown(d, "pending-posts"), message="Bob's node never offered Alice's post")
    assert text_of(phone, "pending-posts") == "새 글 1개"
    phone.find_element(By.ID, "pending-posts").click()
    wait(phone, lambda d: feed_ids(d) == [post_id])
    phone.get(second_node.url(f"/community/posts/{post_id}"))
    wait(phone, lambda d: is_shown(d, "comments-section"))
    live(phone)
    fill(phone, "comment-text", "두 번째 노드에서 단 댓글")
    wait(phone, lambda d: submit_enabled(d, "comment-submit"))
    phone.find_element(By.ID, "comment-submit").click()
    wait(phone, lambda d: comment_texts(d) == ["두 번째 노드에서 단 댓글"])

    wait(browser, lambda d: comment_texts(d) == ["두 번째 노드에서 단 댓글"], message="Alice's node never showed Bob's comment")
    assert text_of(browser, "comment-count") == "1개"


def restart_after(server, seconds_down):
    """Stops the test's server (SIGTERM: it ends every stream as it shuts down) and starts another on the same port
    and data, as a deploy would; returns that process, for the test to stop."""
    port = urllib.parse.urlsplit(server.base).port
    pattern = f"serve --hostname 127.0.0.1 --port {port} --data-dir {server.data_dir}"
    pid = int(subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True, check=True).stdout.split()[0])
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and subprocess.run(["pgrep", "-f", pattern], capture_output=True).returncode == 0:
        time.sleep(0.1)
    time.sleep(seconds_down)
    process = subprocess.Popen(
        [str(server.binary), "serve", "--hostname", "127.0.0.1", "--port", str(port), "--data-dir", str(server.data_dir)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=server.env)
    return process


def test_the_mark_says_when_the_stream_is_lost_and_back(browser, server):
    server.community.sign_up("watcher")
    log_in(browser, server, "watcher")
    live(browser)
    assert browser.find_element(By.ID, "live-status").get_attribute("aria-live") == "polite"
    lost = "return document.getElementById('live-status').dataset.state === 'lost'"
    restarted = None
    try:
        # Down long enough for the mark to speak (it waits out a short drop), then back.
        browser.execute_script("window.sawLost = false; setInterval(() => { if (document.getElementById('live-status')"
                               ".dataset.state === 'lost') window.sawLost = true; }, 50)")
        restarted = restart_after(server, 4)
        wait(browser, lambda d: d.execute_script("return window.sawLost"), timeout=15,
             message="the mark never said the stream was lost")
        live(browser)
        assert not browser.execute_script(lost)
        assert text_of(browser, "live-status") == "실시간"
    finally:
        # The refused reconnects were logged by the browser itself; the page handled them.
        browser.get("about:blank")
        browser.get_log("browser")
        if restarted:
            restarted.terminate()
            restarted.wait(timeout=10)
