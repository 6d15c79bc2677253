"""A passkey signs in on the OAuth sign-in page in headless Chromium, whose virtual authenticator
(Chrome DevTools Protocol, `WebAuthn.*`) stands for Face ID or Touch ID. The passkey is registered
through the API with the suite's software authenticator (webauthn_authenticator.py) and the same
key is put into the virtual authenticator, since the virtual one cannot be reached from outside
the browser. WebAuthn needs a secure context and an RP ID that is a domain, so the server's public
URL is `http://localhost:PORT` (RP ID `localhost`): 127.0.0.1 is secure too, but an IP address is
no RP ID. The app's redirect lands on a loopback listener of the test's own."""
import base64
import http.server
import threading
import urllib.parse

import jwt
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from browser_support import console_errors, wait_until
from conftest import GOOD_PASSWORD, free_port
from oauth_support import authorize_params, pkce_pair, register_client
from webauthn_authenticator import SoftwareAuthenticator

EMAIL = "passkey-page@example.com"


class Callback:
    """The app's loopback redirect URI: records the query of each request to /callback."""

    def __init__(self):
        self.queries = []
        received = self.queries

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                if url.path == "/callback":
                    received.append(dict(urllib.parse.parse_qsl(url.query)))
                body = b"<!doctype html><title>app</title><p>Back in the app."
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.uri = f"http://127.0.0.1:{self.server.server_address[1]}/callback"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def callback():
    listener = Callback()
    yield listener
    listener.close()


@pytest.fixture
def localhost_server(make_server):
    """A server whose public URL (the issuer, the passkeys' origin and RP ID) is http://localhost:PORT."""
    port = free_port()
    server = make_server(LATCHKEY_LISTEN=f"127.0.0.1:{port}", LATCHKEY_PUBLIC_URL=f"http://localhost:{port}")
    server.public = f"http://localhost:{port}"
    return server


def standard_base64(data: bytes) -> str:
    """The Chrome DevTools Protocol's `binary` type."""
    return base64.b64encode(data).decode()


def register_passkey(server) -> SoftwareAuthenticator:
    """Registers a P-256 passkey for EMAIL through the API, as the account's app would. The
    virtual authenticator's credentials are device-bound (BE and BS clear), so this one is too:
    the server refuses a credential whose backup eligibility changes."""
    login = server.post("/auth/login", {"email": EMAIL, "password": GOOD_PASSWORD})
    assert login.status_code == 200, login.text
    bearer = {"Authorization": "Bearer " + login.json()["data"]["access_token"]}
    options = server.post("/auth/passkeys/registration/options", {}, headers=bearer)
    assert options.status_code == 200, options.text
    public_key = options.json()["data"]["public_key"]
    assert public_key["rp"]["id"] == "localhost"
    authenticator = SoftwareAuthenticator("ES256", backup_eligible=False, backed_up=False)
    credential = authenticator.create(public_key, server.public)
    verified = server.post("/auth/passkeys/registration/verify", {"credential": credential, "name": "Chromium"}, headers=bearer)
    assert verified.status_code == 201, verified.text
    return authenticator


