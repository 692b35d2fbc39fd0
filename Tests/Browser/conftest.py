"""Browser tests for Sprout's web app.

Each test gets its own `sprout serve` (the binary `swift build` already made; nothing is built here) on 127.0.0.1,
a free port and a fresh temporary data directory (or, in the PostgreSQL pass, a fresh database), so tests never
see each other's todos; a new port is also a new origin, so the browser's localStorage starts empty too. One
headless Chromium (Debian's, with its chromedriver) drives them all. Screenshots go to test-output/screenshots/.
"""

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
DESKTOP = (1280, 900)
PHONE = (390, 844)


def sprout_binary() -> Path:
    """`SPROUT_BIN`, or the `sprout` in swift build's debug bin folder."""
    if os.environ.get("SPROUT_BIN"):
        return Path(os.environ["SPROUT_BIN"])
    bin_path = subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    return Path(bin_path) / "sprout"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Api:
    """The JSON API, straight from the test: to seed data and to check what the page really saved."""

    def __init__(self, base: str):
        self.base = base

    def request(self, method: str, path: str, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + "/api/v2" + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def create(self, title: str, is_done: bool = False) -> dict:
        status, body = self.request("POST", "/todos-json", {"title": title, "is_done": is_done})
        assert status == 200, body
        return body["data"]

    def get(self, todo_id: int):
        status, body = self.request("GET", f"/todos/{todo_id}")
        return body["data"] if status == 200 else None

    def all(self, **query) -> list:
        params = urllib.parse.urlencode({"per_page": 100, **query})
        status, body = self.request("GET", f"/todos?{params}")
        assert status == 200, body
        return body["data"]

    def delete(self, todo_id: int):
        status, body = self.request("DELETE", f"/todos/{todo_id}")
        assert status == 200, body


class Community:
    """Accounts, posts and comments through the Strapi API with Bearer tokens, as the iOS app calls it: to seed
    another account's writing and to check what the page really did."""

    def __init__(self, base: str):
        self.base = base

    def request(self, method: str, path: str, body=None, token=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")  # 204: None
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def sign_up(self, username: str, password: str = "password1") -> dict:
        """Returns {"id", "username", "password", "token"}."""
        status, body = self.request("POST", "/auth/local/register",
                                    {"username": username, "email": f"{username}@example.com", "password": password})
        assert status == 200, body
        return {"id": body["user"]["id"], "username": username, "password": password, "token": body["jwt"]}

    def log_in(self, identifier: str, password: str):
        return self.request("POST", "/auth/local", {"identifier": identifier, "password": password})

    def post(self, account: dict, text: str) -> dict:
        status, body = self.request("POST", "/posts", {"text": text}, account["token"])
        assert status == 200, body
        return body

    def comment(self, account: dict, post_id: int, text: str) -> dict:
        status, body = self.request("POST", "/comments", {"comment": text, "post": post_id}, account["token"])
        assert status == 200, body
        return body

    def get_post(self, account: dict, post_id: int):
        status, body = self.request("GET", f"/posts/{post_id}", token=account["token"])
        return body if status == 200 else None

    def delete_post(self, account: dict, post_id: int):
        status, body = self.request("DELETE", f"/posts/{post_id}", token=account["token"])
        assert status == 200, body

    def comments(self, account: dict, post_id: int) -> list:
        status, body = self.request("GET", f"/comments?post={post_id}&_sort=id:asc", token=account["token"])
        assert status == 200, body
        return body

    def todos(self, account: dict) -> list:
        status, body = self.request("GET", "/api/v2/todos?per_page=100", token=account["token"])
        assert status == 200, body
        return body["data"]

    def create_todo(self, account: dict, title: str) -> dict:
        status, body = self.request("POST", "/api/v2/todos-json", {"title": title, "is_done": False}, account["token"])
        assert status == 200, body
        return body["data"]


class Market:
    """The Open Market API as the iOS apps call it (vendor `identifier` header, secret in the body), with accounts'
    Bearer tokens for the vendor routes: to seed products and vendors and to check what the page really did."""

    def __init__(self, base: str):
        self.base = base

    def request(self, method: str, path: str, body=None, token=None, identifier=None, multipart=None):
        """Returns (status, body): JSON parsed, text/plain as text, anything else as bytes."""
        data, content_type = None, None
        if multipart is not None:
            data, content_type = multipart
        elif body is not None:
            data, content_type = json.dumps(body).encode(), "application/json"
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if content_type:
            req.add_header("Content-Type", content_type)
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        if identifier:
            req.add_header("identifier", identifier)
        try:
            with urllib.request.urlopen(req, timeout=30) as response:
                return response.status, self._parse(response.headers.get("Content-Type", ""), response.read())
        except urllib.error.HTTPError as error:
            return error.code, self._parse(error.headers.get("Content-Type", ""), error.read())

    @staticmethod
    def _parse(content_type: str, raw: bytes):
        if content_type.startswith("application/json"):
            return json.loads(raw or b"null")
        if content_type.startswith("text/plain"):
            return raw.decode()
        return raw

    def become_vendor(self, account: dict, name: str) -> dict:
        """Returns the vendor {"id", "name", "identifier", "secret"}."""
        status, body = self.request("POST", "/api/vendors", {"name": name}, token=account["token"])
        assert status == 201, body
        return body

    def vendor(self, account: dict) -> dict:
        status, body = self.request("GET", "/api/vendors/me", token=account["token"])
        assert status == 200, body
        return body

    def register(self, vendor: dict, name: str, price, images, **fields) -> dict:
        """`images`: (file name, bytes) pairs, uploaded in order. Other fields as the `params` JSON takes them."""
        params = {"name": name, "price": price, "currency": "KRW", "secret": vendor["secret"], **fields}
        boundary = f"sprout-{uuid.uuid4().hex}"
        parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="params"\r\n'
                 f"Content-Type: application/json\r\n\r\n".encode() + json.dumps(params).encode() + b"\r\n"]
        for file_name, content in images:
            kind = "image/png" if file_name.endswith(".png") else "image/jpeg"
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="images"; filename="{file_name}"\r\n'
                         f"Content-Type: {kind}\r\n\r\n".encode() + content + b"\r\n")
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        status, answer = self.request("POST", "/api/products", identifier=vendor["identifier"],
                                      multipart=(body, f"multipart/form-data; boundary={boundary}"))
        assert status == 201, answer
        return answer

    def product(self, product_id: int):
        status, body = self.request("GET", f"/api/products/{product_id}")
        return body if status == 200 else None

    def image(self, url: str) -> bytes:
        """An image's bytes by its URL's path (the URL may name another origin: PUBLIC_URL)."""
        status, body = self.request("GET", urllib.parse.urlsplit(url).path)
        assert status == 200, url
        return body


