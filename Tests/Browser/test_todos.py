"""The Todos app in the browser: every feature of REST_TODO's table, against a real server and database."""

import json
import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import TodosPage, screenshot, wait

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
    return page.el("status").text


def test_list_is_newest_first_with_dates_and_done_marks(browser, server):
    todos = seed_daily(server.api)
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


def test_create_puts_the_new_todo_on_top_and_saves_it(browser, server):
    seed_numbered(server.api, 3)
    page = TodosPage(browser, server).open()
    title_input = page.el("new-title")
    title_input.send_keys("새로 만든 할 일입니다", Keys.ENTER)
    wait(browser, lambda d: page.titles()[0] == "새로 만든 할 일입니다")
    assert title_input.get_attribute("value") == ""
    assert browser.switch_to.active_element == title_input
    assert page.el("todo-count").text == "4개"
    assert "추가했어요" in status_text(page)
    saved = server.api.all()[0]
    assert saved["title"] == "새로 만든 할 일입니다" and saved["is_done"] is False
    assert page.rows()[0].get_attribute("data-id") == str(saved["id"])

    # With the button too; and after a reload both are still there, newest first.
    title_input.send_keys("버튼으로 추가한 할 일")
    browser.find_element(By.ID, "create-submit").click()
    wait(browser, lambda d: page.titles()[0] == "버튼으로 추가한 할 일")
    page.open()
    assert page.titles()[:2] == ["버튼으로 추가한 할 일", "새로 만든 할 일입니다"]


def test_server_validation_errors_are_shown_as_readable_messages(browser, server):
    page = TodosPage(browser, server).open()
    assert page.shown("list-empty") and "첫 할 일" in page.el("list-empty").text
    _, expected = server.api.request("POST", "/todos-json", {"title": "짧다", "is_done": False})
    page.el("new-title").send_keys("짧다", Keys.ENTER)
    wait(browser, lambda d: page.shown("create-error"))
    message = page.el("create-error").text
    assert message == expected["message"]
    assert "6" in message and "{" not in message and "message" not in message
    assert page.el("new-title").get_attribute("aria-invalid") == "true"
    assert server.api.all() == []
    # A good title clears the error.
    page.el("new-title").clear()
    page.el("new-title").send_keys("이제는 충분히 긴 제목", Keys.ENTER)
    wait(browser, lambda d: not page.shown("create-error"))
    assert page.titles() == ["이제는 충분히 긴 제목"]
    assert page.el("new-title").get_attribute("aria-invalid") == "false"


def test_an_error_from_the_server_appears_readably_and_the_row_is_restored(browser, server):
    todo = server.api.create("다른 곳에서 지워질 할 일")
    page = TodosPage(browser, server).open()
    server.api.delete(todo["id"])  # behind the page's back
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


def test_hide_completed_shows_only_open_todos(browser, server):
    seed_daily(server.api)
    open_titles = [t["title"] for t in server.api.all(is_done="false")]
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
    assert server.api.get(todo_id)["is_done"] is True
    assert page.el("todo-count").text == f"{len(open_titles) - 1}개"

    page.el("hide-done").click()
    wait(browser, lambda d: page.el("todo-count").text == f"{len(DAILY)}개")
    assert browser.find_elements(By.CSS_SELECTOR, "#todo-list li.todo.is-done")


def test_toggling_done_updates_the_row_in_place_and_keeps_the_scroll_position(browser, server):
    seed_numbered(server.api, 30)
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
    assert server.api.get(todo_id)["is_done"] is True
    assert page.scroll_y() == before
    assert len(page.rows()) == 30
    assert browser.execute_script("return arguments[0].marker", row) == "same row", "the row was not redrawn"
    assert status_text(page) == "완료로 표시했어요."

    checkbox.click()
    wait(browser, lambda d: "is-done" not in row.get_attribute("class"))
    assert server.api.get(todo_id)["is_done"] is False
    assert page.scroll_y() == before


def test_editing_a_title_saves_it_in_place(browser, server):
    seed_numbered(server.api, 25)
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

    # Too short: the server's message appears under the field and nothing is saved.
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("짧음", Keys.ENTER)
    error = row.find_element(By.CSS_SELECTOR, ".field-error")
    wait(browser, lambda d: error.is_displayed())
    assert "6" in error.text and "{" not in error.text
    assert server.api.get(todo_id)["title"] == "번호 붙은 할 일 07"

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
    assert server.api.get(todo_id)["title"] == "고친 제목으로 바꾼 할 일"
    assert page.scroll_y() == before and len(page.rows()) == 25
    assert browser.switch_to.active_element == row.find_element(By.CSS_SELECTOR, ".todo-edit")
    assert status_text(page) == "제목을 바꿨어요."


def test_delete_asks_in_a_dialog_and_only_then_deletes(browser, server):
    seed_daily(server.api)
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
    assert server.api.get(todo_id) is not None and "치과 예약 확인하기" in page.titles()

    # Escape is a "no" too.
    row.find_element(By.CSS_SELECTOR, ".todo-delete").click()
    wait(browser, lambda d: d.execute_script("return arguments[0].open", dialog))
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: not d.execute_script("return arguments[0].open", dialog))
    assert server.api.get(todo_id) is not None

    row.find_element(By.CSS_SELECTOR, ".todo-delete").click()
    wait(browser, lambda d: d.execute_script("return arguments[0].open", dialog))
    page.el("delete-confirm").click()
    wait(browser, lambda d: "치과 예약 확인하기" not in page.titles())
    assert server.api.get(todo_id) is None
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
