#!/usr/bin/env python3
"""`make bench`: every benchmark of Latchkey in one run, printed as Markdown tables.

The server under test runs pinned to one CPU (`taskset -c 0`), the load generator and this
script to another (`taskset -c 1`), and the bare libmicrohttpd "hello" (bench/hello_mhd.c)
is measured in the same run as the ceiling: epoll with one thread, and thread per
connection for reference, at the start; and the epoll one again right before each route,
whose share is of that ceiling beside it (the machine's speed drifts during a run). Scenarios, each on a fresh server with its own data directory
(SQLite), each bounded in time:

  routes   req/s, p50 and p99 of each route with wrk -t1 -c32 (Lua scripts in bench/wrk/:
           POST bodies, a new address per reset request, refresh-token rotation chains),
           its share of the ceiling, and the server's RSS right after start; this server
           allows 4 × the connections per IP (the per-IP cap is not what is measured)
  flood    200 clients sending POST /auth/login with the right password: peak RSS,
           logins/s, how each attempt was answered, the worst latency, and the p99 of
           POST /auth/password/validate during the flood against before it
  idle     10 000 connections from several loopback addresses, held open: accepted or
           refused, RSS and threads, fresh requests while they stay open; and a request
           head dripped one line every few seconds: when the server closes it
  timing   known vs unknown address on POST /auth/password/request (bench/reset_timing.py):
           300 samples each, measured again on a fresh server when p < 0.05, and the second
           measurement decides (one test of twenty lands below 0.05 by chance)
  register-timing  address with an account vs without on POST /users/register
           (bench/register_timing.py): 200 samples each, measured again on a fresh server when
           p < 0.05, and the second measurement decides
  login-timing  known vs unknown address on a failed POST /auth/login, at default and raised
           Argon2 settings and with stored hashes weaker or stronger than the configured ones
           (bench/login_timing.py): 60 samples each, and a mix with p < 0.05 measured again
           with 300, which decides (at 60, one of the four often lands below 0.05 by chance)

Usage: python3 bench/run.py [--only routes,flood] [--seconds 10] ... (see --help), or
`make bench BENCH_ARGS="..."`; only the standard library is needed. With --postgres the routes are measured on PostgreSQL too, in a fresh database on the
server at LATCHKEY_TEST_DATABASE_URL (scripts/with-postgres.sh starts one; PostgreSQL itself
is not pinned). The tables are also written to .build/bench/report.md.
"""
import argparse
import base64
import datetime
import json
import os
import platform
import secrets
import subprocess
import sys
import time
import traceback
import urllib.parse

import flood
import idle_connections
import login_timing
import register_timing
import reset_timing
from harness import EMAIL, OAUTH_CLIENT, ROOT, BenchServer, percentile, request
from loadgen import HelloServer, run_wrk

SCENARIOS = ("routes", "flood", "idle", "timing", "register-timing", "login-timing")


