#!/usr/bin/env python3
"""The Market calls of scripts/bench (issue 10), with wrk against a running `sprout serve` whose database
`sprout seed --products` filled: the list (page 1, a deep page, a search), a product's detail at random, and
register with 3 images; then ten 5-image uploads at once, with the server's resident memory before and at its
peak (VmHWM) — uploads are streamed, so it should stay flat. Prints req/s, p50, p99 and errors; --json writes them."""
import argparse, json, os, random, subprocess, sys, tempfile, urllib.request
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wrk_tools import wait_for_health, wrk as run_wrk
from sample_png import png

ap = argparse.ArgumentParser()
ap.add_argument("--base", required=True)
ap.add_argument("--identifier", required=True)
ap.add_argument("--secret", required=True)
ap.add_argument("--pid", type=int, required=True, help="the server's process id, for its memory")
ap.add_argument("--seconds", type=int, default=8)
ap.add_argument("--conns", type=int, default=64)
ap.add_argument("--label", default="")
ap.add_argument("--json")
args = ap.parse_args()

wait_for_health(args.base)
with urllib.request.urlopen(args.base + "/api/products?items_per_page=1") as response:
    first = json.load(response)
total, newest = first["total_count"], first["pages"][0]["id"]
tmp = tempfile.mkdtemp()

def lua_string(data):
    """A Lua string literal holding any bytes."""
    return '"' + "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\{b:03d}" for b in data) + '"'

def script(name, text):
    path = os.path.join(tmp, name + ".lua")
    with open(path, "w") as f:
        f.write(text)
    return path

def multipart(image_count, seed):
    boundary = "SproutBenchBoundary"
    params = json.dumps({"name": "벤치 상품", "descriptions": "wrk", "price": "15000", "stock": "3",
                         "currency": "KRW", "secret": args.secret}).encode()
    body = f'--{boundary}\r\nContent-Disposition: form-data; name="params"\r\n\r\n'.encode() + params + b"\r\n"
    for index in range(image_count):
        body += (f'--{boundary}\r\nContent-Disposition: form-data; name="images"; filename="photo{index}.png"\r\n'
                 f"Content-Type: image/png\r\n\r\n").encode() + png(300, 300, seed + index, noise=True) + b"\r\n"
    return f"multipart/form-data; boundary={boundary}", body + f"--{boundary}--\r\n".encode()

def upload_script(name, image_count):
    content_type, body = multipart(image_count, 7)
    return script(name, f'wrk.method = "POST"\nwrk.body = {lua_string(body)}\n'
                        f'wrk.headers["Content-Type"] = "{content_type}"\nwrk.headers["identifier"] = "{args.identifier}"\n'), len(body)

def memory(field):
    with open(f"/proc/{args.pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) // 1024
    return -1

def wrk(path, conns, lua=None):
    return run_wrk(args.base + path, conns, args.seconds, lua)

detail = script("detail", f"""
math.randomseed(os.time())
request = function()
  return wrk.format("GET", "/api/products/" .. math.random({max(1, newest - total + 1)}, {newest}))
end
""")
deep_page = max(1, total // 20 - 1)
results = {
    "list page 1": wrk("/api/products?page_no=1&items_per_page=20", args.conns),
    f"list page {deep_page}": wrk(f"/api/products?page_no={deep_page}&items_per_page=20", args.conns),
    "search, page 1": wrk("/api/products?page_no=1&items_per_page=20&search_value=%EC%95%84%EC%9D%B4%ED%8F%B0", args.conns),
    "search, rare": wrk(f"/api/products?page_no=1&items_per_page=20&search_value=%23{total // 2}", args.conns),
    "detail": wrk("/", args.conns, detail),
}
register3, size3 = upload_script("register3", 3)
rss_before = memory("VmRSS")
results["register, 3 images"] = wrk("/api/products", 8, register3)
register5, size5 = upload_script("register5", 5)
results["10 × 5-image uploads"] = wrk("/api/products", 10, register5)
peak = memory("VmHWM")

print(f"Market on {args.label or args.base}: {total} products; wrk {args.seconds} s per call, {args.conns} connections "
      f"(uploads: 8, and 10 at once; bodies {size3 // 1024} KiB and {size5 // 1024} KiB of 300×300 noise PNGs, "
      f"each near the 300 KiB limit)")
print(f"{'call':<24}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'errors':>8}")
for name, r in results.items():
    print(f"{name:<24}{r['rps']:>10.0f}{r['p50_ms']:>10.1f}{r['p99_ms']:>10.1f}{r['non2xx'] + r['timeouts']:>8}")
print(f"server memory: {rss_before} MiB resident before the uploads, peak {peak} MiB (VmHWM, whole run)")
if args.json:
    with open(args.json, "w") as f:
        json.dump({"label": args.label, "products": total, "results": results, "rss_before_mib": rss_before, "peak_rss_mib": peak}, f, indent=2)