def add_virtual_authenticator(driver, authenticator: SoftwareAuthenticator | None):
    """A platform authenticator with user verification that approves every request at once,
    holding `authenticator`'s credential (a discoverable one for RP ID localhost) when given."""
    driver.execute_cdp_cmd("WebAuthn.enable", {})
    authenticator_id = driver.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True,
    }})["authenticatorId"]
    if authenticator is not None:
        private_key = authenticator.private_key.private_bytes(
            serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        driver.execute_cdp_cmd("WebAuthn.addCredential", {"authenticatorId": authenticator_id, "credential": {
            "credentialId": standard_base64(authenticator.credential_id), "isResidentCredential": True, "rpId": "localhost",
            "privateKey": standard_base64(private_key), "userHandle": standard_base64(authenticator.user_handle),
            "signCount": 0, "backupEligibility": False, "backupState": False,
        }})
    return authenticator_id


def without_conditional_mediation(driver):
    """The browser as one without passkeys in autofill (conditional mediation) sees the page: only
    the button. Chromium's virtual authenticator answers a conditional request at once, as if the
    person had picked the passkey from the email field's suggestions, so the button's own ceremony
    is tested in a browser that says it has none."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
        "source": "PublicKeyCredential.isConditionalMediationAvailable = function () { return Promise.resolve(false); };"})


def without_json_helpers(driver):
    """The browser as one without WebAuthn's JSON helpers (`toJSON()`,
    `parseRequestOptionsFromJSON()`, newer than WebAuthn itself) sees the page: the script encodes
    and decodes the W3C JSON itself."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
        "source": "delete PublicKeyCredential.prototype.toJSON; delete PublicKeyCredential.parseRequestOptionsFromJSON;"})


def authorize_url(server, callback, challenge, state):
    params = authorize_params("ios.app", challenge, redirect_uri=callback.uri, state=state, nonce="n-passkey")
    return server.public + "/oauth/authorize?" + urllib.parse.urlencode(params)


def redeem(server, callback, code, verifier):
    response = requests.post(server.base + "/oauth/token", data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": callback.uri, "code_verifier": verifier,
        "client_id": "ios.app",
    }, timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def signed_in_with_passkey(server, callback, verifier, state):
    """The code the app received, redeemed: tokens of a passkey sign-in (amr hwk and user)."""
    [query] = callback.queries
    assert query["state"] == state and query["iss"] == server.public, query
    tokens = redeem(server, callback, query["code"], verifier)
    claims = jwt.decode(tokens["id_token"], options={"verify_signature": False})
    assert claims["amr"] == ["hwk", "user"] and claims["email"] == EMAIL and claims["nonce"] == "n-passkey"
    assert jwt.decode(tokens["access_token"], options={"verify_signature": False})["iss"] == server.public
    return tokens


def test_the_browser_offers_the_passkey_in_autofill_and_it_signs_in(localhost_server, callback, browser):
    """Conditional mediation: the page asks for a passkey as it loads, and the browser offers it
    among the email field's suggestions; picking it (the virtual authenticator does so at once)
    signs in with no click on the page."""
    server = localhost_server
    server.create_user(EMAIL)
    register_client(server, "ios.app")
    add_virtual_authenticator(browser, register_passkey(server))
    verifier, challenge = pkce_pair()
    browser.get(authorize_url(server, callback, challenge, state="autofill"))
    wait_until(browser, lambda d: callback.queries, timeout=30)
    signed_in_with_passkey(server, callback, verifier, "autofill")
    assert console_errors(browser) == [], "a CSP violation or script error"


@pytest.mark.parametrize("json_helpers", [True, False], ids=["toJSON", "encoded-by-the-script"])
def test_a_passkey_signs_in_on_the_oauth_page(localhost_server, callback, browser, json_helpers):
    """The "Sign in with a passkey" button: the browser's own window (the virtual authenticator
    approves at once), then the code, in a browser with WebAuthn's JSON helpers and one without."""
    server = localhost_server
    server.create_user(EMAIL)
    register_client(server, "ios.app")
    authenticator = register_passkey(server)
    authenticator_id = add_virtual_authenticator(browser, authenticator)
    without_conditional_mediation(browser)
    if not json_helpers:
        without_json_helpers(browser)

    verifier, challenge = pkce_pair()
    url = authorize_url(server, callback, challenge, state="passkey-1")
    # The page's policy: this origin's scripts only, no inline script or eval.
    csp = requests.get(url, timeout=30).headers["Content-Security-Policy"]
    assert "script-src 'self';" in csp and "connect-src 'self';" in csp, csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, csp

    browser.get(url)
    button = wait_until(browser, EC.element_to_be_clickable((By.ID, "passkey-button")))
    assert button.text == "Sign in with a passkey"
    assert browser.find_element(By.ID, "email").get_attribute("autocomplete") == "username webauthn"
    helpers = "typeof PublicKeyCredential.prototype.toJSON + typeof PublicKeyCredential.parseRequestOptionsFromJSON"
    assert browser.execute_script("return " + helpers) == ("functionfunction" if json_helpers else "undefinedundefined")
    button.click()
    wait_until(browser, lambda d: callback.queries, timeout=30)

    signed_in_with_passkey(server, callback, verifier, "passkey-1")
    # The virtual authenticator signed once (its counter went from 0 to 1); the server kept the use.
    [credential] = browser.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator_id})["credentials"]
    assert credential["signCount"] == 1
    login = server.post("/auth/login", {"email": EMAIL, "password": GOOD_PASSWORD}).json()["data"]["access_token"]
    [listed] = requests.get(server.base + "/users/me/passkeys", headers={"Authorization": "Bearer " + login}, timeout=30).json()["data"]
    assert listed["name"] == "Chromium" and listed["last_used_at"] is not None and listed["synced"] is False
    assert console_errors(browser) == [], "a CSP violation or script error"