def progress(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def secret_file(directory, name, text):
    """Writes `text` to a file only this user can read (created 0600 before the first byte)."""
    path = directory / name
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(text)
    return path


def fixed_request(directory, name, headers, body):
    """The file bench/wrk/fixed_request.lua sends: header lines, a blank line, the body."""
    return secret_file(directory, name, "".join(f"{key}: {value}\n" for key, value in headers.items()) + "\n" + body)


def validate_request(server):
    """A POST /auth/password/validate request for fixed_request.lua, with a valid token."""
    return fixed_request(server.data_dir, "validate.request", {"Content-Type": "application/json"},
                         json.dumps({"token": server.reset_token()}))


def ceiling(args):
    """The bare libmicrohttpd "hello" in both modes; returns rows (label, WrkResult, no target,
    no ceiling beside it)."""
    HelloServer.build()
    rows = []
    for mode, label in [("epoll", 'bare libmicrohttpd "hello", epoll, 1 thread (the ceiling)'),
                        ("thread", 'bare libmicrohttpd "hello", thread per connection')]:
        progress(f"hello_mhd {mode}")
        rows.append((label, hello(args, mode), None, None))
    return rows


def hello(args, mode="epoll"):
    """The bare libmicrohttpd "hello" (built by HelloServer.build()) in `mode`, measured as a route is."""
    with HelloServer(mode, args.server_cpu) as server:
        return run_wrk(server.base + "/", args.seconds, args.connections, args.client_cpu, threads=args.threads)


def routes(args, store, settings):
    """Each route on one fresh server, each right after the epoll "hello" (the ceiling beside
    it, which its share is of: the machine's speed drifts over a run, by a tenth and more
    between the first ceiling and the last route); returns (rows (label, WrkResult, target,
    ceiling beside it), idle RSS)."""
    HelloServer.build()
    # Each refresh chain starts with a sign-in from this one address, for one account: more
    # than the sign-in limit allows, and more live logins than an account keeps by default
    # (beyond it the oldest chains would be ended, and their rotations fail).
    server = BenchServer(args.server_cpu, LATCHKEY_PER_IP_CONNECTIONS=str(max(32, 4 * args.connections)),
                         LATCHKEY_LOGIN_IP_LIMIT="1000000/1", LATCHKEY_MAX_SESSIONS_PER_ACCOUNT="100000", **settings)
    server.create_user(EMAIL)
    server.create_oauth_client()
    introspector = "bench-api"
    introspector_secret = server.create_confidential_client(introspector)
    with server:
        time.sleep(1)
        idle_rss = server.memory.rss_mib()
        chains = 2 * args.connections
        progress(f"{store}: {chains} sign-ins for each refresh route")
        directus = [server.directus_login() for _ in range(chains)]
        oauth = [server.oauth_sign_in()["refresh_token"] for _ in range(chains)]
        validate = validate_request(server)
        basic = {"Authorization": "Basic " + base64.b64encode(f"{introspector}:{introspector_secret}".encode()).decode()}
        access_token = {"token": server.oauth_sign_in()["access_token"]}
        conn = server.connect()
        _, status, body = request(conn, "POST", "/oauth/introspect", form=access_token, headers=basic)
        conn.close()
        assert status == 200 and json.loads(body)["active"], body
        introspect = fixed_request(server.data_dir, "introspect.request",
                                   {"Content-Type": "application/x-www-form-urlencoded", **basic},
                                   urllib.parse.urlencode(access_token))
        directus_chains = secret_file(server.data_dir, "directus-chains", "".join(t + "\n" for t in directus))
        oauth_chains = secret_file(server.data_dir, "oauth-chains", "".join(t + "\n" for t in oauth))
        plan = [
            ("GET /healthz", "/healthz", "report.lua", [], (0.5, None)),
            ("GET /.well-known/jwks.json", "/.well-known/jwks.json", "report.lua", [], (0.5, None)),
            ("POST /auth/password/validate (valid token)", "/auth/password/validate", "fixed_request.lua", [validate],
             (0.25, None)),
            ("POST /auth/refresh (rotation chains)", "/auth/refresh", "rotate.lua",
             [directus_chains, args.threads, "directus"], (0.05, 5)),
            ("POST /oauth/token (refresh grant, rotation chains)", "/oauth/token", "rotate.lua",
             [oauth_chains, args.threads, "oauth", OAUTH_CLIENT], (0.05, 5)),
            ("POST /oauth/introspect (access token, client secret)", "/oauth/introspect", "fixed_request.lua",
             [introspect], None),
            # Last: each request queues work the server's background worker does afterwards.
            ("POST /auth/password/request (a new address each)", "/auth/password/request", "password_request.lua", [],
             (0.25, None)),
        ]
        rows = []
        for label, path, script, script_args, target in plan:
            progress(f"{store}: the ceiling beside {label}")
            beside = hello(args)
            progress(f"{store}: {label}")
            result = run_wrk(server.base + path, args.seconds, args.connections, args.client_cpu, script, script_args,
                             threads=args.threads)
            # The targets are set for SQLite.
            rows.append((label, result, target, beside) if store == "SQLite"
                        else (f"{store}: {label}", result, None, beside))
    return rows, idle_rss


def postgres_settings():
    """A fresh database on the server at LATCHKEY_TEST_DATABASE_URL, as server settings."""
    admin = os.environ.get("LATCHKEY_TEST_DATABASE_URL")
    if not admin:
        sys.exit("--postgres needs LATCHKEY_TEST_DATABASE_URL (run under scripts/with-postgres.sh)")
    database = "latchkey_bench_" + secrets.token_hex(4)
    subprocess.run(["psql", "-q", "-X", "-d", admin, "-c", f"CREATE DATABASE {database}"], check=True,
                   capture_output=True)
    return {"LATCHKEY_DATABASE_URL": urllib.parse.urlunsplit(urllib.parse.urlsplit(admin)._replace(path="/" + database))}


def run_flood(args):
    server = BenchServer(args.server_cpu)
    server.create_user(EMAIL)
    with server:
        probe = validate_request(server)
        progress(f"login flood: {args.flood_clients} clients for {args.flood_seconds:g} s "
                 f"(after {args.flood_seconds:g} s of the idle /validate probe)")
        return flood.login_flood(server, args.flood_clients, args.flood_seconds, args.per_address, args.flood_timeout,
                                 args.request_deadline, (args.probe_connections, probe), args.client_cpu)


def run_idle(args, connections):
    # Room for the held connections, the drip and the fresh probes beside them.
    server = BenchServer(args.server_cpu, LATCHKEY_MAX_CONNECTIONS=str(connections + 100))
    with server:
        drip = idle_connections.Drip(server.port, args.drip_interval, args.drip_seconds)
        drip.start()
        drip.connected.wait()
        progress(f"idle connections: opening {connections} (and a dripped request head for up to "
                 f"{args.drip_seconds:g} s)")
        held = idle_connections.idle_connections(server, connections, args.per_address, args.open_seconds,
                                                 args.hold_seconds)
        progress("idle connections: waiting for the drip to end")
        drip.join()
    return held, drip.result


def run_timing(args):
    """(the TimingResult, that of the second measurement or None): a first measurement that
    differs (p < 0.05) is repeated on a fresh server, and the second decides."""
    def measure():
        server = BenchServer(args.server_cpu)
        known = reset_timing.create_accounts(server, args.timing_samples)
        with server:
            progress(f"timing: {len(known)} known and {len(known)} unknown addresses")
            return reset_timing.measure(server, known)
    first = measure()
    if first.p >= 0.05:
        return first, None
    progress(f"timing: p = {first.p:.3f}, measured again")
    return first, measure()


def run_register_timing(args):
    """(the TimingResult of sign-ups, that of the second measurement or None), as run_timing."""
    def measure():
        server = register_timing.server(args.server_cpu)
        known = reset_timing.create_accounts(server, args.register_timing_samples)
        with server:
            progress(f"register timing: {len(known)} addresses with an account and {len(known)} without")
            return register_timing.measure(server, known)
    first = measure()
    if first.p >= 0.05:
        return first, None
    progress(f"register timing: p = {first.p:.3f}, measured again")
    return first, measure()


def run_login_timing(args):
    """Rows (scenario name, TimingResult, TimingResult of the second measurement or None) for
    every login_timing scenario. A scenario whose first measurement differs (p < 0.05) is
    measured again, independently, with --login-confirm-samples each; that one decides."""
    rows = []
    for name in login_timing.SCENARIOS:
        progress(f"login timing {name}: {args.login_timing_samples} known and unknown addresses")
        first = login_timing.measure(name, args.login_timing_samples, args.server_cpu)
        second = None
        if first.p < 0.05 and args.login_confirm_samples > 0:
            progress(f"login timing {name}: p = {first.p:.3f}, again with {args.login_confirm_samples} each")
            second = login_timing.measure(name, args.login_confirm_samples, args.server_cpu)
        rows.append((name, first, second))
    return rows


# Formatting -------------------------------------------------------------------------------

def mib(value):
    return f"{value / 1024:.2f} GiB" if value >= 1024 else f"{value:.1f} MiB"


def mark(met):
    return "✓" if met else "✗"


def counts(outcomes):
    return ", ".join(f"{count:,} {name}" for name, count in sorted(outcomes.items(), key=lambda item: -item[1])) or "none"


def route_table(ceiling_rows, route_rows, args):
    """A route's share is of the ceiling measured beside it (the first ceiling's share is in
    parentheses, for runs before ceilings were measured beside each route)."""
    ceiling_rate = ceiling_rows[0][1].rate if ceiling_rows else None
    lines = ["| what | req/s | p50 ms | p99 ms | ceiling beside it, req/s | share of the ceiling (of the first) | errors | target |",
             "|---|---|---|---|---|---|---|---|"]
    for label, result, target, beside in ceiling_rows + route_rows:
        share = result.rate / beside.rate if beside else result.rate / ceiling_rate if ceiling_rate else None
        first = f" ({result.rate / ceiling_rate:.3f})" if beside and ceiling_rate else ""
        goal = ""
        if target:
            minimum, tail = target
            goal = f"≥ {minimum:.2f}"
            met = share is None or share >= minimum
            if tail:
                goal += f", p99 ≤ {tail} × p50"
                met = met and result.p99_ms <= tail * result.p50_ms
            goal += " " + mark(met and result.errors == 0)
        errors = f"{result.errors:,}" + (f" ({result.starved:,} without a chain)" if result.starved else "")
        lines.append(f"| {label} | {result.rate:,.0f} | {result.p50_ms:.2f} | {result.p99_ms:.2f} | "
                     f"{f'{beside.rate:,.0f}' if beside else ''} | {'' if share is None else f'{share:.3f}'}{first} | "
                     f"{errors} | {goal} |")
    return lines


def timing_row(what, timing, verdict=None):
    """A timing row; `verdict` replaces the target cell's mark (a measurement a later one decides)."""
    met = mark(timing.p >= 0.05 and timing.distinct_bodies == 1)
    return (f"| {what} ({len(timing.known)} each) | "
            f"median difference {timing.median_difference:+.1f} µs, Mann-Whitney z = {timing.z:+.2f}, "
            f"p = {timing.p:.3f}, one pair told apart {timing.pair_accuracy:.0%}; distinct bodies: "
            f"{timing.distinct_bodies} | no detectable difference (p ≥ 0.05), one body {verdict or met} |")


def scenario_table(args, idle_rss, flooded, idle, drip, timing, register_timings, login_timings):
    lines = ["| scenario | measured | target |", "|---|---|---|"]
    if idle_rss is not None:
        lines.append(f"| idle RSS after start | {mib(idle_rss)} | ≤ 25 MiB {mark(idle_rss <= 25)} |")
    if flooded:
        answered_well = not flooded.other and flooded.late == 0
        lines.append(
            f"| login flood: {flooded.clients} clients sending POST /auth/login (right password) for "
            f"{args.flood_seconds:g} s | peak RSS {mib(flooded.peak_rss_mib)} ({mib(flooded.rss_after_mib)} after); "
            f"{flooded.logins_per_second:,.1f} logins/s; {flooded.succeeded:,} × 200, "
            f"{flooded.busy_with_retry_after:,} × 503 with Retry-After, other: {counts(flooded.other)}; "
            f"worst {flooded.worst_seconds:.1f} s, {flooded.late:,} answered after {args.request_deadline:g} s "
            f"| peak RSS ≤ 300 MiB {mark(flooded.peak_rss_mib <= 300)}; every attempt 200 or 503 with "
            f"Retry-After within {args.request_deadline:g} s {mark(answered_well)} |")
        idle_p99, during = flooded.validate_idle.p99_ms, flooded.validate_during
        if during:
            ratio = during.p99_ms / idle_p99 if idle_p99 else float("inf")
            errors = f", {during.errors:,} errors" if during.errors else ""
            lines.append(
                f"| POST /auth/password/validate p99 during the flood (wrk -c{args.probe_connections}) | "
                f"{during.p99_ms:,.1f} ms, {during.rate:,.0f} req/s{errors} (before the flood {idle_p99:,.1f} ms, "
                f"{flooded.validate_idle.rate:,.0f} req/s: × {ratio:,.1f}) "
                f"| ≤ 5 × before {mark(ratio <= 5 and during.requests > 0 and during.errors == 0)} |")
        else:
            lines.append("| POST /auth/password/validate p99 during the flood | the probe failed (see stderr) | ✗ |")
    if idle:
        held = idle.opened.get("answered 200", 0)
        addresses = -(-idle.wanted // args.per_address)
        lines.append(
            f"| {idle.wanted:,} idle connections ({args.per_address} from each of {addresses} loopback addresses), "
            f"held {args.hold_seconds:g} s | {counts(idle.opened)}; {idle.still_open:,} still open at the end; "
            f"RSS {mib(idle.rss_mib)}, {idle.threads:,} threads "
            f"| all held with RSS ≤ 200 MiB {mark(held == idle.wanted == idle.still_open and idle.rss_mib <= 200)} |")
        answered = len(idle.fresh_latencies)
        total = answered + sum(idle.fresh_failures.values())
        latency = (f", p50 {percentile(idle.fresh_latencies, 0.5) * 1000:.1f} ms, "
                   f"worst {idle.fresh_latencies[-1] * 1000:.1f} ms") if answered else ""
        failed = f"; {counts(idle.fresh_failures)}" if idle.fresh_failures else ""
        lines.append(f"| fresh GET /healthz on a new connection while they are held (one a second) | "
                     f"{answered} of {total} answered{latency}{failed} | answered normally {mark(answered == total > 0)} |")
    if drip:
        if drip.closed_after is None:
            outcome = f"still open after {drip.limit:g} s (the bench stopped)"
        elif drip.how in ("closed", "refused"):
            outcome = f"{drip.how} after {drip.closed_after:.1f} s"
        else:
            outcome = f'answered "{drip.how}" after {drip.closed_after:.1f} s'
        met = drip.closed_after is not None and drip.how != "refused" and drip.closed_after <= args.request_deadline + 1
        lines.append(f"| request head dripped one line every {drip.interval:g} s | {outcome} "
                     f"| closed at the request deadline ({args.request_deadline:g} s) {mark(met)} |")
    measurements = [("POST /auth/password/request, known vs unknown address", *timing)] if timing else []
    if register_timings:
        measurements.append(("POST /users/register, address with an account vs without", *register_timings))
    for name, first, second in login_timings or []:
        measurements.append((f"failed POST /auth/login, known vs unknown address, {login_timing.describe(name)}", first,
                             second))
    for what, first, second in measurements:
        if second is None:
            lines.append(timing_row(what, first))
        else:
            # More than one body fails the row whatever the second measurement says.
            again = "→ measured again (next row)" if first.distinct_bodies == 1 else None
            lines.append(timing_row(what, first, verdict=again))
            lines.append(timing_row(what + ", measured again", second))
    return lines


def header(args):
    commit = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"], capture_output=True,
                            text=True).stdout.strip() or "unknown commit"
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
                 platform.machine())
    return (f"Latchkey {commit}, {datetime.date.today()}, {model}, {os.cpu_count()} cores: the server on CPU "
            f"{args.server_cpu}, wrk -t{args.threads} -c{args.connections} and this script on CPU {args.client_cpu}, "
            f"{args.seconds:g} s per route, SQLite unless marked.")


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default=",".join(SCENARIOS),
                        help=f"comma-separated scenarios, of {', '.join(SCENARIOS)} (default: all)")
    parser.add_argument("--server-cpu", type=int, default=0)
    parser.add_argument("--client-cpu", type=int, default=1)
    parser.add_argument("--seconds", type=int, default=10, help="per route and per ceiling (default 10)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections (default 32)")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (default 1)")
    parser.add_argument("--postgres", action="store_true", help="measure the routes on PostgreSQL too")
    parser.add_argument("--flood-clients", type=int, default=200)
    parser.add_argument("--flood-seconds", type=int, default=10)
    parser.add_argument("--flood-timeout", type=float, default=60, help="longest wait for one login's answer")
    parser.add_argument("--probe-connections", type=int, default=4, help="wrk connections of the /validate probe")
    parser.add_argument("--request-deadline", type=float, default=10,
                        help="seconds within which a request should be answered, or a dripped head closed (default 10)")
    parser.add_argument("--idle-connections", type=int, default=10_000)
    parser.add_argument("--per-address", type=int, default=25,
                        help="connections per loopback source address, below the per-IP limit (default 25)")
    parser.add_argument("--open-seconds", type=float, default=30, help="longest time for opening the idle connections")
    parser.add_argument("--hold-seconds", type=float, default=10)
    parser.add_argument("--drip-interval", type=float, default=5)
    parser.add_argument("--drip-seconds", type=float, default=35,
                        help="how long the bench keeps dripping (default 35, beyond the 30 s idle timeout)")
    parser.add_argument("--timing-samples", type=int, default=300)
    parser.add_argument("--register-timing-samples", type=int, default=200)
    parser.add_argument("--login-timing-samples", type=int, default=60)
    parser.add_argument("--login-confirm-samples", type=int, default=300,
                        help="samples each for measuring a login-timing mix again when the first gave p < 0.05 "
                             "(default 300; 0: never)")
    args = parser.parse_args()
    args.only = set(args.only.split(","))
    if not args.only <= set(SCENARIOS):
        parser.error(f"--only takes {', '.join(SCENARIOS)}")
    return args


