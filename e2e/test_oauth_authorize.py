"""GET/POST /oauth/authorize: request checks, redirect URI rules, the login and consent pages, CSRF."""
import re
import urllib.parse

import pytest

from conftest import GOOD_PASSWORD
from oauth_support import (EMAIL, LOOPBACK_REDIRECT, Browser, OAuthWorld, Page, assert_error_page, authorize_params,
                           authorize_url, cookie_attributes, pkce_pair, redirect_params, register_client, set_cookie)

NEW_PASSWORD = "violet tractor quietly juggles mountains"


def request(server, client_id="ios.app", browser=None, **params):
    _, challenge = pkce_pair()
    return (browser or Browser(server)).get(authorize_url(server, authorize_params(client_id, challenge, **params)))


def assert_error_redirect(response, error, state="state-1", server=None):
    params = redirect_params(response)
    assert params["error"] == error, params
    assert params.get("error_description")
    assert "code" not in params
    if state is not None:
        assert params["state"] == state
    if server is not None:
        assert params["iss"] == server.base
    return params


def test_login_page_carries_every_parameter_a_csrf_token_and_strict_headers(server):
    OAuthWorld(server)
    verifier, challenge = pkce_pair()
    params = authorize_params("ios.app", challenge, state="s/ä b&c=d", nonce="n-123")
    browser = Browser(server)
    page = browser.get(authorize_url(server, params))
    assert page.status_code == 200
    assert page.headers["Content-Type"].startswith("text/html")
    parsed = Page(page.text)
    form = parsed.form
    assert form["method"] == "post" and form["action"] == "/oauth/authorize"
    hidden = dict(Page.hidden_fields(form))
    assert len(hidden) == len(Page.hidden_fields(form)), "a hidden field appears twice"
    for name, value in params:
        assert hidden.get(name) == value, (name, hidden.get(name))
    assert re.fullmatch(r"\S{16,}", hidden["csrf_token"])
    fields = {field.get("name"): field for field in form["fields"]}
    assert "email" in fields
    assert fields["password"].get("type") == "password"
    assert any(urllib.parse.urlsplit(link).path == "/reset-password" for link in parsed.links), parsed.links

    csp = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp or "default-src 'self'" in csp, csp
    assert "frame-ancestors 'none'" in csp, csp
    assert not [asset for asset in parsed.assets if re.match(r"(?i)(https?:)?//", asset)], parsed.assets
    assert not re.search(r"(?i)url\(\s*['\"]?(https?:)?//|@import", page.text)

    attributes = cookie_attributes(set_cookie(page, "latchkey_csrf"))
    assert "httponly" in attributes
    assert attributes["samesite"].lower() == "strict"
    assert attributes["path"] == "/oauth"
    assert set_cookie(page, "latchkey_session") is None


def test_login_hint_prefills_the_email_and_ui_locales_picks_the_language(server):
    OAuthWorld(server)
    page = request(server, login_hint="hint@example.com")
    fields = {field.get("name"): field for field in Page(page.text).form["fields"]}
    assert fields["email"].get("value") == "hint@example.com"

    english = Page(request(server, ui_locales="en").text)
    portuguese = Page(request(server, ui_locales="pt").text)
    arabic = Page(request(server, ui_locales="ar").text)
    assert english.root.get("lang") == "en"
    assert portuguese.root.get("lang") == "pt"
    assert arabic.root.get("lang") == "ar" and arabic.root.get("dir") == "rtl"
    assert english.text != portuguese.text


@pytest.mark.parametrize("changes", [
    {"code_challenge": None},
    {"code_challenge_method": "plain"},
    {"code_challenge_method": None},
    {"code_challenge": "too-short"},
    {"code_challenge": "!" * 43},
])
def test_pkce_s256_is_required(server, changes):
    OAuthWorld(server)
    assert_error_redirect(request(server, **changes), "invalid_request", server=server)


def test_unknown_or_missing_client_gets_an_error_page_never_a_redirect(server):
    OAuthWorld(server)
    assert_error_page(request(server, client_id="no.such.app"))
    _, challenge = pkce_pair()
    without_client = [pair for pair in authorize_params("ios.app", challenge) if pair[0] != "client_id"]
    assert_error_page(Browser(server).get(authorize_url(server, without_client)))


