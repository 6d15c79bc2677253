"""What the benchmark scripts share: the release binary on a free loopback port with its own
data directory, timed JSON requests, and a fixed-time throughput loop."""
import http.client
import json
import multiprocessing
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = ROOT / ".build" / "release" / "latchkey"
PASSWORD = "correct horse battery staple"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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


class BenchServer:
    """`latchkey serve` with a temporary data directory; use as a context manager."""

    def __init__(self, **settings):
        self.data_dir = pathlib.Path(tempfile.mkdtemp(prefix="latchkey-bench-"))
        self.port = free_port()
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
        self.env.update({"LATCHKEY_DATA_DIR": str(self.data_dir), "LATCHKEY_LISTEN": f"127.0.0.1:{self.port}",
                         "LATCHKEY_LOG_LEVEL": "warning"})
        self.env.update(settings)
        self.process = None

    def create_user(self, address):
        self.cli("users", "create", address, "--password-stdin", stdin=PASSWORD + "\n")

    def cli(self, *args, stdin=None):
        """Runs a `latchkey` command against this server's data; returns its stdout."""
        return subprocess.run([str(BINARY), *args], env=self.env, input=stdin, text=True, check=True,
                              capture_output=True).stdout

    def connect(self):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def __enter__(self):
        self.process = subprocess.Popen([str(BINARY), "serve"], env=self.env, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while True:
            try:
                request(http.client.HTTPConnection("127.0.0.1", self.port, timeout=2), "GET", "/healthz")
                return self
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.05)

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=20)
        shutil.rmtree(self.data_dir, ignore_errors=True)


def throughput(server, seconds, connections, work):
    """Runs `work(conn, index)` in a loop on `connections` keep-alive connections for
    `seconds`, each connection in a process of its own (forked, so `work` and what it
    captures need not be picklable; state a connection changes stays in its process), so the
    client is not held to one core by Python's GIL. Returns (requests done, elapsed seconds,
    sorted latencies in seconds)."""
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    stop_at = time.time() + seconds

    def run(index):
        conn = server.connect()
        latencies = []
        while time.time() < stop_at:
            start = time.perf_counter()
            work(conn, index)
            latencies.append(time.perf_counter() - start)
        results.put(latencies)

    workers = [context.Process(target=run, args=(i,)) for i in range(connections)]
    started = time.time()
    for worker in workers:
        worker.start()
    merged = sorted(latency for _ in workers for latency in results.get())
    for worker in workers:
        worker.join()
    return len(merged), time.time() - started, merged


def percentile(sorted_values, fraction):
    """The value below which `fraction` of `sorted_values` lie (nearest rank)."""
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]
