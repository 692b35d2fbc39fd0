"""Reports and hidden items in the browser: 신고 on other people's community posts and comments, products and board
posts (a dialog with a reason: required, at most 1,000 characters with a counter, keyboard usable), the
confirmation and the report on the server (`sprout report list`), the server's refusals in Korean; the mark an
author sees on their own item a moderator hid (`sprout moderate hide`), while everyone else gets the not-found
panel; and 글쓰기 for a moderator in the read-only 공지사항."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import hold_live_stream, is_shown, log_in, log_out, sample_png, screenshot, text_of, wait

REPORTED = "신고가 접수됐어요. 운영진이 확인할게요."
HIDDEN_LINE = "운영 정책에 따라 다른 사람에게는 보이지 않아요."


# ---- Helpers -----------------------------------------------------------------------------------------

def driver_for(request, size):
    return request.getfixturevalue("browser" if size == "desktop" else "phone")


def settled(driver):
    # In one script: the not-found panel may take the loading line away between two lookups.
    wait(driver, lambda d: d.execute_script(
        "const l = document.getElementById('loading'); return !l || l.hidden || l.offsetParent === null"),
        message="the page never finished loading")


def open_page(driver, server, path):
    driver.get(server.url(path))
    settled(driver)


def dialog_open(driver) -> bool:
    return driver.execute_script("return document.getElementById('report-dialog').open")


def toast(driver) -> str:
    return driver.execute_script("return document.getElementById('flash').textContent")


def open_report(driver, button):
    """Opens the dialog from `button` with the keyboard, as someone without a mouse would."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", button)
    button.send_keys(Keys.ENTER)
    wait(driver, dialog_open, message="the report dialog never opened")
    # The reason takes the focus at once.
    assert driver.switch_to.active_element.get_attribute("id") == "report-reason"


def send_report(driver, reason):
    """Types `reason` and sends it with Ctrl+Enter; waits for the dialog to close and the confirmation."""
    driver.switch_to.active_element.send_keys(reason)
    wait(driver, lambda d: d.find_element(By.ID, "report-submit").is_enabled())
    driver.switch_to.active_element.send_keys(Keys.CONTROL, Keys.ENTER)
    wait(driver, lambda d: not dialog_open(d), message="the dialog stayed open")
    wait(driver, lambda d: toast(d) == REPORTED, message="no confirmation")


def open_reports(server):
    """`sprout report list` as (kind, id, reason) rows."""
    rows = []
    for line in server.sprout("report", "list").splitlines():
        parts = line.split("\t")
        if len(parts) >= 6:
            rows.append((parts[0], int(parts[1]), parts[5]))
    return rows


def hidden_mark(driver, element_id="post-hidden") -> str:
    return driver.find_element(By.ID, element_id).text if is_shown(driver, element_id) else ""


def assert_not_found(driver):
    wait(driver, lambda d: is_shown(d, "error-page"), message="no not-found panel")
    assert text_of(driver, "error-title") == "페이지를 찾을 수 없어요"


def sign_out(driver):
    """The header's log-out, from the menu on a phone."""
    if not driver.find_element(By.ID, "logout-button").is_displayed():
        driver.find_element(By.ID, "menu-button").click()
        wait(driver, lambda d: d.find_element(By.ID, "logout-button").is_displayed())
    log_out(driver)


def no_sideways_scrolling(driver):
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


