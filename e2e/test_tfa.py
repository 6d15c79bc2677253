"""The second factor against the release binary, on SQLite and on PostgreSQL, and across two
instances sharing PostgreSQL and Redis, checked with an independent TOTP implementation (pyotp,
itself checked against RFC 6238's vectors): enrolment through Directus's routes and through the
web page, a code accepted once (also by the other instance), a reset that leaves the factor in
place, recovery codes used once under concurrency, wrong codes that never pass the limit, a
wrong password answered alike with or without a factor, the OAuth page's two steps with a
challenge that cannot be replayed, and the operator's tfa-reset."""
import base64
import re
import time
import urllib.parse

import jwt
import pyotp
import pytest
import requests

from conftest import GOOD_PASSWORD
from oauth_support import (EMAIL, Browser, OAuthWorld, Page, authorize_params, authorize_url, pkce_pair, race,
                           redirect_params)

NEW_PASSWORD = "violet tractor quietly juggles mountains"
RECOVERY_CODE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$")



def code_at(totp, steps=0):
    """The code of the step `steps` away from now, never within a second of a step's end (so the
    server, a moment later, still counts the same step)."""
    if 30 - time.time() % 30 < 1.2:
        time.sleep(1.3)
    return totp.at(time.time() + 30 * steps)


def login(server, password=GOOD_PASSWORD, otp=None, email=EMAIL, ip=None):
    body = {"email": email, "password": password}
    if otp is not None:
        body["otp"] = otp
    return server.post("/auth/login", body, ip=ip)


def error_code(response):
    return response.json()["errors"][0]["extensions"]["code"]


def call(server, path, token, body):
    return requests.post(server.base + path, json=body, headers={"Authorization": f"Bearer {token}"}, timeout=30)


def enrol(server, email=EMAIL):
    """Turns two-step sign-in on for `email` through Directus's routes, confirming with the code of
    the step before now (one step of skew), so the current and the next step are still unspent.
    Returns the pyotp TOTP of the secret and the recovery codes."""
    signed_in = login(server, email=email)
    assert signed_in.status_code == 200, signed_in.text
    token = signed_in.json()["data"]["access_token"]
    generated = call(server, "/users/me/tfa/generate", token, {"password": GOOD_PASSWORD})
    assert generated.status_code == 200, generated.text
    data = generated.json()["data"]
    url = urllib.parse.urlsplit(data["otpauth_url"])
    query = dict(urllib.parse.parse_qsl(url.query))
    assert url.scheme == "otpauth" and url.netloc == "totp"
    assert urllib.parse.unquote(url.path) == f"/Latchkey:{email}"
    assert query == {"secret": data["secret"], "issuer": "Latchkey", "algorithm": "SHA1", "digits": "6", "period": "30"}
    assert len(data["secret"]) == 32 and len(base64.b32decode(data["secret"])) == 20
    totp = pyotp.TOTP(data["secret"])
    enabled = call(server, "/users/me/tfa/enable", token, {"secret": data["secret"], "otp": code_at(totp, -1)})
    assert enabled.status_code == 200, enabled.text
    codes = enabled.json()["data"]["recovery_codes"]
    assert len(codes) == 10 and len(set(codes)) == 10 and all(RECOVERY_CODE.match(c) for c in codes), codes
    wait_for_subject(server, email, "Two-step sign-in is on")
    return totp, codes


def wait_for_subject(server, email, subject, timeout=15):
    """The first mail to `email` whose subject contains `subject`, once the outbox wrote it."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = [mail for mail in server.mails(email) if subject in mail["Subject"]]
        if found:
            return found[0]
        time.sleep(0.05)
    raise AssertionError(f"no mail '{subject}' to {email}; log:\n{server.log()[-3000:]}")


def test_pyotp_agrees_with_rfc6238():
    """The independent implementation the other tests trust gives RFC 6238 Appendix B's SHA-1 codes."""
    totp = pyotp.TOTP("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", digits=8)
    for at, expected in [(59, "94287082"), (1111111109, "07081804"), (1111111111, "14050471"),
                         (1234567890, "89005924"), (2000000000, "69279037"), (20000000000, "65353130")]:
        assert totp.at(at) == expected


