#!/usr/bin/env python3
"""Measures what an attacker could learn from timing (issue 11, finding 6): POST
/auth/password/request for known and unknown addresses, N requests each (distinct known
accounts, so none is limited per account), interleaved in random order over one keep-alive
connection; reports medians, means, a two-sided Mann-Whitney U test and how often one pair of
requests (one of each, order unknown) is told apart. bench/run.py runs it as one of its
scenarios; bench/login_timing.py uses its statistics.

Runs the release binary on a free loopback port with its own data directory. Usage:
    python3 bench/reset_timing.py [--samples 300]
"""
import argparse
import dataclasses
import math
import random
import statistics
import sys

from harness import BenchServer, request


@dataclasses.dataclass
class TimingResult:
    """Latencies in microseconds, the number of distinct response bodies, the test, and how
    often one pair of requests is classified correctly by guessing that the slower one belongs
    to the group with the higher median (U / (n_known × n_unknown), or its complement; 0.5 is
    chance)."""
    known: list
    unknown: list
    distinct_bodies: int
    z: float
    p: float
    pair_accuracy: float

    @property
    def median_difference(self):
        return statistics.median(self.known) - statistics.median(self.unknown)

    @property
    def verdict(self):
        return "no detectable difference" if self.p >= 0.05 else "DIFFERENCE DETECTED"


def compare(known, unknown, distinct_bodies):
    """The statistics of latencies `known` against `unknown`."""
    u, z, p = mann_whitney(known, unknown)
    known_slower = u / (len(known) * len(unknown))
    accuracy = known_slower if statistics.median(known) >= statistics.median(unknown) else 1 - known_slower
    return TimingResult(known, unknown, distinct_bodies, z, p, accuracy)


def report(title, result):
    """Prints `result` under the heading `title`."""
    k, u = result.known, result.unknown
    print(f"\n## {title}")
    print(f"samples: {len(k)} known, {len(u)} unknown; distinct response bodies: {result.distinct_bodies}")
    print(f"median  known {statistics.median(k):10.1f} µs   unknown {statistics.median(u):10.1f} µs   "
          f"difference {result.median_difference:+.1f} µs")
    print(f"mean    known {statistics.mean(k):10.1f} µs   unknown {statistics.mean(u):10.1f} µs")
    print(f"Mann-Whitney U: z = {result.z:+.2f}, two-sided p = {result.p:.3g} ({result.verdict} at α = 0.05)")
    print(f"one pair of requests told apart: {result.pair_accuracy:.1%} of the time (50 % is chance)")


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


def create_accounts(server, samples):
    """Creates `samples` accounts (before the server starts); returns their addresses."""
    print(f"creating {samples} accounts ...", file=sys.stderr)
    known = [f"bench{i}@example.com" for i in range(samples)]
    for address in known:
        server.create_user(address)
    return known


def measure(server, known):
    """Times reset requests for the `known` addresses and as many unknown ones, shuffled."""
    unknown = [f"nobody{i}@example.com" for i in range(len(known))]
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
    connection.close()
    return compare(timings["known"], timings["unknown"], len(bodies))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()

    server = BenchServer()
    known = create_accounts(server, args.samples)
    with server:
        result = measure(server, known)
    report("POST /auth/password/request: known vs unknown address", result)


if __name__ == "__main__":
    main()