class Board:
    """The Mail Plug board API (`/api/v2/boards…`) with accounts' Bearer tokens, as the iOS app calls it: to write
    other accounts' posts and replies, and to check what the page really did."""

    def __init__(self, base: str):
        self.base = base

    def request(self, method: str, path: str, body=None, token=None):
        return Community(self.base).request(method, "/api/v2/boards" + path, body, token)

    def boards(self, account: dict) -> dict:
        """{displayName: boardId} in menu order (dicts keep it)."""
        status, body = self.request("GET", "", token=account["token"])
        assert status == 200, body
        return {board["displayName"]: board["boardId"] for board in body["value"]}

    def write(self, account: dict, board_id: int, title: str, contents: str, parent: int | None = None) -> dict:
        body = {"title": title, "contents": contents, **({"parentPostId": parent} if parent else {})}
        status, answer = self.request("POST", f"/{board_id}/posts", body, account["token"])
        assert status == 201, answer
        return answer

    def posts(self, account: dict, board_id: int, **query) -> dict:
        """The envelope {value, total, …}; `query` as the API takes it (offset, limit, search, searchTarget)."""
        params = urllib.parse.urlencode({"limit": 100, **query})
        status, body = self.request("GET", f"/{board_id}/posts?{params}", token=account["token"])
        assert status == 200, body
        return body

    def post(self, account: dict, board_id: int, post_id: int):
        """The post (counting a view, as every read does), or None when it is gone."""
        status, body = self.request("GET", f"/{board_id}/posts/{post_id}", token=account["token"])
        return body if status == 200 else None


