#!/usr/bin/env python3
"""scripts/bench --growth: how each service's calls scale with its table (issue 32, point 4).

One Sprout (release build) on one database is seeded in steps up to each size in turn (10,000, 100,000, 1,000,000
rows by default); after each step every call is measured with wrk. A row of the table is one call, a column one
size, with req/s, mean and p99 latency; the last column is the largest size's mean latency over the smallest's.
A call whose cost grows with log n stays near 1 there (a B-tree of 1,000,000 rows is one or two levels deeper than
one of 10,000); one that grows linearly would be near 100. Sizes are per service, of the table that grows:

  todos      the shared list's todos          show a todo at random, a list page at random (20 a page), create
  community  comments (posts: a tenth of it)  a post with its comments at random, the feed's first page, comment create
  market     products (each with its image)   list page 1, a product at random, register with one image
  board      board posts                      the free board's first page, a rare term searched in everything, create
  diary      one account's entries            a pull of 100 changes from a random point, a PUT of an entry at random

A service's reads are measured on exactly the rows of the column; its write then adds some (tens of thousands at
the fastest), which the next size's seed counts in.
"""
import argparse, json, os, random, re, shutil, subprocess, sys, tempfile, time, urllib.parse
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers_bench import (Request, Sprout, call_json, finish, make_row, measure, multipart, note, probe, query,
                         rss_peak_mib, too_few, SLOW_CONNS)
from sample_png import png

SERVICES = ["todos", "community", "market", "board", "diary"]
DIARY_SEED_LIMIT = 10_000  # sprout seed adds at most this many diary entries a call


