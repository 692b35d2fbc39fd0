"""The Diary editor and the versions the server keeps of an entry: "이전 버전" lists them (title, when, why in Korean),
shows one's whole text and restores it (the text it replaces is kept in turn); a deleted entry's not-found panel
offers to bring it back; and deleting names the version the page shows, so a deletion that has not seen another
device's edit is refused (409) and the page shows that edit instead of pretending."""

import time
import uuid

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import hold_live_stream, is_shown, log_in, screenshot, text_of, wait
from test_diary import (  # noqa: F401 (the autouse fixture refuses the location, as in test_diary.py)
    editor_text, go_offline, new_entry_id, no_location_unless_a_test_gives_one, open_new_entry, settle_editor,
    toast, type_text, wait_saved, writer)
from test_shell_look import AUDIT, set_scheme

CHANGED_ELSEWHERE = "다른 곳에서 고친 내용이 있어 지우지 않았어요. 최신 내용을 불러왔어요."
RESTORED = "이 버전으로 되돌렸어요. 바뀌기 전 글은 이전 버전에 남아 있어요."


def put(diary, entry_id, title, body="", base=None, **extra):
    """A PUT as another device makes it: `base` is the `updatedAt` it wrote on (then the version it replaces is
    `replaced`), or None (then it is `conflict`)."""
    payload = {"title": title, "body": body, **extra}
    if base:
        payload["baseUpdatedAt"] = base
    status, answer = diary.request("PUT", f"/entries/{entry_id}", payload)
    assert status in (200, 201), answer
    return answer


def open_versions(driver):
    driver.find_element(By.ID, "versions-button").click()
    wait(driver, lambda d: d.find_element(By.ID, "versions-dialog").is_displayed())
    wait(driver, lambda d: not d.find_element(By.ID, "versions-loading").is_displayed(), message="the versions never loaded")


def listed(driver):
    """[(title, reason, time)] as the dialog's list shows them."""
    return [tuple(row) for row in driver.execute_script("""
        return [...document.querySelectorAll('#versions-list .diary-version')].map((b) => [
            b.querySelector('.diary-version-row-title').textContent, b.querySelector('.diary-version-reason').textContent,
            b.querySelector('time').textContent]);""")]


def version_button(driver, index):
    return driver.find_elements(By.CSS_SELECTOR, "#versions-list .diary-version")[index]


def dialog_open(driver):
    return driver.execute_script("return document.getElementById('versions-dialog').open")


def active_id(driver):
    return driver.switch_to.active_element.get_attribute("id")


def fits(driver, element_id):
    """The element is inside the viewport's width."""
    rect = driver.execute_script("return document.getElementById(arguments[0]).getBoundingClientRect().toJSON()", element_id)
    return rect["left"] >= 0 and rect["right"] <= driver.execute_script("return innerWidth"), rect


# ---- The list, the text, the keyboard ------------------------------------------------------------------

