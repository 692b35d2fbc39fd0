"""The Diary (일기장) in the browser: the log-in prompt, the list (newest first, the app's long Korean date in the
browser's time zone, a one-line preview, weather icons drawn on the page, endless scrolling), the one editor (the
first line is the title; autosave while typing and on leaving; an empty first line is not saved; a failed save keeps
the text and can be retried), deleting after the app's "진짜요?", sharing by copying, and the weather attached once
to a new entry — from a fake OpenWeather this test starts — or honestly absent."""

import json
import re
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import is_shown, log_in, log_out, screenshot, text_of, wait

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SAN_FRANCISCO = {"latitude": 37.7858, "longitude": -122.4064, "accuracy": 10}
NO_TITLE = "첫 줄(제목)이 비어 있어 저장하지 않았어요."


# ---- A fake OpenWeather, and the server pointed at it ------------------------------------------------

class FakeOpenWeather:
    """`/data/2.5/weather` answers the captured San Francisco answer for any query; every request is kept."""

    def __init__(self):
        answer = (FIXTURES / "openweather-current-weather.json").read_bytes()
        requests = self.requests = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                requests.append(self.path)
                if urlsplit(self.path).path == "/data/2.5/weather":
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json; charset=utf-8")
                    self.send_header("Content-Length", str(len(answer)))
                    self.end_headers()
                    self.wfile.write(answer)
                else:
                    self.send_error(404)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def weather_upstream():
    upstream = FakeOpenWeather()
    yield upstream
    upstream.close()


@pytest.fixture
def server_env(request):
    """With `weather_upstream` among a test's fixtures, its server gets a key and that upstream's address."""
    if "weather_upstream" not in request.fixturenames:
        return {}
    upstream = request.getfixturevalue("weather_upstream")
    return {"OPENWEATHER_API_KEY": "test-key", "OPENWEATHER_BASE_URL": upstream.url}


# ---- The diary API, straight from the test -----------------------------------------------------------

class Diary:
    """`/api/diary/…` with an account's Bearer token: to seed entries and to check what the page really saved."""

    def __init__(self, server, account):
        self.community = server.community
        self.token = account["token"]

    def request(self, method, path, body=None):
        return self.community.request(method, "/api/diary" + path, body, self.token)

    def put(self, title, body="", created_at=None, weather=None, entry_id=None) -> dict:
        payload = {"title": title, "body": body}
        if created_at:
            payload["createdAt"] = created_at
        if weather:
            payload["weather"] = weather
        status, answer = self.request("PUT", f"/entries/{entry_id or uuid.uuid4()}", payload)
        assert status in (200, 201), answer
        return answer

    def get(self, entry_id):
        status, answer = self.request("GET", f"/entries/{entry_id}")
        return answer if status == 200 else None

    def entries(self) -> dict:
        status, answer = self.request("GET", "/entries?limit=100")
        assert status == 200, answer
        return answer

    def versions(self, entry_id) -> list:
        status, answer = self.request("GET", f"/entries/{entry_id}/versions")
        assert status == 200, answer
        return answer["versions"]


def writer(server, username="diarist"):
    account = server.community.sign_up(username)
    return account, Diary(server, account)


# ---- Helpers -----------------------------------------------------------------------------------------

def settle_list(driver):
    wait(driver, lambda d: d.find_element(By.ID, "entry-list").get_attribute("aria-busy") == "false"
         and not d.find_element(By.ID, "loading").is_displayed(), message="the diary never finished loading")


def settle_editor(driver):
    wait(driver, lambda d: not d.find_element(By.ID, "loading").is_displayed()
         and (d.find_element(By.ID, "editor").is_displayed() or is_shown(d, "notice")), message="the entry never loaded")


def row_ids(driver):
    return driver.execute_script("return [...document.querySelectorAll('#entry-list li.diary-entry')].map(e => e.dataset.id)")


def row(driver, entry_id):
    return driver.find_element(By.CSS_SELECTOR, f'#entry-list li.diary-entry[data-id="{entry_id}"]')


def status(driver):
    return text_of(driver, "save-status")


def wait_saved(driver, timeout=10):
    wait(driver, lambda d: status(d) == "저장됨", timeout, message=f"never 저장됨 (status: {status(driver)!r})")


def editor_text(driver):
    return driver.find_element(By.ID, "entry-text").get_attribute("value")


def type_text(driver, text):
    """Types as a person would; Enter for each line break."""
    field = driver.find_element(By.ID, "entry-text")
    field.send_keys(text)
    return field


def new_entry_id(driver, server):
    """After the first save of a new entry the address becomes /diary/{its id}."""
    wait(driver, lambda d: re.fullmatch(re.escape(server.url("/diary/")) + r"[0-9a-f-]{36}", d.current_url),
         message="the address never became the entry's")
    return driver.current_url.rsplit("/", 1)[1]


def today_long(driver):
    return driver.execute_script("return new Intl.DateTimeFormat('ko-KR', {dateStyle: 'long'}).format(new Date())")


def open_new_entry(driver, server):
    driver.get(server.url("/diary/new"))
    wait(driver, lambda d: d.find_element(By.ID, "editor").is_displayed())


def weather_requests(driver):
    return [name for name in driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
            if "/api/weather?" in name]


def no_images_from_elsewhere(driver):
    """No <img> on the page, and nothing but this origin's files fetched."""
    assert driver.find_elements(By.CSS_SELECTOR, "img") == []
    origin = driver.execute_script("return location.origin")
    fetched = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert [name for name in fetched if not name.startswith(origin)] == []