def test_enrolled_sign_in_needs_the_code_and_a_code_works_once(store_server):
    server = store_server
    server.create_user(EMAIL)
    totp, _ = enrol(server)

    missing = login(server)
    assert missing.status_code == 401 and error_code(missing) == "INVALID_OTP"
    wrong = login(server, otp="000000" if code_at(totp) != "000000" else "111111")
    assert wrong.status_code == 401 and error_code(wrong) == "INVALID_OTP"
    # The current step signs in once.
    code = code_at(totp)
    first = login(server, otp=code)
    assert first.status_code == 200, first.text
    replayed = login(server, otp=code)
    assert replayed.status_code == 401 and error_code(replayed) == "INVALID_OTP"
    # The login's access token works.
    access = first.json()["data"]["access_token"]
    assert requests.get(server.base + "/users/me", headers={"Authorization": f"Bearer {access}"}, timeout=30).status_code == 200
    # Nothing secret in the log.
    assert totp.secret not in server.log()


def test_replayed_code_is_refused_by_the_other_instance(make_cluster):
    a, b = make_cluster()
    a.create_user(EMAIL)
    totp, _ = enrol(a)
    code = code_at(totp)
    assert login(a, otp=code).status_code == 200
    on_b = login(b, otp=code)
    assert on_b.status_code == 401 and error_code(on_b) == "INVALID_OTP"
    # The next step's code works on B, and then not on A.
    following = code_at(totp, 1)
    assert login(b, otp=following).status_code == 200
    assert login(a, otp=following).status_code == 401


def test_a_reset_is_not_a_sign_in(store_server):
    """A completed reset ends every login as before, but the next sign-in still asks for the code."""
    server = store_server
    world = OAuthWorld(server)
    totp, _ = enrol(server)
    before = login(server, otp=code_at(totp))
    assert before.status_code == 200
    world.reset_password(NEW_PASSWORD)
    refresh = server.post("/auth/refresh", {"refresh_token": before.json()["data"]["refresh_token"]})
    assert refresh.status_code == 401
    without = login(server, password=NEW_PASSWORD)
    assert without.status_code == 401 and error_code(without) == "INVALID_OTP"
    # Nor does the sign-in page let the new password in alone.
    browser = Browser(server)
    verifier, challenge = pkce_pair()
    page = browser.get(authorize_url(server, authorize_params("ios.app", challenge)))
    step = browser.sign_in(page, password=NEW_PASSWORD)
    assert step.status_code == 200 and "Location" not in step.headers
    assert "code" in Page.field_names(Page(step.text).form) and "challenge" in Page.field_names(Page(step.text).form)
    assert login(server, password=NEW_PASSWORD, otp=code_at(totp, 1)).status_code == 200


def test_a_recovery_code_is_accepted_exactly_once_under_concurrency(store_server):
    server = store_server
    server.create_user(EMAIL)
    _, codes = enrol(server)
    # Typed loosely: lower case, spaces for hyphens.
    typed = codes[4].lower().replace("-", " ")
    answers = race(8, lambda: login(server, otp=typed))
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses.count(200) == 1, [(a.status_code, a.text) for a in answers]
    assert all(status in (401, 429) for status in statuses if status != 200), statuses
    mail = wait_for_subject(server, EMAIL, "recovery code")
    assert "You have 9 recovery codes left." in server.text_of(mail)
    assert login(server, otp=codes[4]).status_code in (401, 429)


