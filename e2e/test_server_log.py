"""What the server writes on standard error (issue 36): JSON objects only, one a line — also the
advice on what to set before production (`production_advice` warnings, plain text only for a
terminal) and a start-up failure; 404s logged with their path and never their query; the
favicon; and `latchkey users log-key`, which finds one person's lines in that log."""
import json
import os
import pty
import select
import subprocess
import time

import requests

from conftest import BINARY, free_port


def log_events(server):
    """Every line of the server's log as JSON (a line that is not fails the test)."""
    events = []
    for line in server.log().splitlines():
        event = json.loads(line)
        assert isinstance(event, dict) and {"ts", "level", "event"} <= event.keys(), line
        events.append(event)
    return events


def test_standard_error_is_json_lines_with_the_production_advice_as_warnings(make_server):
    server = make_server(LATCHKEY_RESET_TOKEN_TLL="600")
    missing = requests.get(server.base + "/no/such/page", params={"token": "query-secret-123"}, timeout=10)
    assert missing.status_code == 404
    assert requests.get(server.base + "/healthz", timeout=10).status_code == 200
    server.stop()

    events = log_events(server)
    assert "Before production" not in server.log()
    advice = {event["setting"]: event for event in events if event["event"] == "production_advice"}
    assert list(advice) == ["LATCHKEY_PUBLIC_URL", "LATCHKEY_MAIL_TRANSPORT", "LATCHKEY_PRODUCT_NAME",
                            "LATCHKEY_RESET_URL_ALLOW_LIST", "LATCHKEY_APPLE_APP_IDS"]
    assert all(event["level"] == "warning" and event["advice"] for event in advice.values())
    assert advice["LATCHKEY_PUBLIC_URL"]["now"] == server.base and "`" not in advice["LATCHKEY_MAIL_TRANSPORT"]["advice"]
    [unknown] = [event for event in events if event["event"] == "unknown_setting"]
    assert unknown["level"] == "warning" and "did you mean LATCHKEY_RESET_TOKEN_TTL?" in unknown["message"]
    names = [event["event"] for event in events]
    assert names.index("server_started") < names.index("production_advice") and names[-1] == "server_stopped"

    # A 404 names the path asked for, never the query.
    [not_found] = [event for event in events if event["event"] == "http_request" and event["status"] == 404]
    assert not_found["path"] == "/no/such/page" and not_found["route"] == "not_found"
    assert "query-secret-123" not in server.log()
    assert all("path" not in event for event in events if event["event"] == "http_request" and event["status"] != 404)


def test_a_server_that_cannot_start_says_why_in_one_json_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    env.update({"LATCHKEY_DATA_DIR": str(tmp_path / "data"), "LATCHKEY_LOG_LEVEL": "loud"})
    for args, code in [(("serve",), 1), (("serve", "--bogus"), 2)]:
        result = subprocess.run([str(BINARY), *args], env=env, capture_output=True, text=True, timeout=60)
        assert result.returncode == code and result.stdout == ""
        [line] = result.stderr.splitlines()
        event = json.loads(line)
        assert event["event"] == "server_start_failed" and event["level"] == "error"
        if code == 1:
            assert event["code"] == "invalid_configuration"
            assert event["message"] == "LATCHKEY_LOG_LEVEL must be one of debug, info, warning, error (got 'loud')"
        else:
            assert event["message"] == "unknown option --bogus"


def test_a_terminal_also_gets_the_advice_as_plain_text(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    port = free_port()
    env.update({"LATCHKEY_DATA_DIR": str(tmp_path / "data"), "LATCHKEY_LISTEN": f"127.0.0.1:{port}"})
    controller, terminal = pty.openpty()
    process = subprocess.Popen([str(BINARY), "serve"], env=env, stdout=subprocess.DEVNULL, stderr=terminal)
    os.close(terminal)
    seen = b""
    try:
        deadline = time.time() + 30
        while b"LATCHKEY_APPLE_APP_IDS: your TEAMID" not in seen and time.time() < deadline:
            if select.select([controller], [], [], 0.5)[0]:
                seen += os.read(controller, 65536)
    finally:
        process.terminate()
        process.wait(timeout=30)
        os.close(controller)
    text = seen.decode().replace("\r\n", "\n")
    assert "Before production, set:\n  - LATCHKEY_PUBLIC_URL: the https URL users reach (now http://127.0.0.1:" in text
    assert '"event":"production_advice"' in text


def test_favicon_is_served_and_cacheable(server):
    icon = requests.get(server.base + "/favicon.ico", timeout=10)
    assert icon.status_code == 200 and icon.headers["Content-Type"] == "image/x-icon"
    assert icon.headers["Cache-Control"] == "public, max-age=86400"
    # An ICO directory of one 32 x 32 image, held as PNG.
    assert icon.content[:6] == b"\x00\x00\x01\x00\x01\x00" and icon.content[6:8] == b"\x20\x20"
    assert icon.content[22:30] == b"\x89PNG\r\n\x1a\n" and len(icon.content) < 1024
    head = requests.head(server.base + "/favicon.ico", timeout=10)
    assert head.status_code == 200 and head.content == b""
    assert "/favicon.ico" in requests.get(server.base + "/openapi.json", timeout=10).json()["paths"]


def test_users_log_key_is_the_address_the_log_lines_give(server, tmp_path):
    server.create_user("pat@example.com")
    for address in ["pat@example.com", "nobody@example.com"]:
        assert server.post("/auth/password/request", {"email": address}).status_code == 200
    server.wait_for_mails("pat@example.com", 1)
    deadline = time.time() + 15
    while time.time() < deadline and '"reset_request_unmatched"' not in server.log():
        time.sleep(0.05)

    pat = server.cli("users", "log-key", "Pat@Example.com").stdout.strip()
    nobody = server.cli("users", "log-key", "nobody@example.com").stdout.strip()
    assert len(pat) == 22 and pat != nobody
    by_address = {}
    for event in log_events(server):
        if "address" in event:
            by_address.setdefault(event["address"], set()).add(event["event"])
    assert {"reset_requested", "reset_token_issued"} <= by_address[pat]
    assert "reset_request_unmatched" in by_address[nobody]
    assert "pat@example.com" not in server.log()

    invalid = server.cli("users", "log-key", "not an address", check=False)
    assert invalid.returncode == 1 and invalid.stdout == ""
    elsewhere = server.cli("users", "log-key", "pat@example.com", "--data-dir", str(tmp_path / "empty"), check=False)
    assert elsewhere.returncode == 1 and str(tmp_path / "empty" / "address-hash.key") in elsewhere.stderr
    assert not (tmp_path / "empty").exists()
