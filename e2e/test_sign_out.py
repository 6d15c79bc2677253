"""Signing out, over HTTP against the release binary: OpenID Connect RP-Initiated Logout at
/oauth/logout (the discovery document's end_session_endpoint), and an app's sign-out by revoking
its refresh token, which ends the browser session that signed in for it. Each is judged by what
the browser that signed in gets next from /oauth/authorize: the sign-in form, or the one-click
confirmation a signed-in browser gives an app with a loopback redirect."""
import urllib.parse

import requests

from conftest import GOOD_PASSWORD
from oauth_support import (EMAIL, LOOPBACK_REDIRECT, Browser, OAuthWorld, Page, assert_error_page, authorize_params,
                           authorize_url, discovery, pkce_pair, query_of)
from test_client_cli import client, client_env, sign_in_at, start_login

SIGNED_OUT = "http://127.0.0.1/signed-out"


def register_notes(server):
    """The app `notes.app` (first-party, public, loopback redirect) with a post-logout redirect URI."""
    server.cli("clients", "create", "notes.app", "--redirect-uri", LOOPBACK_REDIRECT, "--first-party",
               "--post-logout-redirect-uri", SIGNED_OUT, "--post-logout-redirect-uri", "com.example.notes:/signed-out")


def sign_in(world, browser, server=None):
    """`browser` signs in for notes.app (on `server`, by default the world's) and the app redeems
    the code there; returns the token response."""
    world = world.on(server) if server else world
    code, verifier = world.code("notes.app", browser=browser)
    response = world.exchange(code, verifier, "notes.app")
    assert response.status_code == 200, response.text
    return response.json()


def next_sign_in(server, browser):
    """What /oauth/authorize shows `browser` next for notes.app: "form" or "one-click"."""
    _, challenge = pkce_pair()
    page = browser.get(authorize_url(server, authorize_params("notes.app", challenge)))
    assert page.status_code == 200, (page.status_code, page.headers.get("Location"))
    form = Page(page.text).form
    if "password" in Page.field_names(form):
        return "form"
    assert ("decision", "allow") in {(button.get("name"), button.get("value")) for button in form["buttons"]}
    return "one-click"


def logout_url(server, **params):
    return server.base + "/oauth/logout?" + urllib.parse.urlencode(params)


def test_discovery_names_the_end_session_endpoint(server):
    for document in ["oauth-authorization-server", "openid-configuration"]:
        assert discovery(server, document)["end_session_endpoint"] == server.base + "/oauth/logout"


def test_an_id_token_hint_signs_the_browser_out_and_returns_to_the_app_with_state(server):
    world = OAuthWorld(server)
    register_notes(server)
    browser = Browser(server)
    tokens = sign_in(world, browser)
    assert next_sign_in(server, browser) == "one-click"

    response = browser.get(logout_url(server, id_token_hint=tokens["id_token"], post_logout_redirect_uri=SIGNED_OUT,
                                      state="bye 1/2", client_id="notes.app"))
    assert response.status_code == 303, response.text[:300]
    assert response.headers["Location"].startswith(SIGNED_OUT + "?")
    assert query_of(response.headers["Location"]) == {"state": "bye 1/2"}
    assert "latchkey_session" not in browser.session.cookies.get_dict()
    assert next_sign_in(server, browser) == "form"
    # The app's own login is the app's to end: its refresh token still works.
    assert world.refresh(tokens["refresh_token"], "notes.app").status_code == 200


def test_without_a_hint_the_person_is_asked_and_only_the_form_signs_out(server):
    world = OAuthWorld(server)
    register_notes(server)
    browser = Browser(server)
    sign_in(world, browser)
    page = browser.get(logout_url(server, client_id="notes.app", ui_locales="es"))
    assert page.status_code == 200
    assert page.headers["Content-Language"] == "es"
    assert "¿Cerrar sesión?" in Page(page.text).text and EMAIL in Page(page.text).text
    assert next_sign_in(server, browser) == "one-click"

    # Another site's forged post carries no form token (and no Strict CSRF cookie).
    forged = requests.post(server.base + "/oauth/logout", data={"step": "sign_out", "client_id": "notes.app"},
                           cookies={"latchkey_session": browser.session.cookies.get("latchkey_session")},
                           allow_redirects=False, timeout=30)
    assert forged.status_code == 403
    assert next_sign_in(server, browser) == "one-click"

    form = Page(page.text).form
    signed_out = browser.post_form(page, Page.hidden_fields(form))
    assert signed_out.status_code == 200
    assert "Has cerrado sesión" in Page(signed_out.text).text
    assert next_sign_in(server, browser) == "form"


