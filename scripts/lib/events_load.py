"""scripts/bench --events: the live stream at scale on one node (issue 30, point 7).

1. Idle streams: opens --idle streams (`market`) and reports the server's resident memory per stream.
2. Fan-out: --fanout streams follow `todos`; one todo is created at a time, --events times, and each stream's
   delivery delay is measured from just before the create's request to the frame's arrival: p50/p99/max.
3. Creates beside listeners: wrk creates todos for --seconds with no stream open (before and after the rest), with
   --fanout streams following `todos` (each one receives every create): the ratio of the two rates; then how far
   behind the followers were when the creates stopped (a todo created then, and its delay to each of them).
The streams are read by one asyncio process on the same machine, so its own delay is in the figures."""
import argparse, asyncio, json, os, sys, tempfile, time, urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from wrk_tools import wrk  # noqa: E402


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


# Every stream reads into this one buffer: a read is handled before the next starts (one thread), and no bytes
# object is made per read. 1,000 streams receiving every create take over 1 GB/s through loopback, all read on
# the cores the server uses, so the reader's own cost is kept to the kernel's copy.
SHARED_READ_BUFFER = bytearray(1 << 20)


class Stream(asyncio.BufferedProtocol):
    """One SSE connection read as raw bytes in the transport's callback, so a frame's arrival is noted when the
    client's loop first sees it (a StreamReader and a task per stream added their own delay to every figure);
    `arrived` takes the time the first read naming `watch` came."""

    def __init__(self, request):
        self.request = request
        self.ready = asyncio.get_running_loop().create_future()
        self.closed = asyncio.get_running_loop().create_future()
        self.watch = None
        self.arrived = None
        self.transport = None
        self.seen = b""

    def connection_made(self, transport):
        self.transport = transport
        transport.write(self.request)

    def get_buffer(self, sizehint):
        return SHARED_READ_BUFFER

    def buffer_updated(self, nbytes):
        if self.watch is not None and not self.arrived.done() and SHARED_READ_BUFFER.find(self.watch, 0, nbytes) >= 0:
            self.arrived.set_result(time.perf_counter())
        if not self.ready.done():
            self.seen += SHARED_READ_BUFFER[:nbytes]
            if b"event: ready" in self.seen:
                self.ready.set_result(None)
                self.seen = b""

    def connection_lost(self, exc):
        if not self.closed.done():
            self.closed.set_result(None)

    def close(self):
        if self.transport is not None:
            self.transport.close()


async def open_streams(port, count, topics):
    loop = asyncio.get_running_loop()
    request = f"GET /api/events?topics={topics} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode()
    streams = []
    for index in range(0, count, 200):
        batch = [Stream(request) for _ in range(min(200, count - index))]
        await asyncio.gather(*(loop.create_connection(lambda stream=stream: stream, "127.0.0.1", port) for stream in batch))
        await asyncio.gather(*(stream.ready for stream in batch))
        streams += batch
    return streams


def cpu_seconds(pid):
    """User and system CPU time of a process so far (its threads included)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def creates(pid, url, seconds, script):
    """wrk's figures for creating todos, with the server's and this client's CPU seconds meanwhile."""
    server, client = cpu_seconds(pid), cpu_seconds(os.getpid())
    result = await asyncio.get_running_loop().run_in_executor(None, wrk, url, 16, seconds, script)
    result.update(server_cpu_s=round(cpu_seconds(pid) - server, 2), client_cpu_s=round(cpu_seconds(os.getpid()) - client, 2))
    return result


