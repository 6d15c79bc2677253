#!/usr/bin/env python3
"""One run, one machine: requests/s and latency percentiles of the main endpoints on SQLite
and on PostgreSQL, against a bare libmicrohttpd "hello" server as the ceiling, and the
server's memory (RSS) idle and holding 1000 concurrent connections.

PostgreSQL comes from LATCHKEY_TEST_DATABASE_URL (`make bench` starts one with
scripts/with-postgres.sh); without it only SQLite is measured.

Usage: .venv/bin/python bench/compare.py [--seconds 5] [--connections 4]
"""
import argparse
import http.client
import json
import os
import pathlib
import secrets
import shutil
import socket
import subprocess
import time
import urllib.parse

from harness import ROOT, BenchServer, free_port, percentile, request, throughput
from token_endpoints import REDIRECT, oauth_sign_in


class HelloServer:
    """bench/hello_mhd.c, compiled with the toolchain's clang, on a free port."""

    def __init__(self):
        self.port = free_port()
        self.binary = ROOT / ".build" / "bench-hello-mhd"
        compiler = shutil.which("clang") or shutil.which("cc")
        subprocess.run([compiler, "-O2", "-o", str(self.binary), str(ROOT / "bench" / "hello_mhd.c"), "-lmicrohttpd"],
                       check=True)

    def connect(self):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def __enter__(self):
        self.process = subprocess.Popen([str(self.binary), str(self.port)])
        wait_for_port(self.port)
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=10)


def wait_for_port(port):
    deadline = time.time() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.05)


def rss_kib(pid, field="VmRSS"):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(field + " not found")


def hold_connections(port, count):
    """Opens `count` keep-alive connections that each complete one request; returns the sockets."""
    sockets = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=30)
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n")
        sockets.append(connection)
    for connection in sockets:
        connection.recv(4096)
    return sockets


def postgres_url():
    admin = os.environ.get("LATCHKEY_TEST_DATABASE_URL")
    if not admin:
        return None
    database = "latchkey_bench_" + secrets.token_hex(4)
    subprocess.run(["psql", "-q", "-X", "-d", admin, "-c", f"CREATE DATABASE {database}"], check=True, capture_output=True)
    return urllib.parse.urlunsplit(urllib.parse.urlsplit(admin)._replace(path="/" + database))


def measure_latchkey(label, settings, seconds, connections):
    results = {}
    server = BenchServer(LATCHKEY_RESET_IP_LIMIT="1000000/60", LATCHKEY_ABUSE_WARNING_THRESHOLD="1000000",
                         LATCHKEY_PER_IP_CONNECTIONS="2000", **settings)
    server.create_user("bench@example.com")
    server.cli("clients", "create", "bench-app", "--redirect-uri", REDIRECT, "--first-party")
    with server:
        results["idle RSS (MiB)"] = rss_kib(server.process.pid) / 1024
        chains = [oauth_sign_in(server)["refresh_token"] for _ in range(connections)]
        invalid = "A" * 43

        def validate(conn, index):
            _, status, _ = request(conn, "POST", "/auth/password/validate", {"token": invalid})
            assert status == 400, status

        def reset_request(conn, index):
            _, status, _ = request(conn, "POST", "/auth/password/request", {"email": f"nobody{index}@example.com"})
            assert status == 200, status

        def refresh(conn, index):
            _, status, body = request(conn, "POST", "/oauth/token", form={
                "grant_type": "refresh_token", "refresh_token": chains[index], "client_id": "bench-app"})
            assert status == 200, body
            chains[index] = json.loads(body)["refresh_token"]

        def jwks(conn, index):
            _, status, _ = request(conn, "GET", "/.well-known/jwks.json")
            assert status == 200

        for name, work in [("POST /auth/password/validate", validate), ("POST /auth/password/request", reset_request),
                           ("POST /oauth/token (refresh)", refresh), ("GET /.well-known/jwks.json", jwks)]:
            results[name] = throughput(server, seconds, connections, work)
        held = hold_connections(server.port, 1000)
        results["RSS with 1000 connections (MiB)"] = rss_kib(server.process.pid, "VmHWM") / 1024
        for connection in held:
            connection.close()
    print(f"measured {label}", flush=True)
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--connections", type=int, default=4)
    args = parser.parse_args()

    with HelloServer() as hello:
        def get(conn, index):
            _, status, _ = request(conn, "GET", "/")
            assert status == 200
        ceiling = throughput(hello, args.seconds, args.connections, get)
        hello_idle = rss_kib(hello.process.pid) / 1024
        held = hold_connections(hello.port, 1000)
        hello_held = rss_kib(hello.process.pid, "VmHWM") / 1024
        for connection in held:
            connection.close()

    stores = [("SQLite", {})]
    url = postgres_url()
    if url:
        stores.append(("PostgreSQL", {"LATCHKEY_DATABASE_URL": url}))
    measured = {label: measure_latchkey(label, settings, args.seconds, args.connections) for label, settings in stores}

    def row(name, result):
        count, elapsed, latencies = result
        rate = count / elapsed
        return (f"| {name} | {rate:,.0f} | {percentile(latencies, 0.5) * 1000:.2f} | {percentile(latencies, 0.99) * 1000:.2f} "
                f"| {rate / (ceiling[0] / ceiling[1]):.0%} |")

    print(f"\n{args.connections} keep-alive connections, {args.seconds:.0f} s per endpoint, client and server on the same machine "
          f"({os.cpu_count()} cores)\n")
    print("| endpoint | requests/s | p50 ms | p99 ms | of hello |")
    print("|---|---|---|---|---|")
    print(row("libmicrohttpd hello (ceiling)", ceiling))
    for label, results in measured.items():
        for name, result in results.items():
            if isinstance(result, tuple):
                print(row(f"{label}: {name}", result))
    print("\n| server | idle RSS MiB | peak RSS with 1000 connections MiB |")
    print("|---|---|---|")
    print(f"| libmicrohttpd hello | {hello_idle:.1f} | {hello_held:.1f} |")
    for label, results in measured.items():
        print(f"| Latchkey on {label} | {results['idle RSS (MiB)']:.1f} | {results['RSS with 1000 connections (MiB)']:.1f} |")


if __name__ == "__main__":
    main()
