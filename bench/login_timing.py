#!/usr/bin/env python3
"""Measures whether the time of a failed POST /auth/login tells known from unknown addresses
(issue 11, finding 5), at the Argon2 parameters a deployment may run with. bench/run.py runs
it as one of its scenarios.

In each scenario the accounts are created with one Argon2 configuration and the server runs
with another, as after raising the settings or importing stronger hashes:

  default          accounts and server at the defaults (19456 KiB, 2 iterations)
  raised           accounts at the defaults, server at LATCHKEY_ARGON2_MEMORY_KIB=65536
                   LATCHKEY_ARGON2_ITERATIONS=3 (settings raised after the accounts existed)
  raised-all       accounts and server at 65536 KiB, 3 iterations
  stronger-stored  accounts at 65536 KiB, 3 iterations (e.g. imported), server at the defaults

Each sample is one wrong password, for a distinct known account or a distinct unknown
address, from a loopback source address of its own (127.1.x.y) on a fresh connection, so no
rate limit of any kind is reached; known and unknown are interleaved in random order and
timed from the request to the end of the response (not the connect). Prints medians, a
two-sided Mann-Whitney U test and how often one pair of requests is told apart.

Usage: python3 bench/login_timing.py [--samples 60] [--scenario NAME ...]
"""
import argparse
import ipaddress
import random
import sys

from harness import BenchServer, request
from reset_timing import compare, report

DEFAULT = {"LATCHKEY_ARGON2_MEMORY_KIB": "19456", "LATCHKEY_ARGON2_ITERATIONS": "2"}
RAISED = {"LATCHKEY_ARGON2_MEMORY_KIB": "65536", "LATCHKEY_ARGON2_ITERATIONS": "3"}
SCENARIOS = {
    "default": (DEFAULT, DEFAULT),
    "raised": (DEFAULT, RAISED),
    "raised-all": (RAISED, RAISED),
    "stronger-stored": (RAISED, DEFAULT),
}


def describe(name):
    """`accounts at m=… KiB, t=…, server at m=… KiB, t=…` for scenario `name`."""
    created, served = (f"m={settings['LATCHKEY_ARGON2_MEMORY_KIB']} KiB, t={settings['LATCHKEY_ARGON2_ITERATIONS']}"
                       for settings in SCENARIOS[name])
    return f"accounts at {created}, server at {served}"


def measure(name, samples, cpu=None):
    """Times failed logins for `samples` known accounts and as many unknown addresses in
    scenario `name`; returns a reset_timing.TimingResult."""
    created_with, served_with = SCENARIOS[name]
    server = BenchServer(cpu, **created_with)
    known = [f"bench{i}@example.com" for i in range(samples)]
    unknown = [f"nobody{i}@example.com" for i in range(samples)]
    print(f"{name}: creating {samples} accounts ...", file=sys.stderr)
    for address in known:
        server.create_user(address)
    server.env.update(served_with)

    work = [("warm-up", f"warmup{i}@example.com") for i in range(5)]
    shuffled = [("known", a) for a in known] + [("unknown", a) for a in unknown]
    random.shuffle(shuffled)
    timings = {"known": [], "unknown": [], "warm-up": []}
    bodies = set()
    with server:
        for index, (kind, address) in enumerate(work + shuffled):
            connection = server.connect(source=str(ipaddress.IPv4Address("127.1.0.1") + index))
            connection.connect()
            elapsed, status, body = request(connection, "POST", "/auth/login",
                                            {"email": address, "password": "not the password"})
            connection.close()
            assert status == 401, f"{kind} {address}: {status} (a limit was reached; the sample is spoilt)"
            bodies.add(body)
            timings[kind].append(elapsed * 1e6)
    return compare(timings["known"], timings["unknown"], len(bodies))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--scenario", action="append", choices=list(SCENARIOS))
    args = parser.parse_args()
    for name in args.scenario or list(SCENARIOS):
        report(f"POST /auth/login, wrong password, {name}: {describe(name)}", measure(name, args.samples))


if __name__ == "__main__":
    main()
