"""`__Host-` names for Directus's cookie modes (issue 35, finding 8), through the release binary.

With `LATCHKEY_COOKIE_HOST_PREFIX=true` (and an https public URL, here the server's own TLS),
`/auth/login` in `cookie` mode sets `__Host-directus_refresh_token` (`Secure`, `Path=/`, no
`Domain`), `/auth/refresh` and `/auth/logout` read that name only: a `directus_refresh_token`
planted by a sibling subdomain is ignored, alone or beside the real one.
"""
import requests

from conftest import GOOD_PASSWORD

EMAIL = "pat@example.com"
PREFIXED = "__Host-directus_refresh_token"


def post(server, path, body, cookie=None):
    headers = {"Content-Type": "application/json", "Origin": server.base}
    if cookie:
        headers["Cookie"] = cookie
    return requests.post(server.base + path, json=body, headers=headers, timeout=30, verify=server.verify)


def set_cookie(response, name):
    [header] = [value for value in response.raw.headers.getlist("Set-Cookie") if value.startswith(name + "=")]
    parts = [part.strip() for part in header.split(";")]
    return parts[0].split("=", 1)[1], {part.split("=", 1)[0].lower(): (part.split("=", 1) + [""])[1] for part in parts[1:]}


def test_the_refresh_cookie_is_host_prefixed_and_a_planted_one_is_ignored(make_server, certificate):
    cert, key = certificate
    server = make_server(LATCHKEY_TLS_CERT=cert, LATCHKEY_TLS_KEY=key, LATCHKEY_COOKIE_HOST_PREFIX="true")
    server.create_user(EMAIL, GOOD_PASSWORD)

    login = post(server, "/auth/login", {"email": EMAIL, "password": GOOD_PASSWORD, "mode": "cookie"})
    assert login.status_code == 200, login.text
    token, attributes = set_cookie(login, PREFIXED)
    assert attributes == {"path": "/", "max-age": "604800", "httponly": "", "samesite": "Strict", "secure": ""}
    assert all(value.startswith("__Host-") for value in login.raw.headers.getlist("Set-Cookie"))

    # A sibling subdomain planted Directus's plain name: not read.
    planted = post(server, "/auth/refresh", {"mode": "cookie"}, cookie=f"directus_refresh_token={token}")
    assert planted.status_code == 400
    assert planted.json()["errors"][0]["extensions"]["code"] == "INVALID_PAYLOAD"
    # Beside the real one, the planted one changes nothing.
    refreshed = post(server, "/auth/refresh", {"mode": "cookie"}, cookie=f"directus_refresh_token=planted; {PREFIXED}={token}")
    assert refreshed.status_code == 200, refreshed.text
    renewed, _ = set_cookie(refreshed, PREFIXED)
    assert renewed != token

    logout = post(server, "/auth/logout", {"mode": "cookie"}, cookie=f"{PREFIXED}={renewed}")
    assert logout.status_code == 204
    cleared, attributes = set_cookie(logout, PREFIXED)
    assert cleared == "" and attributes["max-age"] == "0"


def test_the_prefix_needs_an_https_public_url(make_server):
    try:
        make_server(LATCHKEY_COOKIE_HOST_PREFIX="true")
    except RuntimeError as failure:
        assert "LATCHKEY_COOKIE_HOST_PREFIX needs an https LATCHKEY_PUBLIC_URL" in str(failure)
    else:
        raise AssertionError("the server started with __Host- cookies over http")
