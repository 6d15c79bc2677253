"""OpenID Connect with relying-party libraries nobody here wrote, over TLS: idpyoidc (certified
by the OpenID Foundation) and its predecessor pyoidc (`oic`), plus PyJWT as an independent
verifier of RS256 ID tokens, and RFC 6750's ways of presenting a token at /userinfo."""
import base64
import json
import secrets
import urllib.parse

import jwt
import pytest
import requests
from cryptojwt.key_jar import KeyJar
from idpyoidc.client.rp_handler import RPHandler
from oic.oic import Client as PyoidcClient
from oic.oic.message import AuthorizationResponse, RegistrationResponse
from oic.utils.authn.client import CLIENT_AUTHN_METHOD
from oic.utils.settings import OicClientSettings

from conftest import GOOD_PASSWORD
from oauth_support import EMAIL, LOOPBACK_REDIRECT, OAuthWorld, Page


def sign_in(server, url):
    """The browser's part over TLS: the sign-in page, the form, the 303 back; returns the redirect's query."""
    browser = requests.Session()
    page = browser.get(url, allow_redirects=False, timeout=30, verify=server.verify)
    assert page.status_code == 200, page.text[:300]
    form = Page(page.text).form
    answer = browser.post(urllib.parse.urljoin(url, form["action"]), allow_redirects=False, timeout=30, verify=server.verify,
                          data=Page.hidden_fields(form) + [("email", EMAIL), ("password", GOOD_PASSWORD)])
    assert answer.status_code == 303, answer.text[:300]
    location = answer.headers["Location"]
    assert location.startswith(LOOPBACK_REDIRECT + "?")
    return urllib.parse.urlsplit(location).query


def confidential_client(server, client_id, *extra):
    """Registers a confidential first-party client for the loopback redirect; returns its secret."""
    created = server.cli("clients", "create", client_id, "--redirect-uri", LOOPBACK_REDIRECT, "--first-party",
                         "--confidential", *extra).stdout
    return created.split("client_secret: ", 1)[1].strip()


def route_statuses(server, route):
    """The statuses the server logged for `route`."""
    return [line.split('"status":', 1)[1].split(",", 1)[0] for line in server.log().splitlines()
            if f'"route":"{route}",' in line]


def idpyoidc_handler(server, client_id, secret, id_token_alg="RS256"):
    """An idpyoidc RP for one statically registered client: discovery, PKCE S256, client_secret_basic."""
    config = {
        "client_type": "oidc", "issuer": server.base, "client_id": client_id, "client_secret": secret,
        "redirect_uris": [LOOPBACK_REDIRECT],
        "preference": {"response_types_supported": ["code"], "token_endpoint_auth_methods_supported": ["client_secret_basic"],
                       "id_token_signing_alg_values_supported": [id_token_alg]},
        "add_ons": {"pkce": {"function": "idpyoidc.client.oauth2.add_on.pkce.add_support",
                             "kwargs": {"code_challenge_length": 64, "code_challenge_method": "S256"}}},
    }
    # An empty key jar: the RP signs nothing (client_secret_basic), and without one idpyoidc
    # would generate keys and write them under ./private and ./static.
    return RPHandler(base_url="http://127.0.0.1", client_configs={"latchkey": config}, keyjar=KeyJar(),
                     httpc_params={"verify": str(server.verify), "timeout": 30})


@pytest.mark.parametrize("algorithm", ["RS256", "ES256", "EdDSA"])
def test_idpyoidc_signs_in_and_verifies_the_id_token_in_the_registered_algorithm(https_server, algorithm):
    """idpyoidc checks the discovery document (it refused it while RS256 was missing), runs the
    code flow with PKCE, verifies the ID token's signature against the JWKS and its claims
    (iss, aud, nonce, exp), and reads /userinfo."""
    server = https_server
    server.create_user(EMAIL)
    extra = [] if algorithm == "RS256" else ["--id-token-alg", algorithm]
    handler = idpyoidc_handler(server, "rp.app", confidential_client(server, "rp.app", *extra), algorithm)

    url = handler.begin(issuer_id="latchkey", req_args={"scope": ["openid", "email"]})
    assert url.startswith(server.base + "/oauth/authorize?")
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["code_challenge_method"] == ["S256"]
    response = dict(urllib.parse.parse_qsl(sign_in(server, url)))
    assert response["iss"] == server.base

    result = handler.finalize(server.base, response)
    id_token = result["id_token"]
    assert id_token.jws_header["alg"] == algorithm
    jwks = requests.get(server.base + "/.well-known/jwks.json", timeout=30, verify=server.verify).json()["keys"]
    assert {key["kid"]: key["alg"] for key in jwks}[id_token.jws_header["kid"]] == algorithm
    assert id_token["iss"] == server.base and id_token["aud"] == ["rp.app"]
    assert id_token["email"] == EMAIL
    assert result["userinfo"].to_dict() == {"sub": id_token["sub"], "email": EMAIL, "email_verified": True}
    assert route_statuses(server, "userinfo") == ["200"]


