#!/usr/bin/env python3
"""Measures what an attacker could learn from timing, and how fast validation is.

1. Known vs unknown addresses on POST /auth/password/request: N requests each (distinct
   known accounts, so none is limited per account), interleaved in random order over
   keep-alive connections; reports medians, means and a two-sided Mann-Whitney U test.
2. POST /auth/password/validate with a valid token: requests per second over a fixed time
   with several keep-alive connections.

Runs the release binary on a free loopback port with its own data directory. Usage:
    .venv/bin/python bench/reset_timing.py [--samples 300] [--seconds 10] [--connections 4]
"""
import argparse
import math
import random
import re
import statistics
import sys
import time

from harness import BenchServer, request, throughput


def mann_whitney(a, b):
    """Two-sided Mann-Whitney U test with normal approximation and tie correction."""
    combined = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    ranks = [0.0] * len(combined)
    i = 0
    ties = 0.0
    while i < len(combined):
        j = i
        while j + 1 < len(combined) and combined[j + 1][0] == combined[i][0]:
            j += 1
        rank = (i + j) / 2 + 1
        for k in range(i, j + 1):
            ranks[k] = rank
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    n1, n2 = len(a), len(b)
    r1 = sum(r for r, (_, group) in zip(ranks, combined) if group == 0)
    u1 = r1 - n1 * (n1 + 1) / 2
    mu = n1 * n2 / 2
    n = n1 + n2
    sigma = math.sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    z = (u1 - mu) / sigma if sigma else 0.0
    p = math.erfc(abs(z) / math.sqrt(2))
    return u1, z, p


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=4)
    args = parser.parse_args()

    server = BenchServer(LATCHKEY_RESET_IP_LIMIT="1000000/60", LATCHKEY_ABUSE_WARNING_THRESHOLD="1000000")
    known = [f"bench{i}@example.com" for i in range(args.samples)]
    unknown = [f"nobody{i}@example.com" for i in range(args.samples)]
    print(f"creating {len(known)} accounts ...", file=sys.stderr)
    for address in known:
        server.create_user(address)

    with server:
        connection = server.connect()
        for i in range(20):  # warm-up
            request(connection, "POST", "/auth/password/request", {"email": f"warmup{i}@example.com"})
        work = [("known", a) for a in known] + [("unknown", a) for a in unknown]
        random.shuffle(work)
        timings = {"known": [], "unknown": []}
        bodies = set()
        for kind, address in work:
            elapsed, status, body = request(connection, "POST", "/auth/password/request", {"email": address})
            assert status == 200, status
            bodies.add(body)
            timings[kind].append(elapsed * 1e6)

        k, u = timings["known"], timings["unknown"]
        _, z, p = mann_whitney(k, u)
        print("\n## POST /auth/password/request: known vs unknown address")
        print(f"samples: {len(k)} known, {len(u)} unknown; distinct response bodies: {len(bodies)}")
        print(f"median  known {statistics.median(k):8.1f} µs   unknown {statistics.median(u):8.1f} µs   "
              f"difference {statistics.median(k) - statistics.median(u):+.1f} µs")
        print(f"mean    known {statistics.mean(k):8.1f} µs   unknown {statistics.mean(u):8.1f} µs")
        print(f"Mann-Whitney U: z = {z:+.2f}, two-sided p = {p:.3f} "
              f"({'no detectable difference' if p >= 0.05 else 'DIFFERENCE DETECTED'} at α = 0.05)")

        # A valid token for the validate benchmark, read from the .eml outbox.
        token = None
        deadline = time.time() + 30
        while token is None and time.time() < deadline:
            for path in (server.data_dir / "outbox").glob("*.eml"):
                text = path.read_text(errors="replace").replace("=\n", "").replace("=3D", "=")
                match = re.search(r"#token=([A-Za-z0-9_-]{43})", text)
                if match:
                    token = match.group(1)
                    break
            time.sleep(0.1)
        assert token, "no reset mail found"

        def validate(conn, index):
            _, status, _ = request(conn, "POST", "/auth/password/validate", {"token": token})
            assert status == 200, status

        count, elapsed, _ = throughput(server, args.seconds, args.connections, validate)
        print("\n## POST /auth/password/validate (valid token)")
        print(f"{count} requests in {elapsed:.1f} s over {args.connections} keep-alive connections: "
              f"{count / elapsed:.0f} requests/s (client and server share this machine's cores)")


if __name__ == "__main__":
    main()