# ---- Reporting ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_reporting_another_persons_post_and_comment_with_a_reason(request, server, size):
    driver = driver_for(request, size)
    alice = server.community.sign_up("alice")
    bob = server.community.sign_up("bob")
    post = server.community.post(alice, "중고 거래 광고 글")
    theirs = server.community.comment(alice, post["id"], "싸게 팔아요 연락 주세요")
    mine = server.community.comment(bob, post["id"], "광고는 안 돼요")

    log_in(driver, server, "bob", next_path=f"/community/posts/{post['id']}")
    settled(driver)
    # 신고 on alice's post and comment; none on bob's own comment, which has edit and delete instead.
    assert is_shown(driver, "post-report") and not is_shown(driver, "post-actions")
    comment = lambda cid: driver.find_element(By.CSS_SELECTOR, f'#comment-list li[data-id="{cid}"]')
    assert comment(theirs["id"]).find_element(By.CSS_SELECTOR, ".comment-report").is_displayed()
    assert not comment(mine["id"]).find_element(By.CSS_SELECTOR, ".comment-report").is_displayed()
    assert comment(mine["id"]).find_element(By.CSS_SELECTOR, ".comment-actions").is_displayed()

    open_report(driver, driver.find_element(By.ID, "post-report"))
    assert text_of(driver, "report-dialog-title") == "게시물 신고"
    assert text_of(driver, "report-length") == "0/1,000"
    submit = driver.find_element(By.ID, "report-submit")
    assert not submit.is_enabled(), "a reason is required"
    reason = driver.find_element(By.ID, "report-reason")
    reason.send_keys("   ")
    assert not submit.is_enabled(), "spaces are no reason"
    # Over the limit: the counter turns red, says by how much, and the button waits.
    driver.execute_script("const r = arguments[0]; r.value = '가'.repeat(1002); r.dispatchEvent(new Event('input', {bubbles: true}))", reason)
    assert text_of(driver, "report-length") == "1,002/1,000"
    assert text_of(driver, "report-length-error") == "1,000자까지 쓸 수 있어요. 2자를 줄여 주세요."
    assert reason.get_attribute("aria-invalid") == "true" and not submit.is_enabled()
    # The dialog fits the screen, at 390 px too.
    rect = driver.execute_script("return document.getElementById('report-dialog').getBoundingClientRect().toJSON()")
    assert rect["left"] >= 0 and rect["right"] <= driver.execute_script("return window.innerWidth")
    # Escape closes it and gives the focus back to 신고.
    reason.send_keys(Keys.ESCAPE)
    wait(driver, lambda d: not dialog_open(d))
    assert driver.switch_to.active_element.get_attribute("id") == "post-report"

    # Open again for the same post: the reason typed is still there; replaced by a real one and sent.
    open_report(driver, driver.find_element(By.ID, "post-report"))
    assert len(reason.get_attribute("value")) == 1002
    driver.execute_script("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", reason)
    screenshot(driver, f"report-dialog-{size}")
    send_report(driver, "광고 글이에요. 같은 글이 계속 올라와요.")
    assert driver.switch_to.active_element.get_attribute("id") == "post-report"
    screenshot(driver, f"report-sent-{size}")

    # The comment, with the mouse and the 신고하기 button this time.
    button = comment(theirs["id"]).find_element(By.CSS_SELECTOR, ".comment-report")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    wait(driver, dialog_open)
    assert text_of(driver, "report-dialog-title") == "댓글 신고"
    assert driver.find_element(By.ID, "report-reason").get_attribute("value") == "", "another item starts empty"
    driver.find_element(By.ID, "report-reason").send_keys("연락처를 남긴 광고 댓글")
    driver.find_element(By.ID, "report-submit").click()
    wait(driver, lambda d: not dialog_open(d) and toast(d) == REPORTED)
    no_sideways_scrolling(driver)

    reports = open_reports(server)
    assert ("post", post["id"], "광고 글이에요. 같은 글이 계속 올라와요.") in reports
    assert ("comment", theirs["id"], "연락처를 남긴 광고 댓글") in reports


def test_the_servers_refusal_shows_in_korean_in_the_dialog(browser, server):
    alice = server.community.sign_up("alice")
    server.community.sign_up("bob")
    post = server.community.post(alice, "곧 지울 글")
    hold_live_stream(browser)  # else the deletion's event would show the not-found panel before the submit
    log_in(browser, server, "bob", next_path=f"/community/posts/{post['id']}")
    settled(browser)
    open_report(browser, browser.find_element(By.ID, "post-report"))
    # The post goes while the dialog is open: the server has nothing to report any more.
    server.community.delete_post(alice, post["id"])
    browser.switch_to.active_element.send_keys("스팸이에요")
    browser.find_element(By.ID, "report-submit").click()
    wait(browser, lambda d: is_shown(d, "report-error"))
    assert text_of(browser, "report-error") == "신고하지 못했어요. 신고할 내용을 찾을 수 없어요. 삭제되었거나 숨겨졌을 수 있어요."
    assert dialog_open(browser), "the dialog stays, with the reason, for another try or 취소"
    browser.find_element(By.ID, "report-cancel").click()
    wait(browser, lambda d: not dialog_open(d))
    assert open_reports(server) == []


