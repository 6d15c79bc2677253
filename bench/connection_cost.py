"""What one connection costs in resident memory: idle (after one GET /healthz), and part-way
through a 64 KiB body (the head and 60 000 bytes sent, the rest never). Starts the release
binary (or LATCHKEY_BENCH_BINARY) with the body budget raised so that every body is read, opens
`count` connections of each kind from several loopback addresses (32 from each, the per-IP
limit), and reports the growth of VmRSS per connection. Every phase has a deadline.

    python3 bench/connection_cost.py [count]        # count defaults to 256
"""
import os
import pathlib
import socket
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = os.environ.get("LATCHKEY_BENCH_BINARY", str(ROOT / ".build" / "release" / "latchkey"))
PER_ADDRESS = 32


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def connect(port, index):
    connection = socket.socket()
    connection.bind((f"127.0.1.{1 + index // PER_ADDRESS}", 0))
    connection.settimeout(10)
    connection.connect(("127.0.0.1", port))
    return connection


def settle(pid, seconds=1.5):
    time.sleep(seconds)
    return rss_kib(pid)


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = tempfile.mkdtemp(prefix="latchkey-cost-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    env.update(LATCHKEY_LISTEN=f"127.0.0.1:{port}", LATCHKEY_DATA_DIR=data, LATCHKEY_LOG_LEVEL="error",
               LATCHKEY_MAX_BODY_BYTES_IN_FLIGHT=str(2 * count * 65536), LATCHKEY_REQUEST_TIMEOUT="60")
    server = subprocess.Popen([BINARY, "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as warm:
                    warm.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    if warm.recv(16).startswith(b"HTTP/1.1 200"):
                        break
            except OSError:
                time.sleep(0.1)
        for _ in range(20):
            with socket.create_connection(("127.0.0.1", port), timeout=5) as warm:
                body = b'{"email":"warm@example.com"}'
                warm.sendall(b"POST /auth/password/request HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                             b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
                warm.recv(4096)
        base = settle(server.pid)
        idle = []
        for index in range(count):
            connection = connect(port, index)
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            connection.recv(4096)
            idle.append(connection)
        with_idle = settle(server.pid)
        bodies = []
        for index in range(count):
            connection = connect(port, count + index)
            connection.sendall(b"POST /auth/password/request HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                               b"Content-Length: 65536\r\n\r\n" + b" " * 60000)
            bodies.append(connection)
        with_bodies = settle(server.pid)
        print(f"binary: {BINARY}")
        print(f"idle connections: {count}, {(with_idle - base) / count:.1f} KiB each")
        print(f"half-sent 64 KiB bodies: {count}, {(with_bodies - with_idle) / count:.1f} KiB each")
        for connection in idle + bodies:
            connection.close()
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