@pytest.mark.parametrize("redirect_uri", [
    None,
    "",
    "https://evil.example/callback",
    "http://127.0.0.1/callback/extra",
    "http://127.0.0.1/callback/../callback",
    "http://127.0.0.1/callback?x=1",
    "http://127.0.0.1/callback#fragment",
    "http://127.0.0.1/CALLBACK",
    "http://127.0.0.1@evil.example/callback",
    "http://127.0.0.1:80@evil.example/callback",
    "http://evil.example@127.0.0.1.evil.example/callback",
    "https://127.0.0.1/callback",
    "http://localhost/callback",
    "http://127.0.0.2/callback",
    "//evil.example/callback",
    "javascript:alert(1)",
])
def test_unregistered_redirect_uris_get_an_error_page_never_a_redirect(server, redirect_uri):
    register_client(server, "ios.app")
    answer = request(server, redirect_uri=redirect_uri)
    assert_error_page(answer)
    page = Page(answer.text)
    assert not page.forms
    assert not [link for link in page.links if "evil" in link or link.startswith(("javascript:", "//"))]
    assert not re.search(r"(?i)http-equiv\s*=\s*[\"']?refresh", answer.text)


@pytest.mark.parametrize("redirect_uri", [
    "https://app.example.com.evil.example/cb",
    "https://app.example.com:8443/cb",
    "http://app.example.com/cb",
    "https://app.example.com/cb/",
    "com.example.app:/oauth/evil",
    "com.example.evil:/oauth",
    "com.example.app://oauth",
])
def test_https_and_private_use_redirects_match_exactly(server, redirect_uri):
    register_client(server, "multi.app", "https://app.example.com/cb", "com.example.app:/oauth")
    assert request(server, client_id="multi.app", redirect_uri="https://app.example.com/cb").status_code == 200
    assert request(server, client_id="multi.app", redirect_uri="com.example.app:/oauth").status_code == 200
    assert_error_page(request(server, client_id="multi.app", redirect_uri=redirect_uri))


def test_private_use_scheme_redirect_gets_the_code(server):
    world = OAuthWorld(server)
    register_client(server, "scheme.app", "com.example.app:/oauth")
    code, verifier = world.code("scheme.app", redirect_uri="com.example.app:/oauth")
    assert world.exchange(code, verifier, "scheme.app", redirect_uri="com.example.app:/oauth").status_code == 200


def test_loopback_redirect_may_use_any_port(server):
    world = OAuthWorld(server)
    redirect = "http://127.0.0.1:54321/callback"
    code, verifier = world.code(redirect_uri=redirect)
    assert world.exchange(code, verifier, redirect_uri=redirect).status_code == 200


def test_only_the_code_response_type_is_supported(server):
    OAuthWorld(server)
    assert_error_redirect(request(server, response_type="token"), "unsupported_response_type", server=server)
    assert_error_redirect(request(server, response_type="code id_token"), "unsupported_response_type", server=server)


def test_a_repeated_parameter_is_invalid_request(server):
    OAuthWorld(server)
    _, challenge = pkce_pair()
    browser = Browser(server)
    repeated_scope = authorize_params("ios.app", challenge) + [("scope", "openid")]
    assert_error_redirect(browser.get(authorize_url(server, repeated_scope)), "invalid_request", server=server)
    repeated_challenge = authorize_params("ios.app", challenge) + [("code_challenge", challenge)]
    assert_error_redirect(browser.get(authorize_url(server, repeated_challenge)), "invalid_request", server=server)

    # A repeated redirect_uri or client_id must never send the browser to the attacker's value.
    for extra in [("redirect_uri", "https://evil.example/cb"), ("client_id", "partner.app")]:
        answer = browser.get(authorize_url(server, authorize_params("ios.app", challenge) + [extra]))
        if answer.status_code == 303:
            assert answer.headers["Location"].startswith(LOOPBACK_REDIRECT + "?")
            assert_error_redirect(answer, "invalid_request")
        else:
            assert_error_page(answer)


def test_scope_must_be_registered_or_openid_or_email(server):
    world = OAuthWorld(server)
    assert_error_redirect(request(server, scope="openid admin"), "invalid_scope", server=server)
    assert_error_redirect(request(server, scope="notes.read"), "invalid_scope", server=server)
    register_client(server, "notes.app", scopes=["notes.read"])
    code, verifier = world.code("notes.app", scope="openid notes.read")
    granted = world.exchange(code, verifier, "notes.app")
    assert granted.status_code == 200
    assert set(granted.json()["scope"].split()) == {"openid", "notes.read"}