@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_kept_versions_are_listed_with_korean_reasons_and_the_keyboard_reaches_them(request, server, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    _, diary = writer(server)
    entry_id = str(uuid.uuid4())
    first = put(diary, entry_id, "처음 쓴 제목", "처음 본문\n둘째 줄", createdAt="2026-04-01T09:00:00.000Z")
    # Two edits from the API: one made from the version it replaces, one that had not seen it.
    second = put(diary, entry_id, "두 번째 제목", "고친 본문", base=first["updatedAt"])
    put(diary, entry_id, "세 번째 제목", "다른 기기의 본문")
    assert [v["reason"] for v in diary.versions(entry_id)] == ["conflict", "replaced"]
    assert second["updatedAt"] != first["updatedAt"]

    log_in(driver, server, "diarist", next_path=f"/diary/{entry_id}")
    settle_editor(driver)
    button = driver.find_element(By.ID, "versions-button")
    assert button.is_displayed() and button.text == "이전 버전"
    # The keyboard: the button takes Enter, and the focus goes into the dialog, to the newest version.
    driver.execute_script("arguments[0].focus()", button)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait(driver, lambda d: dialog_open(d) and d.find_elements(By.CSS_SELECTOR, "#versions-list .diary-version"))
    assert text_of(driver, "versions-title") == "이전 버전"
    assert listed(driver) == [("두 번째 제목", "다른 곳에서 덮어씀", "방금 전"), ("처음 쓴 제목", "고치기 전", "방금 전")]
    wait(driver, lambda d: d.switch_to.active_element == version_button(d, 0), message="the focus did not go to the newest")
    # Each time carries the exact moment in its title and datetime.
    kept = diary.versions(entry_id)
    times = driver.execute_script(
        "return [...document.querySelectorAll('#versions-list time')].map(t => [t.dateTime, t.title])")
    assert [t[0] for t in times] == [v["replacedAt"] for v in kept]
    assert all("년" in t[1] and "월" in t[1] for t in times)
    assert not is_shown(driver, "versions-empty")
    width = driver.execute_script("return innerWidth")
    assert driver.execute_script("return document.documentElement.scrollWidth") <= width
    for element_id in ("versions-dialog", "versions-close"):
        assert fits(driver, element_id)[0], fits(driver, element_id)
    driver.execute_script("window.scrollTo(0, 0)")
    screenshot(driver, f"diary-versions-{size}")

    # Down to the older one and Enter: its whole text, read-only, the focus on its title.
    driver.switch_to.active_element.send_keys(Keys.TAB)
    assert driver.switch_to.active_element == version_button(driver, 1)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait(driver, lambda d: is_shown(d, "version-preview"))
    assert active_id(driver) == "version-title"
    assert text_of(driver, "version-title") == "처음 쓴 제목"
    assert text_of(driver, "version-text") == "처음 본문\n둘째 줄"
    assert "고치기 전" in text_of(driver, "version-meta") and "2026년 4월 1일의 일기" in text_of(driver, "version-meta")
    assert not is_shown(driver, "versions-list")
    assert driver.find_element(By.ID, "version-text").get_attribute("contenteditable") in (None, "false")
    restore = driver.find_element(By.ID, "version-restore")
    assert restore.text == "이 버전으로 되돌리기" and restore.is_enabled()
    assert fits(driver, "version-restore")[0], fits(driver, "version-restore")
    assert driver.execute_script("return document.documentElement.scrollWidth") <= width
    screenshot(driver, f"diary-version-preview-{size}")
    # Tab reaches the text (to scroll it) and then the restore button.
    driver.switch_to.active_element.send_keys(Keys.TAB)
    assert active_id(driver) == "version-text"
    driver.switch_to.active_element.send_keys(Keys.TAB)
    assert active_id(driver) == "version-restore"

    # Back to the list, onto the version it came from.
    driver.find_element(By.ID, "version-back").click()
    wait(driver, lambda d: is_shown(d, "versions-list"))
    assert driver.switch_to.active_element == version_button(driver, 1)

    # Escape closes the dialog and puts the focus back on the button; nothing changed.
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(driver, lambda d: not dialog_open(d), message="Escape did not close the dialog")
    assert active_id(driver) == "versions-button"
    assert editor_text(driver) == "세 번째 제목\n다른 기기의 본문"
    assert diary.get(entry_id)["title"] == "세 번째 제목"
    # 닫기 closes it too.
    open_versions(driver)
    driver.find_element(By.ID, "versions-close").click()
    wait(driver, lambda d: not dialog_open(d))
    assert active_id(driver) == "versions-button"


def test_an_entry_with_no_kept_versions_says_so(browser, server):
    _, diary = writer(server)
    log_in(browser, server, "diarist")
    # A new entry the server does not have yet has no versions to show.
    open_new_entry(browser, server)
    assert not is_shown(browser, "versions-button")
    type_text(browser, "새로 쓴 일기\n한 번 저장됨")
    wait_saved(browser)
    entry_id = new_entry_id(browser, server)
    wait(browser, lambda d: is_shown(d, "versions-button"), message="no 이전 버전 once the server has the entry")
    open_versions(browser)
    assert is_shown(browser, "versions-empty")
    assert text_of(browser, "versions-empty").startswith("이전 버전이 없어요.")
    assert listed(browser) == []
    assert diary.versions(entry_id) == []
    assert active_id(browser) == "versions-close", "the focus is in the dialog"
    screenshot(browser, "diary-versions-empty")
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: not dialog_open(d))


# ---- Restoring -----------------------------------------------------------------------------------------

