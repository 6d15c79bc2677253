"""The whole OAuth code flow with a client nobody here wrote (authlib), and the discovery documents."""
import re

import jwt
import pytest
import requests
from authlib.common.security import generate_token
from authlib.integrations.base_client import OAuthError
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from authlib.oidc.discovery import OpenIDProviderMetadata

from conftest import GOOD_PASSWORD
from oauth_support import (EMAIL, LOOPBACK_REDIRECT, Browser, OAuthWorld, Page, authorize_params, authorize_url,
                           cookie_attributes, discovery, pkce_pair, query_of, set_cookie)


def verified_access_token(world, token, client_id, scope):
    """Checks an access token with PyJWT against the published JWK Set alone; returns its claims."""
    header = jwt.get_unverified_header(token)
    assert header["alg"] == "ES256" and header["typ"] == "at+jwt" and header["kid"]
    key = world.jwks()[header["kid"]]
    issuer = world.server.base
    claims = jwt.decode(token, key.key, algorithms=["ES256"], audience=issuer, issuer=issuer,
                        options={"require": ["iss", "aud", "sub", "client_id", "scope", "jti", "iat", "exp"]})
    assert claims["client_id"] == client_id
    assert set(claims["scope"].split()) == set(scope.split())
    assert claims["exp"] - claims["iat"] == 600
    assert claims["sub"] == world.account_id()
    assert "sid" in claims and "cv" in claims
    return claims


def test_authlib_runs_the_code_flow_with_pkce_then_refreshes_and_revokes(server):
    world = OAuthWorld(server)
    metadata = discovery(server)
    client = OAuth2Session("ios.app", redirect_uri=LOOPBACK_REDIRECT, scope="openid email",
                           code_challenge_method="S256")
    verifier = generate_token(64)
    nonce = generate_token(24)
    url, state = client.create_authorization_url(metadata["authorization_endpoint"], code_verifier=verifier,
                                                 nonce=nonce)

    browser = Browser(server)
    login_page = browser.get(url)
    assert login_page.status_code == 200
    answer = browser.sign_in(login_page)
    assert answer.status_code == 303, answer.text
    location = answer.headers["Location"]
    assert location.startswith(LOOPBACK_REDIRECT + "?")
    params = query_of(location)
    assert params["state"] == state
    assert params["iss"] == metadata["issuer"] == server.base
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", params["code"])

    token = client.fetch_token(metadata["token_endpoint"], authorization_response=location, code_verifier=verifier)
    assert token["token_type"] == "Bearer"
    assert token["expires_in"] == 600
    assert set(token["scope"].split()) == {"openid", "email"}
    access = verified_access_token(world, token["access_token"], "ios.app", "openid email")

    # ID tokens are RS256 unless the client was registered for another algorithm.
    id_header = jwt.get_unverified_header(token["id_token"])
    assert id_header["alg"] == "RS256" and id_header["typ"] == "JWT"
    identity = jwt.decode(token["id_token"], world.jwks()[id_header["kid"]].key, algorithms=["RS256"],
                          audience="ios.app", issuer=server.base,
                          options={"require": ["iss", "sub", "aud", "iat", "exp", "auth_time"]})
    assert identity["nonce"] == nonce
    assert identity["amr"] == ["pwd"]
    assert identity["sub"] == access["sub"]
    assert identity["email"] == EMAIL

    # authlib as the app calling an API with the token.
    userinfo = client.get(metadata["userinfo_endpoint"], timeout=30)
    assert userinfo.status_code == 200
    assert userinfo.json() == {"sub": access["sub"], "email": EMAIL, "email_verified": True}

    first_refresh = token["refresh_token"]
    refreshed = client.refresh_token(metadata["token_endpoint"])
    assert refreshed["refresh_token"] != first_refresh
    assert refreshed["access_token"] != token["access_token"]
    verified_access_token(world, refreshed["access_token"], "ios.app", "openid email")

    revoked = client.revoke_token(metadata["revocation_endpoint"], token=refreshed["refresh_token"],
                                  token_type_hint="refresh_token")
    assert revoked.status_code == 200
    assert revoked.content == b""
    with pytest.raises(OAuthError) as failure:
        client.refresh_token(metadata["token_endpoint"])
    assert failure.value.error == "invalid_grant"
    assert not world.is_active(refreshed["access_token"])