def test_state_is_echoed_exactly_with_the_code(server):
    OAuthWorld(server)
    state = "s/ä b&c=d+e%20"
    browser = Browser(server)
    page = request(server, browser=browser, state=state)
    params = redirect_params(browser.sign_in(page))
    assert params["state"] == state
    assert params["iss"] == server.base
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", params["code"])


def test_successful_login_sets_a_lax_httponly_session_cookie(server):
    OAuthWorld(server)
    browser = Browser(server)
    answer = browser.sign_in(request(server, browser=browser))
    assert answer.status_code == 303
    attributes = cookie_attributes(set_cookie(answer, "latchkey_session"))
    assert "httponly" in attributes
    assert attributes["samesite"].lower() == "lax"
    assert attributes["path"] == "/oauth"  # only the authorization pages need the session


def test_signed_in_browser_gets_a_code_at_once_and_prompt_login_asks_again(server):
    OAuthWorld(server)
    browser = Browser(server)
    redirect_params(browser.sign_in(request(server, browser=browser)))

    # web.app authenticates with its secret: a signed-in browser gets its code at once.
    direct = request(server, client_id="web.app", browser=browser, state="second")
    assert redirect_params(direct)["state"] == "second"
    assert "code" in redirect_params(direct)

    # Any local app can listen on loopback as ios.app would (RFC 8252 §8.6): the signed-in
    # browser must confirm with a click, no password, before ios.app gets another code.
    again = request(server, browser=browser, state="third")
    assert again.status_code == 200
    assert "password" not in Page.field_names(Page(again.text).form)
    confirmed = redirect_params(browser.decide(again, "allow"))
    assert confirmed["state"] == "third" and "code" in confirmed

    forced = request(server, browser=browser, prompt="login")
    assert forced.status_code == 200
    assert "password" in Page.field_names(Page(forced.text).form)
    assert "code" in redirect_params(browser.sign_in(forced))

    stranger = Browser(server)
    stranger.session.cookies.set("latchkey_session", "A" * 43, domain="127.0.0.1", path="/")
    assert request(server, browser=stranger).status_code == 200


def test_prompt_none_never_shows_a_page(server):
    OAuthWorld(server)
    assert_error_redirect(request(server, prompt="none"), "login_required", server=server)

    browser = Browser(server)
    redirect_params(browser.sign_in(request(server, browser=browser)))
    assert "code" in redirect_params(request(server, client_id="web.app", browser=browser, prompt="none"))
    assert_error_redirect(request(server, browser=browser, prompt="none"), "interaction_required", server=server)
    assert_error_redirect(request(server, client_id="partner.app", browser=browser, prompt="none"),
                          "consent_required", server=server)


def test_third_party_client_needs_consent(server):
    world = OAuthWorld(server)
    browser = Browser(server)
    consent = browser.sign_in(request(server, client_id="partner.app", browser=browser))
    assert consent.status_code == 200
    page = Page(consent.text)
    form = page.form
    assert form["method"] == "post" and form["action"] == "/oauth/authorize"
    assert dict(Page.hidden_fields(form)).get("csrf_token")
    assert "password" not in Page.field_names(form)
    assert {(b.get("name"), b.get("value")) for b in form["buttons"]} >= {("decision", "allow"), ("decision", "deny")}
    assert "partner.app" in page.text

    denied = browser.decide(consent, "deny")
    assert_error_redirect(denied, "access_denied", server=server)

    # Asked again in the same browser: consent page (the session is kept), then allow.
    consent = request(server, client_id="partner.app", browser=browser)
    assert consent.status_code == 200
    assert "password" not in Page.field_names(Page(consent.text).form)
    allowed = redirect_params(browser.decide(consent, "allow"))
    assert allowed["state"] == "state-1" and allowed["iss"] == server.base
    code, verifier = world.code("partner.app")
    assert world.exchange(code, verifier, "partner.app").status_code == 200


def csrf_probe(server, tamper):
    """Opens the login page, lets `tamper(browser, fields)` break the CSRF defence, submits right credentials."""
    browser = Browser(server)
    page = request(server, browser=browser)
    fields = Page.hidden_fields(Page(page.text).form) + [("email", EMAIL), ("password", GOOD_PASSWORD)]
    fields = tamper(browser, fields)
    return browser.post_form(page, fields)


def without_token(browser, fields):
    return [pair for pair in fields if pair[0] != "csrf_token"]


def wrong_token(browser, fields):
    return [(name, "A" * 43 if name == "csrf_token" else value) for name, value in fields]


