"""The account's own pages in the browser: a forgotten password (the mail, read from a real SMTP conversation, and its
link), the account page (/account: username and email, signed-in browsers, the data export, deletion). Against a
real server and database; the server sends its mails to a small SMTP sink of the test's (smtp_sink.py)."""

import json
import urllib.error
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import smtp_sink
from helpers import fill, is_shown, log_in, screenshot, signed_in_as, submit_enabled, text_of, wait


@pytest.fixture
def smtp():
    sink = smtp_sink.SMTPSink()
    yield sink
    sink.close()


@pytest.fixture
def server_env(smtp):
    """Every server of this module sends its mails to the test's sink (the mail worker runs inside `sprout serve`)."""
    return {"SMTP_URL": smtp.url}


@pytest.fixture(params=["browser", "phone"])
def driver(request, server):
    return request.getfixturevalue(request.param)


def width(driver) -> int:
    return driver.execute_script("return innerWidth")


def click(driver, element_id):
    """Clicks a control after scrolling it to the middle of the screen (clear of the sticky header and the toast)."""
    element = driver.find_element(By.ID, element_id)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()
    return element


def field_state(driver, field_id):
    return driver.execute_script("""
        const field = document.getElementById(arguments[0]);
        const message = document.getElementById(arguments[0] + '-error');
        return {invalid: field.getAttribute('aria-invalid') === 'true',
                message: message && !message.hidden ? message.textContent : ''};""", field_id)


def scroll_to(driver, element_id):
    """Brings a section to the top of the screen (below the header) for a screenshot, the toast taken down."""
    driver.execute_script("document.getElementById(arguments[0]).scrollIntoView(); Sprout.clearNotice()", element_id)


def no_sideways_scrolling(driver) -> bool:
    return driver.execute_script("return document.documentElement.scrollWidth") <= width(driver)