@pytest.mark.parametrize("instances", [1, 2])
def test_concurrent_wrong_codes_never_exceed_the_limit(request, make_server, instances):
    """24 wrong codes at once (split over two instances sharing Redis in the cluster case): exactly
    5 are judged, the rest wait; the owner's right code then waits at most the 15-minute window."""
    servers = request.getfixturevalue("make_cluster")(count=2) if instances == 2 else [make_server()]
    servers[0].create_user(EMAIL)
    totp, _ = enrol(servers[0])
    right = code_at(totp)
    wrong = "123456" if right != "123456" else "654321"
    answers = race(24, lambda index=iter(range(24)): login(servers[next(index) % len(servers)], otp=wrong))
    judged = [a for a in answers if a.status_code == 401]
    limited = [a for a in answers if a.status_code == 429]
    assert len(judged) == 5 and len(limited) == 19, [(a.status_code, a.text[:80]) for a in answers]
    assert all(error_code(a) == "INVALID_OTP" for a in judged)
    assert all(error_code(a) == "REQUESTS_EXCEEDED" and 0 < int(a.headers["Retry-After"]) <= 900 for a in limited)
    owner = login(servers[-1], otp=right)
    assert owner.status_code == 429 and int(owner.headers["Retry-After"]) <= 900
    # The operator's unlock ends the wait at once, on every instance.
    servers[0].cli("users", "unlock", EMAIL)
    assert login(servers[-1], otp=code_at(totp, 1)).status_code == 200


def test_a_wrong_password_answers_alike_with_and_without_a_factor(store_server):
    server = store_server
    server.create_user(EMAIL)
    server.create_user("plain@example.com")
    enrol(server)
    with_factor = login(server, password="not the password at all", otp="123456", ip="127.0.0.2")
    without = login(server, password="not the password at all", otp="123456", email="plain@example.com", ip="127.0.0.3")
    unknown = login(server, password="not the password at all", email="nobody@example.com", ip="127.0.0.4")
    assert with_factor.status_code == without.status_code == unknown.status_code == 401
    assert with_factor.content == without.content == unknown.content
    assert error_code(with_factor) == "INVALID_CREDENTIALS"
    drop = {"Date", "Content-Length"}
    assert ({k: v for k, v in with_factor.headers.items() if k not in drop}
            == {k: v for k, v in without.headers.items() if k not in drop})


def test_the_sign_in_page_asks_for_the_code_and_its_challenge_is_used_once(store_server):
    server = store_server
    world = OAuthWorld(server)
    totp, _ = enrol(server)
    browser = Browser(server)
    verifier, challenge = pkce_pair()
    page = browser.get(authorize_url(server, authorize_params("ios.app", challenge, nonce="n-1")))
    step = browser.sign_in(page)
    assert step.status_code == 200 and "Location" not in step.headers
    form = Page(step.text).form
    fields = Page.hidden_fields(form)
    assert "password" not in dict(fields) and dict(fields)["step"] == "second_factor"
    assert "script" not in step.text and "'unsafe-inline'" not in step.headers["Content-Security-Policy"]
    # A wrong code: the page again, with a new challenge; the old one is spent.
    wrong = browser.post_form(step, fields + [("code", "000000" if code_at(totp) != "000000" else "111111")])
    assert wrong.status_code == 401 and 'aria-invalid="true"' in wrong.text
    replayed = browser.post_form(step, fields + [("code", code_at(totp))])
    assert replayed.status_code == 401 and 'name="password"' in replayed.text
    # The new challenge with the right code signs in: pwd and otp in the ID token.
    done = browser.post_form(wrong, Page.hidden_fields(Page(wrong.text).form) + [("code", code_at(totp))])
    params = redirect_params(done)
    tokens = world.exchange(params["code"], verifier)
    assert tokens.status_code == 200, tokens.text
    claims = jwt.decode(tokens.json()["id_token"], options={"verify_signature": False})
    assert claims["amr"] == ["pwd", "otp"] and claims["nonce"] == "n-1"
    # The spent challenge cannot be used again, even with a fresh code.
    again = browser.post_form(wrong, Page.hidden_fields(Page(wrong.text).form) + [("code", code_at(totp, 1))])
    assert again.status_code == 401 and 'name="password"' in again.text