def without_cookie(browser, fields):
    browser.session.cookies.clear()
    return fields


def cookie_of_another_browser(browser, fields):
    other = Browser(browser.server)
    request(browser.server, browser=other)
    browser.session.cookies.clear()
    browser.session.cookies.update(other.session.cookies)
    return fields


@pytest.mark.parametrize("tamper", [without_token, wrong_token, without_cookie, cookie_of_another_browser])
def test_login_post_without_a_matching_csrf_token_and_cookie_is_403(server, tamper):
    OAuthWorld(server)
    answer = csrf_probe(server, tamper)
    assert answer.status_code == 403
    assert answer.headers["Content-Type"].startswith("text/html")
    assert "Location" not in answer.headers
    assert set_cookie(answer, "latchkey_session") is None
    # The same credentials through an untouched form work.
    assert csrf_probe(server, lambda browser, fields: fields).status_code == 303


def test_consent_post_without_csrf_token_is_403(server):
    OAuthWorld(server)
    browser = Browser(server)
    consent = browser.sign_in(request(server, client_id="partner.app", browser=browser))
    fields = [pair for pair in Page.hidden_fields(Page(consent.text).form) if pair[0] != "csrf_token"]
    answer = browser.post_form(consent, fields + [("decision", "allow")])
    assert answer.status_code == 403
    assert "Location" not in answer.headers


def test_login_post_rechecks_client_and_redirect_uri(server):
    OAuthWorld(server)
    browser = Browser(server)
    page = request(server, browser=browser)
    fields = [(name, "https://evil.example/cb" if name == "redirect_uri" else value)
              for name, value in Page.hidden_fields(Page(page.text).form)]
    answer = browser.post_form(page, fields + [("email", EMAIL), ("password", GOOD_PASSWORD)])
    assert "Location" not in answer.headers or not answer.headers["Location"].startswith("https://evil.example")
    assert answer.status_code in (400, 403)


def test_wrong_password_unknown_and_disabled_accounts_see_the_same_login_page(server):
    OAuthWorld(server)
    server.create_user("off@example.com")
    server.cli("users", "disable", "off@example.com")
    texts = []
    for email, password in [(EMAIL, "not the right password"), ("nobody@example.com", GOOD_PASSWORD),
                            ("off@example.com", GOOD_PASSWORD)]:
        browser = Browser(server)
        answer = browser.sign_in(request(server, browser=browser), email, password)
        assert answer.status_code == 401, email
        assert answer.headers["Content-Type"].startswith("text/html")
        assert set_cookie(answer, "latchkey_session") is None
        page = Page(answer.text)
        assert "password" in Page.field_names(page.form)
        assert dict(Page.hidden_fields(page.form)).get("csrf_token")
        texts.append(page.text)
    assert texts[0] == texts[1] == texts[2]
    # The page shown again still works with the right password.
    browser = Browser(server)
    retry = browser.sign_in(request(server, browser=browser), EMAIL, "not the right password")
    assert "code" in redirect_params(browser.sign_in(retry))


def test_repeated_login_failures_are_limited_with_retry_after(server):
    OAuthWorld(server)
    browser = Browser(server)
    page = request(server, browser=browser)
    statuses = []
    for _ in range(30):
        page = browser.sign_in(page, EMAIL, "not the right password")
        statuses.append(page.status_code)
        if page.status_code == 429:
            break
    assert statuses[-1] == 429, statuses
    assert set(statuses[:-1]) == {401}
    assert int(page.headers["Retry-After"]) > 0
    blocked = browser.sign_in(request(server, browser=browser), EMAIL, GOOD_PASSWORD)
    assert blocked.status_code == 429
    assert set_cookie(blocked, "latchkey_session") is None


def test_password_reset_ends_the_browser_session(server):
    world = OAuthWorld(server)
    browser = Browser(server)
    redirect_params(browser.sign_in(request(server, browser=browser)))
    assert "code" in redirect_params(request(server, client_id="web.app", browser=browser))
    world.reset_password(NEW_PASSWORD)
    after = request(server, client_id="web.app", browser=browser)
    assert after.status_code == 200
    assert "password" in Page.field_names(Page(after.text).form)


def test_disabling_the_account_ends_the_browser_session(server):
    OAuthWorld(server)
    browser = Browser(server)
    redirect_params(browser.sign_in(request(server, browser=browser)))
    server.cli("users", "disable", EMAIL)
    assert request(server, browser=browser).status_code == 200
    assert_error_redirect(request(server, browser=browser, prompt="none"), "login_required", server=server)


