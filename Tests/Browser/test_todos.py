"""The Todos app in the browser: every feature of REST_TODO's table, against a real server and database."""

import json
import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import Api
from helpers import TodosPage, hold_live_stream, log_in, screenshot, wait

DAILY = [
    ("아침 운동 30분 하기", True), ("장보기 목록 정리하기", False), ("Swift Concurrency 문서 읽기", False),
    ("치과 예약 확인하기", True), ("주간 회의 자료 준비하기", False), ("장보기: 우유와 달걀 사기", False),
    ("블로그 글 초안 쓰기", False), ("세탁소에서 코트 찾아오기", True), ("여행 일정표 공유하기", False),
    ("화분에 물 주기 (베란다)", False), ("도서관 책 반납하기", True), ("저녁 식단 계획 세우기", False),
]


def seed_daily(api):
    return [api.create(title, done) for title, done in DAILY]


def seed_numbered(api, count):
    return [api.create(f"번호 붙은 할 일 {n:02d}") for n in range(1, count + 1)]


def local_date(created_at, zone):
    return datetime.fromisoformat(created_at).astimezone(ZoneInfo(zone)).strftime("%Y.%m.%d")


def status_text(page):
    """The page's message: site.js's toast, where confirmations show and fade."""
    return page.el("flash").text


class AccountTodos(Api):
    """The Todos API with an account's Bearer token: that account's own list, which the signed-in page shows."""

    def __init__(self, server, account):
        super().__init__(server.base)
        self.community = server.community
        self.account = account

    def request(self, method: str, path: str, body=None):
        return self.community.request(method, "/api/v2" + path, body, self.account["token"])


def sign_in_mine(driver, server, username="todoowner"):
    """Signs `driver` in (anonymous visitors only read the shared list) and gives that account's todos."""
    account = server.community.sign_up(username)
    log_in(driver, server, username, next_path="/todos")
    return AccountTodos(server, account)


@pytest.fixture
def mine(browser, server):
    return sign_in_mine(browser, server)


def test_list_is_newest_first_with_dates_and_done_marks(browser, server, mine):
    todos = seed_daily(mine)
    page = TodosPage(browser, server).open()
    newest_first = list(reversed(todos))
    titles = page.titles()
    # Whole pages of 10: the first, or both when the first leaves the end of the list in view.
    assert len(titles) in (10, 12)
    assert titles == [t["title"] for t in newest_first[:len(titles)]]
    assert page.el("todo-count").text == f"{len(todos)}개"
    zone = browser.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone")
    for row, todo in zip(page.rows(), newest_first):
        date = row.find_element(By.CSS_SELECTOR, ".todo-date")
        assert re.fullmatch(r"\d{4}\.\d{2}\.\d{2}", date.text)
        assert date.text == local_date(todo["created_at"], zone)
        assert ("is-done" in row.get_attribute("class")) == todo["is_done"]
        assert row.find_element(By.CSS_SELECTOR, ".todo-done").is_selected() == todo["is_done"]
    # Star one so the screenshot shows what a favourite looks like.
    page.row("장보기: 우유와 달걀 사기").find_element(By.CSS_SELECTOR, ".todo-star").click()
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "todos-list")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_signed_out_visitors_read_the_shared_list_only_and_are_invited_to_their_own(request, server, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    seed_daily(server.api)  # anonymous API writes still work: the shared list, as the apps' learning contract says
    page = TodosPage(driver, server).open()
    assert len(page.titles()) >= 10
    # Nothing on the page changes the shared list.
    for absent in ("#create-form", "#new-title", "#todo-list .todo-done", "#todo-list .todo-edit", "#todo-list .todo-delete",
                   "#delete-dialog"):
        assert driver.find_elements(By.CSS_SELECTOR, absent) == [], absent
    # Done or not is still shown, to the eye and to a screen reader.
    done = page.row("세탁소에서 코트 찾아오기").find_element(By.CSS_SELECTOR, ".todo-done-mark")
    assert done.get_attribute("aria-label") == "완료" and done.text == "✓"
    assert page.row("여행 일정표 공유하기").find_element(By.CSS_SELECTOR, ".todo-done-mark").get_attribute("aria-label") == "미완료"
    assert "읽기만" in page.el("todos-owner").text
    login, signup = page.el("todos-login"), page.el("todos-signup")
    assert login.get_attribute("href") == server.url("/account/login?next=/todos")
    assert signup.get_attribute("href") == server.url("/account/signup?next=/todos")
    for link in (login, signup):
        rect = driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", link)
        assert rect["right"] <= driver.execute_script("return innerWidth") and rect["height"] >= 36
    assert driver.execute_script("return document.documentElement.scrollWidth") <= driver.execute_script("return innerWidth")
    driver.execute_script("window.scrollTo(0, 0)")
    screenshot(driver, f"todos-signed-out-{size}")

    # Signing up from the invitation comes back to the visitor's own (empty) list, with the whole app.
    signup.click()
    wait(driver, lambda d: d.find_elements(By.ID, "signup-username"))
    for field, value in (("signup-username", "newgardener"), ("signup-email", "newgardener@example.com"),
                         ("signup-password", "password1"), ("signup-confirm", "password1")):
        driver.find_element(By.ID, field).send_keys(value)
    driver.find_element(By.ID, "signup-submit").click()
    wait(driver, lambda d: d.current_url == server.url("/todos") and d.find_elements(By.ID, "create-form"))
    page.settle()
    assert page.titles() == [] and page.el("todos-owner").text.startswith("newgardener 님의")
    assert not driver.find_elements(By.ID, "todos-invite")


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_dates_are_shown_in_the_viewers_time_zone(browser, server, zone):
    todo = server.api.create("시간대를 확인할 할 일")
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": zone})
    try:
        page = TodosPage(browser, server).open()
        shown = page.row_by_id(todo["id"]).find_element(By.CSS_SELECTOR, ".todo-date").text
        # UTC+14 and UTC-11 are 25 hours apart: whatever the hour, the two zones see different dates.
        assert shown == local_date(todo["created_at"], zone)
    finally:
        browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})