def test_id_token_leaves_out_nonce_and_email_when_not_asked_for(server):
    world = OAuthWorld(server)
    tokens = world.tokens(scope="openid")
    identity = jwt.decode(tokens["id_token"], world.jwks()[jwt.get_unverified_header(tokens["id_token"])["kid"]].key,
                          algorithms=["RS256"], audience="ios.app", issuer=server.base)
    assert "nonce" not in identity and "email" not in identity
    assert "id_token" not in world.tokens(scope="email")


def test_both_discovery_documents_advertise_exactly_what_is_implemented(server, monkeypatch):
    OAuthWorld(server)
    oauth = discovery(server, "oauth-authorization-server")
    openid = discovery(server, "openid-configuration")
    assert oauth == openid
    base = server.base
    assert oauth["issuer"] == base
    assert oauth["authorization_endpoint"] == base + "/oauth/authorize"
    assert oauth["token_endpoint"] == base + "/oauth/token"
    assert oauth["revocation_endpoint"] == base + "/oauth/revoke"
    assert oauth["introspection_endpoint"] == base + "/oauth/introspect"
    assert oauth["userinfo_endpoint"] == base + "/userinfo"
    assert oauth["jwks_uri"] == base + "/.well-known/jwks.json"
    assert oauth["code_challenge_methods_supported"] == ["S256"]
    assert oauth["response_types_supported"] == ["code"]
    assert oauth["response_modes_supported"] == ["query"]
    assert sorted(oauth["grant_types_supported"]) == ["authorization_code", "refresh_token"]
    assert sorted(oauth["token_endpoint_auth_methods_supported"]) == ["client_secret_basic", "client_secret_post", "none"]
    assert sorted(oauth["revocation_endpoint_auth_methods_supported"]) == ["client_secret_basic", "client_secret_post", "none"]
    assert sorted(oauth["introspection_endpoint_auth_methods_supported"]) == ["client_secret_basic", "client_secret_post"]
    assert sorted(oauth["scopes_supported"]) == ["email", "openid"]
    assert oauth["subject_types_supported"] == ["public"]
    assert oauth["id_token_signing_alg_values_supported"] == ["RS256", "ES256", "EdDSA"]
    assert oauth["authorization_response_iss_parameter_supported"] is True
    assert sorted(oauth["prompt_values_supported"]) == ["consent", "login", "none"]
    assert sorted(oauth["ui_locales_supported"]) == ["ar", "en", "es", "pt"]

    # authlib's own RFC 8414 / OpenID Discovery validators (they insist on https unless told),
    # including OpenID Discovery 1.0 §3's rule that RS256 is listed for ID tokens.
    monkeypatch.setenv("AUTHLIB_INSECURE_TRANSPORT", "1")
    AuthorizationServerMetadata(oauth).validate()
    provider = OpenIDProviderMetadata(openid)
    for key in provider.REGISTRY_KEYS:
        getattr(provider, f"validate_{key}")()

    # Every advertised endpoint exists (an empty request is refused, not "not found").
    answers = {
        "authorization_endpoint": requests.get(oauth["authorization_endpoint"], allow_redirects=False, timeout=30),
        "token_endpoint": requests.post(oauth["token_endpoint"], data={}, timeout=30),
        "revocation_endpoint": requests.post(oauth["revocation_endpoint"], data={}, timeout=30),
        "introspection_endpoint": requests.post(oauth["introspection_endpoint"], data={}, timeout=30),
        "userinfo_endpoint": requests.get(oauth["userinfo_endpoint"], timeout=30),
        "jwks_uri": requests.get(oauth["jwks_uri"], timeout=30),
    }
    for name, response in answers.items():
        assert response.status_code not in (404, 405), (name, response.status_code)
        assert response.status_code < 500, (name, response.status_code)
    assert answers["jwks_uri"].status_code == 200


