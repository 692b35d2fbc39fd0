#!/usr/bin/env python3
"""The Board calls of scripts/bench (issue 11), with wrk against a running `sprout serve` whose database
`sprout seed --board-posts` filled: the free board's first page, search by each target for a rare and a common
term, and post creation. Prints req/s, p50, p99 and errors per call; --json writes them."""
import argparse, json, os, sys, tempfile, urllib.parse, urllib.request
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wrk_tools import wait_for_health, wrk as run_wrk

ap = argparse.ArgumentParser()
ap.add_argument("--base", required=True)
ap.add_argument("--password", required=True, help="the demo accounts' password printed by sprout seed")
ap.add_argument("--seconds", type=int, default=8)
ap.add_argument("--conns", type=int, default=64)
ap.add_argument("--search-conns", type=int, default=4,
                help="searches are slow reads, two at a time on SQLite: more connections only measure the queue")
ap.add_argument("--label", default="")
ap.add_argument("--json")
args = ap.parse_args()

wait_for_health(args.base)

def call(path, form=None, token=None, json_body=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = None
    if form is not None:
        data = urllib.parse.urlencode(form).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if json_body is not None:
        data = json.dumps(json_body).encode()
        headers["Content-Type"] = "application/json"
    with urllib.request.urlopen(urllib.request.Request(args.base + path, data=data, headers=headers)) as response:
        return json.load(response)

token = call("/auth/local", {"identifier": "demo1", "password": args.password})["jwt"]
# A writer with three posts: the rare writer.
try:
    call("/auth/local/register", {"username": "rarewriter", "email": "rarewriter@example.com", "password": "bench-password"})
except urllib.error.HTTPError:
    pass
rare_token = call("/auth/local", {"identifier": "rarewriter", "password": "bench-password"})["jwt"]
for i in range(3):
    call("/api/v2/boards/2/posts", token=rare_token, json_body={"title": f"드문 글 {i}", "contents": "rare"})
total = call("/api/v2/boards/2/posts?limit=1", token=token)["total"]
tmp = tempfile.mkdtemp()

def lua(name, method, body=None, content_type=None):
    path = os.path.join(tmp, name + ".lua")
    with open(path, "w") as f:
        f.write(f'wrk.method = "{method}"\nwrk.headers["Authorization"] = "Bearer {token}"\n')
        if body is not None: f.write(f"wrk.body = {json.dumps(body)}\n")
        if content_type: f.write(f'wrk.headers["Content-Type"] = "{content_type}"\n')
    return path

get = lua("get", "GET")
def search(text, target):
    query = urllib.parse.urlencode({"search": text, "searchTarget": target, "offset": 0, "limit": 30})
    return run_wrk(f"{args.base}/api/v2/boards/2/posts?{query}", args.search_conns, args.seconds, get)

results = {"list, first page": run_wrk(f"{args.base}/api/v2/boards/2/posts?offset=0&limit=30", args.conns, args.seconds, get)}
rare = {"title": "No.54321", "contents": "문서 54321)", "writer": "rarewriter", "all": "No.54321"}
common = {"title": "swift", "contents": "swift", "writer": "demo", "all": "swift"}
# Rare terms first: a common-term run leaves queries queued in the server after wrk stops.
for target in ["all", "title", "contents", "writer"]:
    results[f"search {target}, rare"] = search(rare[target], target)
for target in ["all", "title", "contents", "writer"]:
    results[f"search {target}, common"] = search(common[target], target)
results["create"] = run_wrk(f"{args.base}/api/v2/boards/2/posts", args.conns, args.seconds,
                            lua("create", "POST", json.dumps({"title": "벤치 글 Bench post", "contents": "wrk가 씁니다 written by wrk"}), "application/json"))
print(f"Board on {args.label or args.base}: {total} posts in the free board; wrk {args.seconds} s per call, "
      f"{args.conns} connections ({args.search_conns} for searches)")
print(f"rare terms: {rare}; common: {common}")
print(f"{'call':<26}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'errors':>8}")
for name, r in results.items():
    print(f"{name:<26}{r['rps']:>10.0f}{r['p50_ms']:>10.1f}{r['p99_ms']:>10.1f}{r['non2xx'] + r['timeouts']:>8}")
if args.json:
    with open(args.json, "w") as f:
        json.dump({"label": args.label, "posts": total, "results": results}, f, indent=2)