def web_request(server, method, path, body=None, cookie=None, user_agent="Python-urllib (tests)"):
    """(status, JSON body, response headers) of a request made as another client would, with its own cookie."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.url(path), data=data, method=method)
    req.add_header("Accept", "application/json")
    req.add_header("User-Agent", user_agent)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if cookie:
        req.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null"), response.headers
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null"), error.headers


def other_browser(server, identifier, user_agent, password="password1") -> str:
    """Signs in through `POST /web/session` as another browser would; returns its cookie (`sprout_session=…`)."""
    status, body, headers = web_request(server, "POST", "/web/session", {"identifier": identifier, "password": password},
                                        user_agent=user_agent)
    assert status == 200, body
    return headers["Set-Cookie"].split(";")[0]


def signed_in_user(server, cookie):
    """Whom the cookie still signs in (`GET /web/session`), or None."""
    return web_request(server, "GET", "/web/session", cookie=cookie)[1]["user"]


def bearer_works(server, token) -> bool:
    return server.community.request("GET", "/users/me", token=token)[0] == 200


IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
          "Version/17.5 Mobile/15E148 Safari/604.1")
WINDOWS_EDGE = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 "
                "Safari/537.36 Edg/126.0.0.0")


# ---- A forgotten password ------------------------------------------------------------------------------------

def test_a_forgotten_password_is_reset_through_the_mailed_link(driver, server, smtp):
    account = server.community.sign_up("forgetful", password="password1")
    address = "forgetful@example.com"
    driver.get(server.url("/account/login"))
    click(driver, "to-forgot")
    wait(driver, lambda d: d.current_url == server.url("/account/forgot-password"))
    assert not submit_enabled(driver, "forgot-submit")

    # The form checks the address as the server would, before anything is sent.
    fill(driver, "forgot-email", "forgetful@example").send_keys(Keys.TAB)
    assert field_state(driver, "forgot-email") == {"invalid": True, "message": "이메일 주소 형식이 올바르지 않아요. 예: name@example.com"}

    # An address without an account gets the same answer as one with: nothing tells them apart.
    fill(driver, "forgot-email", "nobody@example.com")
    assert field_state(driver, "forgot-email")["invalid"] is False
    click(driver, "forgot-submit")
    wait(driver, lambda d: is_shown(d, "forgot-sent"))
    unknown_answer = text_of(driver, "forgot-sent-text")
    assert unknown_answer == ("“nobody@example.com” 주소로 가입한 계정이 있다면 비밀번호를 새로 정하는 링크가 곧 도착해요. "
                              "링크는 한 시간 동안 쓸 수 있어요.")
    assert not is_shown(driver, "forgot-form")
    assert driver.switch_to.active_element.get_attribute("id") == "forgot-sent-title"

    click(driver, "forgot-again")
    assert is_shown(driver, "forgot-form") and not is_shown(driver, "forgot-sent")
    fill(driver, "forgot-email", f"  {address.upper()} ")  # trimmed; the server lowercases
    click(driver, "forgot-submit")
    wait(driver, lambda d: is_shown(d, "forgot-sent"))
    assert text_of(driver, "forgot-sent-text") == unknown_answer.replace("nobody@example.com", address.upper())
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"account-forgot-sent-{width(driver)}")

    # The mail: one, to the account's address, with a link to the reset page on this server.
    mail = smtp.wait_for(address)[0]
    assert "비밀번호 재설정" in mail["Subject"]
    link = smtp_sink.link_in(mail, "/account/reset-password")
    assert link.startswith(server.url("/account/reset-password?code="))
    assert smtp.to("nobody@example.com") == []

    driver.get(link)
    assert driver.find_element(By.ID, "auth-title").text == "비밀번호 재설정"
    assert not submit_enabled(driver, "reset-submit")
    # The sign-up's rules, checked as fields are left and on submit.
    fill(driver, "reset-password", "short").send_keys(Keys.TAB)
    assert field_state(driver, "reset-password") == {"invalid": True, "message": "비밀번호는 6자 이상이어야 해요."}
    fill(driver, "reset-password", "새비밀번호123")
    fill(driver, "reset-confirm", "새비밀번호124")
    wait(driver, lambda d: submit_enabled(d, "reset-submit"))
    click(driver, "reset-submit")
    wait(driver, lambda d: field_state(d, "reset-confirm")["invalid"])
    assert field_state(driver, "reset-confirm")["message"] == "비밀번호가 일치하지 않습니다."
    assert driver.switch_to.active_element.get_attribute("id") == "reset-confirm"
    assert server.community.log_in(address, "새비밀번호123")[0] == 400, "nothing was sent"

    fill(driver, "reset-confirm", "새비밀번호123")
    assert field_state(driver, "reset-confirm")["invalid"] is False
    screenshot(driver, f"account-reset-{width(driver)}")
    click(driver, "reset-submit")

    # Not signed in by the answer's token: the browser logs in with its cookie, after a word on where it is.
    wait(driver, lambda d: d.current_url == server.url("/account/login"))
    assert text_of(driver, "flash") == "비밀번호를 새로 정했어요. 새 비밀번호로 로그인해 주세요."
    assert signed_in_as(driver) is None
    assert server.community.log_in(address, "password1")[0] == 400, "the old password no longer works"
    assert not bearer_works(server, account["token"]), "the reset ended the tokens issued before"
    log_in(driver, server, "forgetful", "새비밀번호123")
    assert signed_in_as(driver) == "forgetful"

    # The link is spent: the page says so and offers a new mail.
    driver.get(link)
    fill(driver, "reset-password", "또다른비밀번호")
    fill(driver, "reset-confirm", "또다른비밀번호")
    click(driver, "reset-submit")
    wait(driver, lambda d: is_shown(d, "reset-expired"))
    assert not is_shown(driver, "reset-form")
    assert text_of(driver, "reset-expired-title") == "이 링크는 더 쓸 수 없어요"
    assert driver.switch_to.active_element.get_attribute("id") == "reset-expired-title"
    assert driver.find_element(By.ID, "reset-ask-again").get_attribute("href") == server.url("/account/forgot-password")
    screenshot(driver, f"account-reset-spent-{width(driver)}")
    assert server.community.log_in(address, "또다른비밀번호")[0] == 400


def test_a_reset_link_cut_short_or_made_up(driver, server):
    driver.get(server.url("/account/reset-password"))
    assert is_shown(driver, "reset-incomplete")
    assert text_of(driver, "reset-incomplete-title") == "링크가 완전하지 않아요"
    assert not driver.find_elements(By.ID, "reset-form")
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"account-reset-incomplete-{width(driver)}")
    click(driver, "reset-ask-again")
    wait(driver, lambda d: d.current_url == server.url("/account/forgot-password"))

    driver.get(server.url("/account/reset-password?code=made-up"))
    fill(driver, "reset-password", "password2")
    fill(driver, "reset-confirm", "password2")
    click(driver, "reset-submit")
    wait(driver, lambda d: is_shown(d, "reset-expired"))
    assert not is_shown(driver, "form-error")


def test_asking_too_often_for_a_mail_is_told_in_korean(browser, server, smtp):
    server.community.sign_up("often")
    for _ in range(3):  # three mails an hour to one address
        assert web_request(server, "POST", "/auth/forgot-password", {"email": "often@example.com"})[0] == 200
    browser.get(server.url("/account/forgot-password"))
    fill(browser, "forgot-email", "often@example.com")
    click(browser, "forgot-submit")
    wait(browser, lambda d: is_shown(d, "form-error"))
    assert text_of(browser, "form-error") == "메일을 너무 여러 번 요청했어요. 한 시간쯤 뒤에 다시 해 주세요."
    assert not is_shown(browser, "forgot-sent")
    assert submit_enabled(browser, "forgot-submit"), "the form may be sent again"


# ---- The account page ----------------------------------------------------------------------------------------

def test_the_account_page_needs_an_account_and_is_linked_from_the_header(browser, server):
    browser.get(server.url("/account"))
    wait(browser, lambda d: d.current_url == server.url("/account/login?next=/account"))
    server.community.sign_up("headed")
    fill(browser, "login-identifier", "headed")
    fill(browser, "login-password", "password1")
    click(browser, "login-submit")
    wait(browser, lambda d: d.current_url == server.url("/account"))
    assert browser.find_element(By.ID, "account-title").text == "내 계정"
    assert browser.find_element(By.ID, "profile-username").get_attribute("value") == "headed"
    assert browser.find_element(By.ID, "profile-email").get_attribute("value") == "headed@example.com"
    browser.get(server.url("/todos"))
    click(browser, "signed-in-as")
    wait(browser, lambda d: d.current_url == server.url("/account"))
    # Every control has a name, on this page and on the forgotten password's.
    unnamed = """
        const named = (e) => e.labels?.length || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby')
                              || (e.tagName === 'BUTTON' && e.textContent.trim());
        return [...document.querySelectorAll('input, button, select, textarea')].filter(e => !named(e)).map(e => e.outerHTML);"""
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#session-list .session"))
    for path in ["/account", "/account/forgot-password", "/account/reset-password?code=x"]:
        browser.get(server.url(path))
        wait(browser, lambda d: d.execute_script("return document.readyState") == "complete")
        assert browser.execute_script(unnamed) == [], path


def session_rows(driver):
    return driver.execute_script("""
        return [...document.querySelectorAll('#session-list .session')].map(row => ({
            id: row.dataset.id, name: row.querySelector('.session-name').textContent,
            current: !row.querySelector('.session-current').hidden,
            address: row.querySelector('.session-address').textContent,
            seen: row.querySelector('.session-seen').textContent,
            end: row.querySelector('.session-end')?.getAttribute('aria-label') ?? null}))""")


def test_signed_in_browsers_are_listed_and_can_be_signed_out(driver, server):
    account = server.community.sign_up("devices")
    phone_cookie = other_browser(server, "devices", IPHONE)
    desk_cookie = other_browser(server, "devices", WINDOWS_EDGE)
    log_in(driver, server, "devices", next_path="/account")
    wait(driver, lambda d: len(session_rows(d)) == 3, message="three sessions never listed")

    rows = session_rows(driver)
    # This browser first (headless Chromium on Linux), marked and without a button; then the others, newest first.
    assert rows[0] == {"id": rows[0]["id"], "name": "Chrome · Linux", "current": True, "address": "IP 127.0.0.1",
                       "seen": "지금 사용 중", "end": None}
    assert [row["name"] for row in rows[1:]] == ["Edge · Windows", "Safari · iPhone"]
    for row in rows[1:]:
        assert row["current"] is False and row["address"] == "IP 127.0.0.1" and row["seen"] == "마지막 사용 방금 전"
        assert row["end"] == f"{row['name']} 로그아웃"
    assert driver.find_element(By.CSS_SELECTOR, "#session-list .session.is-current .session-current").text == "이 기기"
    assert no_sideways_scrolling(driver)
    scroll_to(driver, "sessions")
    screenshot(driver, f"account-sessions-{width(driver)}")

    # One browser signed out from here: its row goes, its cookie stops working, the others stay.
    phone_row = driver.find_element(By.CSS_SELECTOR, f'#session-list .session[data-id="{rows[2]["id"]}"] .session-end')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", phone_row)
    phone_row.click()
    wait(driver, lambda d: len(session_rows(d)) == 2)
    assert text_of(driver, "flash") == "Safari · iPhone에서 로그아웃시켰어요."
    assert signed_in_user(server, phone_cookie) is None
    assert signed_in_user(server, desk_cookie)["username"] == "devices"
    assert "session-end" in driver.switch_to.active_element.get_attribute("class"), "the focus stays in the list"

    # Everywhere else: asked first; cancelling changes nothing.
    click(driver, "sessions-end-all")
    dialog = driver.find_element(By.ID, "sessions-dialog")
    wait(driver, lambda d: dialog.is_displayed())
    assert text_of(driver, "sessions-dialog-title") == "모든 기기에서 로그아웃할까요?"
    screenshot(driver, f"account-sessions-dialog-{width(driver)}")
    driver.find_element(By.ID, "sessions-cancel").click()
    wait(driver, lambda d: not dialog.is_displayed())
    assert signed_in_user(server, desk_cookie) is not None and bearer_works(server, account["token"])

    click(driver, "sessions-end-all")
    wait(driver, lambda d: dialog.is_displayed())
    driver.find_element(By.ID, "sessions-confirm").click()
    wait(driver, lambda d: len(session_rows(d)) == 1)
    assert session_rows(driver)[0]["current"] is True
    assert text_of(driver, "flash") == "다른 모든 기기와 앱에서 로그아웃시켰어요. 이 브라우저는 그대로예요."
    assert signed_in_user(server, desk_cookie) is None
    assert not bearer_works(server, account["token"]), "the apps' tokens end too"
    # This browser is still signed in.
    driver.get(server.url("/account"))
    assert signed_in_as(driver) == "devices"
    wait(driver, lambda d: len(session_rows(d)) == 1)


def test_the_username_changes_at_once_and_the_email_after_its_confirmation(driver, server, smtp):
    server.community.sign_up("before")
    server.community.sign_up("taken")
    log_in(driver, server, "before", next_path="/account")
    assert submit_enabled(driver, "profile-submit")

    # Nothing changed: nothing to send.
    click(driver, "profile-submit")
    wait(driver, lambda d: is_shown(d, "profile-error"))
    assert text_of(driver, "profile-error") == "바꾼 내용이 없어요."

    # The rules of sign-up, beside each field, before anything is sent; then the server's refusals, there too.
    fill(driver, "profile-username", "ab")
    fill(driver, "profile-email", "before@example")
    click(driver, "profile-submit")
    wait(driver, lambda d: field_state(d, "profile-username")["invalid"])
    assert field_state(driver, "profile-username")["message"] == "아이디는 3자 이상 50자 이하로 정해 주세요. 지금 2자예요."
    assert field_state(driver, "profile-email")["message"] == "이메일 주소 형식이 올바르지 않아요. 예: name@example.com"
    assert not is_shown(driver, "profile-error")
    fill(driver, "profile-username", "taken")
    fill(driver, "profile-email", "before@example.com")
    click(driver, "profile-submit")
    wait(driver, lambda d: field_state(d, "profile-username")["message"] == "이미 사용 중인 아이디예요.")
    assert driver.switch_to.active_element.get_attribute("id") == "profile-username"
    fill(driver, "profile-username", "before")
    fill(driver, "profile-email", "TAKEN@example.com")
    click(driver, "profile-submit")
    wait(driver, lambda d: field_state(d, "profile-email")["message"] == "이미 가입된 이메일이에요.")
    assert smtp.to("taken@example.com") == []

    # A new username: at once, everywhere on the page (the header too).
    fill(driver, "profile-email", "before@example.com")
    fill(driver, "profile-username", "새이름")
    click(driver, "profile-submit")
    wait(driver, lambda d: signed_in_as(d) == "새이름")
    assert text_of(driver, "flash") == "아이디를 “새이름”으로 바꿨어요."
    assert text_of(driver, "account-name") == "새이름"
    assert server.community.log_in("새이름", "password1")[0] == 200

    # A new email address: a mail to it, and until its link is used the old address stays.
    fill(driver, "profile-email", "after@example.com")
    click(driver, "profile-submit")
    wait(driver, lambda d: is_shown(d, "profile-email-pending"))
    note = "“after@example.com” 주소로 확인 메일을 보냈어요. 메일의 링크를 열면 이메일이 바뀌어요. 그때까지는 지금 주소를 그대로 써요."
    assert text_of(driver, "profile-email-pending") == note
    assert text_of(driver, "flash") == "“after@example.com” 주소로 확인 메일을 보냈어요."
    assert driver.find_element(By.ID, "profile-email").get_attribute("value") == "before@example.com"
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"account-profile-pending-{width(driver)}")
    assert server.community.log_in("after@example.com", "password1")[0] == 400
    driver.refresh()
    wait(driver, lambda d: is_shown(d, "profile-email-pending"))
    assert text_of(driver, "profile-email-pending") == note, "still told after a reload"

    mail = smtp.wait_for("after@example.com")[0]
    assert "이메일 주소 확인" in mail["Subject"]
    link = smtp_sink.link_in(mail, "/auth/email-confirmation")
    driver.get(link)
    # The link lands on this page, which says so once (the query goes from the address).
    wait(driver, lambda d: d.current_url == server.url("/account"))
    assert text_of(driver, "flash") == "이메일 주소를 확인했어요."
    assert driver.find_element(By.ID, "profile-email").get_attribute("value") == "after@example.com"
    assert not is_shown(driver, "profile-email-pending")
    assert server.community.log_in("after@example.com", "password1")[0] == 200
    screenshot(driver, f"account-email-confirmed-{width(driver)}")


def test_the_data_export_is_a_download_of_the_accounts_archive(browser, server):
    account = server.community.sign_up("exporter")
    server.community.create_todo(account, "내보낼 할 일입니다")
    log_in(browser, server, "exporter", next_path="/account")
    link = browser.find_element(By.ID, "export-link")
    assert link.text == "내 데이터 내려받기"
    assert link.get_attribute("href") == server.url("/users/me/export")
    assert link.get_attribute("download") is not None
    # What the link gets, with this browser's cookie.
    answer = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/users/me/export', {credentials: 'same-origin'}).then(async (r) => done({
            status: r.status, type: r.headers.get('Content-Type'), disposition: r.headers.get('Content-Disposition'),
            text: new TextDecoder().decode(await r.arrayBuffer())}));""")
    assert answer["status"] == 200
    assert answer["type"] == "application/x-tar"
    assert answer["disposition"].startswith("attachment; filename=")
    assert "내보낼 할 일입니다" in answer["text"]


