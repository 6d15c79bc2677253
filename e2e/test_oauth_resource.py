"""Using tokens: /oauth/introspect, /userinfo, /oauth/revoke, account changes, and forged JWTs."""
import base64
import hashlib
import hmac
import json

import jwt
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from oauth_support import EMAIL, OAuthWorld

NEW_PASSWORD = "violet tractor quietly juggles mountains"


def assert_bearer_refused(response):
    assert response.status_code == 401, (response.status_code, response.text)
    challenge = response.headers["WWW-Authenticate"]
    assert challenge.startswith("Bearer"), challenge
    return challenge


def assert_invalid_token(world, token):
    """Neither introspection nor /userinfo accepts `token`."""
    introspected = world.introspect(token)
    assert introspected.status_code == 200
    assert introspected.json() == {"active": False}
    assert 'error="invalid_token"' in assert_bearer_refused(world.userinfo(token))


def test_introspection_describes_an_active_access_token(server):
    world = OAuthWorld(server)
    tokens = world.tokens()
    answer = world.introspect(tokens["access_token"])
    assert answer.status_code == 200
    body = answer.json()
    assert body["active"] is True
    assert body["token_type"] == "access_token"
    assert body["client_id"] == "ios.app"
    assert body["sub"] == world.account_id()
    assert set(body["scope"].split()) == {"openid", "email"}
    assert body["iss"] == server.base
    assert body["aud"] in (server.base, [server.base])
    assert body["exp"] - body["iat"] == 600
    assert body["jti"] == jwt.decode(tokens["access_token"], options={"verify_signature": False})["jti"]

    # The app's refresh token is not the resource server's to see (issue 11, finding 9).
    refresh = world.introspect(tokens["refresh_token"], token_type_hint="refresh_token").json()
    assert refresh == {"active": False}

    # client_secret_post works as well as Basic.
    posted = requests.post(server.base + "/oauth/introspect", timeout=30, data={
        "token": tokens["access_token"], "client_id": "resource.server", "client_secret": world.resource_secret})
    assert posted.status_code == 200 and posted.json()["active"] is True


def test_introspection_requires_confidential_client_authentication(server):
    world = OAuthWorld(server)
    token = world.tokens()["access_token"]
    no_auth = world.introspect(token, auth=False)
    public = requests.post(server.base + "/oauth/introspect", data={"token": token, "client_id": "ios.app"}, timeout=30)
    wrong = world.introspect(token, auth=("resource.server", "wrong-secret"))
    public_basic = world.introspect(token, auth=("ios.app", ""))
    answers = {"no credentials": no_auth, "public client_id": public, "wrong secret": wrong,
               "public client over Basic": public_basic}
    got = {name: (answer.status_code, answer.json().get("error")) for name, answer in answers.items()}
    assert got == {name: (401, "invalid_client") for name in answers}
    assert all("active" not in answer.json() for answer in answers.values())
    assert "Basic" in wrong.headers["WWW-Authenticate"]


def test_introspection_says_only_active_false_for_anything_invalid(server):
    world = OAuthWorld(server)
    tokens = world.tokens()
    for junk in ["garbage", "a.b.c", "A" * 43, "eyJhbGciOiJub25lIn0.e30.", "x" * 5000, tokens["id_token"]]:
        answer = world.introspect(junk)
        assert answer.status_code == 200, junk[:20]
        assert answer.json() == {"active": False}, junk[:20]


def test_userinfo_answers_sub_and_email_by_scope(server):
    world = OAuthWorld(server)
    subject = world.account_id()
    with_email = world.userinfo(world.tokens(scope="openid email")["access_token"])
    assert with_email.status_code == 200
    assert with_email.json() == {"sub": subject, "email": EMAIL, "email_verified": True}
    without_email = world.userinfo(world.tokens(scope="openid")["access_token"])
    assert without_email.status_code == 200
    assert without_email.json() == {"sub": subject}

    # Without openid the token is not for /userinfo (401 or 403 insufficient_scope, never the data).
    no_openid = world.userinfo(world.tokens(scope="email")["access_token"])
    assert no_openid.status_code in (401, 403)
    assert no_openid.headers["WWW-Authenticate"].startswith("Bearer")
    assert EMAIL not in no_openid.text


def test_userinfo_refuses_missing_and_wrong_tokens(server):
    world = OAuthWorld(server)
    tokens = world.tokens()
    assert_bearer_refused(requests.get(server.base + "/userinfo", timeout=30))
    for header in ["Bearer garbage", "Bearer " + tokens["refresh_token"], "Bearer " + tokens["id_token"],
                   "Basic " + base64.b64encode(b"jane@example.com:x").decode(), "Bearer"]:
        answer = requests.get(server.base + "/userinfo", headers={"Authorization": header}, timeout=30)
        assert_bearer_refused(answer)
        assert EMAIL not in answer.text
    assert 'error="invalid_token"' in assert_bearer_refused(world.userinfo("garbage"))
    # A token in the URL (RFC 6750 §2.3, discouraged by RFC 9700) is not accepted.
    in_query = requests.get(server.base + "/userinfo", params={"access_token": tokens["access_token"]}, timeout=30)
    assert_bearer_refused(in_query)
    assert EMAIL not in in_query.text


