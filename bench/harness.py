"""What the benchmark scripts share: the release binary on a free loopback port with its own
data directory (optionally pinned to one CPU), its memory as the kernel counts it, timed
requests, loopback source addresses, and the ways to get tokens a benchmark presents."""
import base64
import hashlib
import html.parser
import http.client
import ipaddress
import json
import os
import pathlib
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The binary measured: LATCHKEY_BENCH_BINARY, else the release build.
BINARY = pathlib.Path(os.environ.get("LATCHKEY_BENCH_BINARY", ROOT / ".build" / "release" / "latchkey"))
PASSWORD = "correct horse battery staple"
EMAIL = "bench@example.com"
OAUTH_CLIENT = "bench-app"
REDIRECT = "http://127.0.0.1/callback"

# Limits that would otherwise measure the rate limiter instead of the route: the reset
# routes' budgets per IP (requests and resets, link checks) and the abuse warning (at their
# largest allowed values).
UNLIMITED_RESETS = {"LATCHKEY_RESET_IP_LIMIT": "1000000/1", "LATCHKEY_RESET_VALIDATE_IP_LIMIT": "1000000/1",
                    "LATCHKEY_ABUSE_WARNING_THRESHOLD": "1000000", "LATCHKEY_RESET_INBOX_LIMIT": "10000000"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def loopback_source(index, per_address):
    """The loopback address client `index` connects from when every address carries
    `per_address` clients: 127.0.0.2, then 127.0.0.3, ... (127.0.0.1 stays for probes)."""
    return str(ipaddress.IPv4Address("127.0.0.2") + index // per_address)


def wait_for_port(port, process, timeout=30):
    """Waits until the server on `port` answers an HTTP request (the port is bound before the
    server is ready); fails if `process` exits first."""
    deadline = time.time() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args} exited with {process.returncode}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/healthz")
            connection.getresponse().read()
            connection.close()
            return
        except (OSError, http.client.HTTPException):
            if time.time() > deadline:
                raise
            time.sleep(0.05)


def pinned(command, cpu):
    """`command` run with `taskset -c cpu` when `cpu` is given."""
    return ["taskset", "-c", str(cpu), *command] if cpu is not None else list(command)


def stop(process, timeout=20):
    """Ends `process` (SIGTERM, SIGKILL after `timeout` seconds)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def request(conn, method, path, body=None, form=None, headers=None):
    """Sends one request with a JSON `body` or a form-encoded `form`; returns (seconds
    taken, status, body bytes)."""
    all_headers = dict(headers or {})
    payload = None
    if body is not None:
        all_headers["Content-Type"] = "application/json"
        payload = json.dumps(body)
    elif form is not None:
        all_headers["Content-Type"] = "application/x-www-form-urlencoded"
        payload = urllib.parse.urlencode(form)
    start = time.perf_counter()
    conn.request(method, path, payload, all_headers)
    response = conn.getresponse()
    data = response.read()
    return time.perf_counter() - start, response.status, data


class ProcessMemory:
    """A process's memory as /proc counts it: resident now (VmRSS), its peak (VmHWM, which
    `reset_peak` sets back to the current RSS) and its thread count."""

    def __init__(self, pid):
        self.pid = pid

    def _status(self, field):
        for line in pathlib.Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        raise RuntimeError(f"{field} not in /proc/{self.pid}/status")

    def rss_mib(self):
        return self._status("VmRSS") / 1024

    def peak_mib(self):
        return self._status("VmHWM") / 1024

    def threads(self):
        return self._status("Threads")

    def reset_peak(self):
        """Sets the peak back to the current RSS (Linux `clear_refs` 5)."""
        pathlib.Path(f"/proc/{self.pid}/clear_refs").write_text("5")


class BenchServer:
    """`latchkey serve` with a temporary data directory, pinned to `cpu` when given, run under
    `wrapper` (a command prefix such as valgrind's) when given; use as a context manager. The
    reset routes are not rate limited unless `settings` say so."""

    def __init__(self, cpu=None, wrapper=(), start_timeout=30, **settings):
        self.cpu = cpu
        self.wrapper = list(wrapper)
        self.start_timeout = start_timeout
        self.data_dir = pathlib.Path(tempfile.mkdtemp(prefix="latchkey-bench-"))
        self.port = free_port()
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
        self.env.update({"LATCHKEY_DATA_DIR": str(self.data_dir), "LATCHKEY_LISTEN": f"127.0.0.1:{self.port}",
                         "LATCHKEY_LOG_LEVEL": "warning", **UNLIMITED_RESETS})
        self.env.update(settings)
        self.process = None
        self.memory = None
        # Commands refuse a data directory without a database; `migrate` creates it and the keys.
        self.cli("migrate")

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def create_user(self, address):
        self.cli("users", "create", address, "--password-stdin", stdin=PASSWORD + "\n")

    def create_oauth_client(self):
        """Registers the public first-party client `oauth_sign_in` uses."""
        self.cli("clients", "create", OAUTH_CLIENT, "--redirect-uri", REDIRECT, "--first-party")

    def create_confidential_client(self, client_id):
        """Registers a confidential client (one that authenticates, e.g. a resource server
        that introspects tokens); returns its secret."""
        created = self.cli("clients", "create", client_id, "--redirect-uri", "https://api.example/cb", "--confidential",
                           "--introspect")
        return next(line.split(": ", 1)[1] for line in created.splitlines() if line.startswith("client_secret: "))

    def cli(self, *args, stdin=None):
        """Runs a `latchkey` command against this server's data; returns its stdout."""
        return subprocess.run([str(BINARY), *args], env=self.env, input=stdin, text=True, check=True,
                              capture_output=True).stdout

    def connect(self, timeout=30, source=None):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                          source_address=(source, 0) if source else None)

    def __enter__(self):
        self.log = open(self.data_dir / "server.log", "wb")
        self.process = subprocess.Popen(pinned([*self.wrapper, str(BINARY), "serve"], self.cpu), env=self.env,
                                        stdout=self.log, stderr=self.log)
        wait_for_port(self.port, self.process, self.start_timeout)
        self.memory = ProcessMemory(self.process.pid)
        return self

    def __exit__(self, exc_type, exc, traceback):
        """Stops the server and removes its data. A server that had already exited fails the
        benchmark (its log's end goes to stderr): what was measured may not be the server's."""
        exited = self.process.poll()
        stop(self.process)
        self.log.close()
        if exited is not None:
            log = (self.data_dir / "server.log").read_text(errors="replace")
            print(f"latchkey serve exited with status {exited}; the end of its log:\n{log[-4000:]}", file=sys.stderr)
        shutil.rmtree(self.data_dir, ignore_errors=True)
        if exited is not None:
            message = f"the server exited with status {exited} during the benchmark"
            if exc is None:
                raise RuntimeError(message)
            exc.add_note(message)

    def reset_token(self, address=EMAIL, timeout=30):
        """Requests a reset link for `address` and returns the token from the mail the
        outbox worker writes."""
        conn = self.connect()
        _, status, body = request(conn, "POST", "/auth/password/request", {"email": address})
        conn.close()
        assert status == 200, body
        deadline = time.time() + timeout
        while time.time() < deadline:
            for path in (self.data_dir / "outbox").glob("*.eml"):
                text = path.read_text(errors="replace").replace("=\n", "").replace("=3D", "=")
                match = re.search(r"#token=([A-Za-z0-9_-]{43})", text)
                if match:
                    return match.group(1)
            time.sleep(0.1)
        raise RuntimeError("no reset mail in " + str(self.data_dir / "outbox"))

    def directus_login(self, address=EMAIL):
        """POST /auth/login with the right password; returns the refresh token."""
        conn = self.connect()
        _, status, body = request(conn, "POST", "/auth/login", {"email": address, "password": PASSWORD})
        conn.close()
        assert status == 200, body
        return json.loads(body)["data"]["refresh_token"]

    def oauth_sign_in(self, address=EMAIL):
        """Runs the authorization code flow for `OAUTH_CLIENT` as a browser would (sign-in
        form, code, PKCE exchange); returns the token response."""
        verifier = secrets.token_urlsafe(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        query = urllib.parse.urlencode({"response_type": "code", "client_id": OAUTH_CLIENT, "redirect_uri": REDIRECT,
                                        "code_challenge": challenge, "code_challenge_method": "S256", "state": "s"})
        conn = self.connect()
        conn.request("GET", "/oauth/authorize?" + query)
        page = conn.getresponse()
        cookie = page.getheader("Set-Cookie").split(";")[0]
        form = HiddenFields.of(page.read().decode())
        form.update(email=address, password=PASSWORD)
        conn.request("POST", "/oauth/authorize", urllib.parse.urlencode(form),
                     {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
        redirect = conn.getresponse()
        redirect.read()
        assert redirect.status == 303, redirect.status
        code = urllib.parse.parse_qs(urllib.parse.urlsplit(redirect.getheader("Location")).query)["code"][0]
        _, status, body = request(conn, "POST", "/oauth/token", form={
            "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT, "code_verifier": verifier,
            "client_id": OAUTH_CLIENT})
        conn.close()
        assert status == 200, body
        return json.loads(body)


class RouteClient:
    """Sends one of the routes `make bench` measures again and again on `conn`: /validate
    with one reset token, the reset request for a new address each time, and refresh rotations
    and the refresh grant, each following its chain (the token an answer gives is the next one
    sent); and GET /healthz, the cheapest route, answered on the event thread. Every answer
    must be 200."""

    ROUTES = ("validate", "request", "refresh", "grant", "healthz")

    def __init__(self, server, route, conn):
        assert route in self.ROUTES, route
        self.route = route
        self.conn = conn
        self.sent = 0
        if route == "validate":
            self.token = server.reset_token(timeout=120)
        elif route == "refresh":
            self.token = server.directus_login()
        elif route == "grant":
            self.token = server.oauth_sign_in()["refresh_token"]

    def send(self):
        self.sent += 1
        if self.route == "healthz":
            _, status, body = request(self.conn, "GET", "/healthz")
        elif self.route == "validate":
            _, status, body = request(self.conn, "POST", "/auth/password/validate", {"token": self.token})
        elif self.route == "request":
            _, status, body = request(self.conn, "POST", "/auth/password/request",
                                      {"email": f"nobody-{self.sent}@example.com"})
        elif self.route == "refresh":
            _, status, body = request(self.conn, "POST", "/auth/refresh", {"refresh_token": self.token})
            if status == 200:
                self.token = json.loads(body)["data"]["refresh_token"]
        else:
            _, status, body = request(self.conn, "POST", "/oauth/token", form={
                "grant_type": "refresh_token", "refresh_token": self.token, "client_id": OAUTH_CLIENT})
            if status == 200:
                self.token = json.loads(body)["refresh_token"]
        assert status == 200, (self.route, status, body)


class HiddenFields(html.parser.HTMLParser):
    """The hidden inputs of a page's form."""

    def __init__(self):
        super().__init__()
        self.fields = {}

    @classmethod
    def of(cls, page):
        parser = cls()
        parser.feed(page)
        return parser.fields

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "input" and attrs.get("type") == "hidden":
            self.fields[attrs["name"]] = attrs.get("value", "")


def percentile(sorted_values, fraction):
    """The value below which `fraction` of `sorted_values` lie (nearest rank)."""
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]