def test_infinite_scroll_loads_each_page_with_a_loading_state_until_the_end(browser, server):
    todos = seed_numbered(server.api, 32)
    page = TodosPage(browser, server).open()
    first = len(page.rows())
    assert first in (10, 20), "the first screen shows whole pages"
    assert not page.shown("list-end") and not page.shown("loading")

    # Slow the network so the loading state can be seen, then scroll to the bottom.
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 800, "downloadThroughput": -1, "uploadThroughput": -1})
    page.scroll_to_bottom()
    wait(browser, lambda d: page.shown("loading"), message="no loading state while the next page loads")
    assert page.el("loading").text == "불러오는 중…"
    assert page.el("todo-list").get_attribute("aria-busy") == "true"
    page.settle()
    assert len(page.rows()) > first
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    page.load_everything(32)
    assert page.titles() == [t["title"] for t in reversed(todos)], "all 32, newest first, none twice"
    assert page.el("list-end").text == "모두 불러왔어요 · 32개"
    assert not page.shown("loading")
    # At the end, scrolling further asks for nothing more.
    requests_before = browser.execute_script("return performance.getEntriesByType('resource').length")
    page.scroll_to_bottom()
    page.settle()
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == requests_before
    screenshot(browser, "todos-end-of-list")


def test_create_puts_the_new_todo_on_top_and_saves_it(browser, server, mine):
    seed_numbered(mine, 3)
    page = TodosPage(browser, server).open()
    title_input = page.el("new-title")
    title_input.send_keys("새로 만든 할 일입니다", Keys.ENTER)
    wait(browser, lambda d: page.titles()[0] == "새로 만든 할 일입니다")
    assert title_input.get_attribute("value") == ""
    assert browser.switch_to.active_element == title_input
    assert page.el("todo-count").text == "4개"
    assert "추가했어요" in status_text(page)
    saved = mine.all()[0]
    assert saved["title"] == "새로 만든 할 일입니다" and saved["is_done"] is False
    assert page.rows()[0].get_attribute("data-id") == str(saved["id"])

    # With the button too; and after a reload both are still there, newest first.
    title_input.send_keys("버튼으로 추가한 할 일")
    browser.find_element(By.ID, "create-submit").click()
    wait(browser, lambda d: page.titles()[0] == "버튼으로 추가한 할 일")
    page.open()
    assert page.titles()[:2] == ["버튼으로 추가한 할 일", "새로 만든 할 일입니다"]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_title_rules_are_checked_as_one_types_and_the_button_waits(request, server, size):
    """At least 6 and at most 255 characters after trimming, counted in code points as the server counts them:
    a message as one types, the button disabled while the title breaks the rule, and nothing sent."""
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    mine = sign_in_mine(driver, server)
    page = TodosPage(driver, server).open()
    field, submit = page.el("new-title"), page.el("create-submit")
    assert page.shown("list-empty") and "첫 할 일" in page.el("list-empty").text
    assert not submit.is_enabled() and not page.shown("create-error"), "an empty field says nothing, but waits"

    field.send_keys("짧다")
    wait(driver, lambda d: page.shown("create-error"))
    assert page.el("create-error").text == "제목은 6자 이상이어야 해요. (지금 2자)"
    assert not submit.is_enabled() and field.get_attribute("aria-invalid") == "true"
    assert page.el("new-title-count").text == "2/255"
    field.send_keys(Keys.ENTER)  # Enter with the button disabled sends nothing
    # Spaces around do not count (the server trims them), nor do ideographic spaces (Unicode white space).
    field.send_keys("다섯개 \u3000  ")
    assert page.el("create-error").text == "제목은 6자 이상이어야 해요. (지금 5자)" and not submit.is_enabled()
    screenshot(driver, f"todos-title-too-short-{size}")
    field.send_keys("여섯")
    wait(driver, lambda d: submit.is_enabled())
    assert not page.shown("create-error") and field.get_attribute("aria-invalid") == "false"

    # 255 characters outside the BMP are 510 UTF-16 units: still 255 for the server, so still allowed.
    driver.execute_script("arguments[0].value = '🌱'.repeat(256); arguments[0].dispatchEvent(new Event('input'))", field)
    wait(driver, lambda d: page.shown("create-error"))
    assert page.el("create-error").text == "제목은 255자를 넘을 수 없어요. (지금 256자)" and not submit.is_enabled()
    assert page.el("new-title-count").text == "256/255"
    field.send_keys(Keys.BACKSPACE)
    wait(driver, lambda d: submit.is_enabled())
    assert page.el("new-title-count").text == "255/255"
    assert mine.all() == [], "nothing was sent while the title broke the rule"
    submit.click()
    wait(driver, lambda d: len(page.titles()) == 1)
    assert mine.all()[0]["title"] == "🌱" * 255
    assert status_text(page) == "“" + "🌱" * 30 + "…”을(를) 추가했어요.", "a long title is cut short in the message"
    driver.find_element(By.ID, "toast-close").click()
    assert not submit.is_enabled(), "the emptied field waits again"

    # Editing follows the same rule.
    row = page.rows()[0]
    edit_button = row.find_element(By.CSS_SELECTOR, ".todo-edit")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", edit_button)  # clear of the toast
    edit_button.click()
    edit = row.find_element(By.CSS_SELECTOR, ".todo-edit-input")
    save = row.find_element(By.CSS_SELECTOR, ".todo-edit-form button[type=submit]")
    error = row.find_element(By.CSS_SELECTOR, ".todo-edit-form .field-error")
    assert save.is_enabled() and not error.is_displayed()
    edit.send_keys(Keys.CONTROL, "a")
    edit.send_keys("  짧은 ")
    wait(driver, lambda d: error.is_displayed())
    assert error.text == "제목은 6자 이상이어야 해요. (지금 2자)" and not save.is_enabled()
    edit.send_keys(Keys.ENTER)
    screenshot(driver, f"todos-edit-title-too-short-{size}")
    edit.send_keys("제목이에요")
    wait(driver, lambda d: save.is_enabled() and not error.is_displayed())
    save.click()
    wait(driver, lambda d: page.titles() == ["짧은 제목이에요"])
    assert mine.all()[0]["title"] == "짧은 제목이에요"


