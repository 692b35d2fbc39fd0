"""The web shell: home, navigation, the header's account controls, keyboard basics, phone width, nothing fetched
elsewhere."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import TodosPage, log_in, screenshot, wait

APPS = [("/todos", "할 일"), ("/diary", "일기"), ("/community", "커뮤니티"), ("/market", "마켓"), ("/board", "게시판")]


def nav_links(driver):
    return [(a.get_attribute("pathname"), a.text) for a in driver.find_elements(By.CSS_SELECTOR, ".site-nav a")]


def test_home_has_a_card_per_app_and_leads_to_todos(browser, server):
    browser.get(server.url("/"))
    assert browser.title == "홈 · Sprout"
    assert nav_links(browser) == APPS
    cards = browser.find_elements(By.CSS_SELECTOR, ".app-card")
    assert [c.find_element(By.CSS_SELECTOR, "a").get_attribute("pathname") for c in cards] == [p for p, _ in APPS]
    screenshot(browser, "home")

    cards[0].find_element(By.CSS_SELECTOR, "a").click()
    wait(browser, lambda d: d.current_url == server.url("/todos"))
    assert browser.find_element(By.TAG_NAME, "h1").text == "할 일"
    assert browser.find_element(By.CSS_SELECTOR, '.site-nav a[aria-current="page"]').text == "할 일"


def test_keyboard_reaches_everything_in_reading_order(browser, server):
    server.api.create("키보드로 도달할 할 일")
    TodosPage(browser, server).open()
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    stops = []
    for _ in range(16):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        stops.append(browser.execute_script("""
            const e = document.activeElement;
            return e.id || (e.className && String(e.className).split(' ').pop()) || e.textContent.trim();"""))
    expected_start = ["skip-link", "brand", "할 일", "일기", "커뮤니티", "마켓", "게시판", "login-link", "signup-link",
                      "todos-login", "todos-signup", "search-query", "button-quiet", "hide-done", "favourites-only",
                      "todo-star"]  # signed out, the shared list is read-only: no form to add to it
    assert stops == expected_start

    # The skip link jumps past the navigation.
    browser.get(server.url("/todos"))
    ActionChains(browser).send_keys(Keys.TAB).perform()
    assert browser.switch_to.active_element.text == "본문으로 건너뛰기"
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser, lambda d: d.switch_to.active_element.get_attribute("id") == "main")


def test_every_control_has_a_name_and_buttons_are_buttons(browser, server):
    server.api.create("이름을 확인할 할 일")
    TodosPage(browser, server).open()
    unnamed = browser.execute_script("""
        const named = (e) => e.labels?.length || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby')
                              || (e.tagName === 'BUTTON' && e.textContent.trim());
        return [...document.querySelectorAll('input, button, select, textarea')].filter(e => !named(e)).map(e => e.outerHTML);""")
    assert unnamed == []
    clickable_non_buttons = browser.execute_script(
        "return [...document.querySelectorAll('[onclick], div[role=button], span[role=button]')].length")
    assert clickable_non_buttons == 0


def test_pages_fetch_nothing_from_other_origins(browser, server):
    server.api.create("바깥을 부르지 않는 할 일")
    for path in ["/", "/todos", "/board"]:
        browser.get(server.url(path))
        if path == "/todos":
            TodosPage(browser, server).settle()
        resources = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert resources, "the page should at least load its stylesheet"
        assert all(name.startswith(server.base + "/") for name in resources), resources
        sheets = browser.execute_script("return [...document.styleSheets].map(s => s.href)")
        assert any("/static/app.css" in (href or "") for href in sheets)


@pytest.mark.parametrize("path", ["/", "/todos", "/market", "/community"])
def test_phone_width_has_no_sideways_scrolling(phone, server, path):
    for index in range(12):
        server.api.create(f"휴대폰 화면에서 보는 할 일 {index + 1}", is_done=index % 4 == 0)
    if path == "/community":
        # Signed in, with a long name and posts, so the header and the feed are at their widest.
        account = server.community.sign_up("긴이름을가진새싹농부입니다")
        for index in range(3):
            server.community.post(account, f"휴대폰에서 보는 커뮤니티 글 {index + 1}: " + "아주 긴 글 " * 30)
        log_in(phone, server, account["username"])
    phone.get(server.url(path))
    if path == "/todos":
        TodosPage(phone, server).settle()
    if path == "/community":
        wait(phone, lambda d: d.find_element(By.ID, "post-list").get_attribute("aria-busy") == "false")
    if path == "/market":
        wait(phone, lambda d: d.find_element(By.ID, "product-list").get_attribute("aria-busy") == "false")
    assert phone.execute_script("return window.innerWidth") == 390
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 390
    # Every navigation link can be reached: the menu button opens them, inside the screen's width.
    phone.execute_script("window.scrollTo(0, 0)")
    phone.find_element(By.ID, "menu-button").click()
    wait(phone, lambda d: d.find_element(By.CSS_SELECTOR, ".site-nav a").is_displayed())
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 390
    for link in phone.find_elements(By.CSS_SELECTOR, ".site-nav a"):
        phone.execute_script("arguments[0].scrollIntoView({inline: 'nearest', block: 'nearest'})", link)
        rect = phone.execute_script("return arguments[0].getBoundingClientRect().toJSON()", link)
        assert 0 <= rect["left"] and rect["right"] <= 390, (link.text, rect)
    phone.find_element(By.ID, "menu-button").click()
    wait(phone, lambda d: not d.find_element(By.CSS_SELECTOR, ".site-nav a").is_displayed())
    phone.execute_script("window.scrollTo(0, 0)")
    if path == "/todos":
        row = phone.find_elements(By.CSS_SELECTOR, "#todo-list li.todo")[0]
        for control in row.find_elements(By.CSS_SELECTOR, "input, button"):
            rect = phone.execute_script("return arguments[0].getBoundingClientRect().toJSON()", control)
            assert rect["right"] <= 390 and rect["width"] >= 20, rect
        screenshot(phone, "phone-todos")
    elif path == "/":
        screenshot(phone, "phone-home")
    elif path == "/community":
        screenshot(phone, "phone-community")


def header_geometry(driver):
    return driver.execute_script("""
        const box = (selector) => { const e = document.querySelector(selector); return e ? e.getBoundingClientRect().toJSON() : null; };
        return {header: box('.site-header'), brand: box('.brand'), menu: box('#menu-button'),
                nav: box('.site-nav'), account: box('#site-account')};""")


@pytest.mark.parametrize("signed_in", [False, True])
def test_phone_header_is_one_row_with_a_menu_button(phone, server, signed_in):
    if signed_in:
        server.community.sign_up("메뉴를여는사람")
        log_in(phone, server, "메뉴를여는사람", next_path="/market")
    else:
        phone.get(server.url("/market"))
    phone.execute_script("window.scrollTo(0, 0)")
    box = header_geometry(phone)
    # One row: brand and menu button side by side, the header at most 56 px tall.
    assert box["header"]["height"] <= 56, box
    assert abs((box["brand"]["top"] + box["brand"]["bottom"]) / 2 - (box["menu"]["top"] + box["menu"]["bottom"]) / 2) < 4, box
    assert box["menu"]["right"] <= 390 and box["menu"]["width"] >= 44 and box["menu"]["height"] >= 44, box
    button = phone.find_element(By.ID, "menu-button")
    assert button.get_attribute("aria-expanded") == "false"
    assert button.get_attribute("aria-controls") == "site-menu"
    assert not phone.find_element(By.ID, "site-menu").is_displayed()

    # Opening shows the apps and the account links, all inside the screen; the page does not move.
    button.click()
    wait(phone, lambda d: d.find_element(By.ID, "site-menu").is_displayed())
    assert button.get_attribute("aria-expanded") == "true"
    assert button.find_element(By.CSS_SELECTOR, ".visually-hidden").get_attribute("textContent") == "메뉴 닫기"
    links = phone.find_elements(By.CSS_SELECTOR, ".site-nav a")
    assert [a.text for a in links] == [name for _, name in APPS]
    assert all(a.is_displayed() and a.size["height"] >= 44 for a in links)
    assert phone.find_element(By.CSS_SELECTOR, '.site-nav a[aria-current="page"]').text == "마켓"
    account_ids = ["signed-in-as", "logout-button"] if signed_in else ["login-link", "signup-link"]
    for element_id in account_ids:
        element = phone.find_element(By.ID, element_id)
        assert element.is_displayed()
        rect = phone.execute_script("return arguments[0].getBoundingClientRect().toJSON()", element)
        assert 0 <= rect["left"] and rect["right"] <= 390, (element_id, rect)
    assert header_geometry(phone)["header"]["height"] <= 56, "the menu opens over the page, not inside the header"
    screenshot(phone, f"phone-menu-{'signed-in' if signed_in else 'signed-out'}")

    # Escape closes it and the focus goes back to the button.
    phone.execute_script("arguments[0].focus()", links[0])  # the focus inside the menu
    ActionChains(phone).send_keys(Keys.ESCAPE).perform()
    wait(phone, lambda d: not d.find_element(By.ID, "site-menu").is_displayed())
    assert button.get_attribute("aria-expanded") == "false"
    assert phone.switch_to.active_element == button

    # A click elsewhere closes it too; a link in it leads to its app.
    button.click()
    wait(phone, lambda d: d.find_element(By.ID, "site-menu").is_displayed())
    phone.find_element(By.ID, "main").click()
    wait(phone, lambda d: not d.find_element(By.ID, "site-menu").is_displayed())
    button.click()
    wait(phone, lambda d: d.find_element(By.ID, "site-menu").is_displayed())
    if signed_in:
        # Log-out is in the menu: its confirmation opens and the menu closes behind it.
        phone.find_element(By.ID, "logout-button").click()
        wait(phone, lambda d: d.find_element(By.ID, "logout-dialog").is_displayed())
        assert not phone.find_element(By.ID, "site-menu").is_displayed()
        phone.find_element(By.ID, "logout-cancel").click()
        wait(phone, lambda d: d.switch_to.active_element == d.find_element(By.ID, "menu-button"))
        button.click()
        wait(phone, lambda d: d.find_element(By.ID, "site-menu").is_displayed())
    phone.find_element(By.LINK_TEXT, "게시판" if signed_in else "할 일").click()
    wait(phone, lambda d: d.current_url == server.url("/board" if signed_in else "/todos"))
    assert phone.find_element(By.ID, "menu-button").get_attribute("aria-expanded") == "false"


def test_desktop_header_shows_everything_in_one_row_without_a_menu_button(browser, server):
    browser.get(server.url("/market"))
    box = header_geometry(browser)
    assert not browser.find_element(By.ID, "menu-button").is_displayed()
    assert browser.find_element(By.ID, "site-menu").is_displayed()
    assert all(a.is_displayed() for a in browser.find_elements(By.CSS_SELECTOR, ".site-nav a"))
    assert browser.find_element(By.ID, "login-link").is_displayed() and browser.find_element(By.ID, "signup-link").is_displayed()
    assert box["header"]["height"] <= 64, box
    # Brand, apps and account share the one row.
    middles = [(b["top"] + b["bottom"]) / 2 for b in (box["brand"], box["nav"], box["account"])]
    assert max(middles) - min(middles) < 4, box
