#!/usr/bin/env python3
"""The search-load benchmark (issue 8): 5,000 crafted 255-character titles, 16 connections searching a
255-character query with wrk, and a plain list's latency measured with a second wrk at the same time.
Prints both, and the list's latency alone first for comparison."""
import argparse, json, os, re, sys, tempfile, time, urllib.parse, urllib.request
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wrk_tools import wait_for_health, wrk as run_wrk
from concurrent.futures import ThreadPoolExecutor

ap = argparse.ArgumentParser()
ap.add_argument("--base", required=True)
ap.add_argument("--seconds", type=int, default=8)
ap.add_argument("--titles", type=int, default=5000)
ap.add_argument("--search-conns", type=int, default=16)
ap.add_argument("--pid", type=int)
ap.add_argument("--json")
args = ap.parse_args()

wait_for_health(args.base)

# Titles of one repeated letter ending in a varying letter: a naive substring match of the query below tries
# every start position and compares ~254 characters at each, ~65,000 steps per title, without an index.
letters = "abcdefghijklmnopqrstuvwxyz"
def create(i):
    body = json.dumps({"title": "a" * 254 + letters[i % 26], "is_done": False}).encode()
    req = urllib.request.Request(args.base + "/api/v2/todos-json", data=body, headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req).read()
t0 = time.time()
with ThreadPoolExecutor(16) as ex:
    list(ex.map(create, range(args.titles)))
seed_s = time.time() - t0
query = "a" * 254 + "b"  # matches 1 title in 26
tmp = tempfile.mkdtemp()

def wrk(path, conns, seconds):
    return run_wrk(args.base + path, conns, seconds)

search_path = "/api/v2/todos/search?query=" + urllib.parse.quote(query) + "&per_page=10"
list_path = "/api/v2/todos?page=2&per_page=10"
check = json.loads(urllib.request.urlopen(args.base + search_path).read())
alone = wrk(list_path, 2, args.seconds)
with ThreadPoolExecutor(2) as ex:
    s = ex.submit(wrk, search_path, args.search_conns, args.seconds)
    time.sleep(0.5)
    l = ex.submit(wrk, list_path, 2, args.seconds - 1)
    search, beside = s.result(), l.result()
rss = None
if args.pid:
    m = re.search(r"VmHWM:\s+(\d+)", open(f"/proc/{args.pid}/status").read())
    rss = round(int(m.group(1)) / 1024) if m else None
print(f"seeded {args.titles} crafted titles in {seed_s:.1f} s; the query matches {check['meta']['total']} of them")
print(f"{'':34} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'non-2xx':>8} {'timeouts':>8}")
for name, r in [("list alone (2 conns)", alone), (f"search, {args.search_conns} conns, 255 chars", search), ("list beside the search load", beside)]:
    print(f"{name:34} {r['rps']:9.0f} {r['p50_ms']:8.2f} {r['p99_ms']:8.2f} {r['max_ms']:8.1f} {r['non2xx']:8d} {r['timeouts']:8d}")
print(f"server peak RSS: {rss} MiB")
if args.json:
    json.dump({"list_alone": alone, "search": search, "list_beside_search": beside, "peak_rss_mib": rss, "matches": check["meta"]["total"]},
              open(args.json, "w"), indent=2)
