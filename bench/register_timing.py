#!/usr/bin/env python3
"""Measures what an attacker could learn from timing at sign-up: POST /users/register for
addresses that have an account and addresses that do not, N requests each (distinct
addresses, so none meets the per-address limit), interleaved in random order over one
keep-alive connection; reports medians, means, a two-sided Mann-Whitney U test and how often
one pair of requests (one of each, order unknown) is told apart, as bench/reset_timing.py does
for the reset request. bench/run.py runs it as its `register-timing` scenario.

Runs the release binary on a free loopback port with its own data directory and sign-up open.
Usage:
    python3 bench/register_timing.py [--samples 200]
"""
import argparse
import random

import reset_timing
from harness import BenchServer, request

PASSWORD = "violet tractor quietly juggles mountains"


def server(cpu=None):
    """A bench server with sign-up open (and, as every bench server, no client limits)."""
    return BenchServer(cpu, LATCHKEY_REGISTRATION="open")


def measure(server, known):
    """Times sign-ups for the `known` addresses (which have accounts) and as many new ones, shuffled."""
    unknown = [f"newcomer{i}@example.com" for i in range(len(known))]
    connection = server.connect()
    for i in range(10):  # warm-up
        request(connection, "POST", "/users/register", {"email": f"warmup{i}@example.com", "password": PASSWORD})
    work = [("known", a) for a in known] + [("unknown", a) for a in unknown]
    random.shuffle(work)
    timings = {"known": [], "unknown": []}
    bodies = set()
    for kind, address in work:
        elapsed, status, body = request(connection, "POST", "/users/register", {"email": address, "password": PASSWORD})
        assert status == 204, status
        bodies.add(body)
        timings[kind].append(elapsed * 1e6)
    connection.close()
    return reset_timing.compare(timings["known"], timings["unknown"], len(bodies))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()

    bench = server()
    known = reset_timing.create_accounts(bench, args.samples)
    with bench:
        result = measure(bench, known)
    reset_timing.report("POST /users/register: address with an account vs without", result)


if __name__ == "__main__":
    main()