def test_restoring_a_version_puts_its_text_back_and_keeps_the_text_it_replaced(browser, server):
    _, diary = writer(server)
    sunny = {"main": "Clear", "description": "맑음", "icon": "01d", "tempC": 21.5}
    entry_id = str(uuid.uuid4())
    original = put(diary, entry_id, "봄 소풍", "김밥을 쌌다.\n날씨가 좋았다.", createdAt="2026-04-05T03:00:00.000Z", weather=sunny)
    log_in(browser, server, "diarist", next_path=f"/diary/{entry_id}")
    settle_editor(browser)
    # Edited in the editor: the original becomes a `replaced` version.
    field = browser.find_element(By.ID, "entry-text")
    field.send_keys(Keys.CONTROL, Keys.END)
    field.send_keys("\n그런데 비가 왔다.")
    wait(browser, lambda d: diary.get(entry_id)["body"] == "김밥을 쌌다.\n날씨가 좋았다.\n그런데 비가 왔다.")
    wait_saved(browser)
    # Another device then changes the weather from the version the page shows (the page keeps its own text).
    rainy = {"main": "Rain", "description": "비", "icon": "10d", "tempC": 12}
    edited = put(diary, entry_id, "봄 소풍", "김밥을 쌌다.\n날씨가 좋았다.\n그런데 비가 왔다.",
                 base=diary.get(entry_id)["updatedAt"], weather=rainy)
    browser.refresh()
    settle_editor(browser)
    assert text_of(browser, "weather-text") == "비 · 12.0°C"

    open_versions(browser)
    assert [row[:2] for row in listed(browser)] == [("봄 소풍", "고치기 전"), ("봄 소풍", "고치기 전")]
    version_button(browser, 1).click()
    wait(browser, lambda d: is_shown(d, "version-preview"))
    assert text_of(browser, "version-text") == "김밥을 쌌다.\n날씨가 좋았다."
    assert "맑음" in text_of(browser, "version-meta")
    browser.find_element(By.ID, "version-restore").click()
    wait(browser, lambda d: not dialog_open(d), message="the dialog stayed after restoring")

    # The editor shows the old text and weather; the server has them, with createdAt unchanged.
    assert editor_text(browser) == "봄 소풍\n김밥을 쌌다.\n날씨가 좋았다."
    assert text_of(browser, "weather-text") == "맑음 · 21.5°C"
    wait(browser, lambda d: toast(d) == RESTORED)
    wait_saved(browser)
    assert active_id(browser) == "entry-text"
    entry = diary.get(entry_id)
    assert (entry["title"], entry["body"]) == ("봄 소풍", "김밥을 쌌다.\n날씨가 좋았다.")
    assert entry["weather"] == sunny and entry["createdAt"] == original["createdAt"]
    # The text it replaced is the newest version, `replaced` (the restore named the version it was made from).
    newest = diary.versions(entry_id)[0]
    assert newest["reason"] == "replaced"
    assert (newest["body"], newest["weather"], newest["updatedAt"]) == (edited["body"], rainy, edited["updatedAt"])
    screenshot(browser, "diary-version-restored")

    # Restoring the version the editor already shows changes nothing: the button says so and waits.
    open_versions(browser)
    version_button(browser, 0).click()  # the rainy text, just replaced
    wait(browser, lambda d: is_shown(d, "version-preview"))
    assert browser.find_element(By.ID, "version-restore").is_enabled()
    browser.find_element(By.ID, "version-back").click()
    restored_twin = [i for i, v in enumerate(diary.versions(entry_id)) if v["body"] == "김밥을 쌌다.\n날씨가 좋았다."][0]
    version_button(browser, restored_twin).click()
    wait(browser, lambda d: is_shown(d, "version-preview"))
    assert is_shown(browser, "version-same") and not browser.find_element(By.ID, "version-restore").is_enabled()
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: not dialog_open(d))

    # Behind the page's back another device writes; restoring then overwrites it, and its text is kept as a conflict.
    put(diary, entry_id, "다른 기기", "다른 기기에서 쓴 글", base=diary.get(entry_id)["updatedAt"])
    open_versions(browser)
    rainy_index = [i for i, v in enumerate(diary.versions(entry_id)) if v["weather"] == rainy][0]
    version_button(browser, rainy_index).click()
    wait(browser, lambda d: is_shown(d, "version-preview"))
    browser.find_element(By.ID, "version-restore").click()
    wait(browser, lambda d: not dialog_open(d))
    wait(browser, lambda d: editor_text(d) == "봄 소풍\n김밥을 쌌다.\n날씨가 좋았다.\n그런데 비가 왔다.")
    assert diary.get(entry_id)["body"] == "김밥을 쌌다.\n날씨가 좋았다.\n그런데 비가 왔다."
    newest = diary.versions(entry_id)[0]
    assert (newest["reason"], newest["title"], newest["body"]) == ("conflict", "다른 기기", "다른 기기에서 쓴 글")


