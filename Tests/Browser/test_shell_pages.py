"""The site shell's shared behaviour: HTML error pages for web addresses (JSON stays for the APIs), every refusal in
Korean, Korean particles, the toast (Sprout.notify), per-account storage removed at sign-out, and sign-up links that
come back to where the visitor was."""

import json
import re
import time
import urllib.error
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from helpers import fill, is_shown, log_in, log_out, screenshot, text_of, wait


def fetch(url, method="GET"):
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers.get("Content-Type"), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type"), error.read().decode()


@pytest.fixture(params=["browser", "phone"])
def driver(request, server):
    return request.getfixturevalue(request.param)


# ---- Error pages ----------------------------------------------------------------------------------------------

MISSING_PAGES = ["/nope", "/community/nope", "/community/posts/abc", "/community/posts/0", "/board/1/posts/abc",
                 "/board/x/write", "/market/products/abc", "/market/products/-1/edit", "/diary/not-a-uuid",
                 "/account/nope"]


@pytest.mark.parametrize("path", MISSING_PAGES)
def test_unknown_pages_and_malformed_ids_get_the_html_404_page(server, path):
    status, content_type, body = fetch(server.url(path))
    assert status == 404
    assert content_type.startswith("text/html")
    assert '<header class="site-header">' in body and 'id="error-page"' in body and "페이지를 찾을 수 없어요" in body
    head_status, head_type, _ = fetch(server.url(path), method="HEAD")
    assert (head_status, head_type) == (404, content_type)


@pytest.mark.parametrize("path", ["/api/nope", "/api/v2/todos/abc/x", "/auth/nope", "/users/nope", "/posts/1/x",
                                  "/comments/x/y", "/custom/nope", "/healthChecker/x", "/openapi.json/x", "/health/x",
                                  "/web/session/x", "/market/images/x/y", "/static/missing.css"])
def test_api_addresses_keep_their_json_errors(server, path):
    status, content_type, body = fetch(server.url(path))
    assert status == 404
    assert content_type.startswith("application/json")
    assert json.loads(body) == {"message": "Not Found"}


def test_the_404_page_has_the_sites_header_and_ways_on(driver, server):
    account = server.community.sign_up("길잃은사람")
    log_in(driver, server, account["username"])
    driver.get(server.url("/community/posts/abc"))
    assert driver.title == "페이지를 찾을 수 없어요 · Sprout"
    assert text_of(driver, "error-title") == "페이지를 찾을 수 없어요"
    assert "오류 404" in text_of(driver, "error-page")
    # The header is the site's, with who is signed in, and the app the address belongs to is marked.
    assert driver.execute_script("return document.getElementById('signed-in-as').lastChild.textContent.trim()") == "길잃은사람"
    current = driver.execute_script("return document.querySelector('.site-nav a[aria-current=page]').textContent")
    assert current == "커뮤니티"
    assert driver.execute_script("return document.documentElement.scrollWidth") <= driver.execute_script("return innerWidth")
    screenshot(driver, f"error-404-{driver.execute_script('return innerWidth')}")
    driver.find_element(By.ID, "error-app").click()
    wait(driver, lambda d: d.current_url == server.url("/community"))
    driver.get(server.url("/nope"))
    assert not driver.find_elements(By.ID, "error-app")
    driver.find_element(By.ID, "error-home").click()
    wait(driver, lambda d: d.current_url == server.url("/"))


def test_a_page_script_can_draw_the_not_found_panel(driver, server):
    driver.get(server.url("/market"))
    driver.execute_script("Sprout.notFound('상품을 찾을 수 없어요. 삭제되었을 수 있어요.')")
    assert text_of(driver, "error-title") == "페이지를 찾을 수 없어요"
    assert text_of(driver, "error-explanation") == "상품을 찾을 수 없어요. 삭제되었을 수 있어요."
    assert driver.title == "페이지를 찾을 수 없어요 · Sprout"
    assert driver.find_element(By.ID, "error-app").text == "마켓 첫 화면"
    assert driver.switch_to.active_element.get_attribute("id") == "error-title"


