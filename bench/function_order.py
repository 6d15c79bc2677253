#!/usr/bin/env python3
"""Writes bench/latchkey.order: the functions of the release binary that `latchkey serve`
runs, in the order the release link lays them out (lld's --symbol-ordering-file, read by
scripts/build-release.sh).

Why: the linker otherwise keeps each object's code where the archive order puts it, so the
0.9 MiB of functions a server runs by the time it idles lie scattered over 16 MiB of code,
and the kernel, which maps a file's cached pages 64 KiB around each fault, made 9.4 MiB of
it resident. Laid out together: 4.6 MiB. Most of what remains is the toolchain's objects
(the standard library, Foundation), which are compiled with one code section per object,
so the linker can move them only whole; ours are compiled with a section per function
(scripts/build-release.sh).

How: the server runs under valgrind's callgrind (every function that executes is counted)
with a fresh data directory. It starts and idles (its background jobs run), and callgrind
writes that part; it answers the routes `make bench` measures, 20 rounds on one connection,
and that part is written; then it stops. The order: what ran by the time it idled (in the
dump's order), then what only requests ran (most instructions first), then what only the
stop ran. Names defined more than once in the binary (local helpers the compiler emits in
many objects) are left out: each would pull every object defining it to the front.

Run `make function-order` (it relinks) after changes that move much code: a toolchain
update, large new features. A name that no longer exists is skipped by the linker, so a
stale file costs memory, never correctness.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

import harness
from harness import BenchServer, request

ORDER_FILE = harness.ROOT / "bench" / "latchkey.order"
IDLE_SECONDS = 3
START_TIMEOUT = 180


def function_costs(callgrind_file, binary):
    """The functions of `binary` that the callgrind dump `callgrind_file` counted, each with the
    instructions it ran itself (not in its callees). The dump's names are compressed: `fn=(7)
    name` defines 7, `fn=(7)` reuses it (a name may first appear in a call, `cob=`/`cfn=`); a
    function belongs to the object of the `ob=` line before it; a cost line after `calls=` is
    the call's cost, not the caller's."""
    names = {"ob": {}, "fn": {}}
    costs, current_object, current, call_cost_next = {}, None, None, False
    for line in callgrind_file.read_text(errors="replace").splitlines():
        match = re.match(r"^(c?)(ob|fn)=\((\d+)\)(?: (.*))?$", line)
        if match:
            called, kind, number, name = match.groups()
            if name is None:
                name = names[kind].get(number)
            else:
                names[kind][number] = name
            if called:
                continue
            if kind == "ob":
                current_object = name
            else:
                current = name if current_object == binary else None
                if current is not None:
                    costs.setdefault(current, 0)
        elif line.startswith("calls="):
            call_cost_next = True
        elif line[:1].isdigit() or line[:1] in "+-*":
            if call_cost_next:
                call_cost_next = False
            elif current is not None:
                fields = line.split()
                costs[current] += int(fields[1]) if len(fields) > 1 else 0
    return costs


def defined_once(binary):
    """The code symbols defined exactly once in `binary`'s symbol table."""
    counts = {}
    listing = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        fields = line.split(" ", 2)
        if len(fields) == 3 and fields[1] in "tTwW":
            counts[fields[2]] = counts.get(fields[2], 0) + 1
    return {name for name, count in counts.items() if count == 1}


def dump(server, label):
    """Makes callgrind write what it counted so far to a part file of its own, and start over."""
    subprocess.run(["callgrind_control", f"--dump={label}", str(server.process.pid)], check=True,
                   capture_output=True)


def serve_requests(server, rounds=20):
    """The routes a deployment serves most (those `make bench` measures), `rounds` times each,
    on one kept-alive connection as a load balancer's would be."""
    conn = server.connect(timeout=120)
    clients = [harness.RouteClient(server, route, conn) for route in harness.RouteClient.ROUTES]
    for round in range(rounds):
        for path in ("/healthz", "/.well-known/jwks.json", "/.well-known/openid-configuration"):
            _, status, body = request(conn, "GET", path)
            assert status == 200, (path, status, body)
        for client in clients:
            client.send()
    conn.close()


def main():
    if shutil.which("valgrind") is None:
        sys.exit("function_order.py: valgrind is missing (bench/setup.sh installs it)")
    binary = os.path.realpath(harness.BINARY)
    dumps = pathlib.Path(tempfile.mkdtemp(prefix="latchkey-callgrind-"))
    wrapper = ["valgrind", "--tool=callgrind", "--dump-instr=no", "--demangle=no",
               f"--callgrind-out-file={dumps}/callgrind.out"]
    server = BenchServer(wrapper=wrapper, start_timeout=START_TIMEOUT, LATCHKEY_LOG_LEVEL="error")
    server.create_user(harness.EMAIL)
    server.create_oauth_client()
    with server:
        print(f"function_order.py: started under callgrind; idling {IDLE_SECONDS} s", file=sys.stderr)
        time.sleep(IDLE_SECONDS)
        dump(server, "1-start-up")
        print("function_order.py: serving requests", file=sys.stderr)
        serve_requests(server)
        dump(server, "2-requests")
    parts = {path.name.split(".")[-1]: path for path in dumps.glob("callgrind.out*")}
    if len(parts) != 3:
        sys.exit(f"function_order.py: expected three callgrind dumps, found {sorted(parts)}")
    start_up, requests = (function_costs(parts[key], binary) for key in ("1", "2"))
    stop = function_costs(next(path for key, path in parts.items() if key not in ("1", "2")), binary)
    once = defined_once(binary)
    # What an idle server has run comes first, so it lies together (in the dump's order: laid
    # out by heat instead, the idle server was 0.6 MiB larger and no faster); then the code
    # only requests ran, hottest first; then what only the stop ran.
    order = list(start_up)
    order += sorted((name for name in requests if name not in start_up), key=lambda name: -requests[name])
    order += [name for name in stop if name not in requests and name not in start_up]
    order = [name for name in order if name in once]
    shutil.rmtree(dumps)
    header = ("# Written by bench/function_order.py (make function-order): the functions `latchkey serve`\n"
              "# runs: what an idle server has run first, then what only requests ran (hottest first),\n"
              "# then what only the stop ran;\n"
              "# scripts/build-release.sh links them first, in this order.\n")
    ORDER_FILE.write_text(header + "\n".join(order) + "\n")
    print(f"function_order.py: {len(order)} functions -> {ORDER_FILE.relative_to(harness.ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