def test_failures_in_the_versions_dialog_are_shown_there(browser, server):
    _, diary = writer(server)
    entry_id = str(uuid.uuid4())
    first = put(diary, entry_id, "끊기는 날", "처음")
    put(diary, entry_id, "끊기는 날", "나중", base=first["updatedAt"])
    log_in(browser, server, "diarist", next_path=f"/diary/{entry_id}")
    settle_editor(browser)
    try:
        # The list cannot be had.
        go_offline(browser)
        browser.find_element(By.ID, "versions-button").click()
        wait(browser, lambda d: is_shown(d, "versions-error"), message="no error in the dialog")
        assert text_of(browser, "versions-error").startswith("이전 버전을 불러오지 못했어요. 서버에 연결할 수 없어요.")
        assert not is_shown(browser, "versions-loading") and not is_shown(browser, "versions-empty")
        assert browser.find_element(By.ID, "versions-error").get_attribute("role") == "alert"
        browser.find_element(By.ID, "versions-close").click()
        wait(browser, lambda d: not dialog_open(d))

        # The restore cannot reach the server: the dialog stays, says so, and the text is as it was.
        go_offline(browser, False)
        open_versions(browser)
        version_button(browser, 0).click()
        wait(browser, lambda d: is_shown(d, "version-preview"))
        go_offline(browser)
        browser.find_element(By.ID, "version-restore").click()
        wait(browser, lambda d: is_shown(d, "versions-error"))
        assert text_of(browser, "versions-error").startswith("이 버전으로 되돌리지 못했어요.")
        assert dialog_open(browser) and browser.find_element(By.ID, "version-restore").is_enabled()
        screenshot(browser, "diary-versions-error")
        assert editor_text(browser) == "끊기는 날\n나중"
    finally:
        go_offline(browser, False)
    # Online again, the same button works.
    browser.find_element(By.ID, "version-restore").click()
    wait(browser, lambda d: not dialog_open(d))
    assert editor_text(browser) == "끊기는 날\n처음" and diary.get(entry_id)["body"] == "처음"
    severe = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert all("ERR_INTERNET_DISCONNECTED" in message for message in severe), severe


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_versions_dialog_keeps_its_contrast_in_light_and_dark(browser, phone, server, scheme):
    _, diary = writer(server, "대비측정")
    entry_id = str(uuid.uuid4())
    first = put(diary, entry_id, "대비를 재는 일기", "처음 글")
    put(diary, entry_id, "대비를 재는 일기", "고친 글", base=first["updatedAt"])
    put(diary, entry_id, "대비를 재는 일기", "다른 기기의 글")
    status, _ = diary.request("DELETE", f"/entries/{entry_id}")
    assert status == 200
    put(diary, entry_id, "대비를 재는 일기", "되살린 글")
    assert [v["reason"] for v in diary.versions(entry_id)] == ["deleted", "conflict", "replaced"]
    failures = {}
    try:
        for driver in (browser, phone):
            set_scheme(driver, scheme)
            log_in(driver, server, "대비측정", next_path=f"/diary/{entry_id}")
            settle_editor(driver)
            open_versions(driver)
            width = driver.execute_script("return innerWidth")
            bad = [r for r in driver.execute_script(AUDIT) if r["ratio"] < 4.5]
            version_button(driver, 0).click()
            wait(driver, lambda d: is_shown(d, "version-preview"))
            bad += [r for r in driver.execute_script(AUDIT) if r["ratio"] < 4.5]
            screenshot(driver, f"diary-versions-{scheme}-{width}")
            if bad:
                failures[width] = bad
    finally:
        for driver in (browser, phone):
            set_scheme(driver, None)
    assert failures == {}, "\n".join(f"@{width}: {r['selector']} “{r['text']}” {r['color']} on {r['background']} = {r['ratio']}"
                                     for width, rows in failures.items() for r in rows)


