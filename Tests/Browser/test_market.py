"""The Open Market in the browser: the list (LIST/GRID remembered, endless scrolling, search, prices with discounts,
sold out), a product (carousel by arrows, keys and swipe; owner-only edit and delete), registering with images
picked (each read in the browser first: no picture is named and left out), previewed, reordered and removed first,
live validation and the resulting price, editing only what changed, deleting after a confirmation (the page holds the
vendor secret), the vendor screen (become one, also on the way to the form; see the secret, make a new one), and
prices that never break between currency and amount."""

import json

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import canvas_image, fill, is_shown, log_in, log_out, sample_png, screenshot, submit_enabled, text_of, wait


# ---- Helpers -----------------------------------------------------------------------------------------

def settle_list(driver):
    wait(driver, lambda d: d.find_element(By.ID, "product-list").get_attribute("aria-busy") == "false"
         and not d.find_element(By.ID, "loading").is_displayed(), message="the list never finished loading")


def settle_product(driver):
    wait(driver, lambda d: not d.find_element(By.ID, "loading").is_displayed(), message="the product never loaded")


def settle_form(driver):
    wait(driver, lambda d: d.find_element(By.ID, "product-form").get_attribute("aria-busy") == "false",
         message="the form never finished loading")


def list_ids(driver):
    return [int(i) for i in driver.execute_script(
        "return [...document.querySelectorAll('#product-list li.product')].map(e => e.dataset.id)")]


def row(driver, product_id):
    return driver.find_element(By.CSS_SELECTOR, f'#product-list li.product[data-id="{product_id}"]')


def png(seed=0, width=96, height=72):
    return (f"sample-{seed}.png", sample_png(width, height, seed))


def seller(server, username="seller", vendor_name="새싹상회"):
    account = server.community.sign_up(username)
    return account, server.market.become_vendor(account, vendor_name)


def requests_to(driver, fragment):
    return [name for name in driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
            if fragment in name]


def loaded(driver, image) -> bool:
    return driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image)


def scroll_to_bottom(driver):
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")


def carousel_sources(driver):
    return driver.execute_script("return [...document.querySelectorAll('#carousel-track img')].map(i => i.src)")


def indicator(driver):
    return text_of(driver, "carousel-indicator")


# Records what the page sends (across a page change), to check exactly which fields went to the server.
RECORD_FETCHES = """
    const original = window.fetch;
    window.fetch = (url, init) => {
        const log = JSON.parse(sessionStorage.getItem('sent') || '[]');
        log.push({url: String(url), method: (init && init.method) || 'GET', headers: (init && init.headers) || {},
                  body: init && typeof init.body === 'string' ? init.body : null});
        sessionStorage.setItem('sent', JSON.stringify(log));
        return original(url, init);
    };"""


def sent(driver):
    return json.loads(driver.execute_script("return sessionStorage.getItem('sent') || '[]'"))


# ---- The list ----------------------------------------------------------------------------------------

def test_a_signed_out_visitor_sees_the_list_with_prices_discounts_stock_and_thumbnails(browser, server):
    _, vendor = seller(server)
    plain = server.market.register(vendor, "맥북 에어 M2", 1500000, [png(1)], stock=7)
    usd = server.market.register(vendor, "Magic Trackpad", 1234.5, [png(2)], currency="USD", stock=3)
    discounted = server.market.register(vendor, "에어팟 프로", 15000, [png(3)], discounted_price=3000, stock=2)
    sold_out = server.market.register(vendor, "기계식 키보드", 89000, [png(4)], stock=0)

    browser.get(server.url("/market"))
    settle_list(browser)
    assert list_ids(browser) == [sold_out["id"], discounted["id"], usd["id"], plain["id"]], "newest first"
    assert text_of(browser, "product-count") == "상품 4개"
    assert is_shown(browser, "list-end") and not is_shown(browser, "list-empty")
    # Selling is for vendors: a visitor without an account is offered neither.
    assert not is_shown(browser, "new-product-link") and not is_shown(browser, "vendor-link")

    first = row(browser, plain["id"])
    assert first.find_element(By.CSS_SELECTOR, ".product-name").text == "맥북 에어 M2"
    assert first.find_element(By.CSS_SELECTOR, ".product-price").text == "KRW 1,500,000"
    assert first.find_element(By.CSS_SELECTOR, ".product-stock").text == "잔여수량 : 7"
    assert first.find_elements(By.CSS_SELECTOR, ".price-original") == []
    assert row(browser, usd["id"]).find_element(By.CSS_SELECTOR, ".product-price").text == "USD 1,234.5"

    # A discount: the original price struck through in red, then the bargain price.
    price = row(browser, discounted["id"]).find_element(By.CSS_SELECTOR, ".product-price")
    original = price.find_element(By.CSS_SELECTOR, "del.price-original")
    assert original.text == "KRW 15,000"
    assert price.find_element(By.CSS_SELECTOR, ".price-current").text == "KRW 12,000"
    assert "line-through" in original.value_of_css_property("text-decoration-line")
    red, green, blue = [int(c) for c in original.value_of_css_property("color").split("(")[1].split(",")[:3]]
    assert red > 150 and green < 80 and blue < 80, original.value_of_css_property("color")

    # Sold out stands out.
    stock = row(browser, sold_out["id"]).find_element(By.CSS_SELECTOR, ".product-stock")
    assert stock.text == "품절"
    assert "is-sold-out" in stock.get_attribute("class")
    assert stock.value_of_css_property("color") != first.find_element(By.CSS_SELECTOR, ".product-stock").value_of_css_property("color")

    # Thumbnails: the products' own, lazily loaded, from this origin.
    for product in (plain, usd, discounted, sold_out):
        image = row(browser, product["id"]).find_element(By.CSS_SELECTOR, "img.product-thumb")
        assert image.get_attribute("loading") == "lazy"
        assert image.get_attribute("src") == product["thumbnail"]
        wait(browser, lambda d: loaded(d, image), message=f"thumbnail of {product['name']} never loaded")
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "market-list")

    # A product leads to its page.
    row(browser, discounted["id"]).find_element(By.CSS_SELECTOR, "a").click()
    wait(browser, lambda d: d.current_url == server.url(f"/market/products/{discounted['id']}"))
    settle_product(browser)
    assert text_of(browser, "product-name") == "에어팟 프로"
    assert not is_shown(browser, "product-actions")
    assert browser.find_elements(By.ID, "delete-dialog") == []