def test_an_unregistered_post_logout_uri_or_unknown_client_is_an_error_page(server):
    world = OAuthWorld(server)
    register_notes(server)
    browser = Browser(server)
    tokens = sign_in(world, browser)
    for params in [dict(client_id="notes.app", post_logout_redirect_uri="https://evil.example/"),
                   dict(id_token_hint=tokens["id_token"], post_logout_redirect_uri=LOOPBACK_REDIRECT),
                   dict(client_id="nobody.app"),
                   dict(post_logout_redirect_uri=SIGNED_OUT)]:
        response = browser.get(logout_url(server, **params))
        assert_error_page(response)
        assert "This sign-out link does not work" in Page(response.text).text
    assert next_sign_in(server, browser) == "one-click"


def test_the_apps_sign_out_by_revocation_ends_the_browser_session_that_signed_in(server):
    world = OAuthWorld(server)
    register_notes(server)
    browser, bystander = Browser(server), Browser(server)
    tokens = sign_in(world, browser)
    sign_in(world, bystander)
    assert next_sign_in(server, browser) == "one-click"
    # What the SDK's AuthSession.signOut() sends.
    assert world.revoke(tokens["refresh_token"], "notes.app", token_type_hint="refresh_token").status_code == 200
    assert next_sign_in(server, browser) == "form"
    assert next_sign_in(server, bystander) == "one-click"


def test_the_sdks_sign_out_ends_the_browser_session_it_signed_in_with(server, tmp_path):
    """`latchkey logout` is the SDK's AuthSession.signOut(): after it, the browser that signed the
    command line in asks for the password again."""
    server.create_user(EMAIL)
    server.cli("clients", "create", "cli-test", "--redirect-uri", LOOPBACK_REDIRECT, "--first-party")
    env = client_env(server, tmp_path)
    browser = Browser(server)
    login, url = start_login(env, timeout=60)
    try:
        assert browser.get(sign_in_at(browser.session, url)).status_code == 200
        _, errors = login.communicate(timeout=60)
        assert login.returncode == 0, errors
    finally:
        if login.poll() is None:
            login.kill()
            login.wait()

    def next_page():
        _, challenge = pkce_pair()
        form = Page(browser.get(authorize_url(server, authorize_params("cli-test", challenge))).text).form
        return "form" if "password" in Page.field_names(form) else "one-click"

    assert next_page() == "one-click"
    assert client(env, "logout").returncode == 0
    assert next_page() == "form"


def test_sign_out_on_one_instance_ends_the_browser_session_on_every_instance(make_cluster):
    # One public URL, as behind a load balancer: an ID token from either instance has its issuer.
    first, second = make_cluster(2, LATCHKEY_PUBLIC_URL="http://login.example.test", LATCHKEY_ALLOW_HTTP_PUBLIC_URL="true")
    world = OAuthWorld(first)
    register_notes(first)
    browser, other = Browser(first), Browser(first)
    tokens = sign_in(world, browser)
    sign_in(world, other)
    assert next_sign_in(second, browser) == "one-click"

    response = browser.get(logout_url(second, id_token_hint=tokens["id_token"]))
    assert response.status_code == 200 and "You are signed out" in Page(response.text).text
    assert next_sign_in(first, browser) == "form"

    other_tokens = sign_in(world, other, server=second)
    assert world.on(first).revoke(other_tokens["refresh_token"], "notes.app").status_code == 200
    assert next_sign_in(second, other) == "form"


def test_clients_register_and_list_post_logout_redirect_uris(server):
    register_notes(server)
    rows = {line.split("\t")[0]: line.split("\t") for line in server.cli("clients", "list").stdout.splitlines()}
    assert rows["notes.app"][7] == SIGNED_OUT + " com.example.notes:/signed-out"
    refused = server.cli("clients", "create", "bad.app", "--redirect-uri", LOOPBACK_REDIRECT,
                         "--post-logout-redirect-uri", "http://evil.example/bye", check=False)
    assert refused.returncode == 1 and "http://evil.example/bye" in refused.stderr
    assert "bad.app" not in server.cli("clients", "list").stdout


def test_a_password_sign_in_reads_userinfo(server):
    server.create_user(EMAIL)
    login = server.post("/auth/login", {"email": EMAIL, "password": GOOD_PASSWORD})
    assert login.status_code == 200, login.text
    assert set(login.json()["data"]) == {"access_token", "refresh_token", "expires", "device_token"}
    response = requests.get(server.base + "/userinfo", headers={"Authorization": f"Bearer {login.json()['data']['access_token']}"},
                            timeout=30)
    assert response.status_code == 200
    assert response.json()["email"] == EMAIL and response.json()["sub"]
