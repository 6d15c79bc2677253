"""Drives the OAuth server the way a browser, a native app and a resource server do.

The browser is a `requests.Session` that keeps cookies but follows no redirect, so each
test sees the server's own answers (303 + Location, login and consent pages). Pages are
read with the standard library's HTML parser.
"""
import base64
import copy
import hashlib
import html.parser
import secrets
import threading
import urllib.parse

import jwt
import requests

from conftest import GOOD_PASSWORD, Server

LOOPBACK_REDIRECT = "http://127.0.0.1/callback"
EMAIL = "jane@example.com"


def pkce_pair():
    """A fresh (code_verifier, S256 code_challenge)."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


class Page(html.parser.HTMLParser):
    """What a test reads from an HTML page: forms with their fields, links, assets and visible text."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.forms = []
        self.links = []
        self.assets = []
        self.root = {}
        self._form = None
        self._hidden_depth = 0
        self._text = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attributes = {name: value or "" for name, value in attrs}
        if tag == "html":
            self.root = attributes
        elif tag == "form":
            self._form = {"method": attributes.get("method", "get").lower(), "action": attributes.get("action"),
                          "fields": [], "buttons": []}
            self.forms.append(self._form)
        elif tag in ("input", "select", "textarea") and self._form is not None:
            self._form["fields"].append(attributes)
        elif tag == "button" and self._form is not None:
            self._form["buttons"].append(attributes)
        elif tag == "a":
            self.links.append(attributes.get("href", ""))
        if tag in ("script", "img", "iframe", "embed", "source", "audio", "video") and "src" in attributes:
            self.assets.append(attributes["src"])
        if tag in ("link", "object") and ("href" in attributes or "data" in attributes):
            self.assets.append(attributes.get("href") or attributes.get("data"))
        if tag in ("script", "style", "template"):
            self._hidden_depth += 1

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag in ("script", "style", "template"):
            self._hidden_depth = max(0, self._hidden_depth - 1)

    def handle_data(self, data):
        if not self._hidden_depth:
            self._text.append(data)

    @property
    def text(self):
        """The visible text, whitespace collapsed."""
        return " ".join(" ".join(self._text).split())

    @property
    def form(self):
        """The page's only form (asserts there is exactly one)."""
        assert len(self.forms) == 1, f"expected one form, found {len(self.forms)}"
        return self.forms[0]

    @staticmethod
    def hidden_fields(form):
        return [(field["name"], field.get("value", "")) for field in form["fields"]
                if field.get("type", "").lower() == "hidden" and "name" in field]

    @staticmethod
    def field_names(form):
        return [field.get("name") for field in form["fields"]]


def set_cookies(response):
    """Every Set-Cookie header of a response, unmerged."""
    return response.raw.headers.getlist("Set-Cookie")


def set_cookie(response, name):
    """The Set-Cookie header for cookie `name`, or None."""
    found = [header for header in set_cookies(response) if header.split("=", 1)[0].strip() == name]
    assert len(found) <= 1, found
    return found[0] if found else None


def cookie_attributes(header):
    """{'httponly': '', 'samesite': 'Lax', ...} for one Set-Cookie header (attribute names lowercased)."""
    attributes = {}
    for part in header.split(";")[1:]:
        name, _, value = part.strip().partition("=")
        attributes[name.lower()] = value
    return attributes


def query_of(url):
    """The query parameters of a URL as a dict; asserts that none is repeated."""
    pairs = urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query, keep_blank_values=True)
    names = [name for name, _ in pairs]
    assert len(names) == len(set(names)), f"repeated parameter in {url}"
    return dict(pairs)


def authorize_params(client_id, challenge, redirect_uri=LOOPBACK_REDIRECT, scope="openid email", state="state-1", **extra):
    """Authorization request parameters as (name, value) pairs; a value of None leaves the parameter out."""
    params = {"response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri,
              "code_challenge": challenge, "code_challenge_method": "S256", "scope": scope, "state": state}
    params.update(extra)
    return [(name, value) for name, value in params.items() if value is not None]