def seed_step(sprout, service, add, accounts):
    """Adds `add` rows to the service's table with `sprout seed` (several calls for the diary, whose seed is capped)."""
    counts = {"todos": 0, "posts": 0, "comments": 0, "products": 0, "board-posts": 0, "diary-entries": 0}
    calls = []
    if service == "todos":
        counts["todos"] = add
    elif service == "community":
        counts.update(posts=max(1, add // 10), comments=add)
    elif service == "market":
        counts["products"] = add
    elif service == "board":
        counts["board-posts"] = add
    if service == "diary":
        left = add
        while left > 0:
            calls.append(dict(counts, **{"diary-entries": min(left, DIARY_SEED_LIMIT)}))
            left -= DIARY_SEED_LIMIT
    else:
        calls.append(counts)
    password = None
    for call in calls:
        command = [sprout.exe, "seed", "--data-dir", sprout.data, "--accounts", str(accounts)]
        for name, value in call.items():
            command += [f"--{name}", str(value)]
        done = subprocess.run(command, env=sprout.env, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"sprout seed ({service}, {call}) failed: {done.stderr.strip()[-500:]}")
        m = re.search(r"sign in with the password (\S+)", done.stdout)
        password = password or (m.group(1) if m else None)
    return password


def calls_for(service, sprout, token, secret, identifier, rng):
    """(call, kind, Request) for each measured call of the service, on the data seeded so far."""
    bearer = {"Authorization": f"Bearer {token}"}
    if service == "todos":
        # Laravel's page: the todos in `data`, the list's size in `meta.total`.
        oldest = call_json("GET", sprout.base + "/api/v2/todos?page=1&per_page=1&filter=created_at&order_by=asc")
        newest = call_json("GET", sprout.base + "/api/v2/todos?page=1&per_page=1&filter=created_at&order_by=desc")
        low, high = oldest["data"][0]["id"], newest["data"][0]["id"]
        pages = max(1, newest["meta"]["total"] // 20)
        return [
            ("show", "read", Request("GET", [f"/api/v2/todos/{rng.randint(low, high)}" for _ in range(2000)])),
            ("list page at random", "read",
             Request("GET", [f"/api/v2/todos?page={rng.randint(1, pages)}&per_page=20&filter=created_at&order_by=desc" for _ in range(2000)])),
            ("create", "write", Request("POST", "/api/v2/todos-json", {"Content-Type": "application/json"},
                                        b'{"title": "benchmark todo title", "is_done": false}')),
        ]
    if service == "community":
        oldest = call_json("GET", sprout.base + "/posts?_limit=1&_sort=id:asc", headers=bearer)
        newest = call_json("GET", sprout.base + "/posts?_limit=1&_sort=id:desc", headers=bearer)
        first, last = oldest[0]["id"], newest[0]["id"]
        return [
            ("post detail", "read", Request("GET", [f"/posts/{rng.randint(first + 1, last)}" for _ in range(2000)], bearer)),
            ("feed page 1", "read", Request("GET", "/posts?_limit=20&_sort=created_at:desc", bearer)),
            ("comment create", "write",
             Request("POST", "/comments", {**bearer, "Content-Type": "application/x-www-form-urlencoded"},
                     # On the oldest post: thousands of comments on a post of the feed's first page (or one a later
                     # post detail may draw) would change what the next size measures.
                     urllib.parse.urlencode({"comment": "좋아요", "post": first}).encode())),
        ]
    if service == "market":
        page = call_json("GET", sprout.base + "/api/products?items_per_page=1")
        newest, total = page["pages"][0]["id"], page["total_count"]
        params = {"name": "벤치 상품", "descriptions": "wrk", "price": "15000", "stock": "3", "currency": "KRW", "secret": secret}
        kind, body = multipart([("params", json.dumps(params, ensure_ascii=False).encode(), None, None),
                                ("images", png(300, 300, 7, noise=True), "photo.png", "image/png")])
        return [
            ("list page 1", "read", Request("GET", "/api/products?page_no=1&items_per_page=20")),
            ("product detail", "read",
             Request("GET", [f"/api/products/{rng.randint(max(1, newest - total + 1), newest)}" for _ in range(2000)])),
            ("register, 1 image", "write", Request("POST", "/api/products", {"identifier": identifier, "Content-Type": kind}, body)),
        ]
    if service == "board":
        boards = call_json("GET", sprout.base + "/api/v2/boards", headers=bearer)["value"]
        free = next(b["boardId"] for b in boards if b["displayName"] == "자유게시판")
        total = call_json("GET", sprout.base + f"/api/v2/boards/{free}/posts?offset=0&limit=1", headers=bearer)["total"]
        rare = f"No.{(total // 2) | 1}"
        return [
            ("list page 1", "read", Request("GET", f"/api/v2/boards/{free}/posts?offset=0&limit=30", bearer)),
            ("search a rare term", "read",
             Request("GET", query(f"/api/v2/boards/{free}/posts", search=rare, searchTarget="all", offset=0, limit=30), bearer)),
            ("create", "write", Request("POST", f"/api/v2/boards/{free}/posts", {**bearer, "Content-Type": "application/json"},
                                        json.dumps({"title": "벤치 글 Bench post", "contents": "wrk가 씁니다 written by wrk"}).encode())),
        ]
    if service == "diary":
        first = call_json("GET", sprout.base + query("/api/diary/entries", since="1970-01-01T00:00:00Z", limit=1), headers=bearer)
        start, end = iso_ms(first["changes"][0]["updatedAt"]), iso_ms(first["now"])
        # Seeding wrote entries at a steady rate, so a point drawn at random between the first write and the last
        # has (nearly always) 100 changes after it.
        points = [start + rng.random() * max(1, end - start) * 0.98 for _ in range(2000)]
        ids = diary_ids(sprout.base, bearer, rng, start, end)
        return [
            ("pull 100 changes", "read",
             Request("GET", [query("/api/diary/entries", since=ms_iso(p), limit=100) for p in points], bearer)),
            ("entry PUT", "write",
             Request("PUT", [f"/api/diary/entries/{rng.choice(ids)}" for _ in range(2000)],
                     {**bearer, "Content-Type": "application/json"},
                     varying=('{"title": "고쳐 쓴 일기 '.encode(), '", "body": "wrk"}'.encode()))),
        ]
    raise ValueError(service)


def count_rows(service, sprout, token):
    """The rows the service's table holds now, seeded or written by the calls measured (so the next size's seed adds
    only what is missing)."""
    bearer = {"Authorization": f"Bearer {token}"}
    if service == "todos":
        return call_json("GET", sprout.base + "/api/v2/todos?page=1&per_page=1")["meta"]["total"]
    if service == "community":
        return int(call_json("GET", sprout.base + "/comments/count", headers=bearer))
    if service == "market":
        return call_json("GET", sprout.base + "/api/products?items_per_page=1")["total_count"]
    if service == "board":
        boards = call_json("GET", sprout.base + "/api/v2/boards", headers=bearer)["value"]
        return sum(call_json("GET", sprout.base + f"/api/v2/boards/{b['boardId']}/posts?offset=0&limit=1", headers=bearer)["total"]
                   for b in boards)
    return call_json("GET", sprout.base + "/api/diary/entries?limit=1", headers=bearer)["total"]


def iso_ms(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000


def ms_iso(ms):
    return datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def diary_ids(base, bearer, rng, start, end):
    """Entry ids from a few pulls at random points: the PUTs replace entries spread over the whole diary."""
    ids = []
    for _ in range(20):
        since = ms_iso(start + rng.random() * (end - start) * 0.98)
        ids += [c["id"] for c in call_json("GET", base + query("/api/diary/entries", since=since, limit=100), headers=bearer)["changes"]]
    return ids


def run(args):
    sizes = sorted(int(s) for s in args.sizes.split(","))
    services = args.services.split(",")
    tmp = tempfile.mkdtemp(prefix="growth-bench-")
    log_dir = args.log_dir or os.path.dirname(os.path.abspath(args.out))
    sprout = Sprout(os.path.abspath(args.sprout), os.path.join(tmp, "sprout"), args.database_url,
                    os.path.join(log_dir, f"server-growth-{args.label}.log"))
    os.makedirs(sprout.data)
    result = {"database": args.label, "seconds": args.seconds, "conns": args.conns, "sizes": sizes, "rows": [], "seeding_s": {}}
    rng = random.Random(11)
    seeded = {service: 0 for service in services}
    password = None
    failed = False
    try:
        for size in sizes:
            for service in services:
                limit = args.market_max if service == "market" else None
                if limit is not None and size > limit:
                    continue
                t0 = time.time()
                if seeded[service] >= size:
                    continue
                note(f"seeding {service} from {seeded[service]:,} to {size:,} rows ...")
                password = seed_step(sprout, service, size - seeded[service], args.accounts) or password
                seeded[service] = size
                result["seeding_s"][f"{service} {size}"] = round(time.time() - t0, 1)
            sprout.start()
            try:
                # Only seeds that write community, board, diary or market rows make the demo accounts.
                token = password and call_json("POST", sprout.base + "/auth/local", {"identifier": "demo1", "password": password})["jwt"]
                vendor = subprocess.run([sprout.exe, "vendor", "show", "demo1", "--data-dir", sprout.data], env=sprout.env,
                                        capture_output=True, text=True).stdout
                identifier = re.search(r"identifier:\s*(\S+)", vendor)
                secret = re.search(r"secret:\s*(\S+)", vendor)
                for service in services:
                    if service == "market" and size > args.market_max:
                        continue
                    for call, kind, request in calls_for(service, sprout, token, secret and secret.group(1),
                                                         identifier and identifier.group(1), rng):
                        status, answer = probe(sprout.base, request)
                        if not 200 <= status < 300:
                            figures = {"failed": f"{request.method} {request.paths[0][:80]} answered {status}: {answer}"}
                        else:
                            figures = measure("sprout", sprout.base, request, {"sprout": sprout.process}, tmp,
                                              args.seconds, args.conns, args.warmup)
                            if too_few(figures, args.seconds, args.conns):
                                figures = measure("sprout", sprout.base, request, {"sprout": sprout.process}, tmp,
                                                  args.seconds, SLOW_CONNS, args.warmup)
                                figures["conns"] = SLOW_CONNS
                        row = make_row(service, call, kind, args.label, figures, None)
                        row.update(size=size, errors={k: v for k, v in row["errors"].items() if k != "pocketbase"})
                        failed |= bool(row["errors"])
                        result["rows"].append(row)
                        note(f"{size:>9,} {service} {call}: " + (json.dumps(row["errors"], ensure_ascii=False) if row["errors"] else
                             f"{row['sprout_rps']:.0f} req/s, mean {row['sprout_mean_ms']:.2f} ms, p99 {row['sprout_p99_ms']:.1f} ms"))
                result.setdefault("peak_rss_mib", {})[str(size)] = rss_peak_mib(sprout.process.pid)
                for service in services:
                    seeded[service] = count_rows(service, sprout, token)
                result.setdefault("rows_after", {})[str(size)] = dict(seeded)
            finally:
                sprout.stop()
    except (RuntimeError, OSError, subprocess.CalledProcessError, KeyError, IndexError) as error:
        note(f"ERROR: {error!r}")
        result["error"] = repr(error)
        failed = True
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finish(result, failed, args.out, print_table)


def print_table(result):
    sizes = result["sizes"]
    print(f"\nGrowth on {result['database']}: wrk {result['seconds']} s per call, {result['conns']} connections; "
          "req/s · mean ms · p99 ms per size; last column: mean at the largest size over the smallest")
    header = f"{'service':<10}{'call':<22}" + "".join(f"{s:>26,}" for s in sizes) + f"{'growth':>9}"
    print(header)
    keys = []
    for row in result["rows"]:
        if (row["service"], row["call"]) not in keys:
            keys.append((row["service"], row["call"]))
    for service, call in keys:
        cells, means = [], []
        for size in sizes:
            row = next((r for r in result["rows"] if (r["service"], r["call"], r["size"]) == (service, call, size)), None)
            if row is None:
                cells.append(f"{'—':>26}")
            elif row["errors"]:
                cells.append(f"{'errors':>26}")
            else:
                means.append(row["sprout_mean_ms"])
                cells.append(f"{row['sprout_rps']:>10.0f} {row['sprout_mean_ms']:>7.2f} {row['sprout_p99_ms']:>7.1f}")
        growth = f"{means[-1] / means[0]:>8.2f}×" if len(means) > 1 and means[0] else f"{'—':>9}"
        print(f"{service:<10}{call:<22}" + "".join(cells) + growth)
    for size, mib in result.get("peak_rss_mib", {}).items():
        print(f"peak RSS after the calls at {int(size):,} rows: {mib} MiB")
    print("seeding took " + ", ".join(f"{what}: {seconds:.0f} s" for what, seconds in result["seeding_s"].items()))
    if result.get("error"):
        print(f"ERROR: {result['error']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sprout", required=True, help="Sprout's release binary")
    parser.add_argument("--database-url", help="an empty PostgreSQL database (default: SQLite in a temporary folder)")
    parser.add_argument("--label", default="sqlite")
    parser.add_argument("--out", required=True, help="write the figures here (JSON)")
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--services", default=",".join(SERVICES))
    parser.add_argument("--market-max", type=int, default=1_000_000,
                        help="largest product count (each product is two image files on disk)")
    parser.add_argument("--accounts", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--conns", type=int, default=64)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--log-dir")
    sys.exit(run(parser.parse_args()))


if __name__ == "__main__":
    main()
