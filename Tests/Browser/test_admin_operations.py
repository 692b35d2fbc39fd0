"""The console's operations in the browser, at both widths, against a real server and database: an admin disables,
enables and re-keys a market vendor (/admin/vendors); changes a user's role, signs them out everywhere, sends them a
password-reset mail (read from the test's SMTP sink) and deletes the account after typing their own password again
(/admin/accounts/{id}); archives, unarchives, renames and deletes boards (/admin/boards), with /board's menu and an
archived board's posts checked as a user sees them. Every change is looked up on the audit page (/admin/audit)."""

import urllib.parse

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import smtp_sink
from helpers import fill, is_shown, log_in, screenshot, text_of, wait
# smtp and server_env are fixtures: this module's servers send their mails to the test's sink, as that module's do.
from test_account_settings import bearer_works, other_browser, server_env, signed_in_user, smtp  # noqa: F401
from test_admin_console import click, make_admin, no_sideways_scrolling, sign_out, width
from test_board import settle_list, settle_post

# The machine running these may be busy: a console write is a form POST, a redirect and a whole page.
SLOW = 30


@pytest.fixture(params=["browser", "phone"])
def driver(request, server):
    driver = request.getfixturevalue(request.param)
    driver.get(server.url("/"))  # a page with the site's viewport first: about:blank is 980 px wide on a phone
    return driver


def suffix_of(driver) -> str:
    return "d" if width(driver) > 600 else "p"


def flash_after(driver, query, message):
    """Waits for the page a console form redirects to (`?done=…` or `?error=…` in its address) and its message;
    returns the message. The old page may still show an earlier message while the POST is on its way."""
    wait(driver, lambda d: query in d.current_url, timeout=SLOW, message=f"never reached ?{query}")

    def shown(d):
        try:
            return message in d.find_element(By.ID, "console-flash").text
        except (NoSuchElementException, StaleElementReferenceException):
            return False

    wait(driver, shown, timeout=SLOW, message=f"no message {message!r}")
    return text_of(driver, "console-flash")