def authorize_url(server, params):
    return server.base + "/oauth/authorize?" + urllib.parse.urlencode(params)


def redirect_params(response, redirect_uri=LOOPBACK_REDIRECT):
    """Asserts a 303 back to `redirect_uri` and returns its query parameters."""
    assert response.status_code == 303, (response.status_code, response.text[:500])
    location = response.headers["Location"]
    assert location.startswith(redirect_uri + "?"), location
    return query_of(location)


def assert_error_page(response):
    """An HTML error page that sends the browser nowhere."""
    assert response.status_code == 400, (response.status_code, response.headers.get("Location"))
    assert "Location" not in response.headers
    assert response.headers["Content-Type"].startswith("text/html")


class Browser:
    """A user agent: keeps cookies, follows no redirect, fills in forms."""

    def __init__(self, server):
        self.server = server
        self.session = requests.Session()

    def get(self, url, **kwargs):
        return self.session.get(url, allow_redirects=False, timeout=30, **kwargs)

    def post_form(self, page_response, fields, via=None, **kwargs):
        """Submits the page's form with `fields`, to the server that sent the page or to `via`."""
        form = Page(page_response.text).form
        assert form["method"] == "post"
        target = urllib.parse.urljoin(via.base if via else page_response.url, form["action"])
        return self.session.post(target, data=fields, allow_redirects=False, timeout=30, **kwargs)

    def sign_in(self, login_page, email=EMAIL, password=GOOD_PASSWORD, via=None):
        """Submits the login form as shown, with the given credentials."""
        form = Page(login_page.text).form
        return self.post_form(login_page, Page.hidden_fields(form) + [("email", email), ("password", password)], via)

    def decide(self, consent_page, decision, via=None):
        """Presses the consent page's allow or deny button, on the server that sent the page or on `via`."""
        form = Page(consent_page.text).form
        buttons = {(button.get("name"), button.get("value")) for button in form["buttons"]}
        assert ("decision", decision) in buttons, buttons
        return self.post_form(consent_page, Page.hidden_fields(form) + [("decision", decision)], via)

    def authorize(self, url, email=EMAIL, password=GOOD_PASSWORD, decision="allow"):
        """Runs the browser part of the flow (login and consent when shown); returns the final answer."""
        response = self.get(url)
        if response.status_code == 200 and "password" in Page.field_names(Page(response.text).form):
            response = self.sign_in(response, email, password)
        if response.status_code == 200:
            response = self.decide(response, decision)
        return response


def register_client(server, client_id, *redirect_uris, first_party=True, confidential=False, introspect=False, scopes=()):
    """Registers a client with the CLI; returns its secret for a confidential client.
    `introspect` registers a resource server that may call /oauth/introspect."""
    args = ["clients", "create", client_id]
    for uri in redirect_uris or (LOOPBACK_REDIRECT,):
        args += ["--redirect-uri", uri]
    if first_party:
        args.append("--first-party")
    if confidential:
        args.append("--confidential")
    if introspect:
        args.append("--introspect")
    for scope in scopes:
        args += ["--scope", scope]
    lines = server.cli(*args).stdout.splitlines()
    secrets_printed = [line.split(": ", 1)[1] for line in lines if line.startswith("client_secret: ")]
    return secrets_printed[0] if confidential else None