def test_deleting_the_account_asks_for_the_password_and_a_confirmation(driver, server):
    account = server.community.sign_up("leaving")
    log_in(driver, server, "leaving", next_path="/account")
    driver.execute_script("localStorage.setItem(arguments[0], '1'); localStorage.setItem('sprout.board.last@999999', '2')",
                          f"sprout.board.last@{account['id']}")
    assert not submit_enabled(driver, "delete-submit")
    fill(driver, "delete-password", "wrong-password")
    wait(driver, lambda d: submit_enabled(d, "delete-submit"))

    # Cancelling the confirmation sends nothing.
    click(driver, "delete-submit")
    dialog = driver.find_element(By.ID, "account-delete-dialog")
    wait(driver, lambda d: dialog.is_displayed())
    assert text_of(driver, "account-delete-dialog-title") == "계정을 삭제할까요?"
    screenshot(driver, f"account-delete-dialog-{width(driver)}")
    driver.find_element(By.ID, "account-delete-cancel").click()
    wait(driver, lambda d: not dialog.is_displayed())
    wait(driver, lambda d: submit_enabled(d, "delete-submit"))
    assert driver.switch_to.active_element.get_attribute("id") == "delete-submit"

    # A wrong password: told beside the field; the account stays.
    click(driver, "delete-submit")
    wait(driver, lambda d: dialog.is_displayed())
    driver.find_element(By.ID, "account-delete-confirm").click()
    wait(driver, lambda d: field_state(d, "delete-password")["invalid"])
    assert field_state(driver, "delete-password")["message"] == "비밀번호가 맞지 않아요."
    assert driver.switch_to.active_element.get_attribute("id") == "delete-password"
    assert not is_shown(driver, "delete-error")
    assert bearer_works(server, account["token"])
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"account-delete-wrong-password-{width(driver)}")

    fill(driver, "delete-password", "password1")
    assert field_state(driver, "delete-password")["invalid"] is False
    click(driver, "delete-submit")
    wait(driver, lambda d: dialog.is_displayed())
    driver.find_element(By.ID, "account-delete-confirm").click()
    wait(driver, lambda d: d.current_url == server.url("/"))
    assert text_of(driver, "flash") == "계정을 삭제했어요."
    assert signed_in_as(driver) is None
    assert server.community.log_in("leaving", "password1")[0] == 400
    assert not bearer_works(server, account["token"])
    # What this browser kept for the account went with it; another account's stays.
    kept = driver.execute_script("return Object.keys(localStorage)")
    assert f"sprout.board.last@{account['id']}" not in kept and "sprout.board.last@999999" in kept