# ---- A deleted entry -----------------------------------------------------------------------------------

@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_deleted_entry_can_be_brought_back_from_the_not_found_panel(request, server, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    _, diary = writer(server)
    weather = {"main": "Snow", "description": "눈", "icon": "13d", "tempC": -2}
    entry_id = str(uuid.uuid4())
    entry = put(diary, entry_id, "지웠던 일기", "눈이 왔다.\n많이.", createdAt="2026-01-10T01:00:00.000Z", weather=weather)
    status, _ = diary.request("DELETE", f"/entries/{entry_id}")
    assert status == 200 and diary.get(entry_id) is None
    log_in(driver, server, "diarist", next_path=f"/diary/{entry_id}")
    wait(driver, lambda d: is_shown(d, "error-page"), message="no not-found panel")
    assert text_of(driver, "error-explanation") == "일기를 찾을 수 없어요. 삭제되었을 수 있어요."
    wait(driver, lambda d: is_shown(d, "restore-deleted"), message="no offer to bring it back")
    assert text_of(driver, "restore-deleted") == "삭제된 일기 되살리기"
    assert text_of(driver, "deleted-entry-text") == "“지웠던 일기”는 방금 삭제되었어요. 삭제하기 전 글이 남아 있어 되살릴 수 있어요."
    assert fits(driver, "restore-deleted")[0]
    assert driver.execute_script("return document.documentElement.scrollWidth") <= driver.execute_script("return innerWidth")
    screenshot(driver, f"diary-deleted-entry-{size}")

    driver.find_element(By.ID, "restore-deleted").click()
    settle_editor(driver)
    wait(driver, lambda d: editor_text(d) == "지웠던 일기\n눈이 왔다.\n많이.")
    assert driver.current_url == server.url(f"/diary/{entry_id}")
    assert toast(driver) == "“지웠던 일기”를 되살렸어요."
    assert text_of(driver, "entry-date") == "2026년 1월 10일"
    back = diary.get(entry_id)
    assert (back["title"], back["body"], back["createdAt"], back["weather"]) == (
        "지웠던 일기", "눈이 왔다.\n많이.", entry["createdAt"], weather)

    # An id the server never had gets the plain panel: nothing to bring back.
    never = str(uuid.uuid4())
    driver.get(server.url(f"/diary/{never}"))
    wait(driver, lambda d: is_shown(d, "error-page"))
    wait(driver, lambda d: any(f"/api/diary/entries/{never}/versions" in name for name in d.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)")), message="never asked for the versions")
    time.sleep(0.3)
    assert not driver.find_elements(By.ID, "restore-deleted") and not driver.find_elements(By.ID, "deleted-entry-text")


# ---- Deleting names the version the page shows ---------------------------------------------------------

def delete_in_page(driver):
    dialog = driver.find_element(By.ID, "delete-dialog")
    driver.find_element(By.ID, "delete-button").click()
    wait(driver, lambda d: dialog.is_displayed())
    driver.find_element(By.ID, "delete-confirm").click()


def test_a_delete_that_has_not_seen_another_devices_edit_is_refused_and_the_edit_is_shown(browser, server):
    _, diary = writer(server)
    log_in(browser, server, "diarist")
    open_new_entry(browser, server)
    type_text(browser, "지우려던 일기\n이 기기에서 쓴 글")
    wait_saved(browser)
    entry_id = new_entry_id(browser, server)
    # Another device edits it, from the version it has, behind the page's back.
    newer = put(diary, entry_id, "다른 기기에서 고친 제목", "다른 기기에서 더 쓴 글", base=diary.get(entry_id)["updatedAt"])

    delete_in_page(browser)
    wait(browser, lambda d: is_shown(d, "notice"), message="no word that nothing was deleted")
    assert text_of(browser, "notice") == CHANGED_ELSEWHERE
    wait(browser, lambda d: editor_text(d) == "다른 기기에서 고친 제목\n다른 기기에서 더 쓴 글")
    assert browser.current_url == server.url(f"/diary/{entry_id}"), "stays on the editor"
    assert diary.get(entry_id)["updatedAt"] == newer["updatedAt"], "the entry is still there, as the other device left it"
    assert text_of(browser, "title-preview") == "다른 기기에서 고친 제목"
    assert text_of(browser, "save-status") == "저장됨"
    assert is_shown(browser, "delete-button") and is_shown(browser, "versions-button")
    browser.execute_script("window.scrollTo(0, 0)")
    screenshot(browser, "diary-stale-delete")

    # The page now holds the newest version: deleting again deletes, naming it.
    delete_in_page(browser)
    wait(browser, lambda d: d.current_url == server.url("/diary"))
    assert toast(browser) == "일기를 삭제했어요."
    assert diary.get(entry_id) is None
    assert diary.versions(entry_id)[0]["body"] == "다른 기기에서 더 쓴 글"


def test_a_delete_names_the_version_the_page_shows_and_deletes_it(browser, server):
    _, diary = writer(server)
    entry_id = str(uuid.uuid4())
    put(diary, entry_id, "그냥 지울 일기", "본문")
    log_in(browser, server, "diarist", next_path=f"/diary/{entry_id}")
    settle_editor(browser)
    # The page's requests, noted where the list page can read them after the editor has gone.
    browser.execute_script(WATCH_REQUESTS)
    # Typed, and deleted while its save is still on the way (a slow network): the deletion waits for that save and
    # names the version it made, not the one the page opened with.
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 1500, "downloadThroughput": -1, "uploadThroughput": -1})
    field = browser.find_element(By.ID, "entry-text")
    field.send_keys(Keys.CONTROL, Keys.END)
    field.send_keys(" 조금 더")
    wait(browser, lambda d: "PUT" in d.execute_script("return sessionStorage.getItem('requests') || ''"),
         message="the save never started")
    delete_in_page(browser)
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait(browser, lambda d: d.current_url == server.url("/diary"), timeout=15)
    wait(browser, lambda d: toast(d) == "일기를 삭제했어요.")
    assert diary.get(entry_id) is None
    deleted = diary.versions(entry_id)[0]
    assert (deleted["reason"], deleted["body"]) == ("deleted", "본문 조금 더")
    requests = browser.execute_script("return sessionStorage.getItem('requests')").split("\n")
    assert requests[-1] == f"DELETE /api/diary/entries/{entry_id}?baseUpdatedAt={deleted['updatedAt'].replace(':', '%3A')}"


