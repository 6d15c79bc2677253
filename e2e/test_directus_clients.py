"""Directus clients nobody here wrote against /auth/*: the Python SDKs py-directus and
directus-sdk-py (errors of the reset routes, json-mode login, py-directus's cookie logout), and
headless Chromium for the browser modes (`cookie`, `session`) from an app origin that routes
/auth/ to Latchkey, including requests another origin starts."""
import asyncio
import json
import time

import httpx
import pytest
import requests
from directus_sdk_py import DirectusClient
from py_directus import Directus
from py_directus.directus_response import DirectusException, DirectusResponse

from conftest import GOOD_PASSWORD, Server
from web_support import WebOrigin

EMAIL = "jane@example.com"
NEW_PASSWORD = "violet tractor quietly juggles mountains"


def directus_error(response):
    """What py-directus's response parser makes of an httpx response: its DirectusException, or None."""
    try:
        DirectusResponse(response)
    except DirectusException as error:
        return error
    return None


def post(server, path, body):
    return httpx.post(server.base + path, json=body, timeout=30)


def test_py_directus_reads_the_errors_of_the_reset_routes(make_server):
    """py-directus's parser used to read nothing from these routes (no `errors` key); now it gets
    Directus's code and message, and Latchkey's own shape is still there with Latchkey's status."""
    server = make_server(LATCHKEY_RESET_IP_LIMIT="8/600", LATCHKEY_RESET_VALIDATE_IP_LIMIT="8/600")
    server.create_user(EMAIL)

    bad_address = directus_error(post(server, "/auth/password/request", {"email": "not an address"}))
    assert (bad_address.status_code, bad_address.code) == (400, "FAILED_VALIDATION")
    assert bad_address.message
    assert bad_address.response.json["errors"][0]["extensions"]["field"] == "email"
    assert bad_address.response.json["error"]["code"] == "invalid_email"

    assert directus_error(post(server, "/auth/password/request", {"email": EMAIL})) is None
    token = Server.token_in(server.wait_for_mails(EMAIL, 1)[0])

    for path, body in [("/auth/password/validate", {"token": "A" * 43}),
                       ("/auth/password/reset", {"token": "A" * 43, "password": NEW_PASSWORD})]:
        refused = directus_error(post(server, path, body))
        assert (refused.status_code, refused.code) == (400, "INVALID_TOKEN"), path
        assert refused.message == "The link is no longer valid. Please request a new one."
        assert refused.response.json["error"]["code"] == "invalid_token"

    weak = directus_error(post(server, "/auth/password/reset", {"token": token, "password": "short"}))
    assert (weak.status_code, weak.code) == (400, "FAILED_VALIDATION")
    assert weak.response.json["errors"][0]["extensions"]["field"] == "password"
    assert "too_short" in weak.response.json["error"]["reasons"]

    missing = directus_error(post(server, "/auth/password/reset", {"token": token}))
    assert (missing.status_code, missing.code) == (400, "INVALID_PAYLOAD")

    # The refused password left the token usable; the reset itself answers 200 as before.
    assert directus_error(post(server, "/auth/password/reset", {"token": token, "password": NEW_PASSWORD})) is None
    assert server.password_matches(EMAIL, NEW_PASSWORD)

    for _ in range(8):
        limited = directus_error(post(server, "/auth/password/validate", {"token": "A" * 43}))
        if limited.status_code == 429:
            break
    assert (limited.status_code, limited.code) == (429, "REQUESTS_EXCEEDED")
    assert int(limited.response.response.headers["Retry-After"]) > 0


def test_directus_sdk_py_logs_in_refreshes_and_logs_out_and_reads_errors(server):
    server.create_user(EMAIL)
    client = DirectusClient(server.base, email=EMAIL, password=GOOD_PASSWORD)
    assert client.temporary_token.count(".") == 2 and client.expires == 600_000
    first = client.refresh_token
    client.refresh(first)
    assert client.refresh_token != first
    client.logout()
    with pytest.raises(Exception) as refused:
        client.refresh(client.refresh_token or first)
    assert "INVALID_TOKEN" in str(refused.value)

    assert DirectusClient(server.base).login(EMAIL, "not the password") == {"errors": "Invalid user credentials."}
    with pytest.raises(AssertionError) as error:
        DirectusClient(server.base).post("/auth/password/request", json={"email": "nope"})
    body = json.loads(str(error.value))
    assert body["errors"][0]["extensions"]["code"] == "FAILED_VALIDATION" and body["error"]["code"] == "invalid_email"


def test_py_directus_logs_in_and_its_bare_logout_ends_a_cookie_mode_login(server):
    """py-directus signs in (json mode) and refreshes; its logout() posts no body at all, which
    works once its HTTP client holds the refresh cookie of a cookie-mode login."""
    server.create_user(EMAIL)

    async def run():
        async with httpx.AsyncClient() as connection:
            directus = await Directus(server.base, email=EMAIL, password=GOOD_PASSWORD, connection=connection)
            first = directus.refresh_token
            await directus.refresh()
            assert directus.refresh_token != first and directus.expires == 600_000

            cookie_login = await connection.post(server.base + "/auth/login",
                                                 json={"email": EMAIL, "password": GOOD_PASSWORD, "mode": "cookie"})
            data = cookie_login.json()["data"]
            assert set(data) == {"access_token", "expires"}
            cookie = connection.cookies.get("directus_refresh_token")
            assert cookie
            await directus.logout()  # POST /auth/logout, no body: the cookie is the token
            refused = await connection.post(server.base + "/auth/refresh", json={"refresh_token": cookie})
            assert directus_error(refused).code == "INVALID_TOKEN"

    asyncio.run(run())
    assert '"route":"directus_logout","status":204' in server.log()


