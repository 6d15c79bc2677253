"""The client commands (`latchkey login/token/logout/reset`) against the real server.

The OAuth login goes through the RFC 8252 loopback redirect: `latchkey login` runs in the
background, the test reads the authorization URL it prints, plays the browser with
requests.Session (GET the login page, submit its form with the page's cookies), follows
the redirect to the loopback listener, then checks `latchkey token`.
"""
import html.parser
import json
import os
import select
import socket
import stat
import subprocess
import threading
import time
import urllib.parse

import requests

from conftest import BINARY, GOOD_PASSWORD


class LoginForm(html.parser.HTMLParser):
    """The first <form> of a page: its action, method and every <input> name/value."""

    def __init__(self):
        super().__init__()
        self.action = None
        self.method = None
        self.fields = {}
        self.in_form = False
        self.done = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and not self.done and self.action is None:
            self.action = attrs.get("action", "")
            self.method = (attrs.get("method") or "get").lower()
            self.in_form = True
        elif tag == "input" and self.in_form and attrs.get("name"):
            self.fields[attrs["name"]] = attrs.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "form" and self.in_form:
            self.in_form = False
            self.done = True


def client_env(server, tmp_path):
    env = dict(server.env)
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    env["LATCHKEY_ISSUER"] = server.base
    return env


def client(env, *args, stdin=None):
    return subprocess.run([str(BINARY), *args], env=env, input=stdin, capture_output=True, text=True, timeout=60)


def stored_tokens(tmp_path):
    return json.loads((tmp_path / "state" / "latchkey" / "tokens.json").read_text())


def expire_stored_token(tmp_path):
    path = tmp_path / "state" / "latchkey" / "tokens.json"
    tokens = json.loads(path.read_text())
    tokens["expires_at"] = time.time() - 1
    path.write_text(json.dumps(tokens))


def refresh_count(server, route, status):
    metrics = requests.get(server.base + "/metrics", timeout=10).text
    prefix = f'latchkey_http_requests_total{{route="{route}",status="{status}"}} '
    return sum(int(line[len(prefix):]) for line in metrics.splitlines() if line.startswith(prefix))


