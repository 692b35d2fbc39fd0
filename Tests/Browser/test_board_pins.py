"""Notices in the browser, at both widths: a moderator made with `sprout account create --role moderator` edits a
notice an admin wrote on the read-only 공지사항 and pins it; the board shows it above its list, marked 고정, to a
plain user, who gets neither the pin nor the edit button; unpinning takes it out of the block. Against a real
server and database."""

import pytest
from selenium.webdriver.common.by import By

from helpers import fill, log_in, screenshot, text_of, wait
from test_admin_console import click, no_sideways_scrolling, sign_out, width
from test_admin_moderation import make_staff


@pytest.fixture(params=["browser", "phone"])
def driver(request, server):
    return request.getfixturevalue(request.param)


def token(server, name):
    status, body = server.community.log_in(name, "password1")
    assert status == 200, body
    return {"username": name, "token": body["jwt"]}


def pinned_titles(driver):
    return [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#pinned-list .board-post-title")]


def test_a_moderator_edits_and_pins_a_notice_that_then_shows_above_the_board(driver, server, binary):
    driver.get(server.url("/"))  # a page with the site's viewport first: about:blank is 980 px wide on a phone
    suffix = "d" if width(driver) > 600 else "p"
    make_staff(binary, server, f"boss{suffix}", "admin")
    make_staff(binary, server, f"mod{suffix}", "moderator")
    admin = token(server, f"boss{suffix}")
    server.community.sign_up(f"reader{suffix}")
    notices = server.board.boards(admin)["공지사항"]
    notice = server.board.write(admin, notices, "점검 안내", "토요일 10시에 점검합니다.")
    server.board.write(admin, notices, "새 기능 안내", "검색이 빨라졌어요.")

    # The moderator edits the admin's notice: the form opens with its text, and the post shows the change.
    log_in(driver, server, f"mod{suffix}")
    post_path = f"/board/{notices}/posts/{notice['postId']}"
    driver.get(server.url(post_path))
    wait(driver, lambda d: d.find_element(By.ID, "post").is_displayed(), message="the post did not show")
    assert driver.find_element(By.ID, "post-edit").is_displayed(), "no edit button for a moderator on a notice"
    assert not driver.find_element(By.ID, "post-delete").is_displayed(), "delete is the writer's (and moderation's)"
    click(driver, "post-edit")
    wait(driver, lambda d: d.find_element(By.ID, "board-title-input").get_attribute("value") == "점검 안내",
         message="the edit form did not load the notice")
    fill(driver, "board-title-input", "점검 안내 (일요일로 변경)")
    click(driver, "board-submit")
    wait(driver, lambda d: post_path in d.current_url and text_of(d, "post-title-text") == "점검 안내 (일요일로 변경)",
         message="the edit did not show")
    assert text_of(driver, "post-writer") == f"boss{suffix}", "the notice keeps its writer"

    # Pin it: the button says so, the title carries 고정.
    pin = driver.find_element(By.ID, "post-pin")
    assert pin.text == "고정" and pin.get_attribute("aria-pressed") == "false"
    click(driver, "post-pin")
    wait(driver, lambda d: d.find_element(By.ID, "post-pin").text == "고정 해제", message="the pin did not take")
    assert "고정" in text_of(driver, "post-badges")
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"board-pin-{suffix}")
    sign_out(driver)

    # A plain user: the pinned block above the list, neither pin nor edit on the notice.
    log_in(driver, server, f"reader{suffix}")
    driver.get(server.url("/board"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f".board-menu-button[data-board-id='{notices}']"),
         message="no board menu")
    driver.find_element(By.CSS_SELECTOR, f".board-menu-button[data-board-id='{notices}']").click()
    wait(driver, lambda d: pinned_titles(d) == ["점검 안내 (일요일로 변경)"], message="the pinned block is not shown")
    titles = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#post-list .board-post-title")]
    assert titles == ["새 기능 안내", "점검 안내 (일요일로 변경)"], "the list stays newest first"
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"board-pinned-list-{suffix}")
    driver.get(server.url(post_path))
    wait(driver, lambda d: d.find_element(By.ID, "post").is_displayed(), message="the post did not show")
    assert not driver.find_element(By.ID, "post-pin").is_displayed()
    assert not driver.find_element(By.ID, "post-actions").is_displayed()
    sign_out(driver)

    # The moderator unpins it: the block is gone; the audit log has the edit, the pin and the unpin.
    log_in(driver, server, f"mod{suffix}")
    driver.get(server.url(post_path))
    wait(driver, lambda d: d.find_element(By.ID, "post-pin").text == "고정 해제", message="the post is not pinned")
    click(driver, "post-pin")
    wait(driver, lambda d: d.find_element(By.ID, "post-pin").text == "고정", message="the unpin did not take")
    assert server.board.posts(admin, notices, pinned="true")["value"] == []
    sign_out(driver)
    log_in(driver, server, f"boss{suffix}")
    driver.get(server.url(f"/admin/audit?target=board-post:{notice['postId']}"))
    wait(driver, lambda d: d.find_elements(By.ID, "audit-list"), message="no audit entries")
    text = driver.find_element(By.ID, "audit-list").text
    assert "board-post.edit" in text and "board-post.pin" in text and "board-post.unpin" in text
