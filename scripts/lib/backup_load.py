#!/usr/bin/env python3
"""scripts/bench --backup: do online backups stall writers? (issue 27, point 4)

Sends todo creates at a fixed rate (default 1,000/s) over keep-alive connections and times each from the moment
it was due to be sent (so a stalled server shows as waiting, not as fewer requests). Phases, on one server:
  baseline  the load alone, --seconds long
  <method>  the load, with `sprout backup --sqlite-method METHOD` started after 2 s; the phase ends 10 s after the
            backup does, when the WAL's size is read
Prints, per phase, the rate reached, p50/p99/max of the requests due while the backup ran (baseline: all), the
count over 200 ms, the backup's duration and the WAL size at its end and 10 s later."""
import argparse, asyncio, json, os, subprocess, sys, time

ap = argparse.ArgumentParser()
ap.add_argument("--host", default="127.0.0.1")
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--rate", type=int, default=1000)
ap.add_argument("--seconds", type=int, default=20)
ap.add_argument("--conns", type=int, default=32)
ap.add_argument("--sprout", required=True)
ap.add_argument("--data-dir", required=True)
ap.add_argument("--methods", default="vacuum-into,backup-api")
ap.add_argument("--json")
args = ap.parse_args()

BODY = b'{"title": "backup bench todo", "is_done": false}'
REQUEST = (b"POST /api/v2/todos-json HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
           b"Content-Length: " + str(len(BODY)).encode() + b"\r\n\r\n" + BODY)


class Connection:
    def __init__(self):
        self.reader = self.writer = None

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(args.host, args.port)

    async def send(self):
        self.writer.write(REQUEST)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        if length:
            await self.reader.readexactly(length)
        return status


async def load(duration, marks):
    """Requests due every 1/rate s for `duration` s; returns (due time, latency s, status) for each."""
    free = asyncio.Queue()
    for _ in range(args.conns):
        c = Connection()
        await c.open()
        free.put_nowait(c)
    results = []
    tasks = []
    start = time.monotonic()
    marks["load_start"] = start

    async def one(due):
        c = await free.get()
        try:
            status = await c.send()
        except Exception:
            status = -1
            c = Connection()
            await c.open()
        results.append((due, time.monotonic() - due, status))
        free.put_nowait(c)

    n = 0
    interval = 1.0 / args.rate
    while True:
        due = start + n * interval
        if due - start >= duration():
            break
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(due)))
        n += 1
    await asyncio.gather(*tasks)
    return results


def wal_size():
    try:
        return os.path.getsize(os.path.join(args.data_dir, "sprout.sqlite-wal"))
    except OSError:
        return 0


def summary(results, window=None):
    picked = [r for r in results if window is None or window[0] <= r[0] <= window[1]]
    lat = sorted(r[1] * 1000 for r in picked)
    if not lat:
        return {}
    pct = lambda p: lat[min(len(lat) - 1, int(len(lat) * p))]
    first = min(r[0] for r in results)
    last = max(r[0] for r in results)
    return {"requests": len(picked), "errors": sum(1 for r in picked if r[2] != 200),
            "rate": round(len(results) / max(1e-9, last - first)), "p50_ms": round(pct(0.50), 2),
            "p99_ms": round(pct(0.99), 2), "max_ms": round(lat[-1], 2), "over_200ms": sum(1 for x in lat if x > 200)}


async def phase(method):
    marks = {}
    if method is None:
        results = await load(lambda: args.seconds, marks)
        return {"phase": "baseline", **summary(results)}
    end = {"at": None}

    def duration():
        return 10**9 if end["at"] is None else end["at"] - marks["load_start"]

    async def backup():
        await asyncio.sleep(2)
        t0 = time.monotonic()
        proc = await asyncio.create_subprocess_exec(
            args.sprout, "backup", "--data-dir", args.data_dir, "--sqlite-method", method,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env={**os.environ, "LOG_LEVEL": "error"})
        out, err = await proc.communicate()
        t1 = time.monotonic()
        info = {"backup_s": round(t1 - t0, 2), "exit": proc.returncode, "wal_at_end_bytes": wal_size()}
        if proc.returncode == 0:
            path = out.decode().strip().splitlines()[-1]
            info["archive_bytes"] = os.path.getsize(path)
            info["archive"] = path
        else:
            info["error"] = err.decode()[-500:]
        end["at"] = t1 + 10
        info["window"] = (t0, t1)
        return info

    results, info = await asyncio.gather(load(duration, marks), backup())
    # Removed once the load is over: unlinking a 1 GB file blocks this (single) thread for as long as the file
    # system takes to free it (about 180 ms on an ext4 mounted with `discard`), which showed as the server's wait.
    if "archive" in info:
        os.remove(info.pop("archive"))
    info["wal_10s_after_bytes"] = wal_size()
    window = info.pop("window")
    return {"phase": method, **summary(results, window), **info}


async def main():
    out = [await phase(None)]
    for method in [m for m in args.methods.split(",") if m]:
        out.append(await phase(method))
        out.append(await phase(None))
    for row in out:
        print(json.dumps(row))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)

asyncio.run(main())