class Server:
    def __init__(self, base: str, data_dir: Path, binary: Path | None = None, env: dict | None = None):
        self.base = base
        self.data_dir = data_dir
        self.binary = binary
        # The server's environment (its DATABASE_URL on the PostgreSQL pass), for `sprout` commands on its database.
        self.env = env or dict(os.environ)
        self.api = Api(base)
        self.community = Community(base)
        self.market = Market(base)
        self.board = Board(base)

    def url(self, path: str = "/") -> str:
        return self.base + path

    def sprout(self, *arguments: str) -> str:
        """Runs `sprout ARGUMENTS --data-dir …` on the database the server uses (the same environment: in the
        PostgreSQL pass its DATABASE_URL), as an operator would beside it; returns what it printed."""
        done = subprocess.run([str(self.binary), *arguments, "--data-dir", str(self.data_dir)], env=self.env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"sprout {' '.join(arguments)}: {done.stdout}{done.stderr}"
        return done.stdout


@pytest.fixture(scope="session")
def binary() -> Path:
    path = sprout_binary()
    if not path.exists():
        pytest.exit(f"{path} is missing: run `swift build --product sprout` first (scripts/browser-test does)", 2)
    return path


class PostgresDatabases:
    """Fresh databases in the PostgreSQL cluster scripts/browser-test started (`SPROUT_BROWSER_PG_URL`, a
    `postgres://user@host:port/...` URL, and `PG_BIN` with `createdb` and `dropdb`): one per test, dropped after."""

    def __init__(self, url: str, pg_bin: str):
        parsed = urllib.parse.urlsplit(url)
        self.user, self.host, self.port = parsed.username, parsed.hostname, str(parsed.port)
        self.pg_bin = Path(pg_bin)

    def _run(self, tool: str, name: str):
        subprocess.run([str(self.pg_bin / tool), "-h", self.host, "-p", self.port, "-U", self.user, name],
                       check=True, capture_output=True, timeout=60)

    def create(self) -> tuple[str, str]:
        name = f"browser_{uuid.uuid4().hex[:16]}"
        self._run("createdb", name)
        return name, f"postgres://{self.user}@{self.host}:{self.port}/{name}"

    def drop(self, name: str):
        self._run("dropdb", name)


POSTGRES = (PostgresDatabases(os.environ["SPROUT_BROWSER_PG_URL"], os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
            if os.environ.get("SPROUT_BROWSER_PG_URL") else None)


def pytest_configure(config):
    config.addinivalue_line("markers", "public_url(url): start the test's server with this PUBLIC_URL")
    config.addinivalue_line("markers", "board_posts(n): `sprout seed --board-posts n` (and nothing else) before serving")


@pytest.fixture
def server_env():
    """Extra environment for the test's `sprout serve`; a test module overrides this fixture to give some (the
    diary's tests: an OpenWeather key and a fake upstream's address)."""
    return {}


@pytest.fixture
def server(binary, tmp_path, request, server_env):
    port = free_port()
    data_dir = tmp_path / "data"
    log = open(tmp_path / "server.log", "wb")
    env = {**os.environ, "LOG_LEVEL": "warning"}
    env.pop("PUBLIC_URL", None)
    for name in ("OPENWEATHER_API_KEY", "OPENWEATHER_BASE_URL", "OPEN_METEO_BASE_URL", "TRUSTED_PROXIES"):
        env.pop(name, None)
    env.pop("WEATHER_PROVIDER", None)
    env.update(server_env)
    if "OPENWEATHER_API_KEY" not in server_env and "WEATHER_PROVIDER" not in server_env:
        env["WEATHER_PROVIDER"] = "off"  # no real weather service, unless a test names one (its server_env)
    public_url = request.node.get_closest_marker("public_url")
    if public_url:
        env["PUBLIC_URL"] = public_url.args[0]
    env.pop("DATABASE_URL", None)  # a fresh SQLite file of its own, unless this is the PostgreSQL pass:
    database = None
    if POSTGRES:
        database, env["DATABASE_URL"] = POSTGRES.create()
    board_posts = request.node.get_closest_marker("board_posts")
    if board_posts:
        # The binary's own seeder, on the database the server is about to use: demo accounts demo1… write the posts,
        # a minute apart, ending now; every 50th is a notice and every 10th goes to the anonymous board.
        subprocess.run(
            [str(binary), "seed", "--todos", "0", "--posts", "0", "--comments", "0", "--products", "0",
             "--board-posts", str(board_posts.args[0]), "--diary-entries", "0", "--data-dir", str(data_dir)],
            env=env, stdin=subprocess.DEVNULL, check=True, capture_output=True, timeout=120,
        )
    process = None
    try:
        process, base = _serve(binary, port, data_dir, env, log, tmp_path / "server.log")
        yield Server(base, data_dir, binary, env)
    finally:
        _stop(process)
        log.close()
        if database:
            POSTGRES.drop(database)


def _serve(binary, port, data_dir, env, log, log_path):
    """Starts `sprout serve` and waits for its /health; returns the process and its base URL."""
    process = subprocess.Popen(
        [str(binary), "serve", "--hostname", "127.0.0.1", "--port", str(port), "--data-dir", str(data_dir)],
        stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"sprout serve exited with {process.returncode}: {log_path.read_text()}")
        try:
            with urllib.request.urlopen(base + "/health", timeout=1) as response:
                if response.status == 200:
                    return process, base
        except OSError:
            pass
        if time.monotonic() > deadline:
            _stop(process)
            raise RuntimeError("sprout serve did not answer /health within 30s")
        time.sleep(0.1)


def _stop(process):
    if process is None:
        return
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture
def second_node(server, tmp_path):
    """A second `sprout serve` on the test server's PostgreSQL database (the PostgreSQL pass only: several nodes
    share one PostgreSQL), on a port of its own, as a second machine behind a load balancer would be."""
    if not POSTGRES:
        pytest.skip("several nodes share one PostgreSQL: the PostgreSQL pass runs this")
    data_dir = tmp_path / "second-node-data"
    data_dir.mkdir()
    # Every node of one database seals its secrets with the same key (docs/operations.md): the first node's file.
    shutil.copy(server.data_dir / "secrets.key", data_dir / "secrets.key")
    log = open(tmp_path / "second-node.log", "wb")
    process = None
    try:
        process, base = _serve(server.binary, free_port(), data_dir, server.env, log, tmp_path / "second-node.log")
        yield Server(base, data_dir, server.binary, server.env)
    finally:
        _stop(process)
        log.close()


def make_driver(size) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",  # the tests run as root
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        "--lang=ko-KR",
        f"--window-size={size[0]},{size[1]}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_window_size(*size)
    # Headless windows may come out a little off; size the viewport itself exactly.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600,
    })
    return driver