def test_parameters_are_escaped_in_the_pages(server):
    OAuthWorld(server)
    attack = '"><script>alert(1)</script><input name="x" value="'
    browser = Browser(server)
    page = request(server, browser=browser, state=attack, nonce=attack, login_hint=attack + "@example.com")
    assert page.status_code == 200
    assert "<script>alert(1)" not in page.text
    parsed = Page(page.text)
    hidden = dict(Page.hidden_fields(parsed.form))
    assert hidden["state"] == attack and hidden["nonce"] == attack
    assert "x" not in Page.field_names(parsed.form)

    unknown_client = request(server, client_id='<script>alert(1)</script>')
    assert_error_page(unknown_client)
    assert "<script>alert(1)" not in unknown_client.text

    consent = browser.sign_in(request(server, client_id="partner.app", browser=browser, state=attack))
    assert consent.status_code == 200
    assert "<script>alert(1)" not in consent.text
    assert dict(Page.hidden_fields(Page(consent.text).form))["state"] == attack


def test_consent_page_cannot_be_framed_and_prompt_consent_asks_first_party_too(server):
    OAuthWorld(server)
    browser = Browser(server)
    consent = browser.sign_in(request(server, client_id="partner.app", browser=browser))
    assert consent.status_code == 200
    assert "frame-ancestors 'none'" in consent.headers["Content-Security-Policy"]

    asked = request(server, browser=browser, prompt="consent")
    assert asked.status_code == 200
    assert {b.get("value") for b in Page(asked.text).form["buttons"]} >= {"allow", "deny"}
    assert "code" in redirect_params(browser.decide(asked, "allow"))


def test_deleted_client_stops_working_at_once(server):
    world = OAuthWorld(server)
    tokens = world.tokens()
    server.cli("clients", "delete", "ios.app")
    assert_error_page(request(server))
    refused = world.refresh(tokens["refresh_token"])
    assert refused.status_code in (400, 401)
    assert refused.json()["error"] in ("invalid_client", "invalid_grant")


def test_malformed_and_oversized_authorization_requests_get_clear_4xx(server):
    OAuthWorld(server)
    _, challenge = pkce_pair()
    browser = Browser(server)
    valid = authorize_url(server, authorize_params("ios.app", challenge))
    for url in [valid + "&x=%zz", valid + "&x=%ff%fe", valid + "&pad=" + "x" * 60000]:
        answer = browser.get(url)
        assert 400 <= answer.status_code < 500, (url[-30:], answer.status_code)
        assert "Location" not in answer.headers
    # A state too long to echo is dropped, the error still goes to the registered redirect URI.
    long_state = request(server, browser=browser, state="s" * 5000)
    params = assert_error_redirect(long_state, "invalid_request", state=None, server=server)
    assert "state" not in params
    assert browser.get(server.base + "/healthz").status_code == 200


def test_reused_session_needs_a_click_unless_the_redirect_is_a_claimed_https_url(server):
    """RFC 8252 §8.6: any local app can claim a loopback port or a private-use scheme, so a
    signed-in browser confirms before such a public client gets a code; an https redirect
    (a claimed universal link) gets it at once."""
    OAuthWorld(server)
    register_client(server, "scheme.app", "com.example.app:/oauth")
    register_client(server, "universal.app", "https://app.example.com/oauth")
    browser = Browser(server)
    redirect_params(browser.sign_in(request(server, browser=browser)))

    for client_id, redirect_uri in [("ios.app", LOOPBACK_REDIRECT), ("scheme.app", "com.example.app:/oauth")]:
        confirm = request(server, client_id=client_id, browser=browser, redirect_uri=redirect_uri)
        assert confirm.status_code == 200, client_id
        assert "password" not in Page.field_names(Page(confirm.text).form)
        # The click is CSRF-protected like every other form.
        fields = [pair for pair in Page.hidden_fields(Page(confirm.text).form) if pair[0] != "csrf_token"]
        assert browser.post_form(confirm, fields + [("decision", "allow")]).status_code == 403
        assert "code" in redirect_params(browser.decide(confirm, "allow"), redirect_uri)

    direct = request(server, client_id="universal.app", browser=browser, redirect_uri="https://app.example.com/oauth")
    assert "code" in redirect_params(direct, "https://app.example.com/oauth")