WATCH_REQUESTS = """
    const original = window.fetch;
    window.fetch = (url, init = {}) => {
        const seen = sessionStorage.getItem('requests');
        sessionStorage.setItem('requests', (seen ? seen + '\\n' : '') + `${init.method || 'GET'} ${url}`);
        return original(url, init);
    };"""


def test_a_delete_from_the_list_that_has_not_seen_another_devices_edit_is_refused_and_the_row_redrawn(browser, server):
    from test_diary import row, row_ids, settle_list
    _, diary = writer(server)
    entry = diary.put("목록에서 지우려던 일기", "처음 쓴 글", "2026-04-02T09:00:00Z")
    hold_live_stream(browser)  # else the edit's event would redraw the row before the delete
    log_in(browser, server, "diarist", next_path="/diary")
    settle_list(browser)
    # Another device edits it after the list was drawn.
    put(diary, entry["id"], "다른 기기에서 고친 제목", "다른 기기에서 더 쓴 글", base=entry["updatedAt"])

    dialog = browser.find_element(By.ID, "delete-dialog")
    row(browser, entry["id"]).find_element(By.CSS_SELECTOR, ".diary-entry-delete").click()
    wait(browser, lambda d: dialog.is_displayed())
    browser.find_element(By.ID, "delete-confirm").click()
    wait(browser, lambda d: toast(d) == CHANGED_ELSEWHERE, message="no word that nothing was deleted")
    assert diary.get(entry["id"])["title"] == "다른 기기에서 고친 제목", "the entry is still there"
    assert row_ids(browser) == [entry["id"]]
    assert row(browser, entry["id"]).find_element(By.CSS_SELECTOR, ".diary-entry-title").text == "다른 기기에서 고친 제목"

    # The row now holds the newest version: deleting again deletes.
    row(browser, entry["id"]).find_element(By.CSS_SELECTOR, ".diary-entry-delete").click()
    wait(browser, lambda d: dialog.is_displayed())
    browser.find_element(By.ID, "delete-confirm").click()
    wait(browser, lambda d: row_ids(d) == [])
    assert diary.get(entry["id"]) is None
