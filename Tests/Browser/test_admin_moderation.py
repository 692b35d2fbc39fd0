"""The console's moderation in the browser, at both widths: a user reports another's post through the API, a
moderator made with `sprout account create --role moderator` finds it in the reports queue (/admin/reports),
hides it from there, and the post is gone for everyone else; an unfounded report of another post is closed
without touching it ("신고 닫기"); the audit page (an admin's) shows `content.hide`.
Then the moderation list's bulk bar: select all on the page and restore. Against a real server and database."""

import subprocess

import pytest
from selenium.webdriver.common.by import By

from helpers import log_in, screenshot, text_of, wait
from test_admin_console import click, no_sideways_scrolling, sign_out, width


@pytest.fixture(params=["browser", "phone"])
def driver(request, server):
    return request.getfixturevalue(request.param)


def make_staff(binary, server, name, role):
    subprocess.run(
        [str(binary), "account", "create", name, "--email", f"{name}@example.com", "--password", "password1",
         "--role", role, "--data-dir", str(server.data_dir)],
        env=server.env, stdin=subprocess.DEVNULL, check=True, capture_output=True, timeout=60,
    )


def test_a_moderator_hides_a_reported_post_from_the_queue_and_restores_it_in_bulk(driver, server, binary):
    driver.get(server.url("/"))  # a page with the site's viewport first: about:blank is 980 px wide on a phone
    suffix = "d" if width(driver) > 600 else "p"
    make_staff(binary, server, f"mod{suffix}", "moderator")
    make_staff(binary, server, f"boss{suffix}", "admin")
    author = server.community.sign_up(f"spammer{suffix}")
    reporter = server.community.sign_up(f"snitch{suffix}")
    post = server.community.post(author, "싸게 팝니다 광고 광고")
    other = server.community.post(author, "두 번째 광고")
    status, body = server.community.request(
        "POST", "/api/reports", {"kind": "post", "id": post["id"], "reason": "광고 글이에요"}, reporter["token"])
    assert status == 201, body
    status, body = server.community.request(
        "POST", "/api/reports", {"kind": "post", "id": other["id"], "reason": "잘 모르겠어요"}, reporter["token"])
    assert status == 201, body

    # The queue shows the reports; the menu counts the items.
    log_in(driver, server, f"mod{suffix}")
    driver.get(server.url("/admin/reports"))
    row_id = f"report-post-{post['id']}"
    wait(driver, lambda d: d.find_elements(By.ID, row_id), message="the report is not in the queue")
    row = text_of(driver, row_id)
    assert "광고 글이에요" in row and "싸게 팝니다" in row
    assert text_of(driver, "console-open-reports") == "2"
    assert no_sideways_scrolling(driver)
    screenshot(driver, f"admin-reports-{suffix}")

    # Hide it from there: the page comes back with the count, the queue is empty.
    click(driver, f"hide-post-{post['id']}")
    wait(driver, lambda d: d.find_elements(By.ID, "console-flash"), message="no message after hiding")
    assert "1개 숨김 처리했어요" in text_of(driver, "console-flash")
    assert not driver.find_elements(By.ID, row_id), "acting on the item resolved its report"

    # The other report is unfounded: close it without touching the post.
    click(driver, f"dismiss-post-{other['id']}")
    wait(driver, lambda d: d.find_elements(By.ID, "console-flash") and "1개 항목의 신고를 닫았어요" in text_of(d, "console-flash"),
         message="no message after closing the report")
    assert driver.find_elements(By.ID, "reports-empty")
    assert server.community.get_post(reporter, other["id"]) is not None, "closing a report leaves the post"
    assert server.community.get_post(reporter, post["id"]) is None, "another user still sees the hidden post"
    assert server.community.get_post(author, post["id"]) is not None, "the author still sees their post"

    # The moderation list, hidden items only: select all on the page and restore them in one POST.
    driver.get(server.url("/admin/moderation?kind=post"))
    wait(driver, lambda d: d.find_elements(By.ID, f"item-{other['id']}"), message="no moderation list")
    assert driver.find_elements(By.ID, f"hidden-badge-{post['id']}")
    assert no_sideways_scrolling(driver)
    click(driver, f"hide-post-{other['id']}")
    wait(driver, lambda d: "1개 숨김 처리했어요" in text_of(d, "console-flash"), message="no message after hiding the second")
    click(driver, "select-all")
    assert text_of(driver, "selected-count") == "2개 고름"
    screenshot(driver, f"admin-moderation-{suffix}")
    click(driver, "bulk-restore")
    wait(driver, lambda d: d.find_elements(By.ID, "console-flash") and "2개 되살렸어요" in text_of(d, "console-flash"),
         message="no message after restoring")
    assert not driver.find_elements(By.ID, f"hidden-badge-{post['id']}")
    assert server.community.get_post(reporter, post["id"]) is not None
    sign_out(driver)

    # The admin's audit page shows the hide, by the moderator.
    log_in(driver, server, f"boss{suffix}")
    driver.get(server.url(f"/admin/audit?action=content.hide&target=post:{post['id']}"))
    wait(driver, lambda d: d.find_elements(By.ID, "audit-list"), message="no audit entries")
    entry = driver.find_element(By.CSS_SELECTOR, "#audit-list .audit-entry")
    assert "content.hide" in entry.text
    assert f"mod{suffix}" in entry.text
    assert no_sideways_scrolling(driver)