def allow_location(driver, server):
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url(""), "permissions": ["geolocation"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", SAN_FRANCISCO)


def forget_location(driver):
    driver.execute_cdp_cmd("Browser.resetPermissions", {})
    driver.execute_cdp_cmd("Emulation.clearGeolocationOverride", {})


@pytest.fixture(autouse=True)
def no_location_unless_a_test_gives_one(request):
    """Location refused for the test's origin: with it left to ask, headless Chromium asks Google's network location
    service (unreachable here, an error in the console). The weather tests grant it themselves."""
    drivers = [name for name in ("browser", "phone") if name in request.fixturenames]
    if "server" not in request.fixturenames or not drivers:
        yield
        return
    server = request.getfixturevalue("server")
    for name in drivers:
        request.getfixturevalue(name).execute_cdp_cmd("Browser.setPermission", {
            "origin": server.url(""), "permission": {"name": "geolocation"}, "setting": "denied"})
    yield
    for name in drivers:
        request.getfixturevalue(name).execute_cdp_cmd("Browser.resetPermissions", {})


@pytest.fixture
def seoul(browser):
    """The browser in Korea's time zone (UTC+9), so a date shown in UTC would be a day off."""
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Seoul"})
    yield browser
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})


# ---- Signed out --------------------------------------------------------------------------------------

def test_signed_out_visitors_get_the_log_in_prompt_on_every_diary_page(browser, server):
    for path in ["/diary", "/diary/new", f"/diary/{uuid.uuid4()}"]:
        browser.get(server.url(path))
        assert is_shown(browser, "sign-in-prompt"), path
        assert "일기는 로그인한 사람만 쓰고 볼 수 있어요." in text_of(browser, "sign-in-prompt")
        assert not browser.find_elements(By.ID, "diary-page") and not browser.find_elements(By.ID, "entry-text")
    browser.get(server.url("/"))
    card = browser.find_element(By.CSS_SELECTOR, '.app-card-link[href="/diary"]')
    assert "일기" in card.text  # the card leads to the diary (every app has its page)
    writer(server, "returning")
    card.click()
    browser.find_element(By.ID, "prompt-login").click()
    wait(browser, lambda d: "/account/login?next=/diary" in d.current_url)
    log_in(browser, server, "returning", next_path="/diary")
    wait(browser, lambda d: d.current_url == server.url("/diary"))
    settle_list(browser)
    assert browser.find_element(By.TAG_NAME, "h1").text == "일기장"


# ---- The list ----------------------------------------------------------------------------------------

def test_the_list_is_newest_first_with_the_long_korean_date_and_a_preview(seoul, server):
    browser = seoul
    _, diary = writer(server)
    # 15:30 UTC on the 27th is 00:30 on the 28th in Seoul: the list shows the browser's day.
    oldest = diary.put("똘기떵이호치새초미자축인묘", "\n\nLorem ipsum dolor sit amet\nsecond line", "2020-12-22T15:35:33Z")
    middle = diary.put("네번째", "비 오는 날\n우산을 챙겼다", "2022-06-27T15:30:00Z",
                       {"main": "Rain", "description": "light rain", "icon": "10n", "tempC": 17.4})
    newest = diary.put("오늘", "", "2026-01-05T02:00:00Z", {"main": "Clear", "description": "맑음", "icon": "01d", "tempC": -3})
    log_in(browser, server, "diarist", next_path="/diary")
    settle_list(browser)
    assert row_ids(browser) == [newest["id"], middle["id"], oldest["id"]]
    assert text_of(browser, "entry-count") == "일기 3개"
    shown = [(r.find_element(By.CSS_SELECTOR, ".diary-entry-title").text,
              r.find_element(By.CSS_SELECTOR, ".diary-entry-date").text,
              r.find_element(By.CSS_SELECTOR, ".diary-entry-preview").text)
             for r in browser.find_elements(By.CSS_SELECTOR, "#entry-list li.diary-entry")]
    assert shown == [("오늘", "2026년 1월 5일", ""),
                     ("네번째", "2022년 6월 28일", "비 오는 날"),
                     ("똘기떵이호치새초미자축인묘", "2020년 12월 23일", "Lorem ipsum dolor sit amet")]
    # The weather icon is drawn (SVG), named, and only where the entry has weather.
    icon = row(browser, middle["id"]).find_element(By.CSS_SELECTOR, ".diary-weather-icon")
    assert icon.get_attribute("data-icon") == "10n" and icon.get_attribute("aria-label") == "light rain"
    assert icon.find_elements(By.CSS_SELECTOR, "svg")
    assert not row(browser, oldest["id"]).find_elements(By.CSS_SELECTOR, ".diary-weather-icon svg")
    assert is_shown(browser, "list-end")
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "diary-list")

    row(browser, middle["id"]).find_element(By.CSS_SELECTOR, "a").click()
    wait(browser, lambda d: d.current_url == server.url(f"/diary/{middle['id']}"))
    settle_editor(browser)
    assert text_of(browser, "entry-date") == "2022년 6월 28일"
    assert editor_text(browser) == "네번째\n비 오는 날\n우산을 챙겼다"
    assert text_of(browser, "title-preview") == "네번째"
    assert text_of(browser, "weather-text") == "light rain · 17.4°C"
    assert browser.title == "네번째 · Sprout"


def test_the_list_loads_20_at_a_time_as_it_is_scrolled(browser, server):
    _, diary = writer(server)
    for day in range(1, 26):
        diary.put(f"{day}일의 일기", f"{day}일에 있었던 일", f"2026-03-{day:02d}T12:00:00Z")
    log_in(browser, server, "diarist", next_path="/diary")
    settle_list(browser)
    assert len(row_ids(browser)) in (20, 25)
    deadline = time.monotonic() + 20
    while not is_shown(browser, "list-end"):
        assert time.monotonic() < deadline, f"never reached the end ({len(row_ids(browser))} rows)"
        browser.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
        time.sleep(0.1)
    settle_list(browser)
    titles = browser.execute_script(
        "return [...document.querySelectorAll('#entry-list .diary-entry-title')].map(e => e.textContent)")
    assert titles == [f"{day}일의 일기" for day in range(25, 0, -1)]
    requests = [n for n in browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
                if "/api/diary/entries?" in n]
    assert any("offset=20" in n for n in requests)


# ---- Writing -----------------------------------------------------------------------------------------