def test_list_and_grid_toggle_is_remembered_after_reload(browser, server):
    _, vendor = seller(server)
    for n in range(6):
        server.market.register(vendor, f"그리드 상품 {n + 1}", 1000 * (n + 1), [png(n)], stock=n,
                               discounted_price=500 if n % 2 else 0)
    browser.get(server.url("/market"))
    settle_list(browser)
    product_list = browser.find_element(By.ID, "product-list")
    assert "layout-list" in product_list.get_attribute("class")
    assert browser.find_element(By.ID, "layout-list").get_attribute("aria-pressed") == "true"
    list_row_height = browser.find_elements(By.CSS_SELECTOR, "#product-list li.product")[0].rect["height"]

    browser.find_element(By.ID, "layout-grid").click()
    assert "layout-grid" in product_list.get_attribute("class")
    assert browser.find_element(By.ID, "layout-grid").get_attribute("aria-pressed") == "true"
    assert browser.find_element(By.ID, "layout-list").get_attribute("aria-pressed") == "false"
    cards = browser.find_elements(By.CSS_SELECTOR, "#product-list li.product")
    assert cards[0].rect["y"] == cards[1].rect["y"], "cards sit side by side"
    assert cards[0].rect["height"] > list_row_height

    browser.refresh()
    settle_list(browser)
    assert "layout-grid" in browser.find_element(By.ID, "product-list").get_attribute("class"), "the choice is remembered"
    assert browser.find_element(By.ID, "layout-grid").get_attribute("aria-pressed") == "true"
    for image in browser.find_elements(By.CSS_SELECTOR, "img.product-thumb"):
        wait(browser, lambda d: loaded(d, image))
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "market-grid")

    browser.find_element(By.ID, "layout-list").click()
    browser.refresh()
    settle_list(browser)
    assert "layout-list" in browser.find_element(By.ID, "product-list").get_attribute("class")


def test_endless_scrolling_loads_page_two_once_with_a_loading_state(browser, server):
    _, vendor = seller(server)
    products = [server.market.register(vendor, f"스크롤 상품 {n + 1:02d}", 1000 + n, [png(n)], stock=1) for n in range(25)]
    newest_first = [p["id"] for p in reversed(products)]
    browser.get(server.url("/market"))
    settle_list(browser)
    assert list_ids(browser) == newest_first[:20]
    assert not is_shown(browser, "list-end")
    assert len(requests_to(browser, "/api/products?")) == 1

    # Slowly, so the loading state shows; scrolling again meanwhile starts no second load.
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 800, "downloadThroughput": -1, "uploadThroughput": -1})
    scroll_to_bottom(browser)
    wait(browser, lambda d: is_shown(d, "loading"), message="no loading state while page 2 loads")
    assert text_of(browser, "loading") == "불러오는 중…"
    assert browser.find_element(By.ID, "product-list").get_attribute("aria-busy") == "true"
    for _ in range(5):
        browser.execute_script("window.scrollBy(0, -300)")
        scroll_to_bottom(browser)
    settle_list(browser)
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    assert list_ids(browser) == newest_first, "all 25, newest first, none twice"
    assert is_shown(browser, "list-end")
    pages = requests_to(browser, "/api/products?")
    assert len(pages) == 2 and "page_no=2" in pages[1], pages
    # At the end (has_next false), scrolling asks for nothing more.
    scroll_to_bottom(browser)
    settle_list(browser)
    assert len(requests_to(browser, "/api/products?")) == 2


def test_search_restarts_paging_and_clearing_shows_everything(browser, server):
    _, vendor = seller(server)
    for n in range(22):
        server.market.register(vendor, f"찾을 상품 {n + 1:02d}", 1000, [png(n)], stock=1)
    apple = server.market.register(vendor, "빨간 사과", 3000, [png(30)], stock=5)
    green = server.market.register(vendor, "초록 사과", 3500, [png(31)], stock=5)
    banana = server.market.register(vendor, "바나나 우유", 1500, [png(32)], stock=5, description="사과 맛은 아니에요")
    browser.get(server.url("/market"))
    settle_list(browser)
    assert text_of(browser, "product-count") == "상품 25개"

    fill(browser, "search-query", "사과")
    browser.find_element(By.ID, "search-submit").click()
    wait(browser, lambda d: text_of(d, "product-count") == "검색 결과 3개")
    settle_list(browser)
    assert list_ids(browser) == [banana["id"], green["id"], apple["id"]], "names and descriptions both match"
    assert is_shown(browser, "search-clear")

    # A new search starts again from page 1 and pages on through its own results.
    fill(browser, "search-query", "찾을 상품")
    browser.find_element(By.ID, "search-query").send_keys(Keys.ENTER)
    wait(browser, lambda d: text_of(d, "product-count") == "검색 결과 22개")
    settle_list(browser)
    assert len(list_ids(browser)) == 20
    scroll_to_bottom(browser)
    wait(browser, lambda d: len(list_ids(d)) == 22)
    settle_list(browser)
    assert is_shown(browser, "list-end")
    assert any("search_value=" in r and "page_no=2" in r for r in requests_to(browser, "/api/products?"))

    fill(browser, "search-query", "없는 물건")
    browser.find_element(By.ID, "search-submit").click()
    wait(browser, lambda d: is_shown(d, "list-empty"))
    assert text_of(browser, "list-empty") == "“없는 물건”에 맞는 상품이 없어요."

    # Emptying the box shows every product again; so does the clear button.
    box = browser.find_element(By.ID, "search-query")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE)
    wait(browser, lambda d: text_of(d, "product-count") == "상품 25개")
    settle_list(browser)
    assert len(list_ids(browser)) == 20 and not is_shown(browser, "search-clear")
    fill(browser, "search-query", "바나나")
    browser.find_element(By.ID, "search-submit").click()
    wait(browser, lambda d: text_of(d, "product-count") == "검색 결과 1개")
    browser.find_element(By.ID, "search-clear").click()
    wait(browser, lambda d: text_of(d, "product-count") == "상품 25개")
    assert browser.find_element(By.ID, "search-query").get_attribute("value") == ""


# ---- Vendors -----------------------------------------------------------------------------------------

