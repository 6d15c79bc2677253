"""Fixtures that run the real `latchkey` binary on a free loopback port.

Each server gets its own temporary data directory (SQLite database and the file outbox),
so tests never share state. Mail is read from the `.eml` files the outbox worker writes.
"""
import email
import email.policy
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse

import pytest
import requests
import requests.adapters
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = pathlib.Path(os.environ.get("LATCHKEY_BINARY", ROOT / ".build" / "release" / "latchkey"))
GOOD_PASSWORD = "correct horse battery staple"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SourceAddressAdapter(requests.adapters.HTTPAdapter):
    """Connects from a chosen loopback address (127.0.0.0/8), so one test can be many
    clients: the server sees each address as a different client IP."""

    def __init__(self, address):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, source_address=(self.address, 0), **kwargs)


def client_session(ip):
    """A `requests.Session` whose connections come from the loopback address `ip`."""
    session = requests.Session()
    session.mount("http://", SourceAddressAdapter(ip))
    session.mount("https://", SourceAddressAdapter(ip))
    return session


def json_request_bytes(port, path, body, close=False):
    """The bytes of one `POST path` with a JSON body, for tests that write to a socket
    themselves (pipelining, releasing many requests at once)."""
    payload = json.dumps(body).encode()
    lines = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Content-Type: application/json",
             f"Content-Length: {len(payload)}"] + (["Connection: close"] if close else [])
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + payload