def test_a_product_and_a_board_post_of_someone_else_can_be_reported(browser, server):
    seller = server.community.sign_up("seller")
    vendor = server.market.become_vendor(seller, "새싹상회")
    product = server.market.register(vendor, "수상한 화분", 5000, [("a.png", sample_png())])
    boards = server.board.boards(seller)
    board_post = server.board.write(seller, boards["자유게시판"], "같은 글 반복", "도배 글이에요")
    server.community.sign_up("bob")

    log_in(browser, server, "bob", next_path=f"/market/products/{product['id']}")
    settled(browser)
    assert is_shown(browser, "product-report") and not is_shown(browser, "product-actions")
    open_report(browser, browser.find_element(By.ID, "product-report"))
    assert text_of(browser, "report-dialog-title") == "상품 신고"
    send_report(browser, "가품으로 보여요")

    open_page(browser, server, f"/board/{boards['자유게시판']}/posts/{board_post['postId']}")
    assert is_shown(browser, "post-report") and not is_shown(browser, "post-actions")
    open_report(browser, browser.find_element(By.ID, "post-report"))
    assert text_of(browser, "report-dialog-title") == "게시글 신고"
    send_report(browser, "도배예요")

    reports = open_reports(server)
    assert ("product", product["id"], "가품으로 보여요") in reports
    assert ("board-post", board_post["postId"], "도배예요") in reports

    # Nobody reports their own: the seller sees edit and delete, no 신고.
    log_out(browser)
    log_in(browser, server, "seller", next_path=f"/market/products/{product['id']}")
    settled(browser)
    wait(browser, lambda d: is_shown(d, "product-actions"))
    assert not is_shown(browser, "product-report")
    open_page(browser, server, f"/board/{boards['자유게시판']}/posts/{board_post['postId']}")
    assert is_shown(browser, "post-actions") and not is_shown(browser, "post-report")


def test_signed_out_visitors_get_no_report_button_on_a_product(browser, server):
    seller = server.community.sign_up("seller")
    vendor = server.market.become_vendor(seller, "새싹상회")
    product = server.market.register(vendor, "작은 화분", 5000, [("a.png", sample_png())])
    open_page(browser, server, f"/market/products/{product['id']}")
    wait(browser, lambda d: is_shown(d, "product"))
    assert not is_shown(browser, "product-report")
    assert not browser.find_elements(By.ID, "report-dialog")


