"""Well-formed addresses of items the API does not have (a post, a product or a diary entry deleted meanwhile, or never
there): the server cannot tell them from real ones, so they answer 200 and the page's script draws the site's
not-found panel (site.js's Sprout.notFound) — the same #error-page the server renders for a malformed id, with the
site's header, a Korean sentence saying what is missing, and the ways on — and the document title says so. A diary
id this browser keeps a draft for is no missing entry: the draft opens."""

import json
import uuid

import pytest
from selenium.webdriver.common.by import By

from conftest import DESKTOP, PHONE
from helpers import is_shown, log_in, screenshot, text_of, wait

NO_ENTRY = str(uuid.uuid4())

# (address, what the panel says is missing, the app's first screen offered on the panel)
MISSING = [
    ("/community/posts/999999", "게시물을 찾을 수 없어요. 삭제되었을 수 있어요.", "/community"),
    ("/community/write?post=999999", "게시물을 찾을 수 없어요. 삭제되었을 수 있어요.", "/community"),
    ("/board/1/posts/999999", "게시글을 찾을 수 없습니다. 삭제되었을 수 있어요.", "/board"),
    ("/board/1/posts/999999/edit", "게시글을 찾을 수 없습니다. 삭제되었을 수 있어요.", "/board"),
    ("/board/2/write?reply=999999", "답글을 달 게시글을 찾을 수 없습니다. 삭제되었을 수 있어요.", "/board"),
    ("/board/999999/write", "게시판을 찾을 수 없습니다.", "/board"),
    ("/market/products/999999", "상품을 찾을 수 없어요. 삭제되었을 수 있어요.", "/market"),
    ("/market/products/999999/edit", "상품을 찾을 수 없어요. 삭제되었을 수 있어요.", "/market"),
    (f"/diary/{NO_ENTRY}", "일기를 찾을 수 없어요. 삭제되었을 수 있어요.", "/diary"),
]


def panel_shown(driver):
    return driver.execute_script(
        "const panel = document.getElementById('error-page');"
        "return Boolean(panel) && panel.classList.contains('error-page') && panel.dataset.status === '404'"
        " && panel.getBoundingClientRect().height > 0")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_well_formed_id_of_a_missing_item_shows_the_404_panel(request, server, size):
    driver = request.getfixturevalue("browser" if size == DESKTOP else "phone")
    # Location refused, as test_diary.py does: the kept new entry below would ask for it (for its weather), and left
    # to ask, headless Chromium calls Google's location service (unreachable here, an error in the console).
    driver.execute_cdp_cmd("Browser.setPermission", {
        "origin": server.url(""), "permission": {"name": "geolocation"}, "setting": "denied"})
    request.addfinalizer(lambda: driver.execute_cdp_cmd("Browser.resetPermissions", {}))
    server.community.sign_up("찾는사람")
    log_in(driver, server, "찾는사람")
    assert driver.execute_script("return innerWidth") == size[0]
    for path, explanation, app in MISSING:
        driver.get(server.url(path))
        wait(driver, panel_shown, message=f"no not-found panel on {path}")
        # The panel is the server's 404 page's, under the site's header with who is signed in.
        assert text_of(driver, "error-title") == "페이지를 찾을 수 없어요", path
        assert "오류 404" in text_of(driver, "error-page"), path
        assert text_of(driver, "error-explanation") == explanation, path
        assert driver.title == "페이지를 찾을 수 없어요 · Sprout", path
        assert driver.execute_script(
            "return document.getElementById('signed-in-as').lastChild.textContent.trim()") == "찾는사람", path
        # The ways on: home, and the first screen of the app the address belongs to.
        assert driver.find_element(By.ID, "error-home").get_attribute("href") == server.url("/"), path
        assert driver.find_element(By.ID, "error-app").get_attribute("href") == server.url(app), path
        # Nothing of the page's own is left: no form, no ad-hoc notice, nothing to send.
        assert not driver.find_elements(By.CSS_SELECTOR, "#main form, #main textarea, #notice, #form-error"), path
        assert driver.switch_to.active_element.get_attribute("id") == "error-title", path
        assert driver.execute_script("return document.documentElement.scrollWidth") <= size[0], path
    screenshot(driver, f"missing-item-404-{size[0]}")

    # The way on to the app's first screen works.
    driver.find_element(By.ID, "error-app").click()
    wait(driver, lambda d: d.current_url == server.url("/diary"))

    # A diary id this browser keeps a draft for (a new entry whose first save never reached the server) is no
    # missing entry: the draft opens, and no panel is drawn.
    user_id = driver.execute_script("return document.body.dataset.userId")
    kept = {"id": NO_ENTRY, "text": "보관된 일기\n서버에 아직 없는 글", "createdAt": "2026-04-01T09:00:00.000Z",
            "baseUpdatedAt": None, "onServer": False, "weather": None, "keptAt": "2026-04-01T09:00:00.000Z"}
    driver.execute_script("localStorage.setItem(arguments[0], arguments[1])",
                          f"sprout.diary.draft.{NO_ENTRY}@{user_id}", json.dumps(kept))
    driver.get(server.url(f"/diary/{NO_ENTRY}"))
    wait(driver, lambda d: is_shown(d, "editor"), message="the kept draft never opened")
    assert driver.find_element(By.ID, "entry-text").get_attribute("value") == kept["text"]
    assert not panel_shown(driver) and not driver.find_elements(By.ID, "error-page")
    # It is saved, as a kept new entry is (the server then has it under this id).
    wait(driver, lambda d: text_of(d, "save-status") == "저장됨", message="the kept draft was never saved")
