"""Small helpers shared by the browser tests: waiting, screenshots, the Todos page's parts, and images to upload."""

import base64
import importlib.util
import os
import time
from pathlib import Path

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("SPROUT_TEST_OUTPUT", ROOT / "test-output")) / "screenshots"


def wait(driver, condition, timeout=10, message=""):
    # A condition read from the page that is being replaced (a form posted, the next page loading) meets a stale
    # element: that is "not yet", so it is asked again rather than failing the test.
    ignored = (NoSuchElementException, StaleElementReferenceException)
    return WebDriverWait(driver, timeout, poll_frequency=0.05, ignored_exceptions=ignored).until(lambda d: condition(d), message)


def hold_live_stream(driver):
    """Leaves the tab's live stream (`GET /api/events`, site-live.js) unanswered from now on, as a slow or buffering
    network might: the page then acts on what it shows, not having heard of a change made elsewhere. For the tests
    that provoke the server's answer to a stale page (a 404, a 409); the next test's reset ends it."""
    driver.execute_cdp_cmd("Fetch.enable", {"patterns": [{"urlPattern": "*/api/events*", "requestStage": "Request"}]})


def screenshot(driver, name: str) -> Path:
    """Saves what the viewport shows now, without a stray focus ring or a half-faded status line."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000, f"{path} looks empty"
    return path


class TodosPage:
    def __init__(self, driver, server):
        self.driver = driver
        self.server = server

    def open(self):
        self.driver.get(self.server.url("/todos"))
        self.settle()
        return self

    def el(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def settle(self):
        """Waits until no page is loading and none is about to: the list has ended, failed, or filled the screen
        far enough that endless scrolling (next page once the sentinel is within 200 px) will not ask for more.
        Without the last part a test could read the rows between the first page and a second that the
        IntersectionObserver asks for a moment later (seen once in CI: 12 rows where the first page has 10)."""
        wait(self.driver, lambda d: d.execute_script(
            "const $ = (id) => document.getElementById(id);"
            "return document.fonts.status === 'loaded' && $('loading').hidden"
            " && $('todo-list').getAttribute('aria-busy') === 'false'"
            " && (!$('list-end').hidden || !$('list-empty').hidden || !$('retry').hidden"
            "     || $('sentinel').getBoundingClientRect().top >= window.innerHeight + 200)"),
            message="the list never finished loading")

    def rows(self):
        return self.driver.find_elements(By.CSS_SELECTOR, "#todo-list li.todo")

    def titles(self):
        return self.driver.execute_script(
            "return [...document.querySelectorAll('#todo-list li.todo .todo-title')].map(e => e.textContent)")

    def row(self, title):
        for row in self.rows():
            if row.find_element(By.CSS_SELECTOR, ".todo-title").text == title:
                return row
        raise AssertionError(f"no row titled {title!r} among {self.titles()}")

    def row_by_id(self, todo_id):
        return self.driver.find_element(By.CSS_SELECTOR, f'#todo-list li.todo[data-id="{todo_id}"]')

    def shown(self, element_id) -> bool:
        return self.el(element_id).is_displayed()

    def scroll_to_bottom(self):
        self.driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")

    def scroll_y(self) -> float:
        return self.driver.execute_script("return window.scrollY")

    def load_everything(self, expected: int):
        """Scrolls down, as a person would, until the end-of-list line appears."""
        deadline = time.monotonic() + 30
        while not self.shown("list-end"):
            assert time.monotonic() < deadline, f"the end-of-list line never appeared ({len(self.rows())} rows)"
            self.scroll_to_bottom()
            time.sleep(0.1)
        self.settle()
        assert len(self.rows()) == expected


def text_of(driver, element_id) -> str:
    return driver.find_element(By.ID, element_id).text


def is_shown(driver, element_id) -> bool:
    elements = driver.find_elements(By.ID, element_id)
    return bool(elements) and elements[0].is_displayed()


def fill(driver, element_id, value):
    field = driver.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(value)
    return field


def submit_enabled(driver, element_id) -> bool:
    return driver.find_element(By.ID, element_id).is_enabled()


def log_in(driver, server, identifier, password="password1", next_path=None):
    """Logs in through the log-in page, as a person would, and waits for the page it leads to."""
    path = "/account/login" + (f"?next={next_path}" if next_path else "")
    driver.get(server.url(path))
    fill(driver, "login-identifier", identifier)
    fill(driver, "login-password", password)
    driver.find_element(By.ID, "login-submit").click()
    wait(driver, lambda d: d.find_elements(By.ID, "logout-button"), message="never signed in")


def log_out(driver):
    """Logs out with the header's button and its confirmation, and waits until the header offers to log in."""
    driver.find_element(By.ID, "logout-button").click()
    wait(driver, lambda d: d.find_element(By.ID, "logout-dialog").is_displayed())
    driver.find_element(By.ID, "logout-confirm").click()
    wait(driver, lambda d: d.find_elements(By.ID, "login-link"), message="never signed out")


def signed_in_as(driver):
    """The username the header shows, or None when it offers to log in."""
    return driver.execute_script(
        "const e = document.getElementById('signed-in-as');"
        " return e ? e.lastChild.textContent.trim() : null")


def canvas_image(driver, path: Path, kind="image/jpeg", label="1", color="#1f7a53", size=(480, 360), noise=False) -> bytes:
    """Writes a real JPEG or PNG (`kind`), made by the browser's own encoder from a canvas, to `path`: a coloured
    field with `label` on it (distinguishable in screenshots), or random pixels under it (`noise`, a large file).
    Returns its bytes."""
    data_url = driver.execute_script("""
        const [kind, label, color, width, height, noise] = arguments;
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        const g = canvas.getContext('2d');
        g.fillStyle = color;
        g.fillRect(0, 0, width, height);
        if (noise) {
            const pixels = g.getImageData(0, 0, width, height);
            for (let i = 0; i < pixels.data.length; i++) if (i % 4 !== 3) pixels.data[i] = Math.random() * 256;
            g.putImageData(pixels, 0, 0);
        }
        g.fillStyle = '#fff';
        g.font = `bold ${Math.round(height / 3)}px sans-serif`;
        g.textAlign = 'center';
        g.textBaseline = 'middle';
        g.fillText(label, width / 2, height / 2);
        return canvas.toDataURL(kind, 0.9);""", kind, label, color, size[0], size[1], noise)
    prefix = f"data:{kind};base64,"
    assert data_url.startswith(prefix), data_url[:40]
    content = base64.b64decode(data_url[len(prefix):])
    path.write_bytes(content)
    return content


def sample_png(width=96, height=72, seed=0) -> bytes:
    """scripts/lib/sample_png.py's PNG (a blue field with a red quarter; `seed` changes the blue)."""
    spec = importlib.util.spec_from_file_location("sample_png", ROOT / "scripts" / "lib" / "sample_png.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.png(width, height, seed)
