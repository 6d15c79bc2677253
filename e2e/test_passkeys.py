"""Passkeys against the release binary, on SQLite and on PostgreSQL, and across two instances
sharing PostgreSQL and Redis, with the test suite's own software authenticator
(webauthn_authenticator.py: P-256 and Ed25519 keys, `none` attestation, discoverable
credentials): the whole ceremony passes, and each check fails on its own — a wrong origin or RP
ID, UV or UP missing, a replayed challenge, a tampered signature, a credential ID registered
twice, a deleted credential — every failed sign-in answered exactly like a wrong password; the
owner is mailed once for each passkey added or removed, and never for a refused one. The
server's clock cannot be moved from here: a challenge's five minutes are tested in Swift
(PasskeyTests, with a manual clock), as is the refusal to delete an account's last way to sign in
(no route makes an account without a password)."""
import base64
import json

import jwt
import pytest
import requests

from conftest import GOOD_PASSWORD
from webauthn_authenticator import SoftwareAuthenticator, b64url, b64url_decode

EMAIL = "passkey-owner@example.com"


def login(server, email=EMAIL, password=GOOD_PASSWORD):
    response = server.post("/auth/login", {"email": email, "password": password})
    assert response.status_code == 200, response.text
    return response.json()["data"]["access_token"]


