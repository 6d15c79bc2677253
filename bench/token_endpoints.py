#!/usr/bin/env python3
"""Requests per second of POST /auth/refresh (rotation, one chain per connection) and of
GET /.well-known/jwks.json, against the release binary on a free loopback port.

Usage: .venv/bin/python bench/token_endpoints.py [--seconds 10] [--connections 4]
"""
import argparse
import http.client
import json
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = ROOT / ".build" / "release" / "latchkey"
PASSWORD = "correct horse battery staple"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(conn, method, path, body=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    conn.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = conn.getresponse()
    return response.status, response.read()


def measure(port, seconds, connections, work):
    counts = [0] * connections
    stop_at = time.time() + seconds

    def run(index):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        state = {}
        while time.time() < stop_at:
            work(conn, state, index)
            counts[index] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(connections)]
    started = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts), time.time() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=4)
    args = parser.parse_args()
    data_dir = pathlib.Path(tempfile.mkdtemp(prefix="latchkey-bench-"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    env.update({"LATCHKEY_DATA_DIR": str(data_dir), "LATCHKEY_LISTEN": f"127.0.0.1:{port}", "LATCHKEY_LOG_LEVEL": "warning"})
    subprocess.run([str(BINARY), "users", "create", "bench@example.com", "--password-stdin"], env=env,
                   input=PASSWORD + "\n", text=True, check=True, capture_output=True)
    server = subprocess.Popen([str(BINARY), "serve"], env=env, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while True:
            try:
                request(http.client.HTTPConnection("127.0.0.1", port, timeout=2), "GET", "/healthz")
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.05)

        # One login per connection (logins are rate limited per account and deliberately slow).
        chains = []
        for _ in range(args.connections):
            status, body = request(http.client.HTTPConnection("127.0.0.1", port, timeout=30), "POST", "/auth/login",
                                   {"email": "bench@example.com", "password": PASSWORD})
            assert status == 200, body
            chains.append(json.loads(body)["data"]["refresh_token"])

        def refresh(conn, state, index):
            status, body = request(conn, "POST", "/auth/refresh", {"refresh_token": chains[index]})
            assert status == 200, body
            chains[index] = json.loads(body)["data"]["refresh_token"]

        def jwks(conn, state, index):
            status, _ = request(conn, "GET", "/.well-known/jwks.json")
            assert status == 200

        for name, work in [("POST /auth/refresh (rotation + ES256 access token)", refresh), ("GET /.well-known/jwks.json", jwks)]:
            count, elapsed = measure(port, args.seconds, args.connections, work)
            print(f"{name}: {count} requests in {elapsed:.1f} s over {args.connections} keep-alive connections: "
                  f"{count / elapsed:.0f} requests/s")
    finally:
        server.terminate()
        server.wait(timeout=20)
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
