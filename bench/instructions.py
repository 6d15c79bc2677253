#!/usr/bin/env python3
"""`make instructions`: the instructions the release binary runs per request on the routes
`make bench` measures, counted by valgrind's callgrind. A deterministic yardstick for a change
too small for req/s to show: on the 2-core VMs the throughput of one binary moves by 6 % and
more between runs, and hardware counters are not available; these counts repeat to within
about 1 %.

How: the server runs under callgrind with a fresh data directory; for each route, 200 requests
warm it up on one kept-alive connection, the counters are zeroed (`callgrind_control -z`), the
route is requested `--requests` times, and what callgrind counted is written
(`callgrind_control -d`). A count is for every thread, user space only (not the kernel's
sockets and files), and includes the background work the requests cause while they run (the
reset request's processing, the idle-time ES256 nonces that tokens use): callgrind runs one
thread at a time, so that work keeps up, as it does on a server with idle time. Not the
throughput under load: the database's group commit gathers nothing, one request at a time.

Usage: python3 bench/instructions.py [--routes validate,request,refresh,grant,healthz] [--requests 1000];
LATCHKEY_BENCH_BINARY compares another build. The four routes take about two minutes.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

import harness
from harness import BenchServer, RouteClient

ROUTES = RouteClient.ROUTES
WARM_UP = 200
START_TIMEOUT = 180


def callgrind(server, *arguments):
    subprocess.run(["callgrind_control", *arguments, str(server.process.pid)], check=True, capture_output=True)


def counted(dumps, label):
    """The instructions in the part file callgrind wrote for the dump labelled `label`."""
    for path in glob.glob(os.path.join(dumps, "callgrind.out*")):
        with open(path, errors="replace") as file:
            lines = file.read().splitlines()
        if f"desc: Trigger: dump {label}" in lines:
            return next(int(line.split()[1]) for line in lines if line.startswith("summary:"))
    raise RuntimeError(f"no callgrind dump labelled {label} in {dumps}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--routes", default=",".join(ROUTES), help=f"comma-separated, of {', '.join(ROUTES)}")
    parser.add_argument("--requests", type=int, default=1000, help="counted per route (default 1000)")
    args = parser.parse_args()
    routes = [route for route in args.routes.split(",") if route]
    if unknown := [route for route in routes if route not in ROUTES]:
        sys.exit(f"instructions.py: unknown routes {unknown}; known: {', '.join(ROUTES)}")
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py: valgrind is missing (bench/setup.sh valgrind installs it)")
    dumps = tempfile.mkdtemp(prefix="latchkey-instructions-")
    wrapper = ["valgrind", "--tool=callgrind", "--dump-instr=no", f"--callgrind-out-file={dumps}/callgrind.out"]
    server = BenchServer(wrapper=wrapper, start_timeout=START_TIMEOUT, LATCHKEY_PER_IP_CONNECTIONS="128",
                         LATCHKEY_LOGIN_IP_LIMIT="1000000/1")
    server.create_user(harness.EMAIL)
    server.create_oauth_client()
    rows = []
    with server:
        for route in routes:
            print(f"instructions.py: {route}", file=sys.stderr)
            client = RouteClient(server, route, server.connect(timeout=120))
            for _ in range(WARM_UP):
                client.send()
            callgrind(server, "-z")
            for _ in range(args.requests):
                client.send()
            # The responses are in; what the requests left to the background finishes meanwhile.
            time.sleep(1)
            callgrind(server, f"--dump={route}")
            client.conn.close()
            rows.append((route, counted(dumps, route) / args.requests))
    shutil.rmtree(dumps, ignore_errors=True)
    print(f"| route ({args.requests} requests each, {harness.BINARY}) | instructions per request |")
    print("|---|---|")
    for route, count in rows:
        print(f"| {route} | {count:,.0f} |")


if __name__ == "__main__":
    main()