def test_an_error_from_the_server_appears_readably_and_the_row_is_restored(browser, server, mine):
    todo = mine.create("다른 곳에서 지워질 할 일")
    hold_live_stream(browser)  # else the deletion's event would take the row away before the click
    page = TodosPage(browser, server).open()
    mine.delete(todo["id"])  # behind the page's back
    checkbox = page.row_by_id(todo["id"]).find_element(By.CSS_SELECTOR, ".todo-done")
    checkbox.click()
    wait(browser, lambda d: page.shown("notice"))
    assert page.el("notice").text == "할일을 찾을 수 없습니다."
    assert not checkbox.is_selected()


def test_search_narrows_the_list_and_clearing_returns_to_it(browser, server):
    seed_daily(server.api)
    page = TodosPage(browser, server).open()
    search = page.el("search-query")
    search.send_keys("장보기", Keys.ENTER)
    wait(browser, lambda d: page.titles() == ["장보기: 우유와 달걀 사기", "장보기 목록 정리하기"])
    page.settle()
    assert page.el("todo-count").text == "검색 결과 2개"
    assert page.shown("list-end") and page.shown("search-clear")
    screenshot(browser, "todos-search")

    # Latin letters match in any case.
    search.clear()
    search.send_keys("swift", Keys.ENTER)
    wait(browser, lambda d: page.titles() == ["Swift Concurrency 문서 읽기"])

    search.clear()
    search.send_keys("아무것도없는검색어", Keys.ENTER)
    wait(browser, lambda d: page.shown("list-empty"))
    assert page.titles() == []
    assert "아무것도없는검색어" in page.el("list-empty").text

    page.el("search-clear").click()
    wait(browser, lambda d: len(page.titles()) == 10)
    page.settle()
    assert page.el("todo-count").text == f"{len(DAILY)}개"
    assert search.get_attribute("value") == "" and not page.shown("search-clear")

    # Emptying the box by hand also returns to the list.
    search.send_keys("운동", Keys.ENTER)
    wait(browser, lambda d: page.titles() == ["아침 운동 30분 하기"])
    search.send_keys(Keys.CONTROL, "a")
    search.send_keys(Keys.BACKSPACE)
    wait(browser, lambda d: len(page.titles()) == 10)


