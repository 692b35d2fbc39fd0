#!/usr/bin/env python3
"""scripts/cluster check-limits: shared state holds across the nodes of a running cluster (issue 31, point 2).

Through nginx (round robin, so consecutive requests land on different nodes), one client, named by the
X-Forwarded-For that the trusted nginx passes on, gets at most 1.1 times one node's budget:
  - login, per account: 10 failures in 15 minutes (LoginThrottle.failuresPerIdentifier; fixed, no setting)
    30 wrong passwords for one account, 15 at once and 15 one after another: at most 11 are checked (400), the rest
    429; the right password is then refused too, from another address;
  - login, per address: 20 failures in 15 minutes (LoginThrottle.failuresPerAddress): 40 attempts at 40 unknown
    names from one address, at most 22 checked; another address still logs in (the address is the client's, from
    the trusted proxy's header, not nginx's 127.0.0.1);
  - sign-up, per address: SIGNUPS_PER_ADDRESS_PER_HOUR (20 unless the nodes were given another value): 30 sign-ups
    from one address, at most 1.1 × that succeed;
and a token issued through one node works on every node, and an account blocked with `sprout account block` is
refused by every node at its next request.
Every check names how many nodes the requests reached (at least two, or the check proves nothing).
Exits 1 if any check fails.

    python3 scripts/lib/cluster_limits.py --state /tmp/sprout-cluster/state
"""
import argparse, concurrent.futures, os, random, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_client import read_state, node_ports, request, form, headers_for

LOGIN_PER_ACCOUNT = 10      # Sources/SproutServer/Accounts/LoginThrottle.swift, failuresPerIdentifier
LOGIN_PER_ADDRESS = 20      # LoginThrottle.failuresPerAddress
SLACK = 1.1                 # issue 31: at most 1.1 × the single-node budget

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--state", default=os.path.join(os.environ.get("SPROUT_CLUSTER_DIR", "/tmp/sprout-cluster"), "state"))
args = ap.parse_args()

state = read_state(args.state)
base = state["CLUSTER_URL"]
ports = node_ports(state)
run = f"{int(time.time()) % 100000:05d}{random.randint(0, 999):03d}"
password = "limits-password-1"
results = []   # (check, budget, allowed, got, nodes reached, passed, note)


def address():
    """A client address of its own (TEST-NET-2 range), so no earlier run's counts apply."""
    return f"198.51.{random.randint(0, 255)}.{random.randint(1, 254)}"


def register(username, client):
    body, ctype = form({"username": username, "email": f"{username}@example.com", "password": password})
    return request(base, "POST", "/auth/local/register", body, headers_for(ctype, address=client))


def login(identifier, secret, client):
    body, ctype = form({"identifier": identifier, "password": secret})
    return request(base, "POST", "/auth/local", body, headers_for(ctype, address=client))


def nodes_of(responses):
    return {r.upstream.split(",")[-1].strip() for r in responses if r.upstream}


def record(check, budget, responses, counted, note=""):
    allowed = int(budget * SLACK)
    got = sum(1 for r in responses if counted(r))
    others = [r for r in responses if r.status not in (200, 400, 429)]
    nodes = nodes_of(responses)
    passed = got <= allowed and got >= 1 and not others and len(nodes) >= min(2, len(ports))
    if others:
        note += f" unexpected answers: {others[0].short()}"
    if len(nodes) < min(2, len(ports)):
        note += " (requests reached fewer than two nodes)"
    results.append((check, budget, allowed, got, len(nodes), passed, note.strip()))


def must(response, status, what):
    if response.status != status:
        sys.exit(f"ERROR: {what}: expected {status}, got {response.short()}")
    return response.json()


# 1. Login, per account.
user = f"lim{run}a"
must(register(user, address()), 200, "sign-up of the account under test")
guesser = address()
with concurrent.futures.ThreadPoolExecutor(max_workers=15) as pool:
    burst = list(pool.map(lambda n: login(user, f"wrong-{n}", guesser), range(15)))
