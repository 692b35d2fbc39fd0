"""HTTP helpers for scripts/chaos and scripts/cluster check-limits (standard library only): the cluster's state file,
one request with its timing and the node nginx sent it to, forms, JSON and multipart bodies."""
import http.client, json, shlex, time, urllib.parse, uuid


def read_state(path):
    """The KEY=VALUE lines scripts/cluster writes, as a dict."""
    state = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                key, value = line.split("=", 1)
                state[key] = " ".join(shlex.split(value)) if value else ""
    return state


def node_ports(state):
    return [int(state[f"NODE_{i}_PORT"]) for i in range(1, int(state["NODES"]) + 1)]


class Response:
    __slots__ = ("method", "path", "status", "headers", "body", "error", "started", "ended", "label")

    def __init__(self, method, path, label):
        self.method, self.path, self.label = method, path, label
        self.status, self.headers, self.body, self.error = 0, {}, b"", None
        self.started = self.ended = 0.0

    @property
    def ok(self):
        return 200 <= self.status < 300

    @property
    def upstream(self):
        """The node(s) nginx tried, as it reports them ("127.0.0.1:P1, 127.0.0.1:P2"), or "" (no header)."""
        return self.headers.get("x-sprout-upstream", "")

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    def short(self, limit=200):
        """Status and the start of the body (or the connection error), for reports."""
        if self.error:
            return f"no answer ({self.error})"
        text = self.body[:limit].decode("utf-8", "replace").replace("\n", " ")
        return f"{self.status} {text}"


def request(base, method, path, body=None, headers=None, timeout=15, label=""):
    """One request on a connection of its own (so a stale client-side connection never counts as a failure)."""
    url = urllib.parse.urlsplit(base)
    response = Response(method, path, label or f"{method} {path}")
    response.started = time.time()
    conn = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
        response.body = answer.read()
        response.status = answer.status
        response.headers = {k.lower(): v for k, v in answer.getheaders()}
    except (OSError, http.client.HTTPException) as error:
        response.error = f"{type(error).__name__}: {error}"
    finally:
        conn.close()
        response.ended = time.time()
    return response


def form(fields):
    return urllib.parse.urlencode(fields).encode(), "application/x-www-form-urlencoded"


def json_body(value):
    return json.dumps(value).encode(), "application/json"


def multipart(params, images):
    """`params` (a dict, sent as JSON) and `images` (a list of (file name, bytes)): the market's register body."""
    boundary = "sprout-" + uuid.uuid4().hex
    out = bytearray()
    out += f'--{boundary}\r\nContent-Disposition: form-data; name="params"\r\nContent-Type: application/json\r\n\r\n'.encode()
    out += json.dumps(params).encode() + b"\r\n"
    for name, data in images:
        out += (f'--{boundary}\r\nContent-Disposition: form-data; name="images"; filename="{name}"\r\n'
                f"Content-Type: image/png\r\n\r\n").encode() + data + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return bytes(out), f"multipart/form-data; boundary={boundary}"


def headers_for(content_type=None, token=None, address=None, extra=None):
    """Request headers: the body's type, a Bearer token, and the client address the trusted nginx passes on
    (nginx appends the address it saw, 127.0.0.1, which Sprout skips as a trusted proxy)."""
    headers = {}
    if content_type:
        headers["Content-Type"] = content_type
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if address:
        headers["X-Forwarded-For"] = address
    if extra:
        headers.update(extra)
    return headers
