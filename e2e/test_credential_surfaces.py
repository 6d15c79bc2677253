"""What a browser or an app can see of credentials, route by route: no CORS anywhere (RFC 9700
§2.6), the reset page's password fields (ASVS V6.2.6, V6.2.7), and a completed reset that
hands out no credential (ASVS V6.3.6: the mail is recovery, never a way to sign in)."""
import html.parser

import requests

from conftest import Server

NEW_PASSWORD = "violet tractor quietly juggles mountains"


def cors_headers(response):
    return {name: value for name, value in response.headers.items() if name.lower().startswith("access-control-")}


def test_no_route_answers_with_cors_headers_not_even_to_a_preflight(server):
    paths = requests.get(server.base + "/openapi.json", timeout=10).json()["paths"]
    assert "/oauth/authorize" in paths and "/oauth/token" in paths
    origin = {"Origin": "https://evil.example"}
    checked = 0
    for path, operations in paths.items():
        for method in operations:
            if method not in {"get", "post", "patch", "delete"}:
                continue
            response = requests.request(method.upper(), server.base + path, headers=origin, timeout=10,
                                        allow_redirects=False, **({} if method == "get" else {"json": {}}))
            assert cors_headers(response) == {}, (method, path, response.headers)
            preflight = requests.options(server.base + path, timeout=10, headers={
                **origin, "Access-Control-Request-Method": method.upper(),
                "Access-Control-Request-Headers": "authorization, content-type"})
            assert cors_headers(preflight) == {}, ("OPTIONS", path, preflight.headers)
            checked += 1
    assert checked >= 30


class Inputs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.inputs, self.forms = [], []

    def handle_starttag(self, tag, attrs):
        if tag == "input":
            self.inputs.append(dict(attrs))
        elif tag == "form":
            self.forms.append(dict(attrs))


def test_the_reset_page_has_two_new_password_fields_that_block_nothing(server):
    page = requests.get(server.base + "/reset-password", timeout=10)
    assert page.status_code == 200
    parsed = Inputs()
    parsed.feed(page.text)
    passwords = [field for field in parsed.inputs if field.get("type") == "password"]
    assert [field["name"] for field in passwords] == ["password", "password-repeat"]
    # Password managers may fill and generate them; nothing forbids pasting or autofill.
    assert all(field.get("autocomplete") == "new-password" for field in passwords)
    assert not any(field.get("type") == "text" and "password" in field.get("name", "") for field in parsed.inputs)
    assert all(form.get("autocomplete") != "off" for form in parsed.forms)
    lowered = page.text.lower()
    for blocker in ["onpaste", "oncopy", "oncut", "ondrop", 'autocomplete="off"']:
        assert blocker not in lowered
    script = requests.get(server.base + "/assets/reset-password.js", timeout=10)
    assert script.status_code == 200 and "password" in script.text
    for blocker in ["paste", "copy", "autocomplete"]:
        assert blocker not in script.text


def test_a_completed_reset_hands_out_no_credential(server):
    server.create_user("jane.doe@example.com")
    assert server.post("/auth/password/request", {"email": "jane.doe@example.com"}).status_code == 200
    [mail] = server.wait_for_mails("jane.doe@example.com", 1)
    token = Server.token_in(mail)

    reset = server.post("/auth/password/reset", {"token": token, "password": NEW_PASSWORD})
    assert reset.status_code == 200
    assert "Set-Cookie" not in reset.headers
    assert reset.json() == {"message": "Your password has been changed."}
    # The new password signs in; the reset itself did not.
    login = server.post("/auth/login", {"email": "jane.doe@example.com", "password": NEW_PASSWORD})
    assert login.status_code == 200 and login.json()["data"]["access_token"]