# ---- Korean -----------------------------------------------------------------------------------------------------

PARTICLES = [
    ("장보기", "을/를", "장보기를"), ("할 일", "을/를", "할 일을"), ("“장보기”", "을/를", "“장보기”를"),
    ("“할 일”", "이/가", "“할 일”이"), ("나무", "이/가", "나무가"), ("책", "은/는", "책은"), ("바다", "은/는", "바다는"),
    ("사과", "과/와", "사과와"), ("책", "과/와", "책과"), ("서울", "으로/로", "서울로"), ("집", "으로/로", "집으로"),
    ("바다", "으로/로", "바다로"), ("장보기", "를/을", "장보기를"), ("밥", "을(를)", "밥을"),
    ("API", "을/를", "API를"), ("URL", "을/를", "URL을"), ("SMS", "으로/로", "SMS로"), ("TV", "이/가", "TV가"),
    ("2", "을/를", "2를"), ("3", "을/를", "3을"), ("10", "이/가", "10이"), ("1", "으로/로", "1로"), ("6", "으로/로", "6으로"),
    ("login", "을/를", "login을"), ("note", "을/를", "note를"), ("mail", "으로/로", "mail로"), ("ping", "이/가", "ping이"),
    ("x", "을/를", "x를"), ("!!", "을/를", "!!을(를)"), ("제목 (2)", "을/를", "제목 (2)를"),
]


def test_korean_particles_fit_the_word_before_them(browser, server):
    browser.get(server.url("/"))
    got = browser.execute_script("return arguments[0].map(([w, p]) => Sprout.particle(w, p))", [[w, p] for w, p, _ in PARTICLES])
    assert got == [expected for _, _, expected in PARTICLES]
    joined = browser.execute_script("""return [
        Sprout.sentences('게시물을 불러오지 못했어요', '권한이 없어요.'),
        Sprout.sentences('게시물을 불러오지 못했어요..', '', '권한이 없어요'),
        Sprout.sentences('정말요?', '다시 해 주세요!')]""")
    assert joined == ["게시물을 불러오지 못했어요. 권한이 없어요.", "게시물을 불러오지 못했어요. 권한이 없어요.", "정말요? 다시 해 주세요!"]


DOUBLED = re.compile(r"\.\.|요\.\.|\?\.|!\.|\.\?|,\.|\s\.")


def readable(text):
    """Korean the visitor can read: no raw English (codes such as KRW, USD, JPEG, PNG, an example address, and the
    visitor's own file name in "이미지(photo.heic)" aside)."""
    leftover = re.sub(r"KRW|USD|JPEG|PNG|MB|KB|name@example\.com|이미지\([^)]*\)", "", text)
    return bool(re.search("[가-힣]", text)) and not re.search("[A-Za-z]", leftover) and not DOUBLED.search(text)