def test_hide_completed_shows_only_open_todos(browser, server, mine):
    seed_daily(mine)
    open_titles = [t["title"] for t in mine.all(is_done="false")]
    page = TodosPage(browser, server).open()
    page.el("hide-done").click()
    wait(browser, lambda d: page.el("todo-count").text == f"{len(open_titles)}개")
    page.load_everything(len(open_titles))
    assert page.titles() == open_titles
    assert not browser.find_elements(By.CSS_SELECTOR, "#todo-list li.todo.is-done")
    browser.execute_script("window.scrollTo(0, 0)")
    screenshot(browser, "todos-hide-completed")

    # Completing a todo while completed ones are hidden takes it out of the list.
    row = page.row("블로그 글 초안 쓰기")
    todo_id = int(row.get_attribute("data-id"))
    row.find_element(By.CSS_SELECTOR, ".todo-done").click()
    wait(browser, lambda d: "블로그 글 초안 쓰기" not in page.titles())
    assert mine.get(todo_id)["is_done"] is True
    assert page.el("todo-count").text == f"{len(open_titles) - 1}개"

    page.el("hide-done").click()
    wait(browser, lambda d: page.el("todo-count").text == f"{len(DAILY)}개")
    assert browser.find_elements(By.CSS_SELECTOR, "#todo-list li.todo.is-done")


def test_toggling_done_updates_the_row_in_place_and_keeps_the_scroll_position(browser, server, mine):
    seed_numbered(mine, 30)
    page = TodosPage(browser, server).open()
    page.load_everything(30)
    row = page.row("번호 붙은 할 일 12")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].marker = 'same row'", row)
    before = page.scroll_y()
    assert before > 300
    checkbox = row.find_element(By.CSS_SELECTOR, ".todo-done")
    checkbox.click()
    wait(browser, lambda d: "is-done" in row.get_attribute("class"))
    todo_id = int(row.get_attribute("data-id"))
    assert mine.get(todo_id)["is_done"] is True
    assert page.scroll_y() == before
    assert len(page.rows()) == 30
    assert browser.execute_script("return arguments[0].marker", row) == "same row", "the row was not redrawn"
    assert status_text(page) == "완료로 표시했어요."

    checkbox.click()
    wait(browser, lambda d: "is-done" not in row.get_attribute("class"))
    assert mine.get(todo_id)["is_done"] is False
    assert page.scroll_y() == before