def call(server, method, path, token=None, body=None, ip=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if body is not None:
        headers["Content-Type"] = "application/json"
    return requests.request(method, server.base + path, headers=headers, data=None if body is None else json.dumps(body), timeout=30)


def directus(response):
    entry = response.json()["errors"][0]
    return entry["extensions"]["code"], entry["extensions"].get("reason")


def registration_options(server, token):
    response = call(server, "POST", "/auth/passkeys/registration/options", token)
    assert response.status_code == 200, response.text
    return response.json()["data"]["public_key"]


def register(server, token, authenticator, name=None, **changes):
    """Registers `authenticator` for the token's account at the server's own origin (changed by
    `changes`, the authenticator's keywords); the verify answer."""
    options = registration_options(server, token)
    credential = authenticator.create(options, changes.pop("origin", server.base), **changes)
    body = {"credential": credential}
    if name is not None:
        body["name"] = name
    return call(server, "POST", "/auth/passkeys/registration/verify", token, body)


def sign_in_options(server):
    response = call(server, "POST", "/auth/passkeys/authentication/options", body={})
    assert response.status_code == 200, response.text
    return response.json()["data"]["public_key"]


def sign_in(server, credential):
    return call(server, "POST", "/auth/passkeys/authentication/verify", body={"credential": credential})


def assertion(server, authenticator, **changes):
    return authenticator.get(sign_in_options(server), changes.pop("origin", server.base), **changes)


def utc_minute(rfc3339):
    """`2030-01-15 at 08:05 UTC`: how the mails write the minute of an RFC 3339 time."""
    return f"{rfc3339[:10]} at {rfc3339[11:16]} UTC"


def one_line(text):
    return " ".join(text.split())


@pytest.mark.new_device_mail
@pytest.mark.parametrize("algorithm", ["ES256", "EdDSA"])
def test_the_whole_ceremony(store_server, algorithm):
    server = store_server
    server.create_user(EMAIL)
    token = login(server)
    options = registration_options(server, token)
    assert options["rp"]["id"] == "127.0.0.1"
    assert [parameter["alg"] for parameter in options["pubKeyCredParams"]] == [-8, -7, -257]
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["userVerification"] == "required"
    assert options["attestation"] == "none" and options["timeout"] == 300000
    assert len(b64url_decode(options["user"]["id"])) == 32 and options["user"]["name"] == EMAIL

    authenticator = SoftwareAuthenticator(algorithm)
    registered = register(server, token, authenticator, name="Work phone")
    assert registered.status_code == 201, registered.text
    passkey = registered.json()["data"]
    assert passkey["id"] == b64url(authenticator.credential_id)
    assert passkey["name"] == "Work phone" and passkey["synced"] is True and passkey["last_used_at"] is None
    assert registration_options(server, token)["excludeCredentials"] == [
        {"type": "public-key", "id": passkey["id"], "transports": ["internal", "hybrid"]}]
    # The owner hears of it: which passkey, when, and to remove it if it was not them.
    [added] = server.wait_for_mails(EMAIL, 1)
    assert added["Subject"] == "A passkey was added to your Latchkey account"
    text = one_line(server.text_of(added))
    assert f"A passkey named “Work phone” was added to your Latchkey account on {utc_minute(passkey['created_at'])}." in text
    assert "remove it in your account’s settings now" in text

    signed_in = sign_in(server, assertion(server, authenticator))
    assert signed_in.status_code == 200, signed_in.text
    data = signed_in.json()["data"]
    assert set(data) == {"access_token", "expires", "refresh_token", "device_token"}
    # A passkey sign-in from a device the account does not know is a new-device sign-in like
    # any other: the owner gets the mail (the password sign-in above was the account's first).
    mails = server.wait_for_mails(EMAIL, 2)
    assert [mail["Subject"] for mail in mails] == [added["Subject"], "New sign-in to your Latchkey account"]
    # The new login works like any other: its token reads the account, its refresh token rotates.
    listed = call(server, "GET", "/users/me/passkeys", data["access_token"])
    assert [entry["name"] for entry in listed.json()["data"]] == ["Work phone"]
    assert listed.json()["data"][0]["last_used_at"] is not None
    assert server.post("/auth/refresh", {"refresh_token": data["refresh_token"]}).status_code == 200

    renamed = call(server, "PATCH", f"/users/me/passkeys/{passkey['id']}", token, {"name": "Old phone"})
    assert renamed.status_code == 200 and renamed.json()["data"]["name"] == "Old phone"
    # A rename mails nothing; a deletion does, naming the passkey as it is now.
    assert call(server, "DELETE", f"/users/me/passkeys/{passkey['id']}", token).status_code == 204
    mails = server.wait_for_mails(EMAIL, 3)
    assert len(mails) == 3 and mails[2]["Subject"] == "A passkey was removed from your Latchkey account"
    assert "The passkey “Old phone” was removed from your Latchkey account" in one_line(server.text_of(mails[2]))
    assert "passkey_sign_in_failed" not in server.log()


def test_each_check_fails_on_its_own(store_server):
    server = store_server
    server.create_user(EMAIL)
    token = login(server)
    for reason, changes in [
        ("origin_not_allowed", {"origin": "http://evil.example"}),
        ("rp_id_mismatch", {"rp_id": "evil.example"}),
        ("user_not_verified", {"uv": False}),
        ("user_not_present", {"up": False}),
    ]:
        refused = register(server, token, SoftwareAuthenticator(), **changes)
        assert refused.status_code == 400, (reason, refused.text)
        assert directus(refused) == ("INVALID_PASSKEY", reason)

    authenticator = SoftwareAuthenticator("EdDSA")
    assert register(server, token, authenticator, name="<b>Tom's</b> key").status_code == 201
    # One mail, for the passkey that was added (the refused ones were queued before it, so
    # they would be here by now); its name escaped in the HTML.
    [added] = server.wait_for_mails(EMAIL, 1)
    assert len(server.mails(EMAIL)) == 1
    assert "“&lt;b&gt;Tom&#39;s&lt;/b&gt; key”" in server.html_of(added)
    assert "<b>" not in server.html_of(added) and "Tom" not in added["Subject"]
    wrong_password = server.post("/auth/login", {"email": EMAIL, "password": "not the password at all"})
    assert wrong_password.status_code == 401

    def refused_like_a_wrong_password(response):
        assert response.status_code == 401, response.text
        assert response.content == wrong_password.content

    for changes in [{"origin": "http://evil.example"}, {"rp_id": "evil.example"}, {"uv": False}, {"up": False}]:
        refused_like_a_wrong_password(sign_in(server, assertion(server, authenticator, **changes)))
    # A tampered signature.
    tampered = assertion(server, authenticator)
    signature = bytearray(b64url_decode(tampered["response"]["signature"]))
    signature[-1] ^= 1
    tampered["response"]["signature"] = b64url(bytes(signature))
    refused_like_a_wrong_password(sign_in(server, tampered))
    # A replayed challenge: the same assertion twice.
    good = assertion(server, authenticator)
    assert sign_in(server, good).status_code == 200
    refused_like_a_wrong_password(sign_in(server, good))
    # A challenge the server never issued, and a credential it does not know.
    refused_like_a_wrong_password(sign_in(server, authenticator.get(
        {"challenge": b64url(b"\0" * 32), "rpId": "127.0.0.1"}, server.base)))
    stranger = SoftwareAuthenticator()
    stranger.user_handle = b"\1" * 32
    refused_like_a_wrong_password(sign_in(server, stranger.get(sign_in_options(server), server.base, rp_id="127.0.0.1")))
    log = server.log()
    for reason in ["origin_not_allowed", "rp_id_mismatch", "user_not_verified", "user_not_present", "invalid_signature",
                   "challenge_not_found", "unknown_credential"]:
        assert reason in log, reason


def test_a_credential_registers_once_and_a_deleted_one_signs_in_no_more(store_server):
    server = store_server
    server.create_user(EMAIL)
    server.create_user("other@example.com")
    token = login(server)
    authenticator = SoftwareAuthenticator()
    first = register(server, token, authenticator)
    assert first.status_code == 201
    # The same credential ID again, for another account: refused, and nothing stored for it.
    other = login(server, "other@example.com")
    twice = register(server, other, authenticator)
    assert twice.status_code == 409 and directus(twice)[0] == "PASSKEY_EXISTS"
    assert call(server, "GET", "/users/me/passkeys", other).json()["data"] == []
    server.wait_for_mails(EMAIL, 1)
    assert server.mails("other@example.com") == []
    # Not this account's: 404 for the other; deleted by its owner (who has a password).
    passkey_id = first.json()["data"]["id"]
    assert call(server, "DELETE", f"/users/me/passkeys/{passkey_id}", other).status_code == 404
    assert call(server, "DELETE", f"/users/me/passkeys/{passkey_id}", token).status_code == 204
    assert sign_in(server, assertion(server, authenticator)).status_code == 401
    assert call(server, "GET", "/users/me/passkeys", token).json()["data"] == []


def test_two_instances_share_the_credentials_and_the_challenges(make_cluster):
    first, second = make_cluster(2, LATCHKEY_PUBLIC_URL="http://127.0.0.1:1",
                                 LATCHKEY_PASSKEY_ORIGINS="http://127.0.0.1:2")
    first.create_user(EMAIL)
    token = login(first)
    authenticator = SoftwareAuthenticator()
    # Options from one instance, the response to the other.
    options = registration_options(first, token)
    registered = call(second, "POST", "/auth/passkeys/registration/verify", token,
                      {"credential": authenticator.create(options, "http://127.0.0.1:1")})
    assert registered.status_code == 201, registered.text
    good = authenticator.get(sign_in_options(second), "http://127.0.0.1:2")
    assert sign_in(first, good).status_code == 200
    # Used once on one instance, refused by the other.
    assert sign_in(second, good).status_code == 401
    access = sign_in(second, authenticator.get(sign_in_options(first), "http://127.0.0.1:1")).json()["data"]["access_token"]
    claims = jwt.decode(access, options={"verify_signature": False})
    assert claims["sub"]


def test_options_flood_is_limited_per_address(make_server):
    server = make_server(LATCHKEY_LOGIN_IP_LIMIT="5/60")
    answers = [call(server, "POST", "/auth/passkeys/authentication/options", body={}) for _ in range(8)]
    assert [answer.status_code for answer in answers[:5]] == [200] * 5
    limited = answers[-1]
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) > 0
    assert directus(limited)[0] == "REQUESTS_EXCEEDED"


def test_the_app_site_association_lists_the_apps_for_web_credentials(make_server):
    server = make_server(LATCHKEY_APPLE_APP_IDS="ABCDE12345.com.example.app")
    document = requests.get(server.base + "/.well-known/apple-app-site-association", timeout=10).json()
    assert document["webcredentials"] == {"apps": ["ABCDE12345.com.example.app"]}