def test_pyoidc_signs_in_and_reads_userinfo_with_the_token_in_a_form_body(https_server):
    """pyoidc's defaults: it verifies the RS256 ID token with the JWKS (skipping the Ed25519 key
    it does not know) and sends the access token to /userinfo in a form-encoded POST body
    (RFC 6750 §2.2), which Latchkey used to refuse."""
    server = https_server
    server.create_user(EMAIL)
    secret = confidential_client(server, "rp.app")
    client = PyoidcClient(client_authn_method=CLIENT_AUTHN_METHOD, settings=OicClientSettings(verify_ssl=str(server.verify)))
    provider = client.provider_config(server.base)
    assert "RS256" in provider["id_token_signing_alg_values_supported"]
    client.store_registration_info(
        RegistrationResponse(client_id="rp.app", client_secret=secret, redirect_uris=[LOOPBACK_REDIRECT]))

    state, nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    challenge, verifier = client.add_code_challenge()
    request = client.construct_AuthorizationRequest(request_args={
        "client_id": "rp.app", "response_type": "code", "scope": ["openid", "email"], "nonce": nonce,
        "redirect_uri": LOOPBACK_REDIRECT, "state": state, **challenge})
    query = sign_in(server, request.request(client.authorization_endpoint))
    authorization = client.parse_response(AuthorizationResponse, info=query, sformat="urlencoded")
    assert authorization["state"] == state and authorization["iss"] == server.base

    tokens = client.do_access_token_request(
        state=state, authn_method="client_secret_basic",
        request_args={"code": authorization["code"], "code_verifier": verifier, "redirect_uri": LOOPBACK_REDIRECT})
    identity = tokens["id_token"]
    assert identity.jws_header["alg"] == "RS256"
    assert identity["nonce"] == nonce and identity["aud"] == ["rp.app"]

    info = client.do_user_info_request(state=state)
    assert info.to_dict() == {"sub": identity["sub"], "email": EMAIL, "email_verified": True}
    assert route_statuses(server, "userinfo_post") == ["200"]


def test_pyjwt_verifies_the_rs256_id_token_with_the_published_3072_bit_key(server):
    """An independent verifier: PyJWT (on `cryptography`) with nothing but the JWK Set."""
    world = OAuthWorld(server)
    tokens = world.tokens(scope="openid email", nonce="n-0S6_WzA2Mj")
    header = jwt.get_unverified_header(tokens["id_token"])
    assert header["alg"] == "RS256" and header["typ"] == "JWT"
    key = world.jwks()[header["kid"]]
    assert key.key_type == "RSA" and key.key.key_size >= 3072
    identity = jwt.decode(tokens["id_token"], key.key, algorithms=["RS256"], audience="ios.app", issuer=server.base,
                          options={"require": ["iss", "sub", "aud", "iat", "exp", "auth_time"]})
    assert identity["nonce"] == "n-0S6_WzA2Mj" and identity["email"] == EMAIL
    # A changed claim breaks the RS256 signature.
    parts = tokens["id_token"].split(".")
    forged = base64.urlsafe_b64encode(json.dumps({**identity, "sub": "someone-else"}).encode()).rstrip(b"=")
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(".".join([parts[0], forged.decode(), parts[2]]), key.key, algorithms=["RS256"], audience="ios.app")
    # Access tokens stay ES256.
    assert jwt.get_unverified_header(tokens["access_token"])["alg"] == "ES256"


def test_userinfo_takes_the_token_from_header_or_form_body_and_answers_a_bare_challenge_without_one(server):
    world = OAuthWorld(server)
    access = world.tokens()["access_token"]
    userinfo = server.base + "/userinfo"
    expected = {"sub": world.account_id(), "email": EMAIL, "email_verified": True}

    in_body = requests.post(userinfo, data={"access_token": access}, timeout=30)
    assert in_body.status_code == 200 and in_body.json() == expected
    assert world.userinfo(access).json() == expected

    # No token at all (also one offered in the URL, or under another scheme): 401, a bare
    # Bearer challenge, no error code and nothing else (RFC 6750 §3.1).
    for bare in [requests.get(userinfo, timeout=30), requests.post(userinfo, timeout=30),
                 requests.get(userinfo, params={"access_token": access}, timeout=30),
                 requests.post(userinfo, params={"access_token": access}, data={"x": "1"}, timeout=30),
                 requests.get(userinfo, auth=(EMAIL, GOOD_PASSWORD), timeout=30)]:
        assert bare.status_code == 401
        assert bare.headers["WWW-Authenticate"] == "Bearer"
        assert bare.content == b""

    # Two ways at once is invalid_request; a bad token is invalid_token.
    both = requests.post(userinfo, data={"access_token": access}, headers={"Authorization": f"Bearer {access}"}, timeout=30)
    assert both.status_code == 400 and both.json()["error"] == "invalid_request"
    assert 'error="invalid_request"' in both.headers["WWW-Authenticate"]
    wrong = requests.post(userinfo, data={"access_token": "garbage"}, timeout=30)
    assert wrong.status_code == 401 and 'error="invalid_token"' in wrong.headers["WWW-Authenticate"]
    assert EMAIL not in wrong.text

