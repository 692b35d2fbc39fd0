"""Times POST /auth/forgot-password for addresses with an account and without, interleaved, on one server.

Usage: forgot_timing.py BASE KNOWN_COUNT ROUNDS
The server must trust 127.0.0.1 as a proxy (TRUSTED_PROXIES=127.0.0.1): every request names another client
address in X-Forwarded-For, and every known address is asked for once, so neither mail limit is reached. Known
addresses are demo1@example.com … demoN@example.com (sprout seed --accounts N). Prints the median and p90 of each
kind and their difference; the answers must be the same bytes."""
import http.client
import statistics
import sys
import time
import urllib.parse

base, known_count, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
host = urllib.parse.urlsplit(base)
connection = http.client.HTTPConnection(host.hostname, host.port)


def ask(email: str, client: int) -> tuple[float, bytes]:
    body = urllib.parse.urlencode({"email": email})
    started = time.perf_counter()
    connection.request("POST", "/auth/forgot-password", body, {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Forwarded-For": f"10.{client // 65536 % 256}.{client // 256 % 256}.{client % 256}",
    })
    response = connection.getresponse()
    answer = response.read()
    took = time.perf_counter() - started
    if response.status != 200:
        sys.exit(f"{email}: {response.status} {answer!r}")
    return took * 1000, answer


known, unknown, answers = [], [], set()
client = 0
for index in range(min(rounds, known_count)):
    # Alternate which goes first, so neither always meets a warmer server.
    pair = [("known", f"demo{index + 1}@example.com"), ("unknown", f"nobody{index + 1}@example.com")]
    for kind, email in (pair if index % 2 else reversed(pair)):
        client += 1
        took, answer = ask(email, client)
        answers.add(answer)
        (known if kind == "known" else unknown).append(took)

def p90(values):
    return statistics.quantiles(values, n=10)[-1]

print(f"forgot-password, {len(known)} addresses with an account and {len(unknown)} without, interleaved:")
print(f"  with an account:    median {statistics.median(known):.2f} ms, p90 {p90(known):.2f} ms")
print(f"  without an account: median {statistics.median(unknown):.2f} ms, p90 {p90(unknown):.2f} ms")
print(f"  difference of medians: {statistics.median(known) - statistics.median(unknown):+.2f} ms; "
      f"spread (p90 - median) without an account: {p90(unknown) - statistics.median(unknown):.2f} ms")
print(f"  distinct answer bodies: {len(answers)} (must be 1)")