def test_the_enrolment_page_shows_a_qr_code_and_the_link_then_the_recovery_codes(store_server):
    server = store_server
    server.create_user(EMAIL)
    browser = Browser(server)
    start = browser.get(server.base + "/oauth/two-step-sign-in?lang=ar")
    assert start.status_code == 200 and 'dir="rtl"' in start.text
    form = Page(start.text).form
    shown = browser.post_form(start, Page.hidden_fields(form) + [("email", EMAIL), ("password", GOOD_PASSWORD)])
    assert shown.status_code == 200, shown.text
    csp = shown.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "'unsafe-inline'" not in csp and "<script" not in shown.text
    assert re.search(r'<svg [^>]*viewBox="0 0 (\d+) \1"', shown.text) and "<path " in shown.text
    link = re.search(r'href="(otpauth://totp/[^"]+)"', shown.text).group(1).replace("&amp;", "&")
    secret = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query))["secret"]
    totp = pyotp.TOTP(secret)
    done = browser.post_form(shown, Page.hidden_fields(Page(shown.text).form) + [("code", code_at(totp, -1))])
    assert done.status_code == 200, done.text
    codes = re.findall(r"<li><code>([0-9A-Z-]{14})</code></li>", done.text)
    assert len(codes) == 10 and all(RECOVERY_CODE.match(c) for c in codes)
    assert login(server, otp=code_at(totp)).status_code == 200
    # The account has one now: the page says so after the password.
    again = browser.get(server.base + "/oauth/two-step-sign-in")
    refused = browser.post_form(again, Page.hidden_fields(Page(again.text).form) + [("email", EMAIL), ("password", GOOD_PASSWORD)])
    assert refused.status_code == 400 and "already on" in refused.text


def test_account_changes_need_the_factor(store_server):
    """With a factor, a sign-in five minutes ago without the code is not enough, nor the password
    alone; the password with a code is."""
    server = store_server
    server.create_user(EMAIL)
    before = login(server).json()["data"]["access_token"]
    totp, _ = enrol(server)
    refused = requests.delete(server.base + "/users/me", headers={"Authorization": f"Bearer {before}"}, timeout=30)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "reauthentication_required"
    no_code = requests.delete(server.base + "/users/me", json={"current_password": GOOD_PASSWORD},
                              headers={"Authorization": f"Bearer {before}"}, timeout=30)
    assert no_code.status_code == 401 and no_code.json()["errors"][0]["extensions"]["code"] == "INVALID_OTP"
    changed = requests.patch(server.base + "/users/me", json={"password": NEW_PASSWORD, "current_password": GOOD_PASSWORD,
                                                               "otp": code_at(totp)},
                             headers={"Authorization": f"Bearer {before}"}, timeout=30)
    assert changed.status_code == 200, changed.text


def test_disable_and_renewed_recovery_codes(store_server):
    server = store_server
    server.create_user(EMAIL)
    totp, codes = enrol(server)
    token = login(server, otp=code_at(totp)).json()["data"]["access_token"]
    # Renewal needs an authenticator code, not a recovery code.
    assert call(server, "/users/me/tfa/recovery-codes", token, {"otp": codes[0]}).status_code == 401
    renewed = call(server, "/users/me/tfa/recovery-codes", token, {"otp": code_at(totp, 1)})
    assert renewed.status_code == 200, renewed.text
    fresh = renewed.json()["data"]["recovery_codes"]
    assert not set(fresh) & set(codes)
    assert call(server, "/users/me/tfa/disable", token, {"otp": codes[1]}).status_code == 401, "old codes are void"
    assert call(server, "/users/me/tfa/disable", token, {"otp": fresh[0]}).status_code == 204
    assert login(server).status_code == 200
    wait_for_subject(server, EMAIL, "Two-step sign-in is off")


def test_users_tfa_reset_removes_the_factor_and_mails_the_owner(store_server):
    server = store_server
    server.create_user(EMAIL)
    enrol(server)
    result = server.cli("users", "tfa-reset", EMAIL)
    assert "removed the second factor" in result.stdout
    mail = wait_for_subject(server, EMAIL, "Two-step sign-in is off")
    assert "support turned off two-step sign-in" in server.text_of(mail)
    assert login(server).status_code == 200
    again = server.cli("users", "tfa-reset", EMAIL, check=False)
    assert again.returncode != 0 and "has no second factor" in again.stderr


