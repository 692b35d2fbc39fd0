"""What the load scripts share: waiting for a server's /health, and running wrk and reading its figures."""
import re, subprocess, time, urllib.request

UNITS = {"us": 0.001, "ms": 1, "s": 1000}


def wait_for_health(base, tries=600):
    for _ in range(tries):
        try:
            urllib.request.urlopen(base + "/health", timeout=1)
            return
        except Exception:
            time.sleep(0.1)


def wrk(url, conns, seconds, script=None, timeout=10):
    """Runs wrk against url and returns req/s, mean/p50/p99/max latency in ms, non-2xx answers, timeouts and the
    other socket errors (connect, read, write)."""
    command = ["wrk", "-t1" if conns < 4 else "-t2", f"-c{conns}", f"-d{seconds}s", "--latency", "--timeout", f"{timeout}s"]
    if script:
        command += ["-s", script]
    out = subprocess.run(command + [url], capture_output=True, text=True).stdout

    def ms(label):
        m = re.search(label + r"\s+([\d.]+)(us|ms|s)\b", out)
        return float(m.group(1)) * UNITS[m.group(2)] if m else float("nan")

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    timeouts = re.search(r"timeout (\d+)", out)
    latest = re.search(r"Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s)", out)
    # "Socket errors: connect 0, read 3, write 0, timeout 0": a read error is a connection the server dropped.
    sockets = re.search(r"connect (\d+), read (\d+), write (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), "mean_ms": ms("Latency"),
            "p50_ms": ms("50%"), "p99_ms": ms("99%"),
            "max_ms": float(latest.group(1)) * UNITS[latest.group(2)] if latest else float("nan"),
            "non2xx": int(errors.group(1)) if errors else 0, "timeouts": int(timeouts.group(1)) if timeouts else 0,
            "socket_errors": sum(int(n) for n in sockets.groups()) if sockets else 0}