def test_editing_a_title_saves_it_in_place(browser, server, mine):
    seed_numbered(mine, 25)
    page = TodosPage(browser, server).open()
    page.load_everything(25)
    row = page.row("번호 붙은 할 일 07")
    todo_id = int(row.get_attribute("data-id"))
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    before = page.scroll_y()
    row.find_element(By.CSS_SELECTOR, ".todo-edit").click()
    field = row.find_element(By.CSS_SELECTOR, ".todo-edit-input")
    assert browser.switch_to.active_element == field
    assert field.get_attribute("value") == "번호 붙은 할 일 07"
    assert field.accessible_name == "할 일 제목"

    # Too short: the rule's message appears under the field as one types, and Enter saves nothing.
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("짧음", Keys.ENTER)
    error = row.find_element(By.CSS_SELECTOR, ".field-error")
    wait(browser, lambda d: error.is_displayed())
    assert "6" in error.text and "{" not in error.text
    assert mine.get(todo_id)["title"] == "번호 붙은 할 일 07"

    # Escape cancels, leaving the title as it was.
    field.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: not row.find_elements(By.CSS_SELECTOR, ".todo-edit-form"))
    assert page.titles().count("번호 붙은 할 일 07") == 1

    row.find_element(By.CSS_SELECTOR, ".todo-edit").click()
    field = row.find_element(By.CSS_SELECTOR, ".todo-edit-input")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("고친 제목으로 바꾼 할 일", Keys.ENTER)
    wait(browser, lambda d: not row.find_elements(By.CSS_SELECTOR, ".todo-edit-form"))
    assert row.find_element(By.CSS_SELECTOR, ".todo-title").text == "고친 제목으로 바꾼 할 일"
    assert mine.get(todo_id)["title"] == "고친 제목으로 바꾼 할 일"
    assert page.scroll_y() == before and len(page.rows()) == 25
    assert browser.switch_to.active_element == row.find_element(By.CSS_SELECTOR, ".todo-edit")
    assert status_text(page) == "제목을 바꿨어요."


def test_delete_asks_in_a_dialog_and_only_then_deletes(browser, server, mine):
    seed_daily(mine)
    page = TodosPage(browser, server).open()
    dialog = page.el("delete-dialog")
    row = page.row("치과 예약 확인하기")
    todo_id = int(row.get_attribute("data-id"))

    row.find_element(By.CSS_SELECTOR, ".todo-delete").click()
    wait(browser, lambda d: d.execute_script("return arguments[0].open", dialog))
    assert "치과 예약 확인하기" in dialog.text
    assert browser.switch_to.active_element.get_attribute("id") == "delete-cancel", "the safe choice has focus"
    screenshot(browser, "todos-delete-dialog")
    page.el("delete-cancel").click()
    wait(browser, lambda d: not d.execute_script("return arguments[0].open", dialog))
    assert mine.get(todo_id) is not None and "치과 예약 확인하기" in page.titles()

    # Escape is a "no" too.
    row.find_element(By.CSS_SELECTOR, ".todo-delete").click()
    wait(browser, lambda d: d.execute_script("return arguments[0].open", dialog))
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: not d.execute_script("return arguments[0].open", dialog))
    assert mine.get(todo_id) is not None

    row.find_element(By.CSS_SELECTOR, ".todo-delete").click()
    wait(browser, lambda d: d.execute_script("return arguments[0].open", dialog))
    page.el("delete-confirm").click()
    wait(browser, lambda d: "치과 예약 확인하기" not in page.titles())
    assert mine.get(todo_id) is None
    assert page.el("todo-count").text == f"{len(DAILY) - 1}개"
    assert "삭제했어요" in status_text(page)
    page.open()
    assert "치과 예약 확인하기" not in page.titles()


def test_favourites_are_kept_in_the_browser_and_can_be_shown_alone(browser, server):
    seed_daily(server.api)
    page = TodosPage(browser, server).open()
    picked = ["여행 일정표 공유하기", "주간 회의 자료 준비하기"]  # newest first, both on the first page
    for title in picked:
        page.row(title).find_element(By.CSS_SELECTOR, ".todo-star").click()
    ids = [int(page.row(title).get_attribute("data-id")) for title in picked]
    for title in picked:
        star = page.row(title).find_element(By.CSS_SELECTOR, ".todo-star")
        assert star.get_attribute("aria-pressed") == "true" and star.text == "★"
    stored = json.loads(browser.execute_script("return localStorage.getItem('sprout.todos.favourites')"))
    assert sorted(stored) == sorted(ids)

    page.open()  # a reload keeps them
    starred = [r.find_element(By.CSS_SELECTOR, ".todo-title").text for r in page.rows()
               if r.find_element(By.CSS_SELECTOR, ".todo-star").get_attribute("aria-pressed") == "true"]
    assert starred == picked

    page.el("favourites-only").click()
    wait(browser, lambda d: page.titles() == picked)
    page.settle()
    assert page.el("todo-count").text == "2개"
    page.row(picked[0]).find_element(By.CSS_SELECTOR, ".todo-star").click()
    wait(browser, lambda d: page.titles() == picked[1:])
    assert json.loads(browser.execute_script("return localStorage.getItem('sprout.todos.favourites')")) == ids[1:]

    page.el("favourites-only").click()
    wait(browser, lambda d: len(page.titles()) == 10)