# ---- Hidden items --------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_author_sees_a_hidden_post_and_comment_marked_and_others_get_not_found(request, server, size):
    driver = driver_for(request, size)
    alice = server.community.sign_up("alice")
    bob = server.community.sign_up("bob")
    hidden = server.community.post(alice, "숨겨질 글")
    bobs = server.community.post(bob, "밥의 글")
    comment = server.community.comment(alice, bobs["id"], "숨겨질 댓글")
    server.sprout("moderate", "hide", "post", str(hidden["id"]))
    server.sprout("moderate", "hide", "comment", str(comment["id"]))

    log_in(driver, server, "alice", next_path=f"/community/posts/{hidden['id']}")
    settled(driver)
    mark = hidden_mark(driver)
    assert "숨김 처리됨" in mark and HIDDEN_LINE in mark
    assert driver.find_element(By.CSS_SELECTOR, "#post-hidden .badge-hidden").text == "숨김 처리됨"
    assert not is_shown(driver, "post-report"), "no 신고 on one's own post"
    assert is_shown(driver, "post-actions")
    no_sideways_scrolling(driver)
    screenshot(driver, f"hidden-post-author-{size}")
    # The feed lists it for her, marked.
    open_page(driver, server, "/community")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#post-list li[data-id="{hidden["id"]}"]'))
    row = driver.find_element(By.CSS_SELECTOR, f'#post-list li[data-id="{hidden["id"]}"]')
    assert row.find_element(By.CSS_SELECTOR, ".post-hidden").is_displayed()
    other = driver.find_element(By.CSS_SELECTOR, f'#post-list li[data-id="{bobs["id"]}"]')
    assert not other.find_element(By.CSS_SELECTOR, ".post-hidden").is_displayed()
    # Her hidden comment under bob's post, marked, without 신고; bob's post has 신고 for her.
    open_page(driver, server, f"/community/posts/{bobs['id']}")
    item = driver.find_element(By.CSS_SELECTOR, f'#comment-list li[data-id="{comment["id"]}"]')
    assert HIDDEN_LINE in item.find_element(By.CSS_SELECTOR, ".comment-hidden").text
    assert not item.find_element(By.CSS_SELECTOR, ".comment-report").is_displayed()
    assert is_shown(driver, "post-report") and hidden_mark(driver) == ""

    sign_out(driver)
    log_in(driver, server, "bob", next_path=f"/community/posts/{hidden['id']}")
    assert_not_found(driver)
    open_page(driver, server, f"/community/posts/{bobs['id']}")
    assert not driver.find_elements(By.CSS_SELECTOR, f'#comment-list li[data-id="{comment["id"]}"]')
    assert text_of(driver, "comment-count") == "0개"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_hidden_board_post_and_product_are_marked_for_their_author_and_missing_for_others(request, server, size):
    driver = driver_for(request, size)
    seller = server.community.sign_up("seller")
    vendor = server.market.become_vendor(seller, "새싹상회")
    product = server.market.register(vendor, "숨겨질 화분", 5000, [("a.png", sample_png())])
    boards = server.board.boards(seller)
    post = server.board.write(seller, boards["자유게시판"], "숨겨질 게시글", "내용")
    server.community.sign_up("bob")
    server.sprout("moderate", "hide", "product", str(product["id"]))
    server.sprout("moderate", "hide", "board-post", str(post["postId"]))

    log_in(driver, server, "seller", next_path=f"/market/products/{product['id']}")
    settled(driver)
    wait(driver, lambda d: is_shown(d, "product-hidden"))
    assert "숨김 처리됨" in hidden_mark(driver, "product-hidden") and HIDDEN_LINE in hidden_mark(driver, "product-hidden")
    assert not is_shown(driver, "product-report")
    no_sideways_scrolling(driver)
    screenshot(driver, f"hidden-product-vendor-{size}")
    open_page(driver, server, f"/board/{boards['자유게시판']}/posts/{post['postId']}")
    assert "숨김 처리됨" in hidden_mark(driver) and HIDDEN_LINE in hidden_mark(driver)
    assert not is_shown(driver, "post-report")
    screenshot(driver, f"hidden-board-post-writer-{size}")

    sign_out(driver)
    log_in(driver, server, "bob", next_path=f"/market/products/{product['id']}")
    assert_not_found(driver)
    open_page(driver, server, f"/board/{boards['자유게시판']}/posts/{post['postId']}")
    assert_not_found(driver)


# ---- Moderators write in read-only boards ------------------------------------------------------------

def test_a_moderator_gets_write_in_the_notice_board_and_others_do_not(browser, server):
    server.community.sign_up("reader")
    server.community.sign_up("keeper")
    server.sprout("account", "role", "keeper", "moderator")

    def write_link_in_notices(username):
        log_in(browser, server, username, next_path="/board")
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board-menu .board-menu-button"))
        for button in browser.find_elements(By.CSS_SELECTOR, "#board-menu .board-menu-button"):
            if button.find_element(By.CSS_SELECTOR, ".board-menu-name").text == "공지사항":
                button.click()
                break
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '#board-menu .board-menu-button[aria-pressed="true"]')
             .find_element(By.CSS_SELECTOR, ".board-menu-name").text == "공지사항")
        wait(browser, lambda d: d.find_element(By.ID, "post-list").get_attribute("aria-busy") == "false")
        shown = is_shown(browser, "write-link")
        log_out(browser)
        return shown

    assert not write_link_in_notices("reader")
    assert write_link_in_notices("keeper")
