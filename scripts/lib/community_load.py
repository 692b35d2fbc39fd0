#!/usr/bin/env python3
"""The Community calls of scripts/bench (issue 9): login, the feed (/posts?_limit=20, newest first) over
10,000 posts with 100,000 comments, and comment creation, each with wrk against a running `sprout serve`
whose database `sprout seed` filled. Prints req/s, p50, p99 and errors per call; --json writes them."""
import argparse, json, os, re, subprocess, tempfile, time, urllib.error, urllib.parse, urllib.request

ap = argparse.ArgumentParser()
ap.add_argument("--base", required=True)
ap.add_argument("--password", required=True, help="the demo accounts' password printed by sprout seed")
ap.add_argument("--seconds", type=int, default=8)
ap.add_argument("--conns", type=int, default=64)
ap.add_argument("--login-conns", type=int, default=8)
ap.add_argument("--label", default="")
ap.add_argument("--json")
args = ap.parse_args()

for _ in range(600):
    try:
        urllib.request.urlopen(args.base + "/health", timeout=1); break
    except Exception:
        time.sleep(0.1)

def call(path, form=None, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    if data is not None: headers["Content-Type"] = "application/x-www-form-urlencoded"
    with urllib.request.urlopen(urllib.request.Request(args.base + path, data=data, headers=headers)) as response:
        return json.load(response)

token = call("/auth/local", {"identifier": "demo1", "password": args.password})["jwt"]
# Logins are measured with an account of its own: demo1 has written 500 posts and 5,000 comments, and a Strapi
# login answer lists them all, which would measure that list rather than the login.
login_form = {"identifier": "bench-login", "password": "bench-password"}
try:
    call("/auth/local/register", {"username": "bench-login", "email": "bench-login@example.com", "password": "bench-password"})
except urllib.error.HTTPError:
    pass  # signed up by an earlier run on this database
count = call("/posts/count", token=token)
post_id = call("/posts?_limit=1&_sort=created_at:desc", token=token)[0]["id"]
tmp = tempfile.mkdtemp()

def lua(name, method, body, headers):
    path = os.path.join(tmp, name + ".lua")
    with open(path, "w") as f:
        f.write(f'wrk.method = "{method}"\n')
        if body is not None: f.write(f"wrk.body = {json.dumps(body)}\n")
        for key, value in headers.items(): f.write(f'wrk.headers["{key}"] = "{value}"\n')
    return path

def wrk(path, conns, script):
    out = subprocess.run(["wrk", "-t2", f"-c{conns}", f"-d{args.seconds}s", "--latency", "--timeout", "10s", "-s", script,
                          args.base + path], capture_output=True, text=True).stdout
    def ms(label):
        m = re.search(label + r"\s+([\d.]+)(us|ms|s)\b", out)
        return float(m.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[m.group(2)] if m else float("nan")
    errs = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    to = re.search(r"timeout (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), "p50_ms": ms("50%"), "p99_ms": ms("99%"),
            "non2xx": int(errs.group(1)) if errs else 0, "timeouts": int(to.group(1)) if to else 0}

auth = {"Authorization": f"Bearer {token}"}
form = {"Content-Type": "application/x-www-form-urlencoded"}
results = {
    "feed": wrk("/posts?_limit=20&_sort=created_at:desc", args.conns, lua("feed", "GET", None, auth)),
    "comment create": wrk("/comments", args.conns, lua("comment", "POST", f"comment=%EC%A2%8B%EC%95%84%EC%9A%94&post={post_id}", {**auth, **form})),
    "login": wrk("/auth/local", args.login_conns, lua("login", "POST", urllib.parse.urlencode(login_form), form)),
}
print(f"Community on {args.label or args.base}: {count} posts; wrk {args.seconds} s per call, "
      f"{args.conns} connections ({args.login_conns} for login: bcrypt at Strapi's cost 10 is the work)")
print(f"{'call':<16}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'errors':>8}")
for name, r in results.items():
    print(f"{name:<16}{r['rps']:>10.0f}{r['p50_ms']:>10.2f}{r['p99_ms']:>10.2f}{r['non2xx'] + r['timeouts']:>8}")
if args.json:
    with open(args.json, "w") as f: json.dump({"posts": count, "calls": results}, f, indent=2)