def create_todo(base, title):
    request = urllib.request.Request(base + "/api/v2/todos-json", data=json.dumps({"title": title, "is_done": False}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)["data"]["id"]


async def delivery_delays(base, streams, title, timeout):
    """Creates a todo titled `title` and answers, in ms from just before its request, when each stream first read
    it (the title is the marker each watches for; the event carries the row): one delay per stream it reached
    within `timeout` seconds."""
    loop = asyncio.get_running_loop()
    for stream in streams:
        stream.arrived = loop.create_future()
        stream.watch = f'"{title}"'.encode()
    sent = time.perf_counter()
    await loop.run_in_executor(None, create_todo, base, title)
    if streams:
        await asyncio.wait([stream.arrived for stream in streams], timeout=timeout)
    for stream in streams:
        stream.watch = None
    return [(stream.arrived.result() - sent) * 1000 for stream in streams if stream.arrived.done()]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--idle", type=int, default=5000)
    parser.add_argument("--fanout", type=int, default=1000)
    parser.add_argument("--events", type=int, default=30)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--json")
    args = parser.parse_args()
    base = f"http://127.0.0.1:{args.port}"
    results = {}

    # Warm the server (its first stream starts the hub) so the baseline holds what every stream shares.
    warm = await open_streams(args.port, 10, "market")
    await asyncio.sleep(1)
    before = rss_kib(args.pid)
    idle = await open_streams(args.port, args.idle, "market")
    await asyncio.sleep(2)
    after = rss_kib(args.pid)
    per_stream = (after - before) / args.idle
    results["idle"] = {"streams": args.idle, "rss_before_kib": before, "rss_after_kib": after, "kib_per_stream": round(per_stream, 2)}
    print(f"idle streams: {args.idle} open; server RSS {before / 1024:.1f} → {after / 1024:.1f} MiB; "
          f"{per_stream:.1f} KiB per stream (target < 20)")
    for stream in idle + warm:
        stream.close()
    await asyncio.sleep(2)

    script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    script.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                 'wrk.body = \'{"title": "created under listeners", "is_done": false}\'\n')
    script.close()
    url = base + "/api/v2/todos-json"
    # The rate without streams, measured before and after the runs with them (the list grows meanwhile): their mean.
    alone_before = await creates(args.pid, url, args.seconds, script.name)

    followers = await open_streams(args.port, args.fanout, "todos")
    delays = []
    for number in range(args.events):
        delays += await delivery_delays(base, followers, f"fan-out {number}", 10)
        await asyncio.sleep(0.05)
    delays.sort()
    p = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))]  # noqa: E731
    results["fanout"] = {"streams": args.fanout, "events": args.events, "deliveries": len(delays),
                         "p50_ms": round(p(0.5), 1), "p99_ms": round(p(0.99), 1), "max_ms": round(delays[-1], 1)}
    print(f"fan-out: {args.events} events × {args.fanout} streams, {len(delays)} deliveries; from the create's request: "
          f"p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, max {delays[-1]:.1f} ms (target p99 < 100)")
    # Each create reaches every follower: a thousand times the bytes, which the client reads on the same cores.

    with_listeners = await creates(args.pid, url, args.seconds, script.name)
    # Whether the followers kept up: a todo created as soon as wrk stops reaches each of them only after every
    # create before it, so its delay is the backlog the run left (a hub reading too little per interval fell
    # tens of seconds behind, and the rate above then counted only part of the deliveries).
    open_followers = [stream for stream in followers if not stream.closed.done()]
    backlog = sorted(await delivery_delays(base, open_followers, "after the creates", 120))
    still_open = sum(1 for stream in followers if not stream.closed.done())
    for stream in followers:
        stream.close()
    elsewhere = await open_streams(args.port, args.fanout, "community,market")
    await asyncio.sleep(1)
    with_others = await creates(args.pid, url, args.seconds, script.name)
    for stream in elsewhere:
        stream.close()
    await asyncio.sleep(2)
    alone_after = await creates(args.pid, url, args.seconds, script.name)
    os.unlink(script.name)
    alone = {"rps": (alone_before["rps"] + alone_after["rps"]) / 2,
             "server_cpu_s": round((alone_before["server_cpu_s"] + alone_after["server_cpu_s"]) / 2, 2)}
    ratio = with_listeners["rps"] / alone["rps"]
    ratio_others = with_others["rps"] / alone["rps"]
    results["creates"] = {"alone_before": alone_before, "alone_after": alone_after, "alone": alone, "with_listeners": with_listeners, "listeners": args.fanout, "ratio": round(ratio, 3),
                          "listeners_still_open": still_open, "with_listeners_elsewhere": with_others,
                          "ratio_elsewhere": round(ratio_others, 3),
                          "backlog_ms": {"p50": round(backlog[len(backlog) // 2], 1), "max": round(backlog[-1], 1)} if backlog else None}
    print(f"creates: {alone['rps']:.0f}/s alone (mean of {alone_before['rps']:.0f} before and {alone_after['rps']:.0f} after); {with_others['rps']:.0f}/s ({ratio_others:.2f}) with {args.fanout} streams "
          f"open on other topics; {with_listeners['rps']:.0f}/s ({ratio:.2f}) with {args.fanout} streams following "
          f"todos, each receiving every create ({still_open} still open at the end; a stream that falls behind is "
          f"closed) (target ≥ 0.90); server CPU {alone['server_cpu_s']} s alone, {with_listeners['server_cpu_s']} s "
          f"with the followers, whose reading cost this client {with_listeners['client_cpu_s']} s, in {args.seconds} s")
    if backlog:
        print(f"backlog when the creates stopped: a todo created then reached the followers after p50 {backlog[len(backlog) // 2]:.0f} ms, "
              f"max {backlog[-1]:.0f} ms ({len(backlog)} of {len(open_followers)} streams)")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=2)


if __name__ == "__main__":
    asyncio.run(main())