sequential = [login(user, f"wrong-{n}", guesser) for n in range(15, 30)]
right = login(user, password, address())
record("login, one account (30 wrong passwords)", LOGIN_PER_ACCOUNT, burst + sequential, lambda r: r.status == 400,
       f"right password afterwards from another address: {right.status}")
if right.status != 429:
    results[-1] = results[-1][:5] + (False, results[-1][6] + " (expected 429: the account's budget is spent)")

# 2. Login, per address.
client = address()
attempts = [login(f"nobody{run}x{n}", "wrong-password", client) for n in range(40)]
other_user = f"lim{run}b"
must(register(other_user, address()), 200, "sign-up of the second account")
elsewhere = login(other_user, password, address())
record("login, one address (40 unknown names)", LOGIN_PER_ADDRESS, attempts, lambda r: r.status == 400,
       f"another address logs in: {elsewhere.status}")
if elsewhere.status != 200:
    results[-1] = results[-1][:5] + (False, results[-1][6] + " (expected 200)")

# 3. Sign-ups, per address.
signup_budget = int(os.environ.get("SIGNUPS_PER_ADDRESS_PER_HOUR") or 20)
if signup_budget > 0:
    client = address()
    signups = [register(f"lim{run}s{n}", client) for n in range(signup_budget + 10)]
    record(f"sign-up, one address ({signup_budget + 10} sign-ups)", signup_budget, signups, lambda r: r.status == 200)

# 4. A token from one node works on every node; 5. a block holds on every node.
token = must(login(other_user, password, address()), 200, "login for the token check")["jwt"]
per_node = [request(f"http://127.0.0.1:{port}", "GET", "/users/me", headers=headers_for(token=token)) for port in ports]
ok = all(r.status == 200 for r in per_node)
results.append(("token works on every node (GET /users/me)", "-", "-", sum(r.status == 200 for r in per_node),
                len(ports), ok, " ".join(str(r.status) for r in per_node)))

env = dict(os.environ)
for key in ("DATABASE_URL", "DATABASE_POOLER", "DATABASE_DIRECT_URL"):
    env.pop(key, None)
if state.get("MODE") == "postgres":
    env["DATABASE_URL"] = state["PG_URL"]
elif state.get("MODE") == "external":
    env["DATABASE_URL"] = state.get("EXTERNAL_DATABASE_DIRECT_URL") or state["EXTERNAL_DATABASE_URL"]
env["DATA_DIR"] = os.path.join(state["NODE_1_DIR"], "data")
with open(os.path.join(os.path.dirname(args.state), "secrets.key")) as f:
    env["SECRETS_KEY"] = f.read().strip()
blocked = subprocess.run([state["SPROUT_BIN"], "account", "block", other_user], env=env, capture_output=True, text=True)
if blocked.returncode != 0:
    results.append(("block holds on every node", "-", "-", 0, len(ports), False,
                    f"`sprout account block` failed: {(blocked.stderr or blocked.stdout).strip()[:200]}"))
else:
    per_node = [request(f"http://127.0.0.1:{port}", "GET", "/users/me", headers=headers_for(token=token)) for port in ports]
    ok = all(r.status == 401 for r in per_node)
    results.append(("block holds on every node (401)", "-", "-", sum(r.status == 401 for r in per_node),
                    len(ports), ok, " ".join(str(r.status) for r in per_node)))

print(f"\n    shared limits across {len(ports)} node(s) behind nginx ({base})\n")
print(f"    {'check':46} {'budget':>6} {'max':>4} {'got':>4} {'nodes':>5}  result")
for check, budget, allowed, got, nodes, passed, note in results:
    print(f"    {check:46} {budget!s:>6} {allowed!s:>4} {got!s:>4} {nodes:>5}  {'PASS' if passed else 'FAIL'}"
          + (f"  {note}" if note else ""))
failed = [r for r in results if not r[5]]
print()
sys.exit(1 if failed else 0)