def test_revocation_is_200_for_unknown_tokens_and_ends_the_family(server):
    world = OAuthWorld(server)
    unknown = world.revoke("A" * 43)
    assert unknown.status_code == 200 and unknown.content == b""

    tokens = world.tokens()
    revoked = world.revoke(tokens["access_token"], token_type_hint="access_token")
    assert revoked.status_code == 200 and revoked.content == b""
    assert not world.is_active(tokens["access_token"])
    assert world.refresh(tokens["refresh_token"]).json()["error"] == "invalid_grant"

    tokens = world.tokens()
    # A wrong hint must not save the token (RFC 7009 §2.1: the server searches further).
    assert world.revoke(tokens["refresh_token"], token_type_hint="access_token").status_code == 200
    assert not world.is_active(tokens["access_token"])
    assert world.refresh(tokens["refresh_token"]).json()["error"] == "invalid_grant"


def test_revocation_authenticates_the_client_and_only_revokes_its_own_tokens(server):
    world = OAuthWorld(server)
    confidential = world.tokens("web.app", secret=world.web_secret)
    refused = world.revoke(confidential["refresh_token"], client_id="web.app")
    assert refused.status_code == 401 and refused.json()["error"] == "invalid_client"
    assert world.is_active(confidential["access_token"])
    wrong = world.revoke(confidential["refresh_token"], client_id="web.app", secret="wrong")
    assert wrong.status_code == 401

    tokens = world.tokens("ios.app")
    world.revoke(tokens["refresh_token"], client_id="partner.app")
    world.revoke(tokens["refresh_token"], client_id="web.app", secret=world.web_secret)
    assert world.is_active(tokens["access_token"])
    assert world.refresh(tokens["refresh_token"]).status_code == 200

    assert world.revoke(confidential["refresh_token"], client_id="web.app", secret=world.web_secret).status_code == 200
    assert not world.is_active(confidential["access_token"])


def test_password_reset_ends_every_token_of_the_account(server):
    world = OAuthWorld(server)
    tokens = world.tokens()
    assert world.is_active(tokens["access_token"])
    world.reset_password(NEW_PASSWORD)
    assert_invalid_token(world, tokens["access_token"])
    assert world.refresh(tokens["refresh_token"]).json()["error"] == "invalid_grant"
    assert not world.is_active(tokens["refresh_token"])


def test_disabling_the_account_ends_every_token(server):
    world = OAuthWorld(server)
    tokens = world.tokens()
    assert world.userinfo(tokens["access_token"]).status_code == 200
    server.cli("users", "disable", EMAIL)
    assert_invalid_token(world, tokens["access_token"])
    assert not world.is_active(tokens["refresh_token"])
    assert world.refresh(tokens["refresh_token"]).json()["error"] == "invalid_grant"


def test_a_code_issued_before_a_password_reset_or_disable_gives_no_tokens(server):
    world = OAuthWorld(server)
    code, verifier = world.code()
    world.reset_password(NEW_PASSWORD)
    assert world.exchange(code, verifier).json()["error"] == "invalid_grant"

    code, verifier = world.code(password=NEW_PASSWORD)
    server.cli("users", "disable", EMAIL)
    assert world.exchange(code, verifier).json()["error"] == "invalid_grant"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def split_token(token):
    header, payload, _ = token.split(".")
    return json.loads(unb64url(header)), json.loads(unb64url(payload))


def compact(header, payload):
    return b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(payload).encode())


def hs256(header, payload, secret):
    signing_input = compact({**header, "alg": "HS256"}, payload)
    return signing_input + "." + b64url(hmac.new(secret, signing_input.encode(), hashlib.sha256).digest())


def forged_tokens(world, token):
    """Tokens with the genuine claims that no honest key signed, by name."""
    header, payload = split_token(token)
    published = requests.get(world.server.base + "/.well-known/jwks.json", timeout=30).json()
    [public_jwk] = [key for key in published["keys"] if key["kid"] == header["kid"]]
    public_pem = world.jwks()[header["kid"]].key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    attacker = ec.generate_private_key(ec.SECP256R1())
    attacker_jwk = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(attacker.public_key()))
    original_signature = token.rsplit(".", 1)[1]
    return {
        "alg none": compact({**header, "alg": "none"}, payload) + ".",
        "alg None with signature": compact({**header, "alg": "None"}, payload) + "." + original_signature,
        "HS256 with the JWK as secret": hs256(header, payload, json.dumps(public_jwk).encode()),
        "HS256 with the compact JWK as secret": hs256(header, payload, json.dumps(public_jwk, separators=(",", ":")).encode()),
        "HS256 with the PEM as secret": hs256(header, payload, public_pem),
        "HS256 with x as secret": hs256(header, payload, unb64url(public_jwk["x"])),
        "other EC key, same kid": jwt.encode(payload, attacker, algorithm="ES256", headers=header),
        "other EC key in a jwk header": jwt.encode(payload, attacker, algorithm="ES256",
                                                   headers={**header, "jwk": attacker_jwk}),
        "other EC key, no kid": jwt.encode(payload, attacker, algorithm="ES256",
                                           headers={k: v for k, v in header.items() if k != "kid"}),
        "claims changed, signature kept": compact(header, {**payload, "sub": "someone-else", "scope": "openid email admin"})
                                          + "." + original_signature,
        "signature cut off": token.rsplit(".", 1)[0] + ".",
    }


@pytest.mark.parametrize("attack", [
    "alg none", "alg None with signature", "HS256 with the JWK as secret", "HS256 with the compact JWK as secret",
    "HS256 with the PEM as secret", "HS256 with x as secret", "other EC key, same kid", "other EC key in a jwk header",
    "other EC key, no kid", "claims changed, signature kept", "signature cut off",
])
def test_forged_access_tokens_are_refused(server, attack):
    world = OAuthWorld(server)
    token = world.tokens()["access_token"]
    assert world.is_active(token)
    assert world.userinfo(token).status_code == 200
    assert_invalid_token(world, forged_tokens(world, token)[attack])
