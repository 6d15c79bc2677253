"""The password reset flow through the real binary, as a user and an attacker see it."""
import json
import os
import re
import socket
import stat
import threading
import time

import requests

from conftest import GOOD_PASSWORD, Server

NEW_PASSWORD = "violet tractor quietly juggles mountains"


def test_full_reset_flow_changes_the_password(server):
    server.create_user("jane.doe@example.com")
    response = server.post("/auth/password/request", {"email": "Jane.Doe@Example.com"})
    assert response.status_code == 200

    [mail] = server.wait_for_mails("jane.doe@example.com", 1)
    text = Server.text_of(mail)
    assert f"{server.base}/reset-password#token=" in text
    token = Server.token_in(mail)

    validated = server.post("/auth/password/validate", {"token": token})
    assert validated.status_code == 200
    body = validated.json()
    assert body["valid"] is True
    assert body["email_hint"] == "j***@example.com"
    assert "expires_at" in body

    assert server.post("/auth/password/reset", {"token": token, "password": NEW_PASSWORD}).status_code == 200
    assert not server.password_matches("jane.doe@example.com", GOOD_PASSWORD)
    assert server.password_matches("jane.doe@example.com", NEW_PASSWORD)

    # The token is single use, and a "password changed" notice follows.
    replay = server.post("/auth/password/reset", {"token": token, "password": "another long passphrase here"})
    assert replay.status_code == 400
    assert replay.json()["error"]["code"] == "invalid_token"
    mails = server.wait_for_mails("jane.doe@example.com", 2)
    assert all("#token=" not in Server.text_of(m) for m in mails[1:])


def test_request_answers_the_same_bytes_for_every_address(make_server):
    server = make_server(LATCHKEY_RESET_IP_LIMIT="100/600")
    server.create_user("known@example.com")
    server.create_user("disabled@example.com")
    server.cli("users", "disable", "disabled@example.com")

    def answer(address):
        response = server.post("/auth/password/request", {"email": address})
        return response.status_code, response.content, response.headers.get("Content-Type")

    known = answer("known@example.com")
    limited = answer("known@example.com")  # within 60 s: silently limited per account
    unknown = answer("nobody@example.com")
    disabled = answer("disabled@example.com")
    assert known == limited == unknown == disabled
    assert known[0] == 200
    server.wait_for_mails("known@example.com", 1)
    assert server.mails("nobody@example.com") == []
    assert server.mails("disabled@example.com") == []
    assert len(server.mails("known@example.com")) == 1


def test_bad_input_gets_clear_client_errors(server):
    cases = [
        (b"{not json", "application/json", 400, "invalid_json"),
        (b"[]", "application/json", 400, "invalid_json"),
        (json.dumps({}).encode(), "application/json", 400, "invalid_request"),
        (json.dumps({"email": "not-an-address"}).encode(), "application/json", 400, "invalid_email"),
        # A line break (like any control character) is refused before the address is parsed.
        (json.dumps({"email": "a@example.com\r\nBcc: x@evil.test"}).encode(), "application/json", 400, "invalid_request"),
        (json.dumps({"email": 42}).encode(), "application/json", 400, "invalid_request"),
        (json.dumps({"email": "a@example.com"}).encode(), "text/plain", 415, "unsupported_media_type"),
        (json.dumps({"email": "a@example.com", "reset_url": "https://evil.test/reset"}).encode(), "application/json", 400, "reset_url_not_allowed"),
    ]
    for body, content_type, status, code in cases:
        response = requests.post(server.base + "/auth/password/request", data=body, headers={"Content-Type": content_type}, timeout=10)
        assert response.status_code == status, (body, response.text)
        assert response.json()["error"]["code"] == code


def test_oversized_body_is_413(server):
    body = json.dumps({"email": "a@example.com", "pad": "x" * 70_000})
    response = requests.post(server.base + "/auth/password/request", data=body, headers={"Content-Type": "application/json"}, timeout=10)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Cache-Control"] == "no-store"