def test_every_services_refusal_is_shown_in_korean(browser, server):
    # Real refusals from every service, through the page's own Sprout.api.
    server.community.sign_up("taken")
    browser.get(server.url("/"))
    calls = [
        ("POST", "/web/session", {"identifier": "nobody", "password": "wrong-password"}, "아이디(또는 이메일)나 비밀번호가 맞지 않아요."),
        ("POST", "/web/account", {"username": "taken", "email": "new@example.com", "password": "password1"}, "이미 사용 중인 아이디예요."),
        ("POST", "/web/account", {"username": "ab", "email": "ab@example.com", "password": "password1"}, "아이디는 3자 이상 50자 이하로 정해 주세요."),
        ("POST", "/web/account", {"username": "새싹", "email": "ab@example.com", "password": "123"}, "비밀번호는 6자 이상이어야 해요."),
        ("POST", "/api/v2/todos-json", {"title": ""}, "제목을 입력해 주세요."),
        ("GET", "/api/v2/todos/999999", None, "할 일을 찾을 수 없어요. 이미 삭제되었을 수 있어요."),
        ("GET", "/api/products/999999", None, "상품을 찾을 수 없어요. 삭제되었을 수 있어요."),
        ("POST", "/api/vendors", {"name": "가게"}, "먼저 로그인해 주세요."),
        ("GET", "/api/v2/boards", None, "로그인이 끝났어요. 다시 로그인해 주세요."),
        ("GET", "/api/diary/entries", None, "로그인이 끝났어요. 다시 로그인해 주세요."),
        ("GET", "/posts", None, None),
        ("GET", "/api/weather?lat=1&lon=2", None, None),
        ("GET", "/nope-api-path/x", None, None),
    ]
    results = browser.execute_async_script("""
        const [calls, done] = arguments;
        (async () => {
          const out = [];
          for (const [method, path, body] of calls) {
            try { await Sprout.api(method, path, body ?? undefined); out.push([path, 'ok']); }
            catch (failure) { out.push([path, failure.message]); }
          }
          done(out);
        })();""", [[m, p, b] for m, p, b, _ in calls])
    for (path, message), (_, _, _, expected) in zip(results, calls):
        assert message != "ok", path
        assert readable(message), (path, message)
        if expected:
            assert message == expected, (path, message)

    # Texts the contracts name, as the services write them, each with its Korean.
    bodies = [
        ({"message": "No post in this board has this id."}, 404, "게시글을 찾을 수 없어요. 삭제되었을 수 있어요."),
        ({"message": "This board cannot be written in."}, 403, "이 게시판에는 글을 쓸 수 없어요."),
        ({"message": "title is required."}, 400, "제목을 입력해 주세요."),
        ({"message": "contents may be at most 20000 characters long."}, 400, "내용은 20000자까지 쓸 수 있어요."),
        ({"message": "name must be 3 to 100 characters long."}, 400, "이름은 3자 이상 100자 이하로 써 주세요."),
        ({"message": "stock must be a whole number from 0 to 99999999."}, 400, "재고 수량은 0부터 99,999,999까지의 숫자로 써 주세요."),
        ({"message": "The vendor secret is missing or wrong."}, 403, "판매자 암호가 없거나 맞지 않아요."),
        ({"message": "discounted_price may not be larger than price."}, 400, "할인 금액은 가격보다 클 수 없어요."),
        ({"message": "At most 5 images may be sent."}, 400, "이미지는 5장까지 올릴 수 있어요."),
        ({"message": "No diary entry has this id."}, 404, "일기를 찾을 수 없어요. 삭제되었을 수 있어요."),
        ({"message": "title must not be empty: it is the first line of the entry."}, 400, "첫 줄(제목)을 입력해 주세요."),
        ({"message": "text cannot be empty."}, 400, "글을 입력해 주세요."),
        ({"message": "comment can be at most 1000 characters long."}, 400, "댓글은 1000자까지 쓸 수 있어요."),
        ({"message": "Forbidden"}, 403, "권한이 없어요. 내가 쓴 글과 댓글만 고치거나 지울 수 있어요."),
        ({"message": "The request body is larger than the 1 MB limit."}, 413, "내용이 너무 커요. 1MB까지 보낼 수 있어요."),
        ({"message": "제목(title)은 필수입니다. (그 외 1개의 오류)",
          "errors": {"title": ["제목(title)은 필수입니다."], "is_done": ["완료 여부(is_done)는 true, false, 1, 0 중 하나여야 합니다."]}},
         422, "제목을 입력해 주세요. 완료 여부를 알 수 없어요. 페이지를 새로 고친 뒤 다시 해 주세요."),
        ({"message": "제목(title)은 200자를 넘을 수 없습니다."}, 422, "제목은 200자를 넘을 수 없어요."),
        ({"statusCode": 400, "error": "Bad Request", "message": [{"messages": [{"id": "Auth.form.error.email.taken", "message": "Email is already taken."}]}]},
         400, "이미 가입된 이메일이에요."),
        ({"statusCode": 429, "error": "Too Many Requests", "message": [{"messages": [{"id": "Auth.form.error.ratelimit",
          "message": "Too many sign-ups from this address, please try again later."}]}]},
         429, "이곳에서 가입이 너무 많았어요. 한 시간쯤 뒤에 다시 해 주세요."),
        ({"message": "Too many vendors were created from this address in the last hour; try again later.", "code": 429}, 429,
         "이곳에서 만든 판매자가 너무 많아요. 한 시간쯤 뒤에 다시 해 주세요."),
        ({"message": "image 2 (photo.heic) is neither a JPEG nor a PNG.", "code": 400}, 400, "2번째 이미지(photo.heic)는 JPEG나 PNG가 아니에요."),
        ({"message": "image 1 could not be decoded in full (truncated or corrupt).", "code": 400}, 400, "1번째 이미지는 손상되어 읽을 수 없어요."),
        ({"message": "image 1 (big.jpg) is 9000×9000 pixels, larger than 40 megapixels.", "code": 400}, 400,
         "1번째 이미지(big.jpg)는 너무 커요. 40백만 화소까지 올릴 수 있어요."),
        ({"message": "image 1 (zeros.png) is 6324×6324 pixels, more than 32 pixels a byte of a 38951-byte PNG: too costly to decode.", "code": 400},
         400, "1번째 이미지(zeros.png)는 풀어 보기에 너무 무거운 파일이에요. 다른 파일로 올려 주세요."),
        ({"message": "Too many products with pictures were registered in the last hour; try again later.", "code": 429}, 429,
         "한 시간 동안 올릴 수 있는 상품 수를 넘었어요. 잠시 뒤에 다시 해 주세요."),
        ({"message": "Something nobody mapped happened."}, 400, "입력한 내용을 확인해 주세요."),
        ({"message": "frobnicator is required."}, 400, "입력한 내용을 확인해 주세요."),
        (None, 500, "서버에서 오류가 났어요. 잠시 뒤에 다시 해 주세요."),
        (None, 502, "지금은 서버가 응답하지 않아요. 잠시 뒤에 다시 해 주세요."),
        ("<html>proxy</html>", 418, "요청을 처리하지 못했어요. 잠시 뒤에 다시 해 주세요."),
    ]
    got = browser.execute_script("return arguments[0].map(([b, s]) => Sprout.errorMessage(b, s))", [[b, s] for b, s, _ in bodies])
    assert got == [expected for _, _, expected in bodies]
    assert all(readable(text) for text in got), got