class OAuthWorld:
    """One account and the clients most tests need, on one server.

    - `ios.app`: public, first-party, loopback redirect (the native app)
    - `partner.app`: public, third-party (gets the consent page)
    - `web.app`: confidential, first-party
    - `resource.server`: confidential; the API that introspects tokens
    """

    def __init__(self, server):
        self.server = server
        server.create_user(EMAIL)
        register_client(server, "ios.app")
        register_client(server, "partner.app", first_party=False)
        self.web_secret = register_client(server, "web.app", confidential=True)
        self.resource_secret = register_client(server, "resource.server", "https://api.example.com/cb",
                                               confidential=True, first_party=False, introspect=True)

    def on(self, server):
        """The same account and clients, reached through another instance of a cluster."""
        other = copy.copy(self)
        other.server = server
        return other

    def account_id(self, email=EMAIL):
        for line in self.server.cli("users", "list").stdout.splitlines():
            fields = line.split("\t")
            if fields[1] == email:
                return fields[0]
        raise AssertionError(f"no account {email}")

    def code(self, client_id="ios.app", browser=None, redirect_uri=LOOPBACK_REDIRECT, scope="openid email",
             email=EMAIL, password=GOOD_PASSWORD, **extra):
        """Runs the browser flow; returns (code, code_verifier)."""
        verifier, challenge = pkce_pair()
        browser = browser or Browser(self.server)
        url = authorize_url(self.server, authorize_params(client_id, challenge, redirect_uri, scope, **extra))
        params = redirect_params(browser.authorize(url, email, password), redirect_uri)
        assert "code" in params, params
        return params["code"], verifier

    def token(self, fields, auth=None, **kwargs):
        return requests.post(self.server.base + "/oauth/token", data=fields, auth=auth, timeout=30, **kwargs)

    def exchange(self, code, verifier, client_id="ios.app", redirect_uri=LOOPBACK_REDIRECT, secret=None):
        fields = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri,
                  "code_verifier": verifier}
        if secret is None:
            fields["client_id"] = client_id
            return self.token(fields)
        return self.token(fields, auth=(client_id, secret))

    def tokens(self, client_id="ios.app", scope="openid email", secret=None, email=EMAIL, **extra):
        """A fresh token response (asserted 200) from a full flow."""
        code, verifier = self.code(client_id, scope=scope, email=email, **extra)
        response = self.exchange(code, verifier, client_id, secret=secret)
        assert response.status_code == 200, response.text
        return response.json()

    def refresh(self, refresh_token, client_id="ios.app", secret=None):
        fields = {"grant_type": "refresh_token", "refresh_token": refresh_token}
        if secret is None:
            fields["client_id"] = client_id
            return self.token(fields)
        return self.token(fields, auth=(client_id, secret))

    def introspect(self, token, auth=None, **fields):
        """POST /oauth/introspect, by default as `resource.server`; `auth=False` sends no credentials."""
        auth = auth if auth is not None else ("resource.server", self.resource_secret)
        return requests.post(self.server.base + "/oauth/introspect", data={"token": token, **fields},
                             auth=auth or None, timeout=30)

    def is_active(self, token):
        response = self.introspect(token)
        assert response.status_code == 200, response.text
        body = response.json()
        if not body["active"]:
            assert body == {"active": False}
        return body["active"]

    def revoke(self, token, client_id="ios.app", secret=None, **fields):
        body = {"token": token, **fields}
        if secret is None:
            body["client_id"] = client_id
            return requests.post(self.server.base + "/oauth/revoke", data=body, timeout=30)
        return requests.post(self.server.base + "/oauth/revoke", data=body, auth=(client_id, secret), timeout=30)

    def userinfo(self, access_token):
        return requests.get(self.server.base + "/userinfo", headers={"Authorization": f"Bearer {access_token}"},
                            timeout=30)

    def jwks(self):
        return jwt.PyJWKSet.from_dict(requests.get(self.server.base + "/.well-known/jwks.json", timeout=30).json())

    def reset_password(self, new_password, email=EMAIL):
        """The password reset flow of the previous issue, through its JSON routes and the mail."""
        before = len(self.server.mails(email))
        assert self.server.post("/auth/password/request", {"email": email}).status_code == 200
        mail = self.server.wait_for_mails(email, before + 1)[-1]
        reset = self.server.post("/auth/password/reset", {"token": Server.token_in(mail), "password": new_password})
        assert reset.status_code == 200, reset.text


def discovery(server, document="oauth-authorization-server"):
    response = requests.get(f"{server.base}/.well-known/{document}", timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def race(count, attempt):
    """Runs `attempt()` on `count` threads released together; returns the responses."""
    barrier = threading.Barrier(count)
    results = []

    def run():
        barrier.wait()
        results.append(attempt())

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