def test_a_new_entry_is_saved_while_typing_and_its_first_line_is_the_title(browser, server):
    _, diary = writer(server)
    log_in(browser, server, "diarist", next_path="/diary")
    settle_list(browser)
    assert is_shown(browser, "list-empty")
    assert "아직 쓴 일기가 없어요." in text_of(browser, "list-empty")
    browser.find_element(By.ID, "new-entry-link").click()
    wait(browser, lambda d: d.current_url == server.url("/diary/new"))
    wait(browser, lambda d: d.find_element(By.ID, "editor").is_displayed())
    assert text_of(browser, "entry-date") == today_long(browser), "a new entry's heading is today"
    assert text_of(browser, "title-preview") == "첫 줄을 쓰면 제목이 돼요"
    assert status(browser) == ""
    assert not is_shown(browser, "delete-button")
    assert browser.switch_to.active_element == browser.find_element(By.ID, "entry-text")

    type_text(browser, "소풍 가는 날\n김밥을 쌌다.\n날씨가 좋았다.")
    assert text_of(browser, "title-preview") == "소풍 가는 날"
    assert status(browser) in ("저장 중…", "저장됨")
    wait_saved(browser)
    entry_id = new_entry_id(browser, server)
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", entry_id), "a v4 UUID"
    saved = diary.get(entry_id)
    assert (saved["title"], saved["body"]) == ("소풍 가는 날", "김밥을 쌌다.\n날씨가 좋았다.")
    assert saved["weather"] is None, "no location, no weather"
    assert is_shown(browser, "delete-button")
    assert browser.title == "소풍 가는 날 · Sprout"
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "diary-editor")

    # More typing is saved too, as a replacement of the version it was made from.
    type_text(browser, "\n돌아오는 길에 비.")
    wait(browser, lambda d: diary.get(entry_id)["body"] == "김밥을 쌌다.\n날씨가 좋았다.\n돌아오는 길에 비.")
    wait_saved(browser)
    assert diary.entries()["total"] == 1, "one entry, however often it is saved"
    assert [v["reason"] for v in diary.versions(entry_id)] == ["replaced"], "baseUpdatedAt was the last answer's"

    browser.refresh()
    settle_editor(browser)
    assert editor_text(browser) == "소풍 가는 날\n김밥을 쌌다.\n날씨가 좋았다.\n돌아오는 길에 비."
    assert text_of(browser, "title-preview") == "소풍 가는 날"
    assert status(browser) == "저장됨"

    browser.find_element(By.ID, "back-link").click()
    wait(browser, lambda d: d.current_url == server.url("/diary"))
    settle_list(browser)
    assert row_ids(browser) == [entry_id]
    assert row(browser, entry_id).find_element(By.CSS_SELECTOR, ".diary-entry-date").text == today_long(browser)
    assert row(browser, entry_id).find_element(By.CSS_SELECTOR, ".diary-entry-preview").text == "김밥을 쌌다."


def test_an_empty_first_line_is_not_saved_and_says_so(browser, server):
    _, diary = writer(server)
    log_in(browser, server, "diarist")
    open_new_entry(browser, server)
    type_text(browser, "\n제목 없이 쓴 본문")
    wait(browser, lambda d: status(d) == NO_TITLE)
    time.sleep(1.5)
    assert status(browser) == NO_TITLE
    assert diary.entries()["total"] == 0
    assert browser.current_url == server.url("/diary/new")
    assert text_of(browser, "title-preview") == "첫 줄을 쓰면 제목이 돼요"
    screenshot(browser, "diary-no-title")

    # Spaces are no title either.
    field = browser.find_element(By.ID, "entry-text")
    field.send_keys(Keys.CONTROL, Keys.HOME)
    field.send_keys("   ")
    time.sleep(1.5)
    assert status(browser) == NO_TITLE
    assert diary.entries()["total"] == 0

    # Giving it a title saves it all.
    field.send_keys("제목")
    wait_saved(browser)
    entry = diary.get(new_entry_id(browser, server))
    assert (entry["title"], entry["body"]) == ("   제목", "제목 없이 쓴 본문")


def test_edits_are_saved_when_leaving_the_page_right_after_typing(browser, server):
    _, diary = writer(server)
    entry = diary.put("떠나기 전에", "첫 문장")
    log_in(browser, server, "diarist", next_path=f"/diary/{entry['id']}")
    settle_editor(browser)
    assert status(browser) == "저장됨"
    field = browser.find_element(By.ID, "entry-text")
    field.send_keys(Keys.CONTROL, Keys.END)
    field.send_keys(" 그리고 바로 나감")
    # Well inside the second the autosave waits: only the save on leaving can carry this.
    browser.get(server.url("/"))
    wait(browser, lambda d: diary.get(entry["id"])["body"] == "첫 문장 그리고 바로 나감", timeout=10,
         message="the text typed just before leaving was lost")
    assert [v["reason"] for v in diary.versions(entry["id"])] == ["replaced"]

    # Hiding the page (another tab, the phone's home screen) saves as well.
    browser.get(server.url(f"/diary/{entry['id']}"))
    settle_editor(browser)
    field = browser.find_element(By.ID, "entry-text")
    field.send_keys(Keys.CONTROL, Keys.END)
    field.send_keys(".")
    browser.execute_script("""
        Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));""")
    wait(browser, lambda d: diary.get(entry["id"])["body"] == "첫 문장 그리고 바로 나감.", timeout=5)
    browser.execute_script("delete document.visibilityState")
    wait_saved(browser)


def test_a_failed_save_keeps_the_text_and_can_be_retried(browser, server):
    _, diary = writer(server)
    entry = diary.put("오프라인", "연결이 끊기기 전")
    log_in(browser, server, "diarist", next_path=f"/diary/{entry['id']}")
    settle_editor(browser)
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    field = browser.find_element(By.ID, "entry-text")
    field.send_keys(Keys.CONTROL, Keys.END)
    field.send_keys("\n끊긴 동안 쓴 줄")
    wait(browser, lambda d: is_shown(d, "save-error"), message="no error shown")
    assert status(browser) == "저장 안 됨"
    assert "저장하지 못했어요. 글은 이 화면에 그대로 있어요." in text_of(browser, "save-error")
    assert editor_text(browser) == "오프라인\n연결이 끊기기 전\n끊긴 동안 쓴 줄"
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "diary-save-failed")
    # Going back to the list does not leave silently: the page stays, with the error.
    browser.find_element(By.ID, "back-link").click()
    time.sleep(0.5)
    assert browser.current_url == server.url(f"/diary/{entry['id']}")
    assert is_shown(browser, "save-error")

    # "다시 시도" tries again at once (still offline here: it fails again, and says so).
    browser.find_element(By.ID, "save-retry").click()
    time.sleep(0.5)
    assert is_shown(browser, "save-error") and status(browser) == "저장 안 됨"

    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    # Back online, the page saves by itself (the browser's `online` event); no button needs pressing.
    wait_saved(browser)
    # The console's record of the refused requests is expected; nothing else may be there.
    severe = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert all("ERR_INTERNET_DISCONNECTED" in message for message in severe), severe
    assert not is_shown(browser, "save-error")
    assert diary.get(entry["id"])["body"] == "연결이 끊기기 전\n끊긴 동안 쓴 줄"