def test_reset_url_allow_list_matches_exactly(make_server):
    server = make_server(
        LATCHKEY_RESET_URL_ALLOW_LIST="https://app.example.com/reset,com.example.app:/reset",
        LATCHKEY_RESET_IP_LIMIT="100/600")
    server.create_user("ana@example.com")
    server.create_user("bob@example.com")
    for rejected in ["https://app.example.com/reset/evil", "https://app.example.com.evil.test/reset",
                     "http://app.example.com/reset", "https://app.example.com/reset?next=x",
                     "com.example.app:/reset/../evil", "com.example.app://reset", "https://user@app.example.com/reset"]:
        response = server.post("/auth/password/request", {"email": "ana@example.com", "reset_url": rejected})
        assert response.status_code == 400, rejected
        assert response.json()["error"]["code"] == "reset_url_not_allowed"
    assert server.post("/auth/password/request", {"email": "ana@example.com", "reset_url": "com.example.app:/reset"}).status_code == 200
    assert server.post("/auth/password/request", {"email": "bob@example.com", "reset_url": "https://APP.example.com/reset"}).status_code == 200
    [mail] = server.wait_for_mails("ana@example.com", 1)
    assert "com.example.app:/reset#token=" in Server.text_of(mail)
    [mail] = server.wait_for_mails("bob@example.com", 1)
    assert "https://APP.example.com/reset#token=" in Server.text_of(mail)


def test_weak_password_is_refused_and_the_token_still_works(server):
    server.create_user("sam@example.com")
    server.post("/auth/password/request", {"email": "sam@example.com"})
    token = Server.token_in(server.wait_for_mails("sam@example.com", 1)[0])
    for weak, reason in [("short", "too_short"), ("password123", "too_weak"), ("sam-is-my-name-and-long-enough", "contains_email")]:
        response = server.post("/auth/password/reset", {"token": token, "password": weak})
        assert response.status_code == 400
        error = response.json()["error"]
        assert error["code"] == "weak_password"
        assert reason in error["reasons"], (weak, error)
    assert server.post("/auth/password/validate", {"token": token}).status_code == 200
    assert server.post("/auth/password/reset", {"token": token, "password": NEW_PASSWORD}).status_code == 200


def test_every_bad_token_gets_one_message(server):
    answers = set()
    for token in ["", "short", "A" * 43, "!" * 43, "x" * 500]:
        response = server.post("/auth/password/validate", {"token": token})
        assert response.status_code == 400
        answers.add(response.content)
    assert len(answers) == 1
    assert json.loads(answers.pop())["error"] == {
        "code": "invalid_token", "message": "The link is no longer valid. Please request a new one."}


def test_racing_resets_have_one_winner(make_server):
    server = make_server(LATCHKEY_RESET_IP_LIMIT="100/600")
    server.create_user("race@example.com")
    server.post("/auth/password/request", {"email": "race@example.com"})
    token = Server.token_in(server.wait_for_mails("race@example.com", 1)[0])
    results = []
    barrier = threading.Barrier(8)

    def attempt(i):
        barrier.wait()
        response = server.post("/auth/password/reset", {"token": token, "password": f"racing password number {i} wins"})
        results.append((i, response.status_code))

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [i for i, status in results if status == 200]
    assert len(winners) == 1, results
    assert all(status == 400 for _, status in results if status != 200)
    assert server.password_matches("race@example.com", f"racing password number {winners[0]} wins")


def test_ip_limit_answers_429_with_a_retry_after_that_attempts_never_lengthen(make_server):
    server = make_server(LATCHKEY_RESET_IP_LIMIT="3/600")
    for i in range(3):
        assert server.post("/auth/password/request", {"email": f"user{i}@example.com"}).status_code == 200
    first = server.post("/auth/password/request", {"email": "other@example.com"})
    second = server.post("/auth/password/reset", {"token": "x", "password": NEW_PASSWORD})
    assert first.status_code == second.status_code == 429
    assert first.json()["error"]["code"] == "rate_limited"
    # An attempt while blocked is told what remains of the same wait, never more.
    assert 0 <= int(first.headers["Retry-After"]) - int(second.headers["Retry-After"]) <= 1
    # Checking a link has a budget of its own (LATCHKEY_RESET_VALIDATE_IP_LIMIT), still whole.
    assert server.post("/auth/password/validate", {"token": "x"}).status_code == 400