# ---- The toast ----------------------------------------------------------------------------------------------------

def toast_state(driver):
    return driver.execute_script("""
        const toast = document.getElementById('toast'), flash = document.getElementById('flash');
        const rect = toast.getBoundingClientRect();
        return {hidden: toast.hidden, kind: toast.dataset.kind || null, text: flash.textContent, role: flash.getAttribute('role'),
                left: rect.left, right: rect.right, bottom: rect.bottom};""")


def test_confirmations_fade_and_errors_stay_until_the_next_message(driver, server):
    driver.get(server.url("/"))
    width = driver.execute_script("return innerWidth")
    height = driver.execute_script("return innerHeight")
    driver.execute_script("Sprout.notify('“장보기”를 삭제했어요.')")
    state = toast_state(driver)
    assert (state["hidden"], state["kind"], state["text"], state["role"]) == (False, "success", "“장보기”를 삭제했어요.", "status")
    assert 0 <= state["left"] and state["right"] <= width and state["bottom"] <= height, state
    assert text_of(driver, "flash") == "“장보기”를 삭제했어요."
    screenshot(driver, f"toast-success-{width}")
    started = time.monotonic()
    wait(driver, lambda d: toast_state(d)["hidden"], timeout=8)
    assert 3.5 <= time.monotonic() - started <= 6, "about four seconds, then gone"

    driver.execute_script("Sprout.notify('저장하지 못했어요. 서버에서 오류가 났어요.', {kind: 'error'})")
    state = toast_state(driver)
    assert (state["kind"], state["role"]) == ("error", "alert")
    screenshot(driver, f"toast-error-{width}")
    time.sleep(5.5)
    assert toast_state(driver)["hidden"] is False, "an error stays"
    # The next message replaces it; the close button takes a message down at once.
    driver.execute_script("Sprout.notify('다시 저장했어요.')")
    assert toast_state(driver)["text"] == "다시 저장했어요." and toast_state(driver)["kind"] == "success"
    driver.execute_script("Sprout.notify('또 실패했어요.', {kind: 'error'})")
    driver.find_element(By.ID, "toast-close").click()
    assert toast_state(driver)["hidden"] is True