# The browser modes, as the Directus JS SDK uses them: fetch with credentials, JSON bodies.
APP_PAGE = """<!doctype html><title>app</title><script>
async function call(path, body) {
  const init = {method: "POST", credentials: "include"};
  if (body != null) { init.headers = {"Content-Type": "application/json"}; init.body = JSON.stringify(body); }
  const response = await fetch(path, init);
  const text = await response.text();
  return {status: response.status, body: text ? JSON.parse(text) : null};
}
</script>"""

ATTACK_PAGE = """<!doctype html><title>attack</title>
<form id="f" method="post" action="%s/auth/logout"></form><script>document.getElementById("f").submit();</script>"""


def call(browser, path, body=None):
    """Runs the app page's fetch in the browser; returns {status, body}."""
    return browser.execute_async_script(
        "const done = arguments[arguments.length - 1]; call(arguments[0], arguments[1]).then(done, e => done({error: String(e)}));",
        path, body)


@pytest.fixture
def app_origin(make_server):
    """An app whose origin routes /auth/* to Latchkey (served on its own origin, the OAuth
    issuer), with that app origin in LATCHKEY_AUTH_COOKIE_ORIGINS."""
    proxy = WebOrigin({"/app.html": APP_PAGE})
    server = make_server(LATCHKEY_AUTH_COOKIE_ORIGINS=proxy.base)
    proxy.forward_to(server.base)
    server.create_user(EMAIL)
    yield proxy, server
    proxy.stop()


def cookies_by_name(browser):
    """Every cookie the browser holds (also those for other paths than the page's), by name."""
    return {cookie["name"]: cookie for cookie in browser.execute_cdp_cmd("Network.getAllCookies", {})["cookies"]}


def test_cookie_mode_in_a_browser(app_origin, browser):
    proxy, _ = app_origin
    browser.get(proxy.base + "/app.html")
    login = call(browser, "/auth/login", {"email": EMAIL, "password": GOOD_PASSWORD, "mode": "cookie"})
    assert login["status"] == 200 and set(login["body"]["data"]) == {"access_token", "expires"}
    cookie = cookies_by_name(browser)["directus_refresh_token"]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/auth"
    assert browser.execute_script("return document.cookie") == ""  # scripts never see it

    refreshed = call(browser, "/auth/refresh", {"mode": "cookie"})
    assert refreshed["status"] == 200 and set(refreshed["body"]["data"]) == {"access_token", "expires"}
    assert cookies_by_name(browser)["directus_refresh_token"]["value"] != cookie["value"]

    logout = call(browser, "/auth/logout")
    assert logout["status"] == 204, logout  # a bare POST, as browsers send it
    assert "directus_refresh_token" not in cookies_by_name(browser)
    after = call(browser, "/auth/refresh", {"mode": "cookie"})
    assert after["status"] == 400 and after["body"]["errors"][0]["extensions"]["code"] == "INVALID_PAYLOAD"


def test_session_mode_in_a_browser(app_origin, browser):
    proxy, server = app_origin
    browser.get(proxy.base + "/app.html")
    login = call(browser, "/auth/login", {"email": EMAIL, "password": GOOD_PASSWORD, "mode": "session"})
    assert login["status"] == 200 and login["body"] == {"data": {"expires": 600_000}}
    cookies = cookies_by_name(browser)
    session = cookies["directus_session_token"]
    assert session["httpOnly"] and session["sameSite"] == "Lax" and session["path"] == "/"
    assert session["value"].count(".") == 2  # the access token, a JWT a resource server on this origin verifies

    refreshed = call(browser, "/auth/refresh", {"mode": "session"})
    assert refreshed["status"] == 200 and refreshed["body"] == {"data": {"expires": 600_000}}
    renewed = cookies_by_name(browser)["directus_session_token"]["value"]
    assert renewed != session["value"]
    assert requests.get(server.base + "/.well-known/jwks.json", timeout=30).status_code == 200

    assert call(browser, "/auth/logout", {"mode": "session"})["status"] == 204
    assert not {"directus_session_token", "directus_refresh_token"} & cookies_by_name(browser).keys()
    assert call(browser, "/auth/refresh", {"mode": "session"})["status"] == 400


@pytest.mark.parametrize("attacker_host, cookie_sent", [("127.0.0.1", True), ("localhost", False)])
def test_another_origin_cannot_use_the_cookies(app_origin, browser, attacker_host, cookie_sent):
    """A page elsewhere — same site on another port (the Strict cookie is sent: the Origin check
    refuses it) or another site (SameSite keeps the cookie back) — posts a bare form to
    /auth/logout; the login survives."""
    proxy, _ = app_origin
    browser.get(proxy.base + "/app.html")
    assert call(browser, "/auth/login", {"email": EMAIL, "password": GOOD_PASSWORD, "mode": "cookie"})["status"] == 200

    attacker = WebOrigin({"/attack.html": ATTACK_PAGE % proxy.base}, host=attacker_host)
    try:
        browser.get(attacker.base + "/attack.html")  # the form submits itself on load
        deadline = time.time() + 15
        while len(proxy.forwarded) < 2 and time.time() < deadline:
            time.sleep(0.05)
        [(path, status, headers)] = proxy.forwarded[1:]
        assert (path, status) == ("/auth/logout", 403)
        assert headers["Origin"] == attacker.base
        assert ("directus_refresh_token=" in headers.get("Cookie", "")) == cookie_sent
    finally:
        attacker.stop()

    browser.get(proxy.base + "/app.html")
    assert call(browser, "/auth/refresh", {"mode": "cookie"})["status"] == 200