def test_security_headers_and_no_store(server):
    response = server.post("/auth/password/request", {"email": "h@example.com"})
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Frame-Options"] == "DENY"
    page = requests.get(server.base + "/reset-password", timeout=10)
    assert page.status_code == 200
    csp = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert page.headers["Cache-Control"] == "no-store"
    assert "http" not in re.sub(r'href="/|src="/', "", page.text.split("<main>")[0].replace("http-equiv", ""))


def test_tokens_and_passwords_never_reach_the_log(server):
    server.create_user("log@example.com")
    server.post("/auth/password/request", {"email": "log@example.com"})
    token = Server.token_in(server.wait_for_mails("log@example.com", 1)[0])
    server.post("/auth/password/validate", {"token": token})
    server.post("/auth/password/reset", {"token": token, "password": NEW_PASSWORD})
    server.stop()
    log = server.log()
    assert "reset_token_issued" in log
    for secret in [token, NEW_PASSWORD, GOOD_PASSWORD, "log@example.com"]:
        assert secret not in log


def test_outbox_and_database_files_are_private(server):
    server.create_user("perm@example.com")
    server.post("/auth/password/request", {"email": "perm@example.com"})
    server.wait_for_mails("perm@example.com", 1)
    assert stat.S_IMODE(os.stat(server.data_dir).st_mode) == 0o700
    for path in server.outbox.glob("*.eml"):
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_well_known_app_links_come_from_configuration(make_server):
    fingerprint = ":".join(["AB"] * 32)
    server = make_server(LATCHKEY_APPLE_APP_IDS="ABCDE12345.com.example.app",
                         LATCHKEY_ANDROID_APPS=f"com.example.app:{fingerprint}")
    aasa = requests.get(server.base + "/.well-known/apple-app-site-association", timeout=10)
    assert aasa.status_code == 200 and aasa.headers["Content-Type"] == "application/json"
    details = aasa.json()["applinks"]["details"]
    assert details[0]["appIDs"] == ["ABCDE12345.com.example.app"]
    assert details[0]["components"][0]["/"] == "/reset-password"
    links = requests.get(server.base + "/.well-known/assetlinks.json", timeout=10).json()
    assert links[0]["target"]["package_name"] == "com.example.app"
    assert links[0]["target"]["sha256_cert_fingerprints"] == [fingerprint]


def test_operations_endpoints(server):
    assert requests.get(server.base + "/healthz", timeout=10).json() == {"status": "ok"}
    assert requests.get(server.base + "/readyz", timeout=10).status_code == 200
    server.post("/auth/password/request", {"email": "m@example.com"})
    metrics = requests.get(server.base + "/metrics", timeout=10).text
    assert 'latchkey_http_requests_total{route="password_request",status="200"} 1' in metrics
    assert "latchkey_reset_requests_total 1" in metrics
    assert "latchkey_outbox_depth" in metrics
    spec = requests.get(server.base + "/openapi.json", timeout=10).json()
    assert spec["openapi"].startswith("3.1")
    assert "/auth/password/request" in spec["paths"]
    assert requests.get(server.base + "/nope", timeout=10).status_code == 404
    assert requests.get(server.base + "/auth/password/request", timeout=10).status_code == 405


def test_graceful_shutdown_on_sigterm(server):
    server.process.terminate()
    assert server.process.wait(timeout=20) == 0
    assert "server_stopped" in server.log()


def test_sigterm_while_starting_is_kept_until_it_can_stop_gracefully(server):
    # SIGTERM the moment the port accepts, before the server waits for signals: held from the
    # start of `serve`, it is neither fatal (exit -15) nor lost (a server that no longer stops).
    server.stop()
    for _ in range(5):
        server.spawn()
        deadline = time.time() + 30
        while True:
            assert time.time() < deadline and server.process.poll() is None, server.log()
            try:
                socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.001)
        server.process.terminate()
        assert server.process.wait(timeout=20) == 0
        server.log_file.close()
    assert server.log().count('"server_stopped"') == 6