def test_a_flash_after_logging_in_fades(browser, server):
    server.community.sign_up("잠깐인사")
    log_in(browser, server, "잠깐인사", next_path="/todos")
    assert text_of(browser, "flash") == "잠깐인사 님, 어서 오세요."
    wait(browser, lambda d: not is_shown(d, "flash"), timeout=8)


# ---- Per-account storage -------------------------------------------------------------------------------------

def test_signing_out_removes_the_accounts_own_storage(browser, server):
    account = server.community.sign_up("보관함주인")
    log_in(browser, server, account["username"])
    me = account["id"]
    assert browser.execute_script("return document.body.dataset.userId") == str(me)
    assert browser.execute_script("return Sprout.accountKey('sprout.board.history')") == f"sprout.board.history@{me}"
    kept = {"sprout.market.layout": "grid", f"sprout.board.history@{me + 1}": "[]", f"sprout.x@{me}0": "1",
            f"sprout.x@{me}.bak": "1"}
    gone = {f"sprout.board.history@{me}": '["검색"]', f"sprout.diary.draft@{me}": "초안", f"@{me}": "1"}
    browser.execute_script("for (const [k, v] of Object.entries(arguments[0])) localStorage.setItem(k, v)", {**kept, **gone})
    log_out(browser)
    wait(browser, lambda d: d.current_url == server.url("/"))
    left = browser.execute_script("return Object.fromEntries(Object.keys(localStorage).map(k => [k, localStorage.getItem(k)]))")
    assert left == kept
    assert browser.execute_script("return Sprout.accountKey('sprout.board.history')") is None


# ---- Sign-up links come back ---------------------------------------------------------------------------------

def signup_hrefs(driver):
    return driver.execute_script("return [...document.querySelectorAll('a[href^=\"/account/signup\"]')].map(a => [a.id, a.getAttribute('href')])")


def test_every_sign_up_link_carries_next(browser, server):
    browser.get(server.url("/community/write"))
    assert dict(signup_hrefs(browser)) == {"signup-link": "/account/signup?next=/community/write",
                                           "prompt-signup": "/account/signup?next=/community/write"}
    browser.get(server.url("/account/login?next=/board"))
    assert dict(signup_hrefs(browser)) == {"signup-link": "/account/signup?next=/board", "to-signup": "/account/signup?next=/board"}
    login_link = browser.find_element(By.ID, "login-link").get_attribute("href")
    assert login_link == server.url("/account/login?next=/board")
    browser.find_element(By.ID, "to-signup").click()
    wait(browser, lambda d: d.current_url == server.url("/account/signup?next=/board"))
    fill(browser, "signup-username", "돌아올사람")
    fill(browser, "signup-email", "back@example.com")
    fill(browser, "signup-password", "password1")
    fill(browser, "signup-confirm", "password1")
    browser.find_element(By.ID, "signup-submit").click()
    wait(browser, lambda d: d.current_url == server.url("/board"))