# ---- Deleting and sharing ----------------------------------------------------------------------------

def test_delete_asks_first_and_cancelling_keeps_the_entry(browser, server):
    _, diary = writer(server)
    keep = diary.put("남길 일기", "", "2026-01-01T00:00:00Z")
    entry = diary.put("지울 일기", "안녕", "2026-02-01T00:00:00Z")
    log_in(browser, server, "diarist", next_path=f"/diary/{entry['id']}")
    settle_editor(browser)
    dialog = browser.find_element(By.ID, "delete-dialog")
    browser.find_element(By.ID, "delete-button").click()
    wait(browser, lambda d: dialog.is_displayed())
    assert text_of(browser, "delete-dialog-title") == "진짜요?"
    assert text_of(browser, "delete-dialog-text") == "정말로 삭제 하시겠어요?"
    screenshot(browser, "diary-delete-dialog")
    browser.find_element(By.ID, "delete-cancel").click()
    wait(browser, lambda d: not dialog.is_displayed())
    assert diary.get(entry["id"]) is not None
    assert browser.current_url == server.url(f"/diary/{entry['id']}")

    browser.find_element(By.ID, "delete-button").click()
    wait(browser, lambda d: dialog.is_displayed())
    browser.find_element(By.ID, "delete-confirm").click()
    wait(browser, lambda d: d.current_url == server.url("/diary"))
    assert text_of(browser, "flash") == "일기를 삭제했어요."
    settle_list(browser)
    assert row_ids(browser) == [keep["id"]]
    assert diary.get(entry["id"]) is None


def test_share_copies_the_title_and_the_text(browser, server):
    _, diary = writer(server)
    entry = diary.put("나눌 일기", "함께 보고 싶은 하루\n둘째 줄")
    log_in(browser, server, "diarist", next_path=f"/diary/{entry['id']}")
    settle_editor(browser)
    # The Clipboard API, caught on its way out (headless Chromium's real clipboard is not the test's to read).
    browser.execute_script("""
        window.copied = [];
        navigator.clipboard.writeText = (text) => { window.copied.push(text); return Promise.resolve(); };""")
    browser.find_element(By.ID, "share-button").click()
    wait(browser, lambda d: text_of(d, "share-feedback") == "복사됨")
    assert browser.execute_script("return window.copied") == ["나눌 일기\n\n함께 보고 싶은 하루\n둘째 줄"]
    screenshot(browser, "diary-shared")

    # Where the Clipboard API refuses, the old copy command copies the same text.
    browser.execute_script("""
        window.copied = [];
        navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
        document.addEventListener('copy', () => window.copied.push(document.getSelection().toString()));""")
    wait(browser, lambda d: text_of(d, "share-feedback") == "", timeout=5)
    browser.find_element(By.ID, "share-button").click()
    wait(browser, lambda d: text_of(d, "share-feedback") == "복사됨")
    assert browser.execute_script("return window.copied") == ["나눌 일기\n\n함께 보고 싶은 하루\n둘째 줄"]
    assert browser.find_elements(By.CSS_SELECTOR, "textarea") == [browser.find_element(By.ID, "entry-text")], "the helper is gone"


# ---- Weather -----------------------------------------------------------------------------------------

def test_the_weather_is_attached_to_a_new_entry_when_the_location_is_allowed(browser, server, weather_upstream):
    _, diary = writer(server)
    log_in(browser, server, "diarist")
    allow_location(browser, server)
    try:
        open_new_entry(browser, server)
        type_text(browser, "맑은 저녁\n샌프란시스코에서")
        entry_id = new_entry_id(browser, server)
        wait(browser, lambda d: is_shown(d, "weather") and text_of(d, "weather-text") == "few clouds · 14.1°C",
             message="the weather never showed")
        wait_saved(browser)
        saved = diary.get(entry_id)
        assert saved["weather"] == {"main": "Clouds", "description": "few clouds", "icon": "02n", "tempC": 14.1}
        assert (saved["title"], saved["body"]) == ("맑은 저녁", "샌프란시스코에서")
        icon = browser.find_element(By.ID, "weather-icon")
        assert icon.get_attribute("data-icon") == "02n" and icon.get_attribute("aria-label") == "few clouds"
        assert icon.find_elements(By.CSS_SELECTOR, "svg path.wx-moon"), "a night sky: the moon behind the cloud"
        (query,) = [parse_qs(urlsplit(path).query) for path in weather_upstream.requests]
        assert query["appid"] == ["test-key"]
        assert abs(float(query["lat"][0]) - 37.7858) < 0.01 and abs(float(query["lon"][0]) + 122.4064) < 0.01
        assert len(weather_requests(browser)) == 1
        no_images_from_elsewhere(browser)
        browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
        screenshot(browser, "diary-editor-weather")

        # Editing never asks again, and keeps the weather.
        browser.find_element(By.ID, "entry-text").send_keys(" 그리고 밤")
        wait(browser, lambda d: diary.get(entry_id)["body"] == "샌프란시스코에서 그리고 밤")
        wait_saved(browser)
        browser.refresh()
        settle_editor(browser)
        field = browser.find_element(By.ID, "entry-text")
        field.send_keys(Keys.CONTROL, Keys.END)
        field.send_keys(".")
        wait(browser, lambda d: diary.get(entry_id)["body"] == "샌프란시스코에서 그리고 밤.")
        assert weather_requests(browser) == []
        assert len(weather_upstream.requests) == 1
        assert diary.get(entry_id)["weather"]["icon"] == "02n"
        assert text_of(browser, "weather-text") == "few clouds · 14.1°C"

        browser.get(server.url("/diary"))
        settle_list(browser)
        assert row(browser, entry_id).find_element(By.CSS_SELECTOR, ".diary-weather-icon").get_attribute("data-icon") == "02n"
        no_images_from_elsewhere(browser)
    finally:
        forget_location(browser)


