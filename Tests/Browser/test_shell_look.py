"""The site's look in light and dark: dark mode follows the system's setting (prefers-color-scheme) on every page,
and text keeps a contrast ratio of at least 4.5:1 against what is behind it (WCAG 2.x AA), in both."""

import uuid

import pytest
from selenium.webdriver.common.by import By

from helpers import fill, log_in, sample_png, screenshot, wait

# Every visible element with text of its own (and every text field's value): its colour against the background
# that shows behind it (its own, or the nearest ancestor's; translucent layers are blended). Controls that are
# disabled are left out, as WCAG leaves out inactive components, and so is anything fading or see-through.
AUDIT = r"""
const parse = (value) => {
  const m = value.match(/rgba?\(([^)]+)\)/);
  if (!m) return null;
  const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
  return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
};
const blend = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
const background = (element) => {
  const layers = [];
  for (let e = element; e; e = e.parentElement) {
    const c = parse(getComputedStyle(e).backgroundColor);
    if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
  }
  let result = [255, 255, 255, 1];
  for (const layer of layers.reverse()) result = blend(layer, result);
  return result;
};
const luminance = (c) => {
  const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const seeThrough = (element) => {
  for (let e = element; e; e = e.parentElement) if (Number(getComputedStyle(e).opacity) < 1) return true;
  return false;
};
const results = [];
for (const element of document.querySelectorAll('body *')) {
  if (['SCRIPT', 'STYLE', 'svg', 'path', 'OPTION'].includes(element.tagName) || element.closest('svg')) continue;
  const field = element.matches('input:not([type=checkbox]):not([type=radio]):not([type=file]):not([type=hidden]), textarea, select');
  const ownText = [...element.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!ownText && !(field && element.value)) continue;
  if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
  const rect = element.getBoundingClientRect();
  if (rect.width < 2 || rect.height < 2 || element.closest('.visually-hidden')) continue;
  if (element.closest(':disabled, [aria-disabled=true]') || seeThrough(element)) continue;
  const style = getComputedStyle(element);
  const color = parse(style.color);
  if (!color) continue;
  const behind = background(element);
  const value = ratio(blend(color, behind), behind);
  const text = (field ? element.value : element.textContent).trim().slice(0, 30);
  results.push({ text, ratio: Math.round(value * 100) / 100, selector: element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') + (element.className && typeof element.className === 'string' ? '.' + element.className.trim().split(/\s+/).join('.') : ''),
                 color: style.color, background: 'rgb(' + behind.slice(0, 3).map(Math.round).join(', ') + ')' });
}
return results;
"""


def set_scheme(driver, scheme):
    features = [{"name": "prefers-color-scheme", "value": scheme}] if scheme else []
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


@pytest.fixture
def schemes(browser, phone):
    yield
    for driver in (browser, phone):
        set_scheme(driver, None)


def audit(driver):
    results = driver.execute_script(AUDIT)
    assert len(results) >= 5, f"too little text measured: {results}"
    return [r for r in results if r["ratio"] < 4.5]


def show_states(driver, server, path):
    """Puts the page in the states worth measuring: messages, errors, the menu."""
    if path == "/account/login":
        fill(driver, "login-identifier", "nobody")
        fill(driver, "login-password", "wrong-password")
        driver.find_element(By.ID, "login-submit").click()
        wait(driver, lambda d: d.find_element(By.ID, "form-error").is_displayed())
    if path == "/account/signup":
        fill(driver, "signup-username", "ab")
        fill(driver, "signup-email", "bad")
        fill(driver, "signup-password", "1")
        fill(driver, "signup-confirm", "2")
        driver.find_element(By.ID, "signup-submit").click()
        wait(driver, lambda d: d.find_element(By.ID, "signup-username-error").is_displayed())


PAGES = ["/", "/todos", "/account/login", "/account/signup", "/nope", "/market", "/community", "/board", "/diary",
         "/account/password", "/account", "/account/forgot-password"]


@pytest.mark.board_posts(40)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_contrast_is_at_least_4_5_to_1_in_light_and_dark(browser, phone, server, schemes, scheme):
    # Something of every kind on the pages: done and open todos, a post, board posts (notices, anonymous ones),
    # products (discounted, sold out, in dollars), a diary entry with weather.
    server.api.create("대비를 재는 할 일")
    server.api.create("끝낸 할 일", is_done=True)
    writer = server.community.sign_up("대비측정")
    server.community.post(writer, "어두운 화면에서도 읽히는 글")
    vendor = server.market.become_vendor(writer, "대비상점")
    product = server.market.register(vendor, "할인하는 화분", 15000, [("a.png", sample_png(seed=1))], discounted_price=3000, stock=0)
    server.market.register(vendor, "Magic Trackpad", 1234.5, [("b.png", sample_png(seed=2))], currency="USD", stock=3)
    entry_id = str(uuid.uuid4())
    status, _ = server.community.request("PUT", f"/api/diary/entries/{entry_id}", {
        "title": "맑은 날의 일기", "body": "산책을 했다.\n바람이 좋았다.", "createdAt": "2026-06-28T01:02:03.000Z",
        "weather": {"main": "Clouds", "description": "구름 조금", "icon": "02d", "tempC": 14.1}}, writer["token"])
    assert status in (200, 201)
    pages = PAGES + [f"/market/products/{product['id']}", f"/diary/{entry_id}"]
    failures = {}
    for driver in (browser, phone):
        set_scheme(driver, scheme)
        for path in pages:
            needs_account = path in ("/community", "/board", "/diary", "/account/password", "/account") or path.startswith("/diary/")
            if needs_account and not driver.find_elements(By.ID, "logout-button"):
                log_in(driver, server, "대비측정")
            if path in ("/account/login", "/account/signup") and driver.find_elements(By.ID, "logout-button"):
                driver.delete_all_cookies()
            driver.get(server.url(path))
            wait(driver, lambda d: d.execute_script("return document.readyState") == "complete")
            wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "[aria-busy=true]"), timeout=10)
            show_states(driver, server, path)
            dark = driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches")
            assert dark == (scheme == "dark")
            width = driver.execute_script("return innerWidth")
            # The page really is in the scheme: the background is dark in dark mode, light in light mode.
            body = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
            channels = [int(x) for x in body[body.index("(") + 1:body.index(")")].split(",")[:3]]
            assert (sum(channels) / 3 < 60) == (scheme == "dark"), (path, body)
            driver.execute_script("Sprout.notify('저장했어요.')")
            bad = audit(driver)
            driver.execute_script("Sprout.notify('저장하지 못했어요.', {kind: 'error'})")
            bad += audit(driver)
            if width < 600:
                driver.find_element(By.ID, "menu-button").click()
                wait(driver, lambda d: d.find_element(By.ID, "site-menu").is_displayed())
                bad += audit(driver)
            if bad:
                failures[f"{path} @{width}"] = bad
            if path in ("/", "/community", "/nope", "/board", "/market"):
                screenshot(driver, f"{scheme}-{path.strip('/') or 'home'}-{width}")
            driver.execute_script("Sprout.clearNotice()")
    assert failures == {}, "\n".join(f"{page}: {r['selector']} “{r['text']}” {r['color']} on {r['background']} = {r['ratio']}"
                                     for page, rows in failures.items() for r in rows)
