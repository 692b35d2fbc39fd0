#!/usr/bin/env python3
"""Reads compare's JSON for Sprout on SQLite (with peers) and, if present, on PostgreSQL, and prints each call's
figures, ratios and the issue-8 targets met or missed. Usage: bench_summary.py sqlite.json [postgres.json]"""
import json, os, sys

sqlite = json.load(open(sys.argv[1]))
postgres = json.load(open(sys.argv[2])) if len(sys.argv) > 2 and os.path.exists(sys.argv[2]) else None
res = sqlite["results"]
peers = [n for n in ("pocketbase", "fastapi") if any(n in res[c] for c in res)]

def fig(call, name, key="rps"):
    v = res.get(call, {}).get(name)
    return v[key] if v else None

print(f"{'call':8} {'sprout req/s':>12} {'p99 ms':>7} " + " ".join(f"{p[:10] + ' req/s':>16}" for p in peers)
      + f" {'÷ best peer':>11} {'÷ pocketbase':>12}" + (f" {'pg req/s':>9} {'pg p99':>7} {'pg ÷ sqlite':>11}" if postgres else ""))
for call in res:
    s = fig(call, "sprout")
    best = max((fig(call, p) or 0) for p in peers) if peers else 0
    pb = fig(call, "pocketbase")
    row = f"{call:8} {s:12.0f} {fig(call, 'sprout', 'p99_ms'):7.1f} " + " ".join(f"{(fig(call, p) or float('nan')):16.0f}" for p in peers)
    row += f" {s / best if best else float('nan'):10.2f}x {s / pb if pb else float('nan'):11.2f}x"
    if postgres and call in postgres["results"]:
        pg = postgres["results"][call]["sprout"]
        row += f" {pg['rps']:9.0f} {pg['p99_ms']:7.1f} {pg['rps'] / s:10.2f}x"
    print(row)

def check(name, ok, detail):
    print(f"  [{'met' if ok else 'MISSED'}] {name}: {detail}")

print("\ntargets (ratios from this one run):")
def ratio(call, to):
    s, o = fig(call, "sprout"), (fig(call, to) if to != "best" else max((fig(call, p) or 0) for p in peers))
    return s / o if s and o else float("nan")
if "show" in res:
    check("show ≥ 1.5× PocketBase, p99 ≤ 20 ms", ratio("show", "pocketbase") >= 1.5 and fig("show", "sprout", "p99_ms") <= 20,
          f"{ratio('show', 'pocketbase'):.2f}×, p99 {fig('show', 'sprout', 'p99_ms'):.1f} ms")
if "list" in res:
    check("list ≥ 2× best peer", ratio("list", "best") >= 2, f"{ratio('list', 'best'):.2f}×")
if "search" in res:
    check("search ≥ 8× best peer", ratio("search", "best") >= 8, f"{ratio('search', 'best'):.2f}×")
if "create" in res:
    check("create ≥ 1.3× PocketBase, p99 ≤ 50 ms", ratio("create", "pocketbase") >= 1.3 and fig("create", "sprout", "p99_ms") <= 50,
          f"{ratio('create', 'pocketbase'):.2f}×, p99 {fig('create', 'sprout', 'p99_ms'):.1f} ms")
rss = sqlite.get("peak_rss_mib", {}).get("sprout")
if rss is not None:
    check("peak RSS < 60 MiB", rss < 60, f"{rss} MiB")
errors = {c: (v["sprout"]["non2xx"], v["sprout"]["timeouts"]) for c, v in res.items() if v["sprout"]["non2xx"] or v["sprout"]["timeouts"]}
check("no errors or timeouts (SQLite)", not errors, str(errors or "none"))
if postgres:
    pres = postgres["results"]
    for call in ("show", "list"):
        if call in pres and call in res:
            r = pres[call]["sprout"]["rps"] / fig(call, "sprout")
            check(f"PostgreSQL {call} within 2× of SQLite", r >= 0.5, f"{r:.2f}× the SQLite req/s")
    perrors = {c: (v["sprout"]["non2xx"], v["sprout"]["timeouts"]) for c, v in pres.items() if v["sprout"]["non2xx"] or v["sprout"]["timeouts"]}
    check("no errors or timeouts (PostgreSQL)", not perrors, str(perrors or "none"))
    print(f"  PostgreSQL peak RSS: {postgres.get('peak_rss_mib', {}).get('sprout')} MiB")