def test_without_a_weather_key_or_a_location_the_entry_is_saved_without_weather(browser, server):
    _, diary = writer(server)
    log_in(browser, server, "diarist")
    allow_location(browser, server)
    try:
        # The server has no OpenWeather key: /api/weather answers 503, and nothing is made up.
        open_new_entry(browser, server)
        type_text(browser, "키 없는 날\n본문")
        entry_id = new_entry_id(browser, server)
        wait(browser, lambda d: text_of(d, "weather-text").startswith("날씨 없음"), message="no honest note")
        assert text_of(browser, "weather-text") == "날씨 없음 · 서버에 날씨 서비스가 설정되어 있지 않아요"
        assert len(weather_requests(browser)) == 1
        assert not browser.find_elements(By.CSS_SELECTOR, "#weather-icon svg")
        wait_saved(browser)
        assert diary.get(entry_id)["weather"] is None
        screenshot(browser, "diary-no-weather")

        # The location refused: no weather asked for at all.
        browser.execute_cdp_cmd("Browser.setPermission", {
            "origin": server.url(""), "permission": {"name": "geolocation"}, "setting": "denied"})
        open_new_entry(browser, server)
        type_text(browser, "위치 없는 날")
        other_id = new_entry_id(browser, server)
        wait(browser, lambda d: text_of(d, "weather-text") == "날씨 없음 · 위치 사용이 허용되지 않았어요")
        assert weather_requests(browser) == []
        wait_saved(browser)
        assert diary.get(other_id)["weather"] is None
    finally:
        forget_location(browser)


ICONS = ["01d", "01n", "02d", "02n", "03d", "04n", "09d", "10d", "10n", "11d", "13d", "50n"]


def test_every_weather_icon_group_is_drawn_on_the_page(browser, server):
    _, diary = writer(server)
    for index, icon in enumerate(ICONS):
        diary.put(f"날씨 {icon}", f"아이콘 {icon}", f"2026-04-{len(ICONS) - index:02d}T12:00:00Z",
                  {"main": "Weather", "description": f"icon {icon}", "icon": icon, "tempC": 10})
    log_in(browser, server, "diarist", next_path="/diary")
    settle_list(browser)
    icons = browser.execute_script(
        "return [...document.querySelectorAll('#entry-list .diary-weather-icon')].map(e => e.dataset.icon)")
    assert icons == ICONS
    # Each is an SVG of its own: day and night differ, and every group has its own drawing.
    drawings = browser.execute_script(
        "return [...document.querySelectorAll('#entry-list .diary-weather-icon svg')].map(e => e.innerHTML)")
    assert len(drawings) == len(ICONS) and len(set(drawings)) == len(ICONS)
    no_images_from_elsewhere(browser)
    browser.set_window_size(1280, 1400)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 1400, "deviceScaleFactor": 1, "mobile": False})
    try:
        browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
        screenshot(browser, "diary-weather-icons")
    finally:
        browser.set_window_size(1280, 900)
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})


def test_weather_of_main_and_icon_alone_is_shown_without_a_temperature(browser, server):
    """The contract's weather is {main, icon}: the seed app sends no description or temperature."""
    _, diary = writer(server)
    entry = diary.put("비 오는 날", "우산을 챙겼다", "2026-04-02T12:00:00Z", {"main": "Rain", "icon": "10d"})
    assert entry["weather"] == {"main": "Rain", "icon": "10d"}
    log_in(browser, server, "diarist", next_path=f"/diary/{entry['id']}")
    settle_editor(browser)
    text = wait(browser, lambda d: d.find_element(By.ID, "weather-text").text or None)
    assert text == "Rain" and "NaN" not in browser.page_source and "undefined" not in text
    assert browser.find_element(By.CSS_SELECTOR, "#weather-icon .diary-weather-icon, #weather-icon svg")


# ---- Phone -------------------------------------------------------------------------------------------

def test_phone_width_has_no_sideways_scrolling_in_the_diary(phone, server):
    _, diary = writer(server, "휴대폰으로일기쓰는사람")
    for index, icon in enumerate(["10d", "01n", "13d"]):
        diary.put(f"휴대폰 일기 {index + 1}: " + "아주 긴 제목 " * 10, "긴 본문 " * 60, f"2026-05-0{index + 1}T09:00:00Z",
                  {"main": "Weather", "description": "비", "icon": icon, "tempC": 8.5})
    log_in(phone, server, "휴대폰으로일기쓰는사람", next_path="/diary")
    settle_list(phone)
    assert len(row_ids(phone)) == 3
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 390
    phone.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(phone, "phone-diary")
    phone.get(server.url(f"/diary/{row_ids(phone)[0]}"))
    settle_editor(phone)
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 390
    phone.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(phone, "phone-diary-editor")


UNNAMED_CONTROLS = """
    const named = (e) => e.labels?.length || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby')
                          || (e.tagName === 'BUTTON' && e.textContent.trim());
    return [...document.querySelectorAll('input, button, select, textarea')].filter(e => !named(e)).map(e => e.outerHTML);"""


def test_every_control_on_the_diary_screens_has_a_name(browser, server):
    _, diary = writer(server)
    entry = diary.put("이름표를 확인할 일기", "본문", weather={"main": "Snow", "description": "눈", "icon": "13d", "tempC": -1.5})
    log_in(browser, server, "diarist", next_path="/diary")
    settle_list(browser)
    assert browser.execute_script(UNNAMED_CONTROLS) == []
    assert row(browser, entry["id"]).find_element(By.CSS_SELECTOR, ".diary-weather-icon").get_attribute("aria-label") == "눈"
    for path in ["/diary/new", f"/diary/{entry['id']}"]:
        browser.get(server.url(path))
        wait(browser, lambda d: d.find_element(By.ID, "editor").is_displayed())
        assert browser.execute_script(UNNAMED_CONTROLS) == [], path