def test_a_passkey_the_server_does_not_know_gets_the_sign_in_page_again(localhost_server, callback, browser):
    """A passkey for this site that the server does not have (deleted, or another server's): the
    sign-in page again with the passkey's message; the password still signs in."""
    server = localhost_server
    server.create_user(EMAIL)
    register_client(server, "ios.app")
    stranger = SoftwareAuthenticator("ES256", backup_eligible=False, backed_up=False)
    stranger.user_handle = b"\x01" * 32
    add_virtual_authenticator(browser, stranger)
    without_conditional_mediation(browser)

    verifier, challenge = pkce_pair()
    browser.get(authorize_url(server, callback, challenge, state="passkey-2"))
    wait_until(browser, EC.element_to_be_clickable((By.ID, "passkey-button"))).click()
    problem = wait_until(browser, EC.visibility_of_element_located((By.ID, "problem")))
    assert problem.text == "This passkey could not sign you in. Try again, or sign in with your email address and password."
    assert callback.queries == []

    browser.find_element(By.ID, "email").send_keys(EMAIL)
    browser.find_element(By.ID, "password").send_keys(GOOD_PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "#sign-in button[type=submit]").click()
    wait_until(browser, lambda d: callback.queries, timeout=30)
    tokens = redeem(server, callback, callback.queries[0]["code"], verifier)
    assert jwt.decode(tokens["id_token"], options={"verify_signature": False})["amr"] == ["pwd"]
    errors = [entry for entry in console_errors(browser) if "/oauth/authorize" not in entry["message"]]
    assert errors == [], "a CSP violation or script error"


def test_without_a_passkey_the_browser_says_so_and_the_button_works_again(localhost_server, callback, browser):
    """The browser finds no passkey for the site (the authenticator holds none): the page's status
    says the passkey sign-in did not finish, nothing was posted, and the button is ready again."""
    server = localhost_server
    server.create_user(EMAIL)
    register_client(server, "ios.app")
    add_virtual_authenticator(browser, None)
    without_conditional_mediation(browser)
    _, challenge = pkce_pair()
    browser.get(authorize_url(server, callback, challenge, state="passkey-3"))
    button = wait_until(browser, EC.element_to_be_clickable((By.ID, "passkey-button")))
    button.click()
    status = wait_until(browser, lambda d: d.find_element(By.ID, "status").text and d.find_element(By.ID, "status"), timeout=60)
    assert status.text.startswith("The passkey sign-in did not finish.")
    assert status.get_attribute("class") == "error"
    wait_until(browser, EC.element_to_be_clickable((By.ID, "passkey-button")))
    assert browser.current_url.startswith(server.public + "/oauth/authorize?")
    assert callback.queries == []
    assert console_errors(browser) == [], "a CSP violation or script error"