def test_issuer_and_cookies_follow_an_https_public_url(make_server):
    """Behind a TLS proxy: the issuer is the public URL and both cookies are Secure `__Host-`
    cookies (only this host can set them, for the whole origin)."""
    server = make_server(LATCHKEY_PUBLIC_URL="https://login.example.com")
    OAuthWorld(server)
    assert discovery(server)["issuer"] == "https://login.example.com"
    assert discovery(server)["token_endpoint"] == "https://login.example.com/oauth/token"
    _, challenge = pkce_pair()
    page = requests.get(authorize_url(server, authorize_params("ios.app", challenge)), allow_redirects=False, timeout=30)
    assert page.status_code == 200
    csrf_header = set_cookie(page, "__Host-latchkey_csrf")
    assert "secure" in cookie_attributes(csrf_header)
    assert cookie_attributes(csrf_header)["path"] == "/"
    csrf_cookie = csrf_header.split(";", 1)[0]
    form = Page(page.text).form
    # A browser would send the Secure cookie over https; requests will not over http, so send it by hand.
    answer = requests.post(server.base + form["action"], allow_redirects=False, timeout=30,
                           data=Page.hidden_fields(form) + [("email", EMAIL), ("password", GOOD_PASSWORD)],
                           headers={"Cookie": csrf_cookie})
    assert answer.status_code == 303, answer.text
    session_header = set_cookie(answer, "__Host-latchkey_session")
    assert "secure" in cookie_attributes(session_header)
    assert cookie_attributes(session_header)["path"] == "/"
    assert query_of(answer.headers["Location"])["iss"] == "https://login.example.com"



def test_tokens_survive_key_rotation_and_a_restart(server):
    world = OAuthWorld(server)
    before = world.tokens()
    old_kid = jwt.get_unverified_header(before["access_token"])["kid"]
    server.stop()
    server.cli("keys", "rotate")
    server.start()
    assert world.is_active(before["access_token"])
    verified_access_token(world, before["access_token"], "ios.app", "openid email")
    refreshed = world.refresh(before["refresh_token"])
    assert refreshed.status_code == 200, refreshed.text
    new_access = refreshed.json()["access_token"]
    assert jwt.get_unverified_header(new_access)["kid"] != old_kid
    verified_access_token(world, new_access, "ios.app", "openid email")
    assert world.userinfo(new_access).status_code == 200

    # ID tokens: the new RS256 key signs from now on, and the retired one still verifies.
    after = world.tokens()
    assert jwt.get_unverified_header(after["id_token"])["kid"] != jwt.get_unverified_header(before["id_token"])["kid"]
    keys = world.jwks()
    for token in [before["id_token"], after["id_token"]]:
        jwt.decode(token, keys[jwt.get_unverified_header(token)["kid"]].key, algorithms=["RS256"], audience="ios.app",
                   issuer=server.base)


def test_openapi_describes_the_oauth_endpoints(server):
    paths = requests.get(server.base + "/openapi.json", timeout=30).json()["paths"]
    for path in ["/oauth/authorize", "/oauth/token", "/oauth/revoke", "/oauth/introspect", "/userinfo",
                 "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]:
        assert path in paths, path


def test_codes_tokens_and_secrets_never_reach_the_log(server):
    world = OAuthWorld(server)
    nonce = "nonce-" + generate_token(16)
    code, verifier = world.code(nonce=nonce)
    tokens = world.exchange(code, verifier).json()
    refreshed = world.refresh(tokens["refresh_token"]).json()
    world.introspect(refreshed["access_token"])
    world.userinfo(refreshed["access_token"])
    world.revoke(refreshed["refresh_token"])
    world.exchange(code, verifier)
    server.stop()
    log = server.log()
    assert "authorization_code_issued" in log or "oauth_tokens_issued" in log
    secrets_used = [code, verifier, tokens["access_token"], tokens["refresh_token"], tokens["id_token"],
                    refreshed["access_token"], refreshed["refresh_token"], world.web_secret, world.resource_secret,
                    GOOD_PASSWORD]
    for secret in secrets_used:
        assert secret not in log
        assert secret[:20] not in log