# ---- From the list: share and delete -----------------------------------------------------------------

CATCH_CLIPBOARD = """
    window.copied = [];
    navigator.clipboard.writeText = (text) => { window.copied.push(text); return Promise.resolve(); };"""


def toast(driver):
    """The page's message (site.js's toast)."""
    return text_of(driver, "flash")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_list_rows_share_and_delete_after_asking(request, server, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    _, diary = writer(server)
    oldest = diary.put("첫째 날", "아무 일도 없었다", "2026-04-01T09:00:00Z")
    middle = diary.put("둘째 날의 조금 긴 제목: 목록에서 지울 일기", "\n지울 본문\n", "2026-04-02T09:00:00Z")
    newest = diary.put("셋째 날", "나눌 하루\n둘째 줄\n\n", "2026-04-03T09:00:00Z",
                       {"main": "Clear", "description": "맑음", "icon": "01d", "tempC": 20})
    log_in(driver, server, "diarist", next_path="/diary")
    settle_list(driver)
    assert row_ids(driver) == [newest["id"], middle["id"], oldest["id"]]
    for entry_row in driver.find_elements(By.CSS_SELECTOR, "#entry-list li.diary-entry"):
        for control in entry_row.find_elements(By.CSS_SELECTOR, "a, button"):
            rect = driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", control)
            assert rect["left"] >= 0 and rect["right"] <= driver.execute_script("return innerWidth"), rect
    assert driver.execute_script("return document.documentElement.scrollWidth") <= driver.execute_script("return innerWidth")

    # Share copies what the editor's share copies: the title, a blank line, the body.
    driver.execute_script(CATCH_CLIPBOARD)
    share = row(driver, newest["id"]).find_element(By.CSS_SELECTOR, ".diary-entry-share")
    assert share.accessible_name == "공유"
    share.click()
    wait(driver, lambda d: d.execute_script("return window.copied.length") == 1)
    assert driver.execute_script("return window.copied") == ["셋째 날\n\n나눌 하루\n둘째 줄"]
    assert driver.current_url == server.url("/diary"), "sharing does not open the entry"
    wait(driver, lambda d: toast(d) == "“셋째 날”을 복사했어요.")

    # Delete asks with the app's alert; cancelling (or Escape) keeps the entry.
    dialog = driver.find_element(By.ID, "delete-dialog")
    delete = row(driver, middle["id"]).find_element(By.CSS_SELECTOR, ".diary-entry-delete")
    delete.click()
    wait(driver, lambda d: dialog.is_displayed())
    assert text_of(driver, "delete-dialog-title") == "진짜요?" and text_of(driver, "delete-dialog-text") == "정말로 삭제 하시겠어요?"
    screenshot(driver, f"diary-list-delete-dialog-{size}")
    driver.find_element(By.ID, "delete-cancel").click()
    wait(driver, lambda d: not dialog.is_displayed())
    assert diary.get(middle["id"]) is not None and len(row_ids(driver)) == 3
    assert driver.switch_to.active_element == delete, "focus goes back to the button"

    delete.click()
    wait(driver, lambda d: dialog.is_displayed())
    driver.find_element(By.ID, "delete-confirm").click()
    wait(driver, lambda d: middle["id"] not in row_ids(d))
    assert row_ids(driver) == [newest["id"], oldest["id"]]
    assert diary.get(middle["id"]) is None
    assert text_of(driver, "entry-count") == "일기 2개"
    wait(driver, lambda d: toast(d) == "일기를 삭제했어요.")
    driver.execute_script("window.scrollTo(0, 0)")
    screenshot(driver, f"diary-list-after-delete-{size}")

    # A reload agrees.
    driver.refresh()
    settle_list(driver)
    assert row_ids(driver) == [newest["id"], oldest["id"]]


def test_deleting_from_the_list_keeps_endless_paging_in_step(browser, server):
    _, diary = writer(server)
    entries = [diary.put(f"{day}일", f"{day}일의 본문", f"2026-03-{day:02d}T12:00:00Z") for day in range(1, 26)]
    log_in(browser, server, "diarist", next_path="/diary")
    settle_list(browser)
    first_page = row_ids(browser)
    if len(first_page) != 20:
        pytest.skip("the first page filled less than the screen")
    dialog = browser.find_element(By.ID, "delete-dialog")
    row(browser, entries[-1]["id"]).find_element(By.CSS_SELECTOR, ".diary-entry-delete").click()
    wait(browser, lambda d: dialog.is_displayed())
    browser.find_element(By.ID, "delete-confirm").click()
    wait(browser, lambda d: entries[-1]["id"] not in row_ids(d))
    deadline = time.monotonic() + 20
    while not is_shown(browser, "list-end"):
        assert time.monotonic() < deadline
        browser.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
        time.sleep(0.1)
    settle_list(browser)
    assert row_ids(browser) == [e["id"] for e in reversed(entries[:-1])], "none skipped after the deletion"


# ---- The list has the last save ----------------------------------------------------------------------

def test_the_list_has_an_entry_saved_a_moment_ago_after_the_back_button(browser, server):
    _, diary = writer(server)
    log_in(browser, server, "diarist", next_path="/diary")
    settle_list(browser)
    browser.find_element(By.ID, "new-entry-link").click()
    wait(browser, lambda d: d.find_element(By.ID, "editor").is_displayed())
    type_text(browser, "뒤로 가기 전에 쓴 일기\n본문")
    wait_saved(browser)
    entry_id = new_entry_id(browser, server)
    # The browser's Back button may bring the list back as it was left (the back/forward cache).
    browser.back()
    wait(browser, lambda d: d.current_url == server.url("/diary"))
    wait(browser, lambda d: entry_id in row_ids(d), message="the list did not show the entry just written")
    settle_list(browser)
    assert row_ids(browser) == [entry_id]
    assert text_of(browser, "entry-count") == "일기 1개"

    # Typed and left at once by Back (the save on leaving races the list's own request): still there, with the text.
    browser.find_element(By.CSS_SELECTOR, f'#entry-list li[data-id="{entry_id}"] a').click()
    settle_editor(browser)
    field = browser.find_element(By.ID, "entry-text")
    field.send_keys(Keys.CONTROL, Keys.END)
    field.send_keys(" 그리고 바로 뒤로")
    browser.back()
    wait(browser, lambda d: d.current_url == server.url("/diary"))
    # (Read by script: the list may be drawn again meanwhile, which would leave a found element stale.)
    wait(browser, lambda d: d.execute_script(
        "const e = document.querySelector(`#entry-list li[data-id='${arguments[0]}'] .diary-entry-preview`);"
        " return e ? e.textContent : null", entry_id) == "본문 그리고 바로 뒤로",
         message="the list did not show the last save")
    assert diary.get(entry_id)["body"] == "본문 그리고 바로 뒤로"


# ---- Offline: kept in the browser until the server answers -------------------------------------------

def go_offline(driver, offline=True):
    driver.execute_cdp_cmd("Network.enable", {})  # (per tab: a tab the test opened has not had it)
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def drafts_in(driver):
    return driver.execute_script("""
        return Object.fromEntries(Object.keys(localStorage).filter(k => k.startsWith('sprout.diary.draft.'))
            .map(k => [k, JSON.parse(localStorage.getItem(k))]));""")


class OfflineTab:
    """The first tab stays open and offline (network emulation is per tab) with its unsaved text, while the test
    opens the site in a second tab, online: what a visitor finds after closing the offline tab and coming back.
    (Leaving or closing a page under DevTools' offline emulation would not do: the browser still delivers the page's
    `keepalive` save, so the server would have the text after all.) At the end the first tab comes back online and
    saves what it still holds, and the console's record of the refused requests is dropped."""

    def __init__(self, driver):
        self.driver = driver
        self.first = driver.current_window_handle

    def open_second(self, path_url):
        self.driver.switch_to.new_window("tab")
        self.driver.get(path_url)

    def finish(self):
        driver = self.driver
        if driver.current_window_handle != self.first:
            driver.close()
            driver.switch_to.window(self.first)
        go_offline(driver, False)
        if driver.find_elements(By.ID, "entry-text"):
            wait(driver, lambda d: status(d) in ("저장됨", NO_TITLE), timeout=20)
        driver.get_log("browser")


def type_offline(driver, text):
    """Goes offline and types `text` at the end of the editor; waits for the failed save's message."""
    go_offline(driver)
    field = driver.find_element(By.ID, "entry-text")
    field.send_keys(Keys.CONTROL, Keys.END)
    field.send_keys(text)
    wait(driver, lambda d: is_shown(d, "save-error"), message="no error shown")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_text_typed_offline_is_kept_in_the_browser_and_saved_when_the_entry_is_reopened(request, server, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    _, diary = writer(server)
    entry = diary.put("오프라인 일기", "온라인에서 쓴 줄")
    log_in(driver, server, "diarist", next_path=f"/diary/{entry['id']}")
    settle_editor(driver)
    user_id = driver.execute_script("return document.body.dataset.userId")
    tab = OfflineTab(driver)
    try:
        type_offline(driver, "\n지하철에서 쓴 줄")
        assert "이 브라우저에도 보관해 두어서 창을 닫아도 잃지 않아요." in text_of(driver, "save-error")
        assert "서버에 다시 연결되면 저장할게요." in text_of(driver, "save-error")
        key = f"sprout.diary.draft.{entry['id']}@{user_id}"
        kept = drafts_in(driver)[key]
        assert kept["text"] == "오프라인 일기\n온라인에서 쓴 줄\n지하철에서 쓴 줄"
        assert kept["baseUpdatedAt"] == entry["updatedAt"] and kept["onServer"] is True
        driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
        screenshot(driver, f"diary-offline-{size}")
        time.sleep(2.5)  # a retry or two, still offline
        assert diary.get(entry["id"])["body"] == "온라인에서 쓴 줄", "nothing reached the server"

        # Reopened (another tab, online): the kept text is restored and saved.
        tab.open_second(server.url(f"/diary/{entry['id']}"))
        settle_editor(driver)
        assert editor_text(driver) == "오프라인 일기\n온라인에서 쓴 줄\n지하철에서 쓴 줄"
        assert is_shown(driver, "restore") and "되살려 저장했어요" in text_of(driver, "restore")
        wait_saved(driver)
        assert diary.get(entry["id"])["body"] == "온라인에서 쓴 줄\n지하철에서 쓴 줄"
        assert [v["reason"] for v in diary.versions(entry["id"])] == ["replaced"], "written on the version it replaced"
        wait(driver, lambda d: drafts_in(d) == {}, message="the draft stayed after it was saved")
        screenshot(driver, f"diary-offline-restored-{size}")
    finally:
        tab.finish()
    assert diary.get(entry["id"])["body"] == "온라인에서 쓴 줄\n지하철에서 쓴 줄"


def test_a_new_entry_written_offline_is_saved_when_the_server_answers_while_the_page_is_open(browser, server):
    _, diary = writer(server)
    log_in(browser, server, "diarist")
    open_new_entry(browser, server)
    go_offline(browser)
    type_text(browser, "비행기 안에서\n창밖은 구름")
    wait(browser, lambda d: is_shown(d, "save-error"))
    assert len(drafts_in(browser)) == 1
    go_offline(browser, False)
    # Back online: saved by itself (the browser's `online` event, or the next try), no button needed.
    wait_saved(browser, timeout=20)
    entry_id = new_entry_id(browser, server)
    assert (diary.get(entry_id)["title"], diary.get(entry_id)["body"]) == ("비행기 안에서", "창밖은 구름")
    assert not is_shown(browser, "save-error")
    assert drafts_in(browser) == {}
    browser.get_log("browser")


def test_a_new_entry_written_offline_is_resumed_by_diary_new(browser, server):
    _, diary = writer(server)
    log_in(browser, server, "diarist")
    open_new_entry(browser, server)
    tab = OfflineTab(browser)
    try:
        type_offline(browser, "저장 못 한 새 일기\n오프라인에서 씀")
        assert diary.entries()["total"] == 0
        # /diary/new continues it (the server never had it) and saves it, rather than starting another.
        tab.open_second(server.url("/diary/new"))
        wait(browser, lambda d: d.find_element(By.ID, "editor").is_displayed())
        assert editor_text(browser) == "저장 못 한 새 일기\n오프라인에서 씀"
        assert "이어서 써요" in text_of(browser, "restore")
        wait_saved(browser)
        entry_id = new_entry_id(browser, server)
        assert diary.get(entry_id)["body"] == "오프라인에서 씀"
        assert drafts_in(browser) == {}
        # With nothing left to continue, /diary/new is blank again.
        open_new_entry(browser, server)
        assert editor_text(browser) == "" and not is_shown(browser, "restore")
    finally:
        tab.finish()
    assert diary.entries()["total"] == 1, "one entry, whichever tab saved it"


def test_the_list_saves_text_an_editor_could_not_and_shows_it(browser, server):
    """A save cut off when the editor is left (here: offline) is saved by the list and shown there."""
    _, diary = writer(server)
    entry = diary.put("끊긴 저장", "처음 문장", "2026-01-01T00:00:00Z")
    log_in(browser, server, "diarist")
    open_new_entry(browser, server)
    tab = OfflineTab(browser)
    try:
        type_offline(browser, "목록이 저장할 새 일기\n본문")
        tab.open_second(server.url(f"/diary/{entry['id']}"))
        settle_editor(browser)
        tab2_offline = OfflineTab(browser)
        type_offline(browser, ", 그리고 끊긴 뒷부분")
        # Both tabs offline with text the server never got; a third, online, opens the list.
        browser.switch_to.new_window("tab")
        browser.get(server.url("/diary"))
        wait(browser, lambda d: len(row_ids(d)) == 2, message="the list did not save and show the kept entry")
        settle_list(browser)
        titles = browser.execute_script(
            "return [...document.querySelectorAll('#entry-list .diary-entry-title')].map(e => e.textContent)")
        assert titles == ["목록이 저장할 새 일기", "끊긴 저장"]
        assert row(browser, entry["id"]).find_element(By.CSS_SELECTOR, ".diary-entry-preview").text == "처음 문장, 그리고 끊긴 뒷부분"
        assert diary.get(entry["id"])["body"] == "처음 문장, 그리고 끊긴 뒷부분"
        assert drafts_in(browser) == {} and not is_shown(browser, "drafts")
        browser.close()
        browser.switch_to.window(tab2_offline.first)
        tab2_offline.finish()
    finally:
        # After a failure above the other tabs would stay open (one offline) into the next tests.
        for handle in set(browser.window_handles) - {tab.first}:
            browser.switch_to.window(handle)
            browser.close()
        browser.switch_to.window(tab.first)
        tab.finish()


def test_a_kept_draft_older_than_the_servers_copy_is_offered_not_forced(browser, server):
    _, diary = writer(server)
    entry = diary.put("두 기기", "처음")
    log_in(browser, server, "diarist", next_path=f"/diary/{entry['id']}")
    settle_editor(browser)
    tab = OfflineTab(browser)
    try:
        type_offline(browser, " 이 브라우저에서")
        # Meanwhile another device changes the entry.
        diary.put("두 기기", "처음 다른 기기에서", entry_id=entry["id"])
        tab.open_second(server.url(f"/diary/{entry['id']}"))
        settle_editor(browser)
        assert editor_text(browser) == "두 기기\n처음 다른 기기에서", "the server's text is shown, not overwritten"
        wait(browser, lambda d: is_shown(d, "restore"))
        assert "다른 곳에서 고친 글" in text_of(browser, "restore")
        screenshot(browser, "diary-draft-offered")
        time.sleep(1.5)
        assert diary.get(entry["id"])["body"] == "처음 다른 기기에서"
        browser.find_element(By.ID, "restore-use").click()
        wait(browser, lambda d: editor_text(d) == "두 기기\n처음 이 브라우저에서")
        wait_saved(browser)
        assert diary.get(entry["id"])["body"] == "처음 이 브라우저에서"
        # Nothing is lost: the other device's text is a version.
        assert "처음 다른 기기에서" in [v["body"] for v in diary.versions(entry["id"])]
        assert drafts_in(browser) == {}
    finally:
        tab.finish()


def test_a_kept_draft_can_be_thrown_away(browser, server):
    _, diary = writer(server)
    entry = diary.put("버릴 초안", "서버의 글")
    log_in(browser, server, "diarist", next_path=f"/diary/{entry['id']}")
    settle_editor(browser)
    tab = OfflineTab(browser)
    try:
        type_offline(browser, " 버릴 글")
        diary.put("버릴 초안", "다른 기기에서 고친 글", entry_id=entry["id"])
        tab.open_second(server.url(f"/diary/{entry['id']}"))
        settle_editor(browser)
        wait(browser, lambda d: is_shown(d, "restore"))
        browser.find_element(By.ID, "restore-discard").click()
        wait(browser, lambda d: not is_shown(d, "restore"))
        assert drafts_in(browser) == {}
        assert editor_text(browser) == "버릴 초안\n다른 기기에서 고친 글"
        browser.refresh()
        settle_editor(browser)
        assert not is_shown(browser, "restore"), "a thrown-away draft is not offered again"
        assert diary.get(entry["id"])["body"] == "다른 기기에서 고친 글"
    finally:
        tab.finish()


def test_logging_out_forgets_the_texts_kept_in_the_browser(browser, server):
    _, diary = writer(server)
    log_in(browser, server, "diarist")
    open_new_entry(browser, server)
    user_id = browser.execute_script("return document.body.dataset.userId")
    type_text(browser, "\n제목 없이 남긴 글")  # no title: never sent, only kept here
    wait(browser, lambda d: status(d) == NO_TITLE)
    assert list(drafts_in(browser)) and all(key.endswith(f"@{user_id}") for key in drafts_in(browser))
    log_out(browser)
    assert drafts_in(browser) == {}, "the next person on this browser finds nothing"
    assert diary.entries()["total"] == 0
