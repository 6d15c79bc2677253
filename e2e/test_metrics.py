"""`/metrics` after real traffic (issue 36): every metric docs/operations.md documents is served and
nothing undocumented is; the latency histograms count each request once, cumulatively; sign-ins
are counted by outcome, limiter decisions by kind, and the build and the process are there."""
import re
import subprocess
import time

import requests

from conftest import BINARY, GOOD_PASSWORD, ROOT


def documented_metrics():
    text = (ROOT / "docs" / "operations.md").read_text()
    table = text.split("<!-- metrics -->", 1)[1].split("<!-- /metrics -->", 1)[0]
    rows = [line.strip("|").split("|") for line in table.strip().splitlines()[2:]]
    return {row[0].strip().strip("`"): row[1].strip() for row in rows}


def scrape(server):
    """The samples as {(name, frozenset of label pairs): value}, and the TYPE of each family."""
    text = requests.get(server.base + "/metrics", timeout=10).text
    samples, types = {}, {}
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split()
            types[name] = kind
        elif line and not line.startswith("#"):
            match = re.fullmatch(r'([a-z_]+)(?:\{(.*)\})? (\S+)', line)
            assert match, line
            labels = frozenset(re.findall(r'(\w+)="([^"]*)"', match.group(2) or ""))
            samples[(match.group(1), labels)] = float(match.group(3))
    return samples, types


def value(samples, name, **labels):
    return samples[(name, frozenset(labels.items()))]


def test_every_documented_metric_is_served_after_traffic(server):
    server.create_user("pat@example.com")
    login = lambda email, password: requests.post(server.base + "/auth/login", json={"email": email, "password": password}, timeout=30)
    assert login("pat@example.com", GOOD_PASSWORD).status_code == 200
    assert login("pat@example.com", "a wrong password entirely").status_code == 401
    assert login("nobody@example.com", GOOD_PASSWORD).status_code == 401
    assert server.post("/auth/password/request", {"email": "pat@example.com"}).status_code == 200
    assert server.post("/auth/password/validate", {"token": "x" * 43}).status_code == 400
    for _ in range(3):
        assert requests.get(server.base + "/favicon.ico", timeout=10).status_code == 200
    assert requests.get(server.base + "/no-such-page", timeout=10).status_code == 404
    server.wait_for_mails("pat@example.com", 1)
    deadline = time.time() + 10
    while time.time() < deadline and value(scrape(server)[0], "latchkey_mails_sent_total") < 1:
        time.sleep(0.1)

    samples, types = scrape(server)
    documented = documented_metrics()
    assert set(types) == set(documented), (set(types) ^ set(documented))
    assert types == documented
    families = {re.sub(r"_(bucket|sum|count)$", "", name) if types.get(re.sub(r"_(bucket|sum|count)$", "", name)) == "histogram"
                else name for name, _ in samples}
    assert families == set(documented), families ^ set(documented)

    version = subprocess.run([str(BINARY), "--version"], capture_output=True, text=True, check=True).stdout.split()[1]
    assert value(samples, "latchkey_build_info", version=version) == 1

    # The favicon was asked for three times: counted once each, in every bucket from its own up.
    assert value(samples, "latchkey_http_requests_total", route="favicon", status="200") == 3
    buckets = sorted(((float(dict(labels)["le"]), count) for (name, labels), count in samples.items()
                      if name == "latchkey_http_request_duration_seconds_bucket" and dict(labels)["route"] == "favicon"))
    counts = [count for _, count in buckets]
    assert buckets[-1][0] == float("inf") and counts[-1] == 3 and counts == sorted(counts)
    assert value(samples, "latchkey_http_request_duration_seconds_count", route="favicon") == 3
    assert 0 < value(samples, "latchkey_http_request_duration_seconds_sum", route="favicon") < 3
    assert value(samples, "latchkey_http_request_duration_seconds_count", route="directus_login") == 3
    assert value(samples, "latchkey_http_request_duration_seconds_count", route="not_found") == 1
    # A route not asked for yet is listed at zero, so rate() sees it from the start.
    assert value(samples, "latchkey_http_request_duration_seconds_count", route="password_reset") == 0

    for outcome, expected in [("success", 1), ("wrong_password", 1), ("unknown_account", 1), ("disabled_account", 0),
                              ("rate_limited", 0)]:
        assert value(samples, "latchkey_sign_ins_total", method="password", outcome=outcome) == expected, outcome
    assert value(samples, "latchkey_rate_limit_decisions_total", limit="login-ip", decision="allowed") == 3
    assert value(samples, "latchkey_rate_limit_decisions_total", limit="reset-validate-ip", decision="allowed") == 1
    assert value(samples, "latchkey_mails_sent_total") == 1 and value(samples, "latchkey_reset_requests_total") == 1
    assert value(samples, "latchkey_outbox_depth") == 0

    assert value(samples, "process_resident_memory_bytes") > 1 << 20
    assert 0 < value(samples, "process_open_fds") < value(samples, "process_max_fds")
    assert time.time() - 600 < value(samples, "process_start_time_seconds") <= time.time()
    assert value(samples, "process_cpu_seconds_total") > 0


def test_mail_failures_and_retries_are_counted(make_server, smtp_server):
    smtp = smtp_server("starttls")
    server = make_server(**smtp.settings(password="not the smtp password"))
    server.create_user("pat@example.com")
    assert server.post("/auth/password/request", {"email": "pat@example.com"}).status_code == 200
    deadline = time.time() + 20
    while time.time() < deadline and value(scrape(server)[0], "latchkey_mails_failed_total") < 1:
        time.sleep(0.1)
    [row] = [line.split("\t") for line in server.cli("outbox", "list").stdout.splitlines()]
    server.cli("outbox", "retry", row[0])
    deadline = time.time() + 10
    while time.time() < deadline and value(scrape(server)[0], "latchkey_mails_failed_total") < 2:
        time.sleep(0.1)
    samples, _ = scrape(server)
    assert value(samples, "latchkey_mails_failed_total") == 2 and value(samples, "latchkey_mails_retried_total") == 1
    assert value(samples, "latchkey_mails_sent_total") == 0 and value(samples, "latchkey_outbox_depth") == 1