def read_response(reader, headers=None):
    """Reads one HTTP/1.1 response with a Content-Length from the binary file `reader` (a
    socket's makefile), leaving any pipelined response after it unread. Returns (status, body);
    the header fields go into the dict `headers`, when given, by lower-case name."""
    status_line = reader.readline()
    assert status_line.startswith(b"HTTP/1.1 "), status_line
    length = 0
    while (line := reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        if headers is not None:
            headers[name.strip().lower()] = value.strip()
        if name.strip().lower() == "content-length":
            length = int(value)
    return int(status_line.split()[1]), reader.read(length)


class Server:
    """A running `latchkey serve` with helpers to drive it like a user would."""

    def __init__(self, data_dir, env, log_path):
        self.data_dir = pathlib.Path(data_dir)
        self.port = int(env["LATCHKEY_LISTEN"].rsplit(":", 1)[1])
        # With LATCHKEY_TLS_CERT the server speaks HTTPS, trusted through that certificate.
        self.verify = env.get("LATCHKEY_TLS_CERT", True)
        self.base = f"{'https' if 'LATCHKEY_TLS_CERT' in env else 'http'}://127.0.0.1:{self.port}"
        self.env = env
        self.log_path = log_path
        self.process = None

    def spawn(self):
        """Starts the process without waiting for it to be ready."""
        self.log_file = open(self.log_path, "ab")
        self.process = subprocess.Popen([str(BINARY), "serve"], env=self.env, stdout=self.log_file, stderr=self.log_file)

    def start(self):
        self.spawn()
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}: {self.log()}")
            try:
                if requests.get(self.base + "/healthz", timeout=1, verify=self.verify).status_code == 200:
                    return self
            except (requests.ConnectionError, requests.Timeout):
                # The port is bound before the server is ready (signing keys may still be
                # being made), so a first request may wait in the listen queue.
                time.sleep(0.05)
        raise RuntimeError("server did not become healthy: " + self.log())

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log_file.close()

    def log(self):
        return pathlib.Path(self.log_path).read_text(errors="replace")

    def cli(self, *args, stdin=None, check=True):
        result = subprocess.run([str(BINARY), *args], env=self.env, input=stdin, capture_output=True, text=True, timeout=60)
        if check and result.returncode != 0:
            raise AssertionError(f"latchkey {' '.join(args)} failed ({result.returncode}): {result.stderr}")
        return result

    def create_user(self, address, password=GOOD_PASSWORD):
        self.cli("users", "create", address, "--password-stdin", stdin=password + "\n")

    def password_matches(self, address, password):
        return self.cli("users", "verify", address, "--password-stdin", stdin=password + "\n", check=False).returncode == 0

    def post(self, path, body, headers=None, ip=None):
        """POSTs `body` as JSON; from the loopback address `ip` when given (else 127.0.0.1)."""
        all_headers = {"Content-Type": "application/json"}
        all_headers.update(headers or {})
        if ip is None:
            return requests.post(self.base + path, json=body, headers=all_headers, timeout=30, verify=self.verify)
        with client_session(ip) as session:
            return session.post(self.base + path, json=body, headers=all_headers, timeout=30, verify=self.verify)

    @property
    def outbox(self):
        return self.data_dir / "outbox"

    def mails(self, to=None):
        found = []
        if not self.outbox.exists():
            return found
        for path in sorted(self.outbox.glob("*.eml"), key=lambda p: p.stat().st_mtime):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if to is None or to in message["To"]:
                found.append(message)
        return found

    def wait_for_mails(self, to, count, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            found = self.mails(to)
            if len(found) >= count:
                return found
            time.sleep(0.05)
        raise AssertionError(f"expected {count} mail(s) to {to}, found {len(self.mails(to))}; log:\n{self.log()[-3000:]}")

    @staticmethod
    def text_of(message):
        return message.get_body(preferencelist=("plain",)).get_content()

    @staticmethod
    def html_of(message):
        return message.get_body(preferencelist=("html",)).get_content()

    @classmethod
    def token_in(cls, message):
        match = re.search(r"#token=([A-Za-z0-9_-]{43})", cls.text_of(message))
        assert match, "no reset link in mail"
        return match.group(1)


def pytest_configure(config):
    config.addinivalue_line("markers", "new_device_mail: the servers of this test mail owners about new devices")


@pytest.fixture
def make_server(tmp_path, request):
    """Starts servers with extra environment; all are stopped at the end of the test."""
    started = []
    # Every e2e client signs in from 127.0.0.1 without a device token, so each account's second
    # sign-in would mail its owner about a new device. The tests of that mail (marked
    # new_device_mail) keep it on; for the rest it is off, so their mailboxes hold only what
    # they test.
    notices = "on" if request.node.get_closest_marker("new_device_mail") else "off"

    def start(data_dir=None, **settings):
        data_dir = pathlib.Path(data_dir) if data_dir else tmp_path / f"data{len(started)}"
        port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
        env.update({
            "LATCHKEY_LISTEN": f"127.0.0.1:{port}",
            "LATCHKEY_DATA_DIR": str(data_dir),
            "LATCHKEY_LOG_LEVEL": "info",
            # Strict rotation, so that presenting a used refresh token is always reuse; the
            # reuse grace (default 10 s) has its own tests, which set it (test_refresh_grace.py).
            "LATCHKEY_REFRESH_REUSE_GRACE": "0",
            "LATCHKEY_NEW_DEVICE_MAIL": notices,
        })
        env.update({k: str(v) for k, v in settings.items()})
        server = Server(data_dir, env, tmp_path / f"server{len(started)}.log")
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def server(make_server):
    return make_server()


@pytest.fixture
def browser():
    """Headless Chromium driven by Selenium, with the browser console log kept."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--lang=en-US"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    yield driver
    driver.quit()


@pytest.fixture
def certificate(tmp_path):
    """A self-signed P-256 certificate for 127.0.0.1 and its key, as PEM files."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True)
    return cert, key


@pytest.fixture
def https_server(make_server, certificate):
    """A server speaking HTTPS itself, trusted through `certificate` (its `verify`)."""
    cert, key = certificate
    return make_server(LATCHKEY_TLS_CERT=cert, LATCHKEY_TLS_KEY=key)


def _flush_redis(url):
    """Empties the test Redis (a raw RESP FLUSHALL; no client library needed)."""
    parts = urllib.parse.urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port or 6379), timeout=5) as connection:
        if parts.password:
            connection.sendall(f"AUTH {parts.password}\r\n".encode())
            assert connection.recv(64).startswith(b"+OK")
        connection.sendall(b"FLUSHALL\r\n")
        assert connection.recv(64).startswith(b"+OK")