def start_login(env, timeout):
    """`latchkey login` with the loopback redirect, in the background, and the
    authorization URL it printed."""
    login = subprocess.Popen(
        [str(BINARY), "login", "--client-id", "cli-test", "--no-browser", "--timeout", str(timeout)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return login, login.stdout.readline().strip()


def sign_in_at(browser, url):
    """Plays the browser: opens the authorization URL, submits the sign-in form as Jane, and
    returns where the server redirects (the loopback callback, not followed)."""
    page = browser.get(url, timeout=10)
    assert page.status_code == 200
    form = LoginForm()
    form.feed(page.text)
    assert form.method == "post" and "csrf_token" in form.fields
    form.fields.update({"email": "jane@example.com", "password": GOOD_PASSWORD})
    answer = browser.post(urllib.parse.urljoin(page.url, form.action), data=form.fields, allow_redirects=False, timeout=30)
    assert answer.status_code in (302, 303), answer.text[:500]
    return answer.headers["Location"]


def test_oauth_login_through_loopback_redirect(server, tmp_path):
    metadata = requests.get(server.base + "/.well-known/oauth-authorization-server", timeout=10)
    assert metadata.status_code == 200
    server.create_user("jane@example.com")
    server.cli("clients", "create", "cli-test", "--redirect-uri", "http://127.0.0.1/callback", "--first-party")
    env = client_env(server, tmp_path)

    login, url = start_login(env, timeout=60)
    try:
        assert url.startswith(metadata.json()["authorization_endpoint"] + "?"), login.stderr.read() if not url else url
        params = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
        assert params["response_type"] == ["code"]
        assert params["client_id"] == ["cli-test"]
        assert params["code_challenge_method"] == ["S256"]
        assert len(params["code_challenge"][0]) == 43
        redirect_uri = params["redirect_uri"][0]
        assert redirect_uri.startswith("http://127.0.0.1:") and redirect_uri.endswith("/callback")

        browser = requests.Session()
        location = sign_in_at(browser, url)
        assert location.startswith(redirect_uri + "?")
        returned = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)
        assert returned["state"] == params["state"]
        assert returned["iss"] == [metadata.json()["issuer"]]

        callback = browser.get(location, timeout=10)
        assert callback.status_code == 200
        _, errors = login.communicate(timeout=60)
        assert login.returncode == 0, errors
    finally:
        if login.poll() is None:
            login.kill()
            login.wait()

    directory = tmp_path / "state" / "latchkey"
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert stat.S_IMODE((directory / "tokens.json").stat().st_mode) == 0o600
    token = client(env, "token")
    assert token.returncode == 0, token.stderr
    assert token.stdout.strip() == stored_tokens(tmp_path)["access_token"]
    assert token.stdout.count(".") == 2

    # Expired: `latchkey token` refreshes at the token endpoint, twice at once → once.
    expire_stored_token(tmp_path)
    results = [None, None]

    def run(index):
        results[index] = client(env, "token")

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(result.returncode == 0 for result in results), [result.stderr for result in results]
    assert results[0].stdout == results[1].stdout != token.stdout

    refresh_token = stored_tokens(tmp_path)["refresh_token"]
    assert client(env, "logout").returncode == 0
    assert not (directory / "tokens.json").exists()
    refused = requests.post(metadata.json()["token_endpoint"], data={
        "grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": "cli-test"}, timeout=10)
    assert refused.status_code == 400
    assert refused.json()["error"] == "invalid_grant"


def test_login_ignores_a_callback_with_another_state_and_keeps_waiting(server, tmp_path):
    """Another local program can reach the loopback port: a callback that is not the answer
    to this sign-in (wrong or missing state) gets an error page and changes nothing; the
    real answer that follows completes the login."""
    server.create_user("jane@example.com")
    server.cli("clients", "create", "cli-test", "--redirect-uri", "http://127.0.0.1/callback", "--first-party")
    env = client_env(server, tmp_path)
    login, url = start_login(env, timeout=60)
    try:
        redirect_uri = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["redirect_uri"][0]
        for forged in ({"code": "attacker-code", "state": "forged", "iss": server.base}, {"code": "attacker-code"}):
            answer = requests.get(redirect_uri + "?" + urllib.parse.urlencode(forged), timeout=10)
            assert answer.status_code == 400
            assert "not for the sign-in in progress" in answer.text
        time.sleep(0.5)
        assert login.poll() is None
        assert not (tmp_path / "state" / "latchkey" / "tokens.json").exists()

        location = sign_in_at(requests.Session(), url)
        assert requests.get(location, timeout=10).status_code == 200
        _, errors = login.communicate(timeout=60)
        assert login.returncode == 0, errors
    finally:
        if login.poll() is None:
            login.kill()
            login.wait()
    assert client(env, "token").returncode == 0
    assert refresh_count(server, "oauth_token", 400) == 0


def test_login_listener_drops_a_connection_that_dribbles_its_request(server, tmp_path):
    """A local client sending its request a byte at a time cannot hold the listener: it is
    answered and dropped within the per-connection read time (5 s), and login still waits."""
    server.cli("clients", "create", "cli-test", "--redirect-uri", "http://127.0.0.1/callback", "--first-party")
    env = client_env(server, tmp_path)
    login, url = start_login(env, timeout=120)
    try:
        redirect = urllib.parse.urlsplit(urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["redirect_uri"][0])
        head = b"GET /elsewhere HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"a" * 4096
        dropped = False
        with socket.create_connection((redirect.hostname, redirect.port), timeout=10) as slow:
            for byte in head[:120]:  # two bytes a second: a minute at most
                try:
                    slow.sendall(bytes([byte]))
                except OSError:
                    dropped = True
                    break
                if select.select([slow], [], [], 0.5)[0]:
                    dropped = slow.recv(100).startswith(b"HTTP/1.1 404")
                    break
        assert dropped
        assert login.poll() is None
    finally:
        login.kill()
        login.wait()


def test_token_from_two_processes_refreshes_once(server, tmp_path):
    server.create_user("jane@example.com")
    env = client_env(server, tmp_path)
    login = client(env, "login", "--email", "jane@example.com", "--password-stdin", stdin=GOOD_PASSWORD + "\n")
    assert login.returncode == 0, login.stderr
    expire_stored_token(tmp_path)

    processes = [subprocess.Popen([str(BINARY), "token"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(4)]
    outputs = [process.communicate(timeout=60) for process in processes]
    assert all(process.returncode == 0 for process in processes), [err for _, err in outputs]
    assert len({out for out, _ in outputs}) == 1
    assert refresh_count(server, "directus_refresh", 200) == 1
    assert refresh_count(server, "directus_refresh", 401) == 0


def test_reset_through_the_client_commands(server, tmp_path):
    server.create_user("jane@example.com")
    env = client_env(server, tmp_path)
    assert client(env, "reset", "request", "jane@example.com").returncode == 0
    [mail] = server.wait_for_mails("jane@example.com", 1)
    link = f"{server.base}/reset-password#token={server.token_in(mail)}"
    new_password = "violet tractor quietly juggles mountains"
    # The link (it holds the token) is refused as an argument, where `ps` would show it.
    in_argv = client(env, "reset", "complete", link, stdin=new_password + "\n")
    assert in_argv.returncode == 2
    assert link not in in_argv.stderr
    done = client(env, "reset", "complete", stdin=link + "\n" + new_password + "\n")
    assert done.returncode == 0, done.stderr
    assert server.password_matches("jane@example.com", new_password)
    assert new_password not in done.stdout + done.stderr
    assert server.token_in(mail) not in done.stdout + done.stderr


def test_a_reset_for_the_signed_in_account_signs_the_command_line_out(server, tmp_path):
    server.create_user("jane@example.com")
    server.create_user("sam@example.com")
    env = client_env(server, tmp_path)
    assert client(env, "login", "--email", "jane@example.com", "--password-stdin", stdin=GOOD_PASSWORD + "\n").returncode == 0
    assert client(env, "token").returncode == 0

    def reset(address, password):
        assert client(env, "reset", "request", address).returncode == 0
        mail = server.wait_for_mails(address, 1)[-1]
        link = f"{server.base}/reset-password#token={server.token_in(mail)}"
        return client(env, "reset", "complete", stdin=link + "\n" + password + "\n")

    # Another account's reset leaves this session alone.
    other = reset("sam@example.com", "violet tractor quietly juggles mountains")
    assert other.returncode == 0, other.stderr
    assert "signed out" not in other.stderr
    assert client(env, "token").returncode == 0

    # Its own reset ended every login of the account: `token` must not hand out the dead one.
    own = reset("jane@example.com", "amber kettle softly crosses rivers")
    assert own.returncode == 0, own.stderr
    assert "signed out" in own.stderr
    token = client(env, "token")
    assert token.returncode == 1 and token.stdout == ""
    assert "not signed in" in token.stderr or "signed out" in token.stderr, token.stderr


def test_logout_twice_is_no_failure(server, tmp_path):
    server.create_user("jane@example.com")
    env = client_env(server, tmp_path)
    assert client(env, "login", "--email", "jane@example.com", "--password-stdin", stdin=GOOD_PASSWORD + "\n").returncode == 0
    assert client(env, "logout").returncode == 0
    again = client(env, "logout")
    assert again.returncode == 0 and "not signed in" in again.stderr


def test_reset_request_without_an_address_asks_for_the_address(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    result = client(env, "reset", "request")
    assert result.returncode == 2
    assert "EMAIL" in result.stderr and "--issuer" not in result.stderr


def test_a_limited_client_command_says_how_long_to_wait(make_server, tmp_path):
    """Past a limit, the client commands say how long to wait (the server's Retry-After, rounded
    up to a step a person can act on), not "a moment". The reset budget is spent by the first two
    requests: `reset request` is then refused until the ten-minute window has room, and
    `reset complete`, which shares the budget, is told what remains of that wait (an attempt
    while blocked never lengthens it); sign-ins have a budget of their own (one per hour here)."""
    server = make_server(LATCHKEY_RESET_IP_LIMIT="2/600", LATCHKEY_LOGIN_IP_LIMIT="1/3600")
    server.create_user("jane@example.com")
    env = client_env(server, tmp_path)
    for _ in range(2):
        assert client(env, "reset", "request", "jane@example.com").returncode == 0

    request = client(env, "reset", "request", "jane@example.com")
    link = f"{server.base}/reset-password#token={'A' * 43}"
    complete = client(env, "reset", "complete", stdin=link + "\nviolet tractor quietly juggles mountains\n")
    assert request.returncode == 1
    assert request.stderr == "latchkey: Too many attempts. Please try again in 10 minutes. (rate_limited)\n"
    assert complete.returncode == 1
    assert complete.stderr == "latchkey: Too many attempts. Please try again in 10 minutes. (rate_limited)\n"

    login = ["login", "--email", "jane@example.com", "--password-stdin"]
    assert client(env, *login, stdin=GOOD_PASSWORD + "\n").returncode == 0
    # Another machine (a state directory without this one's device token) is held …
    again = client(client_env(server, tmp_path / "other"), *login, stdin=GOOD_PASSWORD + "\n")
    assert again.returncode == 1
    assert again.stderr == "latchkey: Too many attempts. Please try again in 1 hour. (rate_limited)\n"
    # … while this one is a recognised device, which the per-address limit does not hold.
    assert client(env, *login, stdin=GOOD_PASSWORD + "\n").returncode == 0


def test_login_with_a_client_the_server_refuses_fails_at_once(server, tmp_path):
    """`latchkey login --client-id` asks the authorization endpoint first: an unknown client, a
    redirect URI not registered for it or a scope it may not request fails within seconds with
    the server's reason, instead of waiting for a callback that never comes (300 s)."""
    server.cli("clients", "create", "cli.tool", "--redirect-uri", "http://127.0.0.1/callback")
    env = client_env(server, tmp_path)
    cases = [
        (("--client-id", "nope"), ["The client is not registered",
                                   "latchkey clients create nope --redirect-uri http://127.0.0.1/callback"]),
        (("--client-id", "cli.tool", "--redirect-uri", "http://127.0.0.1/elsewhere"),
         ["The redirect URI is not registered for this client", "--redirect-uri http://127.0.0.1/elsewhere"]),
        (("--client-id", "cli.tool", "--scope", "openid", "--scope", "calendar"), ["invalid_scope"]),
    ]
    for args, expected in cases:
        started = time.monotonic()
        result = client(env, "login", *args, "--no-browser")
        assert result.returncode == 1, (args, result.stderr)
        assert time.monotonic() - started < 20, args
        for text in expected:
            assert text in result.stderr, (args, result.stderr)
        assert "Open this URL" not in result.stderr and result.stdout == "", (args, result.stderr)
    assert not (tmp_path / "state" / "latchkey" / "tokens.json").exists()