def test_becoming_a_vendor_and_seeing_and_rotating_the_secret(browser, server):
    server.market.become_vendor(server.community.sign_up("first"), "이미있는상점")
    account = server.community.sign_up("newseller")
    log_in(browser, server, "newseller", next_path="/market")
    settle_list(browser)
    wait(browser, lambda d: is_shown(d, "vendor-link"))
    assert text_of(browser, "vendor-link") == "판매자 되기"
    assert not is_shown(browser, "new-product-link"), "no registering before becoming a vendor"

    browser.find_element(By.ID, "vendor-link").click()
    wait(browser, lambda d: d.current_url == server.url("/market/vendor"))

    wait(browser, lambda d: is_shown(d, "vendor-form"))
    assert not submit_enabled(browser, "vendor-submit")
    fill(browser, "vendor-name", "이미있는상점")
    browser.find_element(By.ID, "vendor-submit").click()
    wait(browser, lambda d: is_shown(d, "vendor-error"))
    assert text_of(browser, "vendor-error") == "판매자로 등록하지 못했어요. (이미 쓰이는 판매자 이름이에요.)"

    fill(browser, "vendor-name", "새싹상회")
    browser.find_element(By.ID, "vendor-submit").click()
    wait(browser, lambda d: is_shown(d, "vendor-info"))
    vendor = server.market.vendor(account)
    assert not is_shown(browser, "vendor-form")
    assert text_of(browser, "vendor-info-name") == "새싹상회"
    assert text_of(browser, "vendor-info-id") == str(vendor["id"])
    assert text_of(browser, "vendor-info-identifier") == vendor["identifier"]
    assert "“새싹상회” 판매자로 등록했어요. 이제 상품을 올릴 수 있어요." in browser.find_element(By.TAG_NAME, "body").text

    # The secret is hidden until asked for.
    assert vendor["secret"] not in browser.find_element(By.TAG_NAME, "body").text
    assert text_of(browser, "vendor-info-secret") == "•" * 20
    browser.find_element(By.ID, "secret-toggle").click()
    assert text_of(browser, "vendor-info-secret") == vendor["secret"]
    assert text_of(browser, "secret-toggle") == "숨기기"
    browser.find_element(By.ID, "secret-toggle").click()
    assert text_of(browser, "vendor-info-secret") == "•" * 20

    # Rotating asks first; cancelling keeps the secret.
    browser.find_element(By.ID, "secret-rotate").click()
    dialog = browser.find_element(By.ID, "rotate-dialog")
    wait(browser, lambda d: dialog.is_displayed())
    assert text_of(browser, "rotate-dialog-title") == "암호를 바꿀까요?"
    browser.find_element(By.ID, "rotate-cancel").click()
    wait(browser, lambda d: not dialog.is_displayed())
    assert server.market.vendor(account)["secret"] == vendor["secret"]

    browser.find_element(By.ID, "secret-rotate").click()
    wait(browser, lambda d: dialog.is_displayed())
    browser.find_element(By.ID, "rotate-confirm").click()
    wait(browser, lambda d: "새 암호로 바꿨어요. 예전 암호는 이제 쓸 수 없어요." in d.find_element(By.TAG_NAME, "body").text)
    renewed = server.market.vendor(account)
    assert renewed["secret"] != vendor["secret"] and renewed["identifier"] == vendor["identifier"]
    assert text_of(browser, "vendor-info-secret") == renewed["secret"], "the new secret is shown"
    browser.find_element(By.ID, "secret-toggle").click()
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "market-vendor")

    # Now the list offers registering.
    browser.get(server.url("/market"))
    wait(browser, lambda d: is_shown(d, "new-product-link"))
    assert text_of(browser, "vendor-link") == "판매자 정보"