def _require_services(*variables):
    """The values of the environment `variables` naming test services; skips the test when one
    is missing (fails it under `make test`, which sets LATCHKEY_REQUIRE_CLUSTER)."""
    values = [os.environ.get(name) for name in variables]
    if not all(values):
        names = " and ".join(variables)
        if os.environ.get("LATCHKEY_REQUIRE_CLUSTER"):
            pytest.fail(f"{names} must be set (run `make test`)")
        pytest.skip(f"needs {names}: run through `make test` (scripts/with-postgres.sh, scripts/with-redis.sh)")
    return values


@pytest.fixture
def fresh_database():
    """The URL of a new, empty PostgreSQL database on the test server (LATCHKEY_TEST_DATABASE_URL,
    provided by scripts/with-postgres.sh)."""
    [admin_url] = _require_services("LATCHKEY_TEST_DATABASE_URL")
    database = "latchkey_e2e_" + os.urandom(6).hex()
    subprocess.run(["psql", "-q", "-X", "-d", admin_url, "-c", f"CREATE DATABASE {database}"], check=True, capture_output=True)
    parts = urllib.parse.urlsplit(admin_url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + database))


@pytest.fixture
def make_cluster(tmp_path, make_server, fresh_database):
    """Starts `count` servers sharing one fresh PostgreSQL database, the test Redis and one
    data directory (keys and the file outbox), as instances behind a load balancer would.
    `make test` provides PostgreSQL and Redis (LATCHKEY_TEST_DATABASE_URL, LATCHKEY_TEST_REDIS_URL)."""
    [redis_url] = _require_services("LATCHKEY_TEST_REDIS_URL")
    _flush_redis(redis_url)
    shared = tmp_path / "shared-data"

    def start(count=2, **settings):
        servers = [make_server(data_dir=shared, LATCHKEY_DATABASE_URL=fresh_database, LATCHKEY_REDIS_URL=redis_url, **settings)
                   for _ in range(count)]
        return servers

    yield start


@pytest.fixture(params=["sqlite", "postgres"])
def store_server(request, make_server):
    """A server on SQLite, or on PostgreSQL (with Redis, as a cluster's instance): each test
    that takes it runs on both databases."""
    if request.param == "sqlite":
        return make_server()
    [server] = request.getfixturevalue("make_cluster")(count=1)
    return server


class SMTPServer:
    """A running e2e/smtp_server.py (aiosmtpd): its port, its CA file and the mail it received."""

    USER = "latchkey"
    PASSWORD = "smtp password for the tests"

    def __init__(self, outdir, mode):
        self.outdir = pathlib.Path(outdir)
        self.outdir.mkdir(parents=True, exist_ok=True)
        # The password is this test server's own, on its command line; Latchkey's is never there.
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "e2e" / "smtp_server.py"), "--outdir", str(self.outdir), "--mode", mode,
             "--user", self.USER, "--password", self.PASSWORD],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        assert line.startswith("READY "), line
        self.port = int(line.split()[1])
        self.ca_file = self.outdir / "cert.pem"

    def received(self):
        return [json.loads(path.read_text()) for path in sorted(self.outdir.glob("*.json"), key=lambda p: int(p.stem))]

    def settings(self, password=None, scheme="smtp"):
        """The LATCHKEY_* settings that send through this server."""
        settings = {"LATCHKEY_MAIL_TRANSPORT": "smtp", "LATCHKEY_SMTP_URL": f"{scheme}://127.0.0.1:{self.port}",
                    "LATCHKEY_SMTP_USERNAME": self.USER, "LATCHKEY_SMTP_PASSWORD": password or self.PASSWORD,
                    "LATCHKEY_SMTP_TIMEOUT": "10"}
        if self.ca_file.exists():  # the plain mode has no certificate
            settings["LATCHKEY_SMTP_CA_FILE"] = str(self.ca_file)
        return settings

    def stop(self):
        self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def smtp_server(tmp_path):
    """Starts e2e/smtp_server.py in a mode (`starttls`, `implicit-tls`, `plain`); stopped after the test."""
    started = []

    def start(mode="starttls"):
        server = SMTPServer(tmp_path / f"smtp{len(started)}", mode)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