def main():
    args = parse_arguments()
    os.sched_setaffinity(0, {args.client_cpu})  # before any thread or child: they inherit it
    connections = idle_connections.raise_file_limit(args.idle_connections)
    if connections < args.idle_connections:
        progress(f"the open-file limit allows only {connections} idle connections")
    began = time.time()
    failures = []

    def attempt(name, scenario, *arguments):
        """Runs one scenario; a failure is reported in the tables, the others still run."""
        try:
            return scenario(*arguments)
        except Exception as error:  # any failure of one scenario is reported, not fatal
            traceback.print_exc()
            failures.append((name, "; ".join([str(error) or type(error).__name__, *getattr(error, "__notes__", [])])))
            return None

    ceiling_rows, route_rows = [], []
    idle_rss = flooded = idle = drip = timing = register_timings = login_timings = None
    if "routes" in args.only:
        ceiling_rows = attempt("the ceiling", ceiling, args) or []
        route_rows, idle_rss = attempt("routes on SQLite", routes, args, "SQLite", {}) or ([], None)
        if args.postgres:
            route_rows += (attempt("routes on PostgreSQL", routes, args, "PostgreSQL", postgres_settings()) or [[]])[0]
    if "flood" in args.only:
        flooded = attempt("login flood", run_flood, args)
    if "idle" in args.only:
        idle, drip = attempt("idle connections", run_idle, args, connections) or (None, None)
    if "timing" in args.only:
        timing = attempt("timing", run_timing, args)
    if "register-timing" in args.only:
        register_timings = attempt("register timing", run_register_timing, args)
    if "login-timing" in args.only:
        login_timings = attempt("login timing", run_login_timing, args)
    progress(f"done in {time.time() - began:.0f} s")

    lines = [header(args), ""]
    if route_rows or ceiling_rows:
        lines += route_table(ceiling_rows, route_rows, args) + [""]
    lines += scenario_table(args, idle_rss, flooded, idle, drip, timing, register_timings, login_timings)
    lines += [f"| {name} | did not finish: {reason} | |" for name, reason in failures]
    report = "\n".join(lines) + "\n"
    print(report)
    (ROOT / ".build" / "bench").mkdir(parents=True, exist_ok=True)
    (ROOT / ".build" / "bench" / "report.md").write_text(report)


if __name__ == "__main__":
    main()