def test_signed_out_visitors_to_the_vendor_page_are_asked_to_log_in(browser, server):
    browser.get(server.url("/market/vendor"))
    assert is_shown(browser, "sign-in-prompt")
    assert browser.find_element(By.ID, "sign-in-prompt-title").text.startswith("마켓")
    browser.find_element(By.ID, "prompt-login").click()
    wait(browser, lambda d: d.current_url == server.url("/account/login?next=/market/vendor"))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_signed_out_visitors_to_the_form_go_to_log_in_and_come_back(request, server, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    seller(server)
    driver.get(server.url("/market/new"))
    wait(driver, lambda d: d.current_url == server.url("/account/login?next=/market/new"))
    fill(driver, "login-identifier", "seller")
    fill(driver, "login-password", "password1")
    driver.find_element(By.ID, "login-submit").click()
    wait(driver, lambda d: d.current_url == server.url("/market/new"))
    settle_form(driver)
    assert driver.find_element(By.ID, "product-name-input").is_enabled()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_an_account_that_is_no_vendor_becomes_one_on_the_way_to_the_form_and_comes_back(request, server, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    account = server.community.sign_up("newcomer")
    log_in(driver, server, "newcomer", next_path="/market")
    settle_list(driver)
    wait(driver, lambda d: is_shown(d, "vendor-link"))
    assert not is_shown(driver, "new-product-link")
    driver.get(server.url("/market/new"))

    # The vendor page says why, and the form waits there.
    wait(driver, lambda d: d.current_url == server.url("/market/vendor?next=%2Fmarket%2Fnew"))
    wait(driver, lambda d: is_shown(d, "vendor-form"))
    assert text_of(driver, "vendor-why").startswith("상품을 등록하려면 먼저 판매자가 되어야 해요.")
    assert "돌아가요" in text_of(driver, "vendor-why")
    assert driver.execute_script("return document.documentElement.scrollWidth") <= driver.execute_script("return innerWidth")
    driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(driver, f"market-vendor-first-{size}")
    fill(driver, "vendor-name", "첫걸음상회")
    driver.find_element(By.ID, "vendor-submit").click()

    wait(driver, lambda d: d.current_url == server.url("/market/new"))
    settle_form(driver)
    assert "“첫걸음상회” 판매자로 등록했어요. 이제 상품을 올릴 수 있어요." in driver.find_element(By.TAG_NAME, "body").text
    assert server.market.vendor(account)["name"] == "첫걸음상회"
    assert driver.find_element(By.ID, "product-name-input").is_enabled()
    assert not is_shown(driver, "notice")
    # The detour leaves no trace in the history: "back" from the form is the list, where the visitor came from.
    driver.back()
    wait(driver, lambda d: d.current_url == server.url("/market"))
    settle_list(driver)
    wait(driver, lambda d: is_shown(d, "new-product-link"))


# ---- Registering ----------------------------------------------------------------------------------------

def test_registering_with_live_validation_and_images_reordered_and_removed_before_upload(browser, server, tmp_path):
    account, vendor = seller(server)
    log_in(browser, server, "seller", next_path="/market")
    wait(browser, lambda d: is_shown(d, "new-product-link"))
    browser.find_element(By.ID, "new-product-link").click()
    wait(browser, lambda d: d.current_url == server.url("/market/new"))
    settle_form(browser)
    assert not submit_enabled(browser, "product-submit")

    # Six real pictures, JPEG and PNG, made by the browser's encoders.
    files = {}
    for label, kind, color in [("A", "png", "#c0392b"), ("B", "jpg", "#2471a3"), ("C", "jpg", "#1e8449"),
                               ("D", "png", "#7d3c98"), ("E", "jpg", "#b9770e"), ("F", "png", "#566573")]:
        path = tmp_path / f"{label}.{kind}"
        files[label] = (path, canvas_image(browser, path, "image/png" if kind == "png" else "image/jpeg", label, color))
    picker = browser.find_element(By.ID, "image-input")
    picker.send_keys("\n".join(str(files[label][0]) for label in "ABC"))
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#image-previews li")) == 3)
    assert text_of(browser, "image-count") == "3/5"
    picker.send_keys("\n".join(str(files[label][0]) for label in "DEF"))
    wait(browser, lambda d: is_shown(d, "image-error"))
    assert text_of(browser, "image-error") == "이미지를 추가할 수 없습니다."
    assert text_of(browser, "image-count") == "5/5"

    def preview_names():
        return browser.execute_script(
            "return [...document.querySelectorAll('#image-previews img')].map(i => i.alt.split(': ')[1])")

    assert preview_names() == ["A.png", "B.jpg", "C.jpg", "D.png", "E.jpg"]
    previews = browser.find_elements(By.CSS_SELECTOR, "#image-previews img")
    assert all(p.get_attribute("src").startswith("blob:") for p in previews)
    for preview in previews:
        wait(browser, lambda d: loaded(d, preview), message="a preview never showed (is blob: allowed by the CSP?)")

    def button(index, kind):
        return browser.find_elements(By.CSS_SELECTOR, "#image-previews li")[index].find_element(By.CSS_SELECTOR, f".image-{kind}")

    assert not button(0, "left").is_enabled() and not button(4, "right").is_enabled()
    button(1, "remove").click()                      # A C D E
    assert preview_names() == ["A.png", "C.jpg", "D.png", "E.jpg"]
    assert not is_shown(browser, "image-error")
    button(3, "left").click()                        # A C E D
    button(0, "right").click()                       # C A E D
    assert preview_names() == ["C.jpg", "A.png", "E.jpg", "D.png"]
    assert browser.switch_to.active_element.get_attribute("aria-label") == "2번째 이미지를 뒤로", "focus follows the image"
    button(3, "remove").click()
    button(2, "remove").click()                      # C A
    assert preview_names() == ["C.jpg", "A.png"]
    assert text_of(browser, "image-count") == "2/5"
    assert browser.find_elements(By.CSS_SELECTOR, "#image-previews .image-preview-badge")[0].text == "대표"

    # Messages appear as the visitor types, and the button waits until everything is right.
    fill(browser, "product-name-input", "ab")
    wait(browser, lambda d: is_shown(d, "name-error"))
    assert text_of(browser, "name-error") == "상품명은 세 글자 이상 입력되어야 합니다."
    browser.find_element(By.ID, "product-name-input").send_keys("c")
    wait(browser, lambda d: not is_shown(d, "name-error"))
    fill(browser, "product-name-input", "  새싹 화분  ")
    fill(browser, "product-price-input", "15000")
    fill(browser, "product-discount-input", "20000")
    wait(browser, lambda d: is_shown(d, "discount-error"))
    assert text_of(browser, "discount-error") == "할인 금액은 가격보다 클 수 없습니다."
    assert not submit_enabled(browser, "product-submit")
    fill(browser, "product-discount-input", "3000")
    fill(browser, "product-stock-input", "4")
    description = browser.find_element(By.ID, "product-description-input")
    browser.execute_script("arguments[0].value = arguments[1]", description, "가" * 999)
    description.send_keys("나다")
    wait(browser, lambda d: is_shown(d, "description-error"))
    assert text_of(browser, "description-error") == "글자수가 초과되었습니다."
    assert text_of(browser, "description-count") == "1001/1000"
    assert not submit_enabled(browser, "product-submit")
    description.send_keys(Keys.BACKSPACE)
    wait(browser, lambda d: not is_shown(d, "description-error"))
    browser.execute_script("arguments[0].value = ''", description)
    description.send_keys("베란다에서 키운 상추 모종과 화분.\n물은 이틀에 한 번 주세요 🌱")
    wait(browser, lambda d: submit_enabled(d, "product-submit"))
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "market-form")

    browser.execute_script(RECORD_FETCHES)
    browser.find_element(By.ID, "product-submit").click()
    wait(browser, lambda d: "/market/products/" in d.current_url)
    product_id = int(browser.current_url.rsplit("/", 1)[1])
    settle_product(browser)
    assert text_of(browser, "flash") == "상품 등록하였습니다."
    upload = [r for r in sent(browser) if r["url"] == "/api/products"][0]
    assert upload["method"] == "POST" and upload["headers"]["identifier"] == vendor["identifier"]

    saved = server.market.product(product_id)
    assert (saved["name"], saved["price"], saved["discounted_price"], saved["stock"], saved["currency"]) == \
        ("새싹 화분", 15000, 3000, 4, "KRW")
    assert saved["description"] == "베란다에서 키운 상추 모종과 화분.\n물은 이틀에 한 번 주세요 🌱"
    assert saved["vendor_id"] == vendor["id"]
    # Uploaded in the order shown, byte for byte: C (a JPEG) first, so it is the thumbnail, then A (a PNG).
    assert [server.market.image(image["url"]) for image in saved["images"]] == [files["C"][1], files["A"][1]]
    assert saved["thumbnail"] == saved["images"][0]["thumbnail_url"]
    assert carousel_sources(browser) == [image["url"] for image in saved["images"]]
    assert text_of(browser, "product-name") == "새싹 화분"
    assert text_of(browser, "product-price") == "KRW 15,000 KRW 12,000"
    assert text_of(browser, "product-stock") == "잔여수량 : 4"
    assert text_of(browser, "product-vendor") == "새싹상회"
    assert is_shown(browser, "product-actions"), "the vendor's own product"


def test_a_picture_larger_than_the_server_takes_is_shrunk_to_a_jpeg_before_upload(browser, server, tmp_path):
    seller(server)
    log_in(browser, server, "seller", next_path="/market/new")
    settle_form(browser)
    assert text_of(browser, "image-limit") == "300KB"
    big = tmp_path / "big.png"
    assert len(canvas_image(browser, big, "image/png", "큰 사진", "#000", (900, 700), noise=True)) > 307_200
    browser.find_element(By.ID, "image-input").send_keys(str(big))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#image-previews li"), timeout=20)
    assert browser.find_element(By.CSS_SELECTOR, "#image-previews img").get_attribute("alt") == "1번째 이미지: big.jpg"
    assert not is_shown(browser, "image-error")
    fill(browser, "product-name-input", "줄여서 올린 사진")
    fill(browser, "product-price-input", "1000")
    wait(browser, lambda d: submit_enabled(d, "product-submit"))
    browser.find_element(By.ID, "product-submit").click()
    wait(browser, lambda d: "/market/products/" in d.current_url)
    settle_product(browser)
    saved = server.market.product(int(browser.current_url.rsplit("/", 1)[1]))
    content = server.market.image(saved["images"][0]["url"])
    assert content[:3] == b"\xff\xd8\xff" and len(content) <= 307_200
    assert saved["images"][0]["url"].endswith(".jpg")


def test_a_refused_upload_shows_the_servers_message(browser, server, tmp_path):
    seller(server)
    log_in(browser, server, "seller", next_path="/market/new")
    settle_form(browser)
    # A broken picture is caught in the browser now (next test); the server alone knows its price limit (10¹²).
    path = tmp_path / "fine.jpg"
    canvas_image(browser, path)
    browser.find_element(By.ID, "image-input").send_keys(str(path))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#image-previews li"))
    fill(browser, "product-name-input", "너무 비싼 상품")
    fill(browser, "product-price-input", "2000000000000")
    wait(browser, lambda d: submit_enabled(d, "product-submit"))
    browser.find_element(By.ID, "product-submit").click()
    wait(browser, lambda d: is_shown(d, "form-error"))
    message = text_of(browser, "form-error")
    assert message.startswith("상품 등록 실패하였습니다. (") and message.endswith(")") and len(message) > 20, message
    assert browser.current_url == server.url("/market/new")
    assert submit_enabled(browser, "product-submit"), "the form can be sent again"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_picker_reads_each_picture_first_and_names_the_ones_that_are_not_usable(request, server, tmp_path, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    seller(server)
    log_in(driver, server, "seller", next_path="/market/new")
    settle_form(driver)
    driver.execute_script(RECORD_FETCHES)
    # Named like pictures: a text file, a JPEG that breaks off after its first bytes, a real PNG named .jpeg (as
    # some phones and download sites name them), and a real JPEG.
    notes = tmp_path / "notes.jpg"
    notes.write_text("장보기 목록: 상추, 깻잎, 화분 흙\n" * 20, encoding="utf-8")
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0" + b"not really a picture" * 40)
    disguised = tmp_path / "photo.jpeg"
    disguised_bytes = sample_png(120, 90, 7)
    disguised.write_bytes(disguised_bytes)
    real = tmp_path / "real.jpg"
    real_bytes = canvas_image(driver, real, "image/jpeg", "R", "#2471a3")
    driver.find_element(By.ID, "image-input").send_keys("\n".join(str(p) for p in (notes, disguised, broken, real)))

    wait(driver, lambda d: is_shown(d, "image-error") and len(d.find_elements(By.CSS_SELECTOR, "#image-previews li")) == 2)
    names = driver.execute_script("return [...document.querySelectorAll('#image-previews img')].map(i => i.alt.split(': ')[1])")
    assert names == ["photo.jpeg", "real.jpg"], "the PNG named .jpeg is a usable picture"
    assert text_of(driver, "image-count") == "2/5"
    lines = text_of(driver, "image-error").split("\n")
    assert len(lines) == 2, lines
    assert lines[0].startswith("“notes.jpg”") and "JPEG나 PNG 이미지가 아니에요" in lines[0], lines[0]
    assert lines[1].startswith("“broken.jpg”") and "이미지로 읽을 수 없어요" in lines[1], lines[1]
    assert sent(driver) == [], "nothing was sent to find that out"
    for preview in driver.find_elements(By.CSS_SELECTOR, "#image-previews img"):
        wait(driver, lambda d: loaded(d, preview))
    assert driver.execute_script("return document.documentElement.scrollWidth") <= driver.execute_script("return innerWidth")
    error = driver.find_element(By.ID, "image-error")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", error)
    screenshot(driver, f"market-picker-refusals-{size}")

    # The two usable pictures upload byte for byte, in the order shown.
    fill(driver, "product-name-input", "사진 두 장")
    fill(driver, "product-price-input", "1000")
    wait(driver, lambda d: submit_enabled(d, "product-submit"))
    driver.find_element(By.ID, "product-submit").click()
    wait(driver, lambda d: "/market/products/" in d.current_url)
    settle_product(driver)
    saved = server.market.product(int(driver.current_url.rsplit("/", 1)[1]))
    assert [server.market.image(image["url"]) for image in saved["images"]] == [disguised_bytes, real_bytes]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_form_shows_the_resulting_price_as_the_discount_is_typed(request, server, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    seller(server)
    log_in(driver, server, "seller", next_path="/market/new")
    settle_form(driver)
    assert not is_shown(driver, "price-preview"), "nothing before there is a price"
    fill(driver, "product-price-input", "10000")
    wait(driver, lambda d: is_shown(d, "price-preview"))
    assert text_of(driver, "price-preview") == "판매가 KRW 10,000"
    discount = driver.find_element(By.ID, "product-discount-input")
    discount.send_keys("1")
    wait(driver, lambda d: text_of(d, "price-preview") == "할인가 KRW 9,999")
    discount.send_keys("000")
    wait(driver, lambda d: text_of(d, "price-preview") == "할인가 KRW 9,000")
    # The same formatting the list uses: the non-breaking space between currency and amount.
    assert driver.execute_script("return document.getElementById('price-preview-amount').textContent") == "KRW\u00a09,000"
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", discount)
    screenshot(driver, f"market-form-price-{size}")
    driver.find_element(By.ID, "currency-usd").click()
    wait(driver, lambda d: text_of(d, "price-preview") == "할인가 USD 9,000")
    fill(driver, "product-price-input", "10.5")
    fill(driver, "product-discount-input", "0.25")
    wait(driver, lambda d: text_of(d, "price-preview") == "할인가 USD 10.25")
    # A discount larger than the price has no resulting price, only the message.
    fill(driver, "product-discount-input", "11")
    wait(driver, lambda d: is_shown(d, "discount-error"))
    assert not is_shown(driver, "price-preview")
    fill(driver, "product-discount-input", "")
    wait(driver, lambda d: text_of(d, "price-preview") == "판매가 USD 10.5")


# Whether each price's text sits on a single line: the rectangles of its characters share one top.
PRICE_LINES = """
    return [...document.querySelectorAll(arguments[0])].filter(e => e.offsetParent).map(e => {
        const range = document.createRange();
        range.selectNodeContents(e);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        return [e.textContent, tops.size];
    });"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_prices_never_break_between_currency_and_amount(request, server, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    _, vendor = seller(server)
    # Long names and prices of many lengths, so that some would break at the space between currency and amount.
    prices = [(9, 1), (98000, 8000), (1234567, 4567), (123456789, 3456789), (98765432109, 1234567890), (999999999999, 1)]
    products = [server.market.register(vendor, f"아주 긴 이름의 상품 {n}: 원목 책상과 의자 세트", price, [png(n)], stock=n,
                                       discounted_price=discount) for n, (price, discount) in enumerate(prices)]
    products.append(server.market.register(vendor, "달러로 파는 긴 이름의 상품", 1234567.89, [png(9)], currency="USD",
                                           discounted_price=0.5, stock=1))
    log_in(driver, server, "seller", next_path="/market")
    settle_list(driver)
    width = driver.execute_script("return innerWidth")

    def check(where):
        found = driver.execute_script(PRICE_LINES, ".price-original, .price-current")
        assert found, where
        broken = [text for text, lines in found if lines != 1]
        assert broken == [], f"{where}: {broken}"
        assert all("\u00a0" in text for text, _ in found), f"{where}: {found}"
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width, where

    driver.find_element(By.ID, "layout-list").click()
    check("list")
    driver.find_element(By.ID, "layout-grid").click()
    check("grid")
    for card in driver.find_elements(By.CSS_SELECTOR, "#product-list li.product .product-link"):
        price = card.find_element(By.CSS_SELECTOR, ".product-price")
        assert price.rect["x"] >= card.rect["x"] and price.rect["x"] + price.rect["width"] <= card.rect["x"] + card.rect["width"] + 1, \
            f"{price.text} sticks out of its card"
    driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(driver, f"market-grid-prices-{size}")
    driver.find_element(By.ID, "layout-list").click()
    for product in (products[4], products[5], products[-1]):
        driver.get(server.url(f"/market/products/{product['id']}"))
        settle_product(driver)
        check(f"product {product['name']}")
    driver.get(server.url("/market/new"))
    settle_form(driver)
    fill(driver, "product-price-input", "999999999999")
    fill(driver, "product-discount-input", "1")
    wait(driver, lambda d: is_shown(d, "price-preview"))
    check("form")


# ---- A product: carousel, editing, deleting ------------------------------------------------------------

def test_the_carousel_turns_by_arrows_keys_and_swipe(browser, server):
    _, vendor = seller(server)
    product = server.market.register(vendor, "세 장짜리 상품", 32000, [png(1, 480, 360), png(2, 480, 360), png(3, 480, 360)],
                                     stock=9, description="사진이 세 장 있어요.")
    browser.get(server.url(f"/market/products/{product['id']}"))
    settle_product(browser)
    assert browser.title == "세 장짜리 상품 · Sprout"
    assert carousel_sources(browser) == [image["url"] for image in product["images"]], "the originals, in order"
    for image in browser.find_elements(By.CSS_SELECTOR, "#carousel-track img"):
        wait(browser, lambda d: loaded(d, image))
    assert indicator(browser) == "1/3"
    assert not browser.find_element(By.ID, "carousel-prev").is_enabled()
    assert text_of(browser, "product-description") == "사진이 세 장 있어요."
    assert text_of(browser, "product-price") == "KRW 32,000"

    def showing():
        """Which slide fills the carousel's box."""
        return browser.execute_script("""
            const box = document.getElementById('carousel').getBoundingClientRect();
            return [...document.querySelectorAll('#carousel-track li')].findIndex(s =>
                Math.abs(s.getBoundingClientRect().left - box.left) < 2);""")

    browser.find_element(By.ID, "carousel-next").click()
    wait(browser, lambda d: indicator(d) == "2/3" and showing() == 1)
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    wait(browser, lambda d: indicator(d) == "3/3" and showing() == 2)
    assert not browser.find_element(By.ID, "carousel-next").is_enabled()
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert indicator(browser) == "3/3", "the last stays the last"
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    wait(browser, lambda d: indicator(d) == "2/3")
    browser.find_element(By.ID, "carousel-prev").click()
    wait(browser, lambda d: indicator(d) == "1/3" and showing() == 0)

    # A swipe to the left shows the next picture; to the right, the previous one.
    carousel = browser.find_element(By.ID, "carousel")
    ActionChains(browser).move_to_element(carousel).click_and_hold().move_by_offset(-160, 0).release().perform()
    wait(browser, lambda d: indicator(d) == "2/3" and showing() == 1)
    ActionChains(browser).move_to_element(carousel).click_and_hold().move_by_offset(160, 0).release().perform()
    wait(browser, lambda d: indicator(d) == "1/3" and showing() == 0)
    browser.find_element(By.ID, "carousel-next").click()
    wait(browser, lambda d: showing() == 1)
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "market-product")


def test_editing_sends_only_what_changed_and_the_detail_shows_it(browser, server):
    _, vendor = seller(server)
    product = server.market.register(vendor, "가격을 바꿀 상품", 20000, [png(1), png(2)], stock=3, description="그대로 둘 설명")
    log_in(browser, server, "seller", next_path=f"/market/products/{product['id']}")
    settle_product(browser)
    wait(browser, lambda d: is_shown(d, "product-actions"))
    browser.find_element(By.ID, "product-edit").click()
    wait(browser, lambda d: d.current_url == server.url(f"/market/products/{product['id']}/edit"))
    settle_form(browser)
    assert text_of(browser, "form-title") == "상품 수정"
    assert browser.find_element(By.ID, "product-name-input").get_attribute("value") == "가격을 바꿀 상품"
    assert browser.find_element(By.ID, "product-price-input").get_attribute("value") == "20000"
    assert browser.find_element(By.ID, "product-stock-input").get_attribute("value") == "3"
    assert browser.find_element(By.ID, "product-description-input").get_attribute("value") == "그대로 둘 설명"
    assert browser.find_element(By.ID, "currency-krw").is_selected()
    # The images are shown, not editable: only which one is the thumbnail can be chosen.
    assert browser.find_elements(By.ID, "image-input") == []
    choices = browser.find_elements(By.CSS_SELECTOR, ".image-thumbnail-choice")
    assert [c.is_selected() for c in choices] == [True, False]
    assert not submit_enabled(browser, "product-submit"), "nothing changed yet"

    fill(browser, "product-price-input", "25000")
    wait(browser, lambda d: submit_enabled(d, "product-submit"))
    choices[1].click()
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(browser, "market-edit")
    browser.execute_script(RECORD_FETCHES)
    browser.find_element(By.ID, "product-submit").click()
    wait(browser, lambda d: d.current_url == server.url(f"/market/products/{product['id']}"))
    settle_product(browser)
    assert text_of(browser, "flash") == "상품 수정하였습니다."
    assert text_of(browser, "product-price") == "KRW 25,000"

    patch = [r for r in sent(browser) if r["method"] == "PATCH"]
    assert len(patch) == 1 and patch[0]["headers"]["identifier"] == vendor["identifier"]
    assert json.loads(patch[0]["body"]) == {"price": 25000, "thumbnail_id": product["images"][1]["id"], "secret": vendor["secret"]}
    saved = server.market.product(product["id"])
    assert (saved["name"], saved["price"], saved["stock"], saved["description"]) == ("가격을 바꿀 상품", 25000, 3, "그대로 둘 설명")
    assert saved["thumbnail"] == product["images"][1]["thumbnail_url"]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_deleting_ones_own_product_asks_only_for_a_confirmation(request, server, size):
    driver = request.getfixturevalue("browser" if size == "desktop" else "phone")
    account, vendor = seller(server)
    keep = server.market.register(vendor, "남을 상품", 1000, [png(1)], stock=1)
    doomed = server.market.register(vendor, "지울 상품", 2000, [png(2)], stock=1)
    log_in(driver, server, "seller", next_path=f"/market/products/{doomed['id']}")
    settle_product(driver)
    wait(driver, lambda d: is_shown(d, "product-actions"))
    driver.find_element(By.ID, "product-delete").click()
    dialog = driver.find_element(By.ID, "delete-dialog")
    wait(driver, lambda d: dialog.is_displayed())
    assert text_of(driver, "delete-dialog-title") == "정말 삭제하시겠습니까?"
    assert text_of(driver, "delete-dialog-text") == "“지울 상품” 상품을 삭제하면 되돌릴 수 없어요."
    assert dialog.find_elements(By.CSS_SELECTOR, "input") == [], "nothing to type: the page holds the secret"
    assert "암호" not in dialog.text
    assert driver.switch_to.active_element.get_attribute("id") == "delete-cancel", "the safe choice has the focus"
    assert submit_enabled(driver, "delete-confirm")
    screenshot(driver, f"market-delete-dialog-{size}")
    driver.find_element(By.ID, "delete-cancel").click()
    wait(driver, lambda d: not dialog.is_displayed())
    assert server.market.product(doomed["id"]) is not None

    # The secret renewed elsewhere since the page opened: the page reads it again when deleting.
    status, _ = server.market.request("POST", "/api/vendors/me/secret", token=account["token"])
    assert status in (200, 201)
    driver.execute_script(RECORD_FETCHES)
    driver.find_element(By.ID, "product-delete").click()
    wait(driver, lambda d: dialog.is_displayed())
    driver.find_element(By.ID, "delete-confirm").click()
    wait(driver, lambda d: d.current_url == server.url("/market"))
    assert text_of(driver, "flash") == "상품 삭제 완료하였습니다"
    settle_list(driver)
    assert list_ids(driver) == [keep["id"]]
    assert server.market.product(doomed["id"]) is None
    archived = [r for r in sent(driver) if r["url"].endswith(f"/api/products/{doomed['id']}/archived")]
    assert len(archived) == 1 and archived[0]["method"] == "POST"
    assert json.loads(archived[0]["body"]) == {"secret": server.market.vendor(account)["secret"]}
    assert archived[0]["headers"]["identifier"] == vendor["identifier"]
    deletes = [r for r in sent(driver) if r["method"] == "DELETE"]
    assert len(deletes) == 1 and deletes[0]["url"].startswith("/api/products/"), "v3's flow: DELETE on the path it answered"


def test_a_delete_that_fails_keeps_the_dialog_open_with_the_reason(browser, server):
    _, vendor = seller(server)
    doomed = server.market.register(vendor, "이미 지운 상품", 2000, [png(2)], stock=1)
    log_in(browser, server, "seller", next_path=f"/market/products/{doomed['id']}")
    settle_product(browser)
    wait(browser, lambda d: is_shown(d, "product-actions"))
    # Deleted in another tab meanwhile.
    status, path = server.market.request("POST", f"/api/products/{doomed['id']}/archived", {"secret": vendor["secret"]},
                                         identifier=vendor["identifier"])
    assert status == 200, path
    assert server.market.request("DELETE", path.strip(), identifier=vendor["identifier"])[0] in (200, 204)

    browser.find_element(By.ID, "product-delete").click()
    dialog = browser.find_element(By.ID, "delete-dialog")
    wait(browser, lambda d: dialog.is_displayed())
    browser.find_element(By.ID, "delete-confirm").click()
    wait(browser, lambda d: is_shown(d, "delete-error"))
    message = text_of(browser, "delete-error")
    assert message.startswith("상품 삭제 실패하였습니다 (") and message.endswith(")"), message
    assert dialog.is_displayed(), "the dialog stays for another try or 취소"
    assert submit_enabled(browser, "delete-confirm")
    browser.find_element(By.ID, "delete-cancel").click()
    wait(browser, lambda d: not dialog.is_displayed())
    assert browser.current_url == server.url(f"/market/products/{doomed['id']}")


def test_edit_and_delete_are_only_for_the_products_own_vendor(browser, server):
    _, other_vendor = seller(server, "othervendor", "다른상점")
    _, my_vendor = seller(server, "myvendor", "내상점")
    theirs = server.market.register(other_vendor, "남의 상품", 5000, [png(1)], stock=1)
    mine = server.market.register(my_vendor, "내 상품", 6000, [png(2)], stock=1)
    log_in(browser, server, "myvendor", next_path=f"/market/products/{theirs['id']}")
    settle_product(browser)
    assert text_of(browser, "product-vendor") == "다른상점"
    assert not is_shown(browser, "product-actions")

    browser.get(server.url(f"/market/products/{mine['id']}"))
    settle_product(browser)
    wait(browser, lambda d: is_shown(d, "product-actions"))

    # The edit screen of someone else's product says so and cannot be sent.
    browser.get(server.url(f"/market/products/{theirs['id']}/edit"))
    wait(browser, lambda d: is_shown(d, "notice"))
    assert text_of(browser, "notice") == "내 상품만 고칠 수 있어요."
    assert not submit_enabled(browser, "product-submit")

    # A signed-in account that is no vendor owns nothing either.
    log_out(browser)
    server.community.sign_up("shopper")
    log_in(browser, server, "shopper", next_path=f"/market/products/{mine['id']}")
    settle_product(browser)
    assert text_of(browser, "product-name") == "내 상품"
    assert not is_shown(browser, "product-actions")


def test_an_unknown_product_says_so(browser, server):
    # The site's not-found panel (Sprout.notFound), as a malformed id gets from the server.
    browser.get(server.url("/market/products/999"))
    wait(browser, lambda d: is_shown(d, "error-page"))
    assert text_of(browser, "error-explanation") == "상품을 찾을 수 없어요. 삭제되었을 수 있어요."
    assert browser.title == "페이지를 찾을 수 없어요 · Sprout"
    assert not is_shown(browser, "product")


@pytest.mark.public_url("http://shop.example:8123")
def test_images_named_by_another_public_url_load_from_this_origin(browser, server):
    _, vendor = seller(server)
    product = server.market.register(vendor, "다른 주소의 상품", 1000, [png(1), png(2)], stock=1)
    assert product["thumbnail"].startswith("http://shop.example:8123/market/images/")
    browser.get(server.url("/market"))
    settle_list(browser)
    image = browser.find_element(By.CSS_SELECTOR, "img.product-thumb")
    assert image.get_attribute("src") == server.url(product["thumbnail"].removeprefix("http://shop.example:8123"))
    wait(browser, lambda d: loaded(d, image))
    browser.get(server.url(f"/market/products/{product['id']}"))
    settle_product(browser)
    assert all(src.startswith(server.base + "/market/images/") for src in carousel_sources(browser))
    for slide in browser.find_elements(By.CSS_SELECTOR, "#carousel-track img"):
        wait(browser, lambda d: loaded(d, slide))
    resources = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert all(name.startswith(server.base + "/") for name in resources), resources


UNNAMED_CONTROLS = """
    const named = (e) => e.labels?.length || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby')
                          || (e.tagName === 'BUTTON' && e.textContent.trim());
    return [...document.querySelectorAll('input, button, select, textarea')].filter(e => !named(e)).map(e => e.outerHTML);"""


def test_every_control_on_the_market_screens_has_a_name(browser, server, tmp_path):
    _, vendor = seller(server)
    product = server.market.register(vendor, "이름표 상품", 1000, [png(1), png(2)], stock=1)
    log_in(browser, server, "seller", next_path="/market")
    settle_list(browser)
    assert browser.execute_script(UNNAMED_CONTROLS) == []
    browser.get(server.url(f"/market/products/{product['id']}"))
    settle_product(browser)
    assert browser.execute_script(UNNAMED_CONTROLS) == []
    browser.get(server.url("/market/new"))
    settle_form(browser)
    path = tmp_path / "named.jpg"
    canvas_image(browser, path)
    browser.find_element(By.ID, "image-input").send_keys(str(path))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#image-previews li"))
    assert browser.execute_script(UNNAMED_CONTROLS) == []
    for path in [f"/market/products/{product['id']}/edit", "/market/vendor"]:
        browser.get(server.url(path))
        wait(browser, lambda d: d.execute_script("return !document.getElementById('loading') || document.getElementById('loading').hidden")
             and d.execute_script("const f = document.getElementById('product-form'); return !f || f.getAttribute('aria-busy') === 'false'"))
        assert browser.execute_script(UNNAMED_CONTROLS) == [], path


def test_phone_width_shows_a_two_column_grid_without_sideways_scrolling(phone, server):
    _, vendor = seller(server)
    for n in range(6):
        server.market.register(vendor, f"휴대폰에서 보는 아주 긴 이름의 상품 {n + 1}", 1234567 * (n + 1), [png(n)],
                               stock=n, discounted_price=1000 if n % 2 else 0)
    phone.get(server.url("/market"))
    settle_list(phone)
    phone.find_element(By.ID, "layout-grid").click()
    cards = phone.find_elements(By.CSS_SELECTOR, "#product-list li.product")
    assert cards[0].rect["y"] == cards[1].rect["y"] != cards[2].rect["y"], "two columns"
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 390
    for image in phone.find_elements(By.CSS_SELECTOR, "img.product-thumb")[:4]:
        wait(phone, lambda d: loaded(d, image))
    phone.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(phone, "phone-market-grid")
    product = cards[0].find_element(By.CSS_SELECTOR, "a").get_attribute("href")
    phone.get(product)
    settle_product(phone)
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 390