@pytest.fixture(scope="session")
def desktop_driver():
    driver = make_driver(DESKTOP)
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def phone_driver():
    driver = make_driver(PHONE)
    yield driver
    driver.quit()


def _reset(driver):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Fetch.disable", {})  # a stream held by the previous test (helpers.hold_live_stream)
    # Cookies belong to a host, not a port: without this, one test's session cookie would reach the next
    # test's server (which would treat it as a stale cookie, but the tests should start signed out).
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1,
    })
    driver.get_log("browser")  # drop messages left by the previous test


def _check_and_leave(driver):
    """Runs while the test's server still answers: a page still fetching (a product's pictures) when the test
    ends would otherwise log a refused connection once the server stops. Leaving the page cancels what is left."""
    try:
        assert_no_console_errors(driver)
    finally:
        driver.get("about:blank")


# Both take `server` so that pytest starts them after it and ends them before it stops.
@pytest.fixture
def browser(desktop_driver, server):
    _reset(desktop_driver)
    yield desktop_driver
    _check_and_leave(desktop_driver)


@pytest.fixture
def phone(phone_driver, server):
    _reset(phone_driver)
    yield phone_driver
    _check_and_leave(phone_driver)


def assert_no_console_errors(driver):
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
              # The page shows these itself (that is what the error tests check); the console just echoes them.
              and " - Failed to load resource: the server responded with a status of" not in entry["message"]]
    assert errors == [], errors