def test_the_command_line_enrols_and_signs_in_with_the_code(make_server, tmp_path):
    """`latchkey account tfa generate|enable|recovery-codes|disable` and `latchkey login --email`
    with the code on the line after the password; at a terminal the code is asked for without echo."""
    import os
    import pty
    import subprocess

    from conftest import BINARY

    server = make_server()
    server.create_user(EMAIL)
    env = dict(server.env, XDG_STATE_HOME=str(tmp_path / "state"), LATCHKEY_ISSUER=server.base)

    def client(*args, stdin=None):
        return subprocess.run([str(BINARY), *args], env=env, input=stdin, capture_output=True, text=True, timeout=60)

    assert client("login", "--email", EMAIL, "--password-stdin", stdin=GOOD_PASSWORD + "\n").returncode == 0
    generated = client("account", "tfa", "generate", stdin=GOOD_PASSWORD + "\n")
    assert generated.returncode == 0, generated.stderr
    url = generated.stdout.splitlines()[0]
    assert url.startswith("otpauth://totp/") and generated.stdout.splitlines()[1].startswith("key: ")
    totp = pyotp.TOTP(dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))["secret"])
    enabled = client("account", "tfa", "enable", stdin=code_at(totp, -1) + "\n")
    assert enabled.returncode == 0, enabled.stderr
    codes = [line for line in enabled.stdout.splitlines() if RECOVERY_CODE.match(line)]
    assert len(codes) == 10

    # Without the code: a clear failure; with it on the second line: signed in.
    missing = client("login", "--email", EMAIL, "--password-stdin", stdin=GOOD_PASSWORD + "\n")
    assert missing.returncode == 1 and "second line of standard input" in missing.stderr
    signed_in = client("login", "--email", EMAIL, "--password-stdin", stdin=f"{GOOD_PASSWORD}\n{code_at(totp)}\n")
    assert signed_in.returncode == 0, signed_in.stderr

    # At a terminal both are asked for, and neither is echoed.
    import select
    import termios

    pid, fd = pty.fork()
    if pid == 0:
        os.execve(str(BINARY), [str(BINARY), "login", "--email", EMAIL, "--password-stdin"], env)
    transcript = b""
    deadline = time.time() + 60

    def read_until(marker):
        nonlocal transcript
        while marker not in transcript:
            assert time.time() < deadline, transcript.decode(errors="replace")
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    chunk = os.read(fd, 1024)
                except OSError:
                    chunk = b""
                assert chunk, transcript.decode(errors="replace")
                transcript += chunk

    def type_when_hidden(text):
        """Types `text` once the prompt has turned the terminal's echo off (turning it off
        flushes what was typed ahead, as sudo's prompt does)."""
        while termios.tcgetattr(fd)[3] & termios.ECHO:
            assert time.time() < deadline, "the prompt never turned echo off"
            time.sleep(0.01)
        os.write(fd, (text + "\n").encode())

    status = None
    try:
        read_until(b"Password for")
        type_when_hidden(GOOD_PASSWORD)
        read_until(b"Code from your authenticator app")
        typed = codes[0]
        type_when_hidden(typed)
        read_until(b"signed in")
        _, status = os.waitpid(pid, 0)
    finally:
        if status is None:  # still running: a failed step above; end the child we started
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0
    assert GOOD_PASSWORD.encode() not in transcript and typed.encode() not in transcript

    renewed = client("account", "tfa", "recovery-codes", stdin=code_at(totp, 1) + "\n")
    assert renewed.returncode == 0, renewed.stderr
    fresh = [line for line in renewed.stdout.splitlines() if RECOVERY_CODE.match(line)]
    assert len(fresh) == 10 and not set(fresh) & set(codes)
    disabled = client("account", "tfa", "disable", stdin=fresh[0] + "\n")
    assert disabled.returncode == 0, disabled.stderr
    for text in [server.log(), generated.stderr, enabled.stderr, signed_in.stdout, signed_in.stderr]:
        assert GOOD_PASSWORD not in text and codes[1] not in text
