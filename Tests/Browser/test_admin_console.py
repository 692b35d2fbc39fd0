"""The console (/admin) in the browser, at both widths: an admin made with `sprout account create --role admin`
blocks a user with a reason, the user sees the reason when logging in, and the admin finds the block on the audit
page. Against a real server and database."""

import subprocess

import pytest
from selenium.webdriver.common.by import By

from helpers import fill, log_in, log_out, screenshot, text_of, wait


@pytest.fixture(params=["browser", "phone"])
def driver(request, server):
    return request.getfixturevalue(request.param)


def width(driver) -> int:
    return driver.execute_script("return innerWidth")


def click(driver, element_id):
    element = driver.find_element(By.ID, element_id)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()
    return element


def no_sideways_scrolling(driver) -> bool:
    return driver.execute_script("return document.documentElement.scrollWidth") <= width(driver)


def sign_out(driver):
    if width(driver) < 641:
        click(driver, "menu-button")  # on a phone the log-out button is in the menu
    log_out(driver)


def make_admin(binary, server, name):
    subprocess.run(
        [str(binary), "account", "create", name, "--email", f"{name}@example.com", "--password", "password1",
         "--role", "admin", "--data-dir", str(server.data_dir)],
        env=server.env, stdin=subprocess.DEVNULL, check=True, capture_output=True, timeout=60,
    )


def test_an_admin_blocks_a_user_who_then_sees_the_reason_and_the_audit_page_shows_it(driver, server, binary):
    driver.get(server.url("/"))  # a page with the site's viewport first: about:blank is 980 px wide on a phone
    suffix = "d" if width(driver) > 600 else "p"
    make_admin(binary, server, f"chief{suffix}")
    user = server.community.sign_up(f"rowdy{suffix}")
    reason = "광고 글을 계속 올려서 막았어요"

    # The console is not there for a user: the ordinary 404 page, and no link in the header.
    log_in(driver, server, f"rowdy{suffix}")
    assert not driver.find_elements(By.ID, "console-link")
    driver.get(server.url("/admin"))
    assert "페이지를 찾을 수 없어요" in driver.title
    sign_out(driver)

    log_in(driver, server, f"chief{suffix}")
    if width(driver) < 641:
        click(driver, "menu-button")  # on a phone the header's links are in the menu
    click(driver, "console-link")
    wait(driver, lambda d: d.find_elements(By.ID, "app-counts"), message="no overview")
    assert driver.find_element(By.CSS_SELECTOR, "#signups-chart svg[role='img']")
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-overview-{suffix}")

    # Find the user by name, open the account, block it with a reason.
    driver.get(server.url("/admin/accounts"))
    fill(driver, "account-search", f"rowdy{suffix}")
    click(driver, "account-search-submit")
    # The old page's text goes stale as the search's page loads: wait for the new address first.
    wait(driver, lambda d: "q=rowdy" in d.current_url, message="the search was not sent")
    wait(driver, lambda d: "모두 1개" in text_of(d, "accounts-count"), message="search found nothing")
    link = driver.find_element(By.LINK_TEXT, f"rowdy{suffix}")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    wait(driver, lambda d: d.find_elements(By.ID, "block-reason"), message="no account page")
    assert no_sideways_scrolling(driver)
    fill(driver, "block-reason", reason)
    click(driver, "block-submit")
    wait(driver, lambda d: d.find_elements(By.ID, "console-flash"), message="no message after blocking")
    assert "계정을 막았어요" in text_of(driver, "console-flash")
    assert reason in text_of(driver, "account-status")
    screenshot(driver, f"admin-account-blocked-{suffix}")

    # The audit page has the entry: who, what, on whom, the reason among the changes.
    driver.get(server.url("/admin/audit"))
    fill(driver, "audit-action", "account.block")
    click(driver, "audit-filter-submit")
    # The unfiltered page's list goes stale as the filtered page loads: wait for the new address first.
    wait(driver, lambda d: "action=account.block" in d.current_url
         and d.execute_script("return document.readyState") == "complete", message="the filter was not sent")
    wait(driver, lambda d: d.find_elements(By.ID, "audit-list"), message="no audit entries")
    entry = driver.find_element(By.CSS_SELECTOR, "#audit-list .audit-entry")
    assert "account.block" in entry.text
    assert f"account:{user['id']}" in entry.text
    assert f"chief{suffix}" in entry.text
    assert reason in entry.text
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-audit-{suffix}")
    sign_out(driver)

    # The blocked user logs in and is told why.
    driver.get(server.url("/account/login"))
    fill(driver, "login-identifier", f"rowdy{suffix}")
    fill(driver, "login-password", "password1")
    click(driver, "login-submit")
    wait(driver, lambda d: d.find_element(By.ID, "form-error").is_displayed(), message="no refusal shown")
    message = text_of(driver, "form-error")
    assert "관리자가 막아 둔 계정이에요" in message
    assert reason in message
    screenshot(driver, f"admin-blocked-login-{suffix}")


def test_an_admin_backs_up_from_the_console_and_manages_the_board_menu(driver, server, binary):
    driver.get(server.url("/"))  # a page with the site's viewport first: about:blank is 980 px wide on a phone
    suffix = "d" if width(driver) > 600 else "p"
    make_admin(binary, server, f"keeper{suffix}")
    log_in(driver, server, f"keeper{suffix}")

    # Back up now: the page follows the job until its archive is listed for download.
    driver.get(server.url("/admin/backups"))
    click(driver, "backup-start")
    wait(driver, lambda d: d.find_elements(By.ID, "console-flash"), message="no message after starting")
    assert "백업을 시작했어요" in text_of(driver, "console-flash")
    # The page reloads itself while the job runs: look again after each reload.
    wait(driver, lambda d: "data-running" not in d.page_source and d.find_elements(By.CSS_SELECTOR, "#backup-archives a[download]"),
         timeout=60, message="the archive never appeared")
    archive = driver.find_element(By.CSS_SELECTOR, "#backup-archives a[download]")
    assert archive.text.startswith("sprout-backup-") and archive.text.endswith(".tar")
    assert "완료" in driver.find_element(By.ID, "backup-jobs").text
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-backups-{suffix}")

    # A board for announcements only staff write in, first in the menu.
    driver.get(server.url("/admin/boards"))
    name = f"운영 소식 {suffix}"
    fill(driver, "board-new-name", name)
    driver.find_element(By.CSS_SELECTOR, "#board-new-writable option[value='no']").click()
    driver.execute_script("document.getElementById('board-create').requestSubmit()")
    wait(driver, lambda d: d.find_elements(By.ID, "console-flash"), message="no message after creating")
    assert "게시판을 만들었어요" in text_of(driver, "console-flash")
    row = [r for r in driver.find_elements(By.CSS_SELECTOR, "#boards-table tbody tr") if name in r.text][0]
    assert "운영진만" in row.text
    row.find_element(By.XPATH, ".//button[contains(., '맨 위로')]").click()
    wait(driver, lambda d: "board-moved" in d.current_url, message="the move was not sent")
    wait(driver, lambda d: name in d.find_element(By.CSS_SELECTOR, "#boards-table tbody tr").text, message="not moved first")
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-boards-{suffix}")

    # Both changes are in the audit log under this admin.
    driver.get(server.url(f"/admin/audit?actor=keeper{suffix}"))
    text = driver.find_element(By.ID, "audit-list").text
    assert "backup.create" in text and "board.create" in text and "board.move" in text
