"""Accounts in the browser: sign up, log in, log out (with its confirmation), change password, and the Todos
page showing the signed-in account's own list. Against a real server and database."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import TodosPage, fill, is_shown, log_in, screenshot, signed_in_as, submit_enabled, text_of, wait


def test_sign_up_waits_for_every_field_then_signs_in(browser, server):
    browser.get(server.url("/community"))
    assert is_shown(browser, "sign-in-prompt")
    browser.find_element(By.ID, "signup-link").click()
    wait(browser, lambda d: d.current_url.startswith(server.url("/account/signup")))
    assert not submit_enabled(browser, "signup-submit")
    for field, value in [("signup-username", "새싹농부"), ("signup-email", "farmer@example.com"),
                         ("signup-password", "password1")]:
        fill(browser, field, value)
        assert not submit_enabled(browser, "signup-submit"), f"enabled after only {field}"
    fill(browser, "signup-confirm", "password1")
    wait(browser, lambda d: submit_enabled(d, "signup-submit"))
    # Spaces alone are not a username.
    fill(browser, "signup-username", "   ")
    wait(browser, lambda d: not submit_enabled(d, "signup-submit"))
    fill(browser, "signup-username", "새싹농부")
    screenshot(browser, "account-signup")
    browser.find_element(By.ID, "signup-submit").click()

    wait(browser, lambda d: d.current_url == server.url("/community"))
    wait(browser, lambda d: signed_in_as(d) == "새싹농부")
    assert "새싹농부" in text_of(browser, "flash")
    assert is_shown(browser, "feed")
    # The account exists on the server with that password.
    status, body = server.community.log_in("farmer@example.com", "password1")
    assert status == 200 and body["user"]["username"] == "새싹농부"


def test_sign_up_checks_the_confirmation_before_asking_the_server(browser, server):
    browser.get(server.url("/account/signup"))
    fill(browser, "signup-username", "mismatch")
    fill(browser, "signup-email", "mismatch@example.com")
    fill(browser, "signup-password", "password1")
    fill(browser, "signup-confirm", "password2")
    browser.find_element(By.ID, "signup-submit").click()
    # The mismatch is told beside the confirmation field, which takes the focus.
    wait(browser, lambda d: is_shown(d, "signup-confirm-error"))
    assert text_of(browser, "signup-confirm-error") == "비밀번호가 일치하지 않습니다."
    assert browser.find_element(By.ID, "signup-confirm").get_attribute("aria-invalid") == "true"
    assert browser.switch_to.active_element.get_attribute("id") == "signup-confirm"
    assert not is_shown(browser, "form-error")
    assert server.community.log_in("mismatch", "password1")[0] == 400, "nothing was sent"


def test_a_taken_username_shows_the_servers_message(browser, server):
    server.community.sign_up("taken")
    browser.get(server.url("/account/signup"))
    fill(browser, "signup-username", "taken")
    fill(browser, "signup-email", "someone-else@example.com")
    fill(browser, "signup-password", "password1")
    fill(browser, "signup-confirm", "password1")
    browser.find_element(By.ID, "signup-submit").click()
    # The server's refusal, in Korean alone, under the field it is about.
    wait(browser, lambda d: is_shown(d, "signup-username-error"))
    assert text_of(browser, "signup-username-error") == "이미 사용 중인 아이디예요."
    assert browser.find_element(By.ID, "signup-username").get_attribute("aria-invalid") == "true"
    assert browser.switch_to.active_element.get_attribute("id") == "signup-username"
    assert not is_shown(browser, "form-error")
    assert browser.current_url.startswith(server.url("/account/signup"))
    assert signed_in_as(browser) is None
    # The form can be corrected and sent again.
    assert submit_enabled(browser, "signup-submit")
    screenshot(browser, "account-signup-error")


def test_log_in_shows_errors_then_log_out_asks_first(browser, server):
    server.community.sign_up("gardener")
    browser.get(server.url("/"))
    browser.find_element(By.ID, "login-link").click()
    wait(browser, lambda d: d.current_url == server.url("/account/login?next=/"))
    assert not submit_enabled(browser, "login-submit")
    fill(browser, "login-identifier", "gardener")
    assert not submit_enabled(browser, "login-submit")
    fill(browser, "login-password", "wrong-password")
    browser.find_element(By.ID, "login-submit").click()
    wait(browser, lambda d: is_shown(d, "form-error"))
    assert text_of(browser, "form-error") == "아이디(또는 이메일)나 비밀번호가 맞지 않아요."
    screenshot(browser, "account-login-error")

    fill(browser, "login-password", "password1")
    browser.find_element(By.ID, "login-submit").click()
    wait(browser, lambda d: d.current_url == server.url("/"))
    wait(browser, lambda d: signed_in_as(d) == "gardener")

    # Log out: the dialog asks; cancelling keeps the session.
    browser.find_element(By.ID, "logout-button").click()
    dialog = browser.find_element(By.ID, "logout-dialog")
    wait(browser, lambda d: dialog.is_displayed())
    assert browser.find_element(By.ID, "logout-dialog-title").text == "로그아웃할까요?"
    screenshot(browser, "account-logout-dialog")
    browser.find_element(By.ID, "logout-cancel").click()
    wait(browser, lambda d: not dialog.is_displayed())
    browser.get(server.url("/community"))
    assert signed_in_as(browser) == "gardener" and is_shown(browser, "feed")

    browser.find_element(By.ID, "logout-button").click()
    wait(browser, lambda d: d.find_element(By.ID, "logout-dialog").is_displayed())
    browser.find_element(By.ID, "logout-confirm").click()
    wait(browser, lambda d: d.current_url == server.url("/") and d.find_elements(By.ID, "login-link"))
    assert text_of(browser, "flash") == "로그아웃했어요."
    assert browser.get_cookies() == [] or all(c["name"] != "sprout_session" for c in browser.get_cookies())
    browser.get(server.url("/community"))
    assert is_shown(browser, "sign-in-prompt")


def test_logging_in_from_the_prompt_comes_back_to_the_page(browser, server):
    server.community.sign_up("returning")
    browser.get(server.url("/community/write"))
    browser.find_element(By.ID, "prompt-login").click()
    wait(browser, lambda d: "/account/login?next=" in d.current_url)
    fill(browser, "login-identifier", "returning@example.com")
    fill(browser, "login-password", "password1")
    browser.find_element(By.ID, "login-submit").click()
    wait(browser, lambda d: d.current_url == server.url("/community/write"))
    assert is_shown(browser, "post-form")


def test_change_password(browser, server):
    server.community.sign_up("changer")
    log_in(browser, server, "changer")
    # The name in the header leads to the account's page, which links to the password change.
    browser.find_element(By.ID, "signed-in-as").click()
    wait(browser, lambda d: d.current_url == server.url("/account"))
    browser.find_element(By.ID, "to-password").click()
    wait(browser, lambda d: d.current_url == server.url("/account/password"))
    assert not submit_enabled(browser, "password-submit")

    # A wrong current password: told beside that field, speaking of the password only.
    fill(browser, "password-current", "not-my-password")
    fill(browser, "password-new", "password2")
    assert not submit_enabled(browser, "password-submit")
    fill(browser, "password-confirm", "password2")
    wait(browser, lambda d: submit_enabled(d, "password-submit"))
    browser.find_element(By.ID, "password-submit").click()
    wait(browser, lambda d: is_shown(d, "password-current-error"))
    assert text_of(browser, "password-current-error") == "현재 비밀번호가 맞지 않아요."
    assert browser.find_element(By.ID, "password-current").get_attribute("aria-invalid") == "true"
    assert not is_shown(browser, "form-error")

    # A confirmation that differs is caught before sending; correcting the current password clears its message.
    fill(browser, "password-current", "password1")
    wait(browser, lambda d: not is_shown(d, "password-current-error"))
    fill(browser, "password-confirm", "password3")
    browser.find_element(By.ID, "password-submit").click()
    wait(browser, lambda d: is_shown(d, "password-confirm-error"))
    assert text_of(browser, "password-confirm-error") == "비밀번호가 일치하지 않습니다."

    fill(browser, "password-confirm", "password2")
    screenshot(browser, "account-password")
    browser.find_element(By.ID, "password-submit").click()
    wait(browser, lambda d: d.current_url == server.url("/account"))
    assert text_of(browser, "flash") == "비밀번호를 바꿨어요."
    assert signed_in_as(browser) == "changer", "still signed in"
    assert server.community.log_in("changer", "password2")[0] == 200
    assert server.community.log_in("changer", "password1")[0] == 400


def test_the_todos_page_shows_the_signed_in_accounts_own_list(browser, server):
    server.api.create("모두의 목록에 있는 할 일")
    mine = server.community.sign_up("owner")
    other = server.community.sign_up("neighbour")
    server.community.create_todo(mine, "내 목록의 할 일입니다")
    server.community.create_todo(other, "이웃의 목록에 있는 할 일")

    page = TodosPage(browser, server).open()
    assert page.titles() == ["모두의 목록에 있는 할 일"]
    assert "모두가 함께 쓰는 목록" in text_of(browser, "todos-owner")

    log_in(browser, server, "owner", next_path="/todos")
    page.settle()
    assert page.titles() == ["내 목록의 할 일입니다"]
    assert text_of(browser, "todos-owner").startswith("owner 님의 할 일 목록이에요.")
    # What the page adds goes to this account's list only.
    page.el("new-title").send_keys("로그인해서 추가한 할 일")
    browser.find_element(By.ID, "create-submit").click()
    wait(browser, lambda d: page.titles()[0] == "로그인해서 추가한 할 일")
    assert [t["title"] for t in server.community.todos(mine)] == ["로그인해서 추가한 할 일", "내 목록의 할 일입니다"]
    assert [t["title"] for t in server.api.all()] == ["모두의 목록에 있는 할 일"]
    assert [t["title"] for t in server.community.todos(other)] == ["이웃의 목록에 있는 할 일"]
    screenshot(browser, "todos-signed-in")


def field_state(driver, field_id):
    return driver.execute_script("""
        const field = document.getElementById(arguments[0]);
        const message = document.getElementById(arguments[0] + '-error');
        const shown = message && !message.hidden ? message.textContent : '';
        return {invalid: field.getAttribute('aria-invalid') === 'true', message: shown,
                described: (field.getAttribute('aria-describedby') || '').split(' ').includes(arguments[0] + '-error')};""", field_id)


@pytest.fixture(params=["browser", "phone"])
def driver(request, server):
    return request.getfixturevalue(request.param)


def test_sign_up_checks_every_field_inline_as_the_server_would(driver, server):
    driver.get(server.url("/account/signup"))
    # Passing through an empty field is no mistake yet.
    driver.find_element(By.ID, "signup-username").click()
    driver.find_element(By.ID, "signup-username").send_keys(Keys.TAB)
    assert field_state(driver, "signup-username") == {"invalid": False, "message": "", "described": False}

    # Leaving a field checks it; typing in it afterwards checks again, so the message goes as soon as it is right.
    fill(driver, "signup-username", "ab").send_keys(Keys.TAB)
    assert field_state(driver, "signup-username") == {
        "invalid": True, "message": "아이디는 3자 이상 50자 이하로 정해 주세요. 지금 2자예요.", "described": True}
    driver.find_element(By.ID, "signup-username").send_keys("c")
    assert field_state(driver, "signup-username") == {"invalid": False, "message": "", "described": False}
    # The hint stays part of the field's description.
    assert driver.find_element(By.ID, "signup-username").get_attribute("aria-describedby") == "signup-username-hint"
    # Counted as the server counts: characters as people see them (one emoji with its modifiers is one).
    # (ChromeDriver types only the Basic Multilingual Plane: the emoji are put in as a paste would.)
    field = fill(driver, "signup-username", "")
    driver.execute_script("arguments[0].value = '👩‍👩‍👧‍👦🌱'; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", field)
    field.send_keys(Keys.TAB)
    assert field_state(driver, "signup-username")["message"] == "아이디는 3자 이상 50자 이하로 정해 주세요. 지금 2자예요."
    fill(driver, "signup-email", "farmer@").send_keys(Keys.TAB)
    assert field_state(driver, "signup-email")["message"] == "이메일 주소 형식이 올바르지 않아요. 예: name@example.com"
    fill(driver, "signup-password", "pa$$$$word").send_keys(Keys.TAB)
    assert field_state(driver, "signup-password")["message"] == "비밀번호에 $ 기호는 세 번까지만 쓸 수 있어요."
    # 25 Hangul syllables are 75 bytes, more than bcrypt's 72.
    fill(driver, "signup-password", "가" * 25).send_keys(Keys.TAB)
    assert field_state(driver, "signup-password")["message"] == "비밀번호가 너무 길어요. 영문은 72자, 한글은 24자까지 쓸 수 있어요."

    # On submit every field is checked at once, each with its own message, and the first takes the focus.
    fill(driver, "signup-username", "farmer@example.com")
    fill(driver, "signup-email", "not-an-address")
    fill(driver, "signup-password", "12345")
    fill(driver, "signup-confirm", "54321")
    driver.find_element(By.ID, "signup-submit").click()
    expected = {
        "signup-username": "아이디는 이메일 주소 모양일 수 없어요. 이메일은 아래 칸에 적어 주세요.",
        "signup-email": "이메일 주소 형식이 올바르지 않아요. 예: name@example.com",
        "signup-password": "비밀번호는 6자 이상이어야 해요.",
        "signup-confirm": "비밀번호가 일치하지 않습니다.",
    }
    for field_id, message in expected.items():
        assert field_state(driver, field_id) == {"invalid": True, "message": message, "described": True}, field_id
    assert driver.switch_to.active_element.get_attribute("id") == "signup-username"
    assert not is_shown(driver, "form-error")
    assert driver.execute_script("return document.documentElement.scrollWidth") <= driver.execute_script("return innerWidth")
    screenshot(driver, f"account-signup-inline-{driver.execute_script('return innerWidth')}")
    assert server.community.log_in("farmer@example.com", "12345")[0] == 400, "nothing was sent"

    # The confirmation follows the password: fixing the password to match clears the confirmation's message.
    fill(driver, "signup-password", "54321x")
    fill(driver, "signup-confirm", "54321x")
    assert field_state(driver, "signup-confirm")["message"] == ""
    fill(driver, "signup-password", "543210")
    assert field_state(driver, "signup-confirm")["message"] == "비밀번호가 일치하지 않습니다."


def test_sign_up_puts_a_taken_email_beside_the_email_field(browser, server):
    server.community.sign_up("first")  # first@example.com
    browser.get(server.url("/account/signup"))
    fill(browser, "signup-username", "second")
    fill(browser, "signup-email", "FIRST@example.com")
    fill(browser, "signup-password", "password1")
    fill(browser, "signup-confirm", "password1")
    browser.find_element(By.ID, "signup-submit").click()
    wait(browser, lambda d: field_state(d, "signup-email")["message"])
    assert field_state(browser, "signup-email") == {"invalid": True, "message": "이미 가입된 이메일이에요.", "described": True}
    assert field_state(browser, "signup-username")["invalid"] is False
    assert browser.switch_to.active_element.get_attribute("id") == "signup-email"
    fill(browser, "signup-email", "second@example.com")
    browser.find_element(By.ID, "signup-submit").click()
    wait(browser, lambda d: d.current_url == server.url("/community"))