def press_in_row(driver, row_id, label):
    """Presses the row's button labelled exactly `label` (the rows' buttons have no ids of their own)."""
    button = driver.find_element(By.XPATH, f"//tr[@id='{row_id}']//button[normalize-space()='{label}']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


def audit_entries(driver, server, **filters) -> list[str]:
    """The audit page's entries (newest first) for the filters (actor, action, target), as text."""
    driver.get(server.url("/admin/audit?" + urllib.parse.urlencode(filters)))
    wait(driver, lambda d: d.find_elements(By.ID, "audit-list") or d.find_elements(By.ID, "audit-empty"),
         timeout=SLOW, message="no audit page")
    return [entry.text for entry in driver.find_elements(By.CSS_SELECTOR, "#audit-list .audit-entry")]


# ---- Vendors -----------------------------------------------------------------------------------------

def test_an_admin_disables_enables_and_rotates_a_vendors_secret_and_the_audit_page_shows_each(driver, server, binary):
    suffix = suffix_of(driver)
    make_admin(binary, server, f"chief{suffix}")
    owner = server.community.sign_up(f"seller{suffix}")
    vendor = server.market.become_vendor(owner, f"새싹상회{suffix}")  # the Market's own sign-up, through its API
    row = f"vendor-{vendor['id']}"

    log_in(driver, server, f"chief{suffix}")
    driver.get(server.url("/admin/vendors"))
    wait(driver, lambda d: d.find_elements(By.ID, row), timeout=SLOW, message="the vendor is not listed")
    assert f"새싹상회{suffix}" in text_of(driver, row)
    assert "정상" in text_of(driver, row)
    assert vendor["secret"] not in driver.page_source, "the console lists no secrets"

    # Disable: the row says so, and the audit page has the change by this admin.
    press_in_row(driver, row, "막기")
    assert "판매자를 막았어요" in flash_after(driver, "done=vendor-disabled", "판매자를 막았어요")
    assert "막힘" in text_of(driver, row)
    assert driver.find_element(By.XPATH, f"//tr[@id='{row}']//button[normalize-space()='막기 풀기']")
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-vendor-disabled-{suffix}")
    entries = audit_entries(driver, server, action="vendor.disable", target=f"vendor:{vendor['id']}")
    assert len(entries) == 1, entries
    assert f"chief{suffix}" in entries[0] and "disabled: false → true" in entries[0]

    # Enable again.
    driver.get(server.url("/admin/vendors"))
    wait(driver, lambda d: d.find_elements(By.ID, row), timeout=SLOW, message="no vendors page")
    press_in_row(driver, row, "막기 풀기")
    flash_after(driver, "done=vendor-enabled", "판매자 막기를 풀었어요")
    assert "정상" in text_of(driver, row) and "막힘" not in text_of(driver, row)

    # A new secret: the old one is gone at once. The console does not show the new one; it says where the vendor
    # sees it (the Market's vendor page), checked below as the vendor.
    press_in_row(driver, row, "새 비밀값")
    flash_after(driver, "done=vendor-secret", "새 비밀값을 만들었어요")
    renewed = server.market.vendor(owner)
    assert renewed["secret"] != vendor["secret"] and renewed["identifier"] == vendor["identifier"]
    assert renewed["secret"] not in driver.page_source
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-vendor-secret-{suffix}")

    text = "\n".join(audit_entries(driver, server, target=f"vendor:{vendor['id']}"))
    assert "vendor.enable" in text and "vendor.rotate-secret" in text and "vendor.disable" in text
    assert renewed["secret"] not in text and vendor["secret"] not in text, "the audit log keeps no secret"
    sign_out(driver)

    # The vendor finds the new secret on their own page.
    log_in(driver, server, f"seller{suffix}", next_path="/market/vendor")
    wait(driver, lambda d: is_shown(d, "vendor-info"), timeout=SLOW, message="no vendor page")
    click(driver, "secret-toggle")
    assert text_of(driver, "vendor-info-secret") == renewed["secret"]
    click(driver, "secret-toggle")  # hidden again for the screenshot
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-vendor-own-page-{suffix}")


# ---- Accounts ----------------------------------------------------------------------------------------

def test_an_admin_changes_a_role_signs_out_everywhere_sends_a_reset_mail_and_deletes_an_account(driver, server, binary, smtp):
    suffix = suffix_of(driver)
    make_admin(binary, server, f"chief{suffix}")
    user = server.community.sign_up(f"helper{suffix}")
    cookie = other_browser(server, f"helper{suffix}", "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0")
    page = f"/admin/accounts/{user['id']}"

    log_in(driver, server, f"chief{suffix}")
    driver.get(server.url(page))
    wait(driver, lambda d: d.find_elements(By.ID, "role-select"), timeout=SLOW, message="no account page")
    assert text_of(driver, "account-role") == "사용자"
    assert driver.find_elements(By.ID, "account-sessions"), "the user's other browser is listed"

    # Role: moderator. The page shows it, the select keeps it, the audit page has account.role.
    Select(driver.find_element(By.ID, "role-select")).select_by_value("moderator")
    click(driver, "role-submit")
    flash_after(driver, "done=role", "역할을 바꿨어요")
    assert text_of(driver, "account-role") == "모더레이터"
    assert Select(driver.find_element(By.ID, "role-select")).first_selected_option.get_attribute("value") == "moderator"
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-account-role-{suffix}")

    # Sign out everywhere: the other browser's session and the app's token both stop working.
    assert bearer_works(server, user["token"]) and signed_in_user(server, cookie) is not None
    click(driver, "sign-out-everywhere")
    flash_after(driver, "done=signed-out", "이 계정을 모든 기기에서 로그아웃시켰어요")
    assert is_shown(driver, "account-sessions-none")
    assert signed_in_user(server, cookie) is None
    assert not bearer_works(server, user["token"])

    # A password-reset mail, to the account's address, with a link to the reset page on this server.
    click(driver, "send-reset")
    flash_after(driver, "done=reset-sent", "비밀번호 재설정 메일을 보냈어요")
    mail = smtp.wait_for(f"helper{suffix}@example.com", timeout=SLOW)[0]
    assert "비밀번호 재설정" in mail["Subject"]
    assert smtp_sink.link_in(mail, "/account/reset-password").startswith(server.url("/account/reset-password?code="))

    text = "\n".join(audit_entries(driver, server, target=f"account:{user['id']}"))
    assert "account.role" in text and "role: user → moderator" in text
    assert "account.sign-out-everywhere" in text
    assert "account.send-password-reset" in text and f"helper{suffix}@example.com" in text

    # Delete: the admin's own password again. A wrong one is refused and nothing is deleted.
    driver.get(server.url(page))
    wait(driver, lambda d: d.find_elements(By.ID, "delete-password"), timeout=SLOW, message="no account page")
    fill(driver, "delete-password", "not-my-password")
    click(driver, "delete-submit")
    message = flash_after(driver, "error=password", "비밀번호가 맞지 않아요")
    assert message == "비밀번호가 맞지 않아요. 계정을 삭제하지 않았어요."
    assert "console-flash-error" in driver.find_element(By.ID, "console-flash").get_attribute("class")
    assert text_of(driver, "console-title") == f"helper{suffix}"
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-account-delete-refused-{suffix}")

    fill(driver, "delete-password", "password1")
    click(driver, "delete-submit")
    flash_after(driver, "done=deleted", "계정을 삭제했어요")
    assert driver.find_elements(By.ID, "account-search"), "back on the accounts list"

    # The search no longer finds it. (The count line should then say "찾은 계정이 없어요."; it says "모두 0개 중"
    # instead: the template's {{^range}} never shows, as the mustache library takes an empty string for true.)
    fill(driver, "account-search", f"helper{suffix}")
    click(driver, "account-search-submit")
    wait(driver, lambda d: f"q=helper{suffix}" in d.current_url
         and d.execute_script("return document.readyState") == "complete", timeout=SLOW, message="the search was not sent")
    assert not driver.find_elements(By.ID, "accounts-table"), "the deleted account is still found"
    assert not driver.find_elements(By.LINK_TEXT, f"helper{suffix}")
    assert text_of(driver, "accounts-count") in ("찾은 계정이 없어요.", "모두 0개 중")
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-account-deleted-{suffix}")
    driver.get(server.url(page))
    assert "페이지를 찾을 수 없어요" in driver.title
    entries = audit_entries(driver, server, action="account.delete", target=f"account:{user['id']}")
    assert len(entries) == 1 and f"chief{suffix}" in entries[0] and f"helper{suffix}" in entries[0], entries


# ---- Boards ------------------------------------------------------------------------------------------

def board_menu(driver, server) -> list[str]:
    """The board names /board's menu offers (textContent: the phone's menu scrolls sideways)."""
    driver.get(server.url("/board"))
    settle_list(driver)
    return driver.execute_script(
        "return [...document.querySelectorAll('#board-menu .board-menu-name')].map(e => e.textContent)")


def test_an_admin_archives_unarchives_renames_and_deletes_boards_but_not_one_with_posts(driver, server, binary):
    suffix = suffix_of(driver)
    make_admin(binary, server, f"chief{suffix}")
    writer = server.community.sign_up(f"writer{suffix}")
    server.sprout("board", "create", "--name", f"동아리 {suffix}")
    server.sprout("board", "create", "--name", f"빈 게시판 {suffix}")
    boards = server.board.boards(writer)
    club, empty = boards[f"동아리 {suffix}"], boards[f"빈 게시판 {suffix}"]
    post_id = server.board.write(writer, club, "동아리 모임 안내", "금요일 저녁 7시에 모여요.")["postId"]

    log_in(driver, server, f"chief{suffix}")
    assert f"동아리 {suffix}" in board_menu(driver, server)

    # Archive: the row says so; /board's menu drops the board, but its post still opens.
    driver.get(server.url("/admin/boards"))
    wait(driver, lambda d: d.find_elements(By.ID, f"board-{club}"), timeout=SLOW, message="no boards page")
    press_in_row(driver, f"board-{club}", "보관")
    flash_after(driver, "done=board-archived", "게시판을 보관했어요")
    assert "보관됨" in text_of(driver, f"board-{club}")
    assert driver.find_element(By.XPATH, f"//tr[@id='board-{club}']//button[normalize-space()='다시 메뉴에']")
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-board-archived-{suffix}")

    assert f"동아리 {suffix}" not in board_menu(driver, server)
    driver.get(server.url(f"/board/{club}/posts/{post_id}"))
    settle_post(driver)
    assert text_of(driver, "post-title-text") == "동아리 모임 안내"
    assert text_of(driver, "post-contents") == "금요일 저녁 7시에 모여요."

    # A board with posts cannot be deleted: the page says why, and the board stays.
    driver.get(server.url("/admin/boards"))
    wait(driver, lambda d: d.find_elements(By.ID, f"board-{club}"), timeout=SLOW, message="no boards page")
    press_in_row(driver, f"board-{club}", "삭제 (빈 게시판만)")
    message = flash_after(driver, "error=board-not-empty", "글이 있는 게시판은 삭제할 수 없어요")
    assert message == "글이 있는 게시판은 삭제할 수 없어요. 보관해 주세요."
    assert driver.find_elements(By.ID, f"board-{club}")
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-board-not-empty-{suffix}")

    # Unarchive: back in the menu.
    press_in_row(driver, f"board-{club}", "다시 메뉴에")
    flash_after(driver, "done=board-unarchived", "게시판을 다시 메뉴에 넣었어요")
    assert "보관됨" not in text_of(driver, f"board-{club}")

    # Rename, in the row's own field.
    fill(driver, f"board-name-{club}", f"동아리 소식 {suffix}")
    press_in_row(driver, f"board-{club}", "이름 바꾸기")
    flash_after(driver, "done=board-renamed", "게시판 이름을 바꿨어요")
    assert f"동아리 소식 {suffix}" in text_of(driver, f"board-{club}")
    assert f"동아리 소식 {suffix}" in board_menu(driver, server)

    # Delete the empty board: its row goes, and so does its place in the menu.
    driver.get(server.url("/admin/boards"))
    wait(driver, lambda d: d.find_elements(By.ID, f"board-{empty}"), timeout=SLOW, message="no boards page")
    press_in_row(driver, f"board-{empty}", "삭제 (빈 게시판만)")
    flash_after(driver, "done=board-deleted", "게시판을 삭제했어요")
    assert not driver.find_elements(By.ID, f"board-{empty}")
    assert driver.find_elements(By.ID, f"board-{club}")
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-boards-after-{suffix}")
    assert f"빈 게시판 {suffix}" not in board_menu(driver, server)

    # Each change is in the audit log under this admin.
    text = "\n".join(audit_entries(driver, server, actor=f"chief{suffix}"))
    for action in ("board.archive", "board.unarchive", "board.rename", "board.delete"):
        assert action in text, f"no {action} in the audit page"
    assert f"name: 동아리 {suffix} → 동아리 소식 {suffix}" in text
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-audit-boards-{suffix}")
