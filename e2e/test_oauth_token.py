"""POST /oauth/token: code exchange checks, replay, refresh rotation and reuse, client authentication.

An expired code (60 s) is not tested here: the lead's Swift tests cover it with a ManualClock,
and this suite does not sleep.
"""
import base64
import hashlib
import json

import jwt
import pytest
import requests

from conftest import GOOD_PASSWORD
from oauth_support import (LOOPBACK_REDIRECT, Browser, OAuthWorld, authorize_params, authorize_url, race,
                           redirect_params)


def token_error(response, status, *errors):
    """Asserts an RFC 6749 §5.2 error answer with one of `errors`; returns the body."""
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers["Content-Type"].startswith("application/json")
    assert response.headers["Cache-Control"] == "no-store"
    body = response.json()
    assert body["error"] in errors, body
    assert isinstance(body["error_description"], str)
    assert "access_token" not in body
    return body


def test_code_exchange_answers_tokens_with_no_store(server):
    world = OAuthWorld(server)
    code, verifier = world.code()
    response = world.exchange(code, verifier)
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"].startswith("application/json")
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Pragma"] == "no-cache"
    body = response.json()
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == 600
    assert set(body["scope"].split()) == {"openid", "email"}
    assert body["access_token"].count(".") == 2
    assert body["id_token"].count(".") == 2
    assert len(body["refresh_token"]) >= 43 and "." not in body["refresh_token"]


def test_wrong_code_verifier_is_invalid_grant_and_burns_the_code(server):
    world = OAuthWorld(server)
    code, verifier = world.code()
    _, other_verifier = world.code()
    token_error(world.exchange(code, other_verifier[:-1] + "A"), 400, "invalid_grant")
    token_error(world.exchange(code, verifier), 400, "invalid_grant")

    code, verifier = world.code()
    token_error(world.token({"grant_type": "authorization_code", "code": code, "redirect_uri": LOOPBACK_REDIRECT,
                             "client_id": "ios.app"}), 400, "invalid_request", "invalid_grant")


def test_redirect_uri_mismatch_is_invalid_grant_and_burns_the_code(server):
    world = OAuthWorld(server)
    code, verifier = world.code()
    token_error(world.exchange(code, verifier, redirect_uri="http://127.0.0.1/other"), 400, "invalid_grant")
    token_error(world.exchange(code, verifier), 400, "invalid_grant")

    code, verifier = world.code(redirect_uri="http://127.0.0.1:40000/callback")
    token_error(world.exchange(code, verifier, redirect_uri="http://127.0.0.1:40001/callback"), 400, "invalid_grant")

    code, verifier = world.code()
    token_error(world.token({"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
                             "client_id": "ios.app"}), 400, "invalid_request", "invalid_grant")


def test_code_of_another_client_is_refused_and_burnt(server):
    world = OAuthWorld(server)
    code, verifier = world.code("ios.app")
    refused = world.exchange(code, verifier, client_id="partner.app")
    if refused.status_code == 401:
        token_error(refused, 401, "invalid_client")
    else:
        token_error(refused, 400, "invalid_grant")
    token_error(world.exchange(code, verifier, client_id="ios.app"), 400, "invalid_grant")

    code, verifier = world.code("ios.app")
    token_error(world.exchange(code, verifier, client_id="web.app", secret=world.web_secret), 400, "invalid_grant")


def test_replayed_code_is_invalid_grant_and_revokes_what_it_issued(server):
    world = OAuthWorld(server)
    code, verifier = world.code()
    first = world.exchange(code, verifier)
    assert first.status_code == 200
    tokens = first.json()
    assert world.is_active(tokens["access_token"])

    token_error(world.exchange(code, verifier), 400, "invalid_grant")
    token_error(world.refresh(tokens["refresh_token"]), 400, "invalid_grant")
    assert not world.is_active(tokens["access_token"])
    assert not world.is_active(tokens["refresh_token"])


def test_refresh_rotates_and_reuse_revokes_the_family(server):
    world = OAuthWorld(server)
    first = world.tokens()
    rotated = world.refresh(first["refresh_token"])
    assert rotated.status_code == 200, rotated.text
    assert rotated.headers["Cache-Control"] == "no-store"
    second = rotated.json()
    assert second["refresh_token"] != first["refresh_token"]
    assert second["token_type"] == "Bearer" and second["expires_in"] == 600
    assert set(second["scope"].split()) == {"openid", "email"}
    assert world.is_active(second["access_token"])

    assert not world.is_active(first["refresh_token"]), "a rotated-away refresh token is not valid any more"

    token_error(world.refresh(first["refresh_token"]), 400, "invalid_grant")
    token_error(world.refresh(second["refresh_token"]), 400, "invalid_grant")
    assert not world.is_active(second["refresh_token"])
    assert not world.is_active(second["access_token"])
    assert not world.is_active(first["access_token"])

    # Another login of the same account is a different family and keeps working.
    other = world.tokens()
    assert world.refresh(other["refresh_token"]).status_code == 200


def test_refresh_token_is_bound_to_its_client_and_scope(server):
    world = OAuthWorld(server)
    tokens = world.tokens()
    stolen = world.refresh(tokens["refresh_token"], client_id="partner.app")
    if stolen.status_code == 401:
        token_error(stolen, 401, "invalid_client")
    else:
        token_error(stolen, 400, "invalid_grant")

    fresh = world.tokens()
    wider = world.token({"grant_type": "refresh_token", "refresh_token": fresh["refresh_token"],
                         "client_id": "ios.app", "scope": "openid email notes.read"})
    token_error(wider, 400, "invalid_scope")


def test_unknown_codes_and_refresh_tokens_are_invalid_grant(server):
    world = OAuthWorld(server)
    _, verifier = world.code()
    for code in ["A" * 43, "not-a-code"]:
        token_error(world.exchange(code, verifier), 400, "invalid_grant")
    # An oversized value may be refused as malformed before any lookup.
    token_error(world.exchange("x" * 2000, verifier), 400, "invalid_grant", "invalid_request")
    for refresh in ["A" * 43, "garbage"]:
        token_error(world.refresh(refresh), 400, "invalid_grant")
    token_error(world.refresh(world.tokens()["access_token"]), 400, "invalid_grant", "invalid_request")


def test_repeated_parameters_are_invalid_request(server):
    world = OAuthWorld(server)
    code, verifier = world.code()
    base = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", LOOPBACK_REDIRECT),
            ("code_verifier", verifier), ("client_id", "ios.app")]
    for repeated in [("grant_type", "authorization_code"), ("code", code), ("code_verifier", verifier),
                     ("client_id", "ios.app")]:
        token_error(world.token(base + [repeated]), 400, "invalid_request")


@pytest.mark.parametrize("fields", [
    {"grant_type": "password", "username": "jane@example.com", "password": "correct horse battery staple"},
    {"grant_type": "token"},
    {"grant_type": "implicit"},
    {"grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": "x"},
])
def test_only_code_and_refresh_grants_exist(server, fields):
    world = OAuthWorld(server)
    token_error(world.token({**fields, "client_id": "ios.app"}), 400, "unsupported_grant_type")


def test_missing_grant_type_and_non_form_bodies_are_invalid_request(server):
    world = OAuthWorld(server)
    token_error(world.token({"client_id": "ios.app"}), 400, "invalid_request")
    code, verifier = world.code()
    fields = {"grant_type": "authorization_code", "code": code, "redirect_uri": LOOPBACK_REDIRECT,
              "code_verifier": verifier, "client_id": "ios.app"}
    as_json = requests.post(server.base + "/oauth/token", data=json.dumps(fields),
                            headers={"Content-Type": "application/json"}, timeout=30)
    token_error(as_json, 400, "invalid_request")
    as_text = requests.post(server.base + "/oauth/token", data="grant_type=authorization_code",
                            headers={"Content-Type": "text/plain"}, timeout=30)
    assert as_text.status_code in (400, 415)
    assert as_text.json()["error"] == "invalid_request"


def test_unknown_client_is_invalid_client(server):
    world = OAuthWorld(server)
    code, verifier = world.code()
    token_error(world.exchange(code, verifier, client_id="no.such.app"), 401, "invalid_client")


def test_confidential_client_must_authenticate_one_way(server):
    world = OAuthWorld(server)
    secret = world.web_secret

    def fields(code, verifier, **extra):
        return {"grant_type": "authorization_code", "code": code, "redirect_uri": LOOPBACK_REDIRECT,
                "code_verifier": verifier, **extra}

    code, verifier = world.code("web.app")
    token_error(world.token(fields(code, verifier, client_id="web.app")), 401, "invalid_client")

    code, verifier = world.code("web.app")
    wrong_basic = world.token(fields(code, verifier), auth=("web.app", secret[:-1] + ("A" if secret[-1] != "A" else "B")))
    token_error(wrong_basic, 401, "invalid_client")
    assert wrong_basic.headers["WWW-Authenticate"].lower().startswith("basic")

    code, verifier = world.code("web.app")
    token_error(world.token(fields(code, verifier, client_id="web.app", client_secret="wrong-" + secret)),
                401, "invalid_client")

    code, verifier = world.code("web.app")
    token_error(world.token(fields(code, verifier), auth=("ios.app", secret)), 401, "invalid_client")

    code, verifier = world.code("web.app")
    both = world.token(fields(code, verifier, client_id="web.app", client_secret=secret), auth=("web.app", secret))
    assert both.status_code in (400, 401), both.text
    token_error(both, both.status_code, "invalid_request", "invalid_client")

    code, verifier = world.code("web.app")
    basic = world.token(fields(code, verifier), auth=("web.app", secret))
    assert basic.status_code == 200, basic.text

    code, verifier = world.code("web.app")
    post = world.token(fields(code, verifier, client_id="web.app", client_secret=secret))
    assert post.status_code == 200, post.text

    refresh = post.json()["refresh_token"]
    token_error(world.refresh(refresh, client_id="web.app"), 401, "invalid_client")
    assert world.refresh(refresh, client_id="web.app", secret=secret).status_code == 200


def test_public_client_with_a_secret_is_refused(server):
    world = OAuthWorld(server)
    code, verifier = world.code()
    answer = world.exchange(code, verifier, client_id="ios.app", secret="made-up-secret")
    token_error(answer, 401, "invalid_client")


def test_form_content_type_with_charset_is_accepted(server):
    """Native OAuth libraries (AppAuth, ASWebAuthenticationSession helpers) send a charset parameter."""
    world = OAuthWorld(server)
    code, verifier = world.code()
    fields = {"grant_type": "authorization_code", "code": code, "redirect_uri": LOOPBACK_REDIRECT,
              "code_verifier": verifier, "client_id": "ios.app"}
    answer = world.token(fields, headers={"Content-Type": "application/x-www-form-urlencoded; charset=UTF-8"})
    assert answer.status_code == 200, answer.text


def test_access_token_audience_comes_from_configuration(make_server):
    server = make_server(LATCHKEY_ACCESS_TOKEN_AUDIENCE="https://api.example.com")
    world = OAuthWorld(server)
    access = world.tokens()["access_token"]
    header = jwt.get_unverified_header(access)
    claims = jwt.decode(access, world.jwks()[header["kid"]].key, algorithms=["ES256"],
                        audience="https://api.example.com", issuer=server.base)
    assert claims["aud"] in ("https://api.example.com", ["https://api.example.com"])
    with pytest.raises(jwt.InvalidAudienceError):
        jwt.decode(access, world.jwks()[header["kid"]].key, algorithms=["ES256"], audience=server.base)
    assert world.introspect(access).json()["aud"] in ("https://api.example.com", ["https://api.example.com"])
    assert world.userinfo(access).status_code == 200


def test_code_verifier_must_have_rfc7636_length(server):
    """A 3-character verifier matches its own challenge but is not a valid verifier (43-128 characters)."""
    world = OAuthWorld(server)
    short = "abc"
    challenge = base64.urlsafe_b64encode(hashlib.sha256(short.encode()).digest()).rstrip(b"=").decode()
    browser = Browser(server)
    answer = browser.authorize(authorize_url(server, authorize_params("ios.app", challenge)))
    code = redirect_params(answer)["code"]
    token_error(world.exchange(code, short), 400, "invalid_request", "invalid_grant")


def test_secrets_in_the_url_are_not_used(server):
    world = OAuthWorld(server)
    code, verifier = world.code()
    fields = {"grant_type": "authorization_code", "code": code, "redirect_uri": LOOPBACK_REDIRECT,
              "code_verifier": verifier, "client_id": "ios.app"}
    by_get = requests.get(server.base + "/oauth/token", params=fields, timeout=30)
    assert by_get.status_code in (404, 405), by_get.status_code
    in_query = requests.post(server.base + "/oauth/token", params=fields, data={}, timeout=30)
    assert in_query.status_code == 400, in_query.text
    assert "access_token" not in in_query.text


def test_racing_code_redemptions_have_at_most_one_winner(server):
    world = OAuthWorld(server)
    code, verifier = world.code()
    answers = race(6, lambda: world.exchange(code, verifier))
    winners = [answer for answer in answers if answer.status_code == 200]
    assert len(winners) <= 1, [answer.status_code for answer in answers]
    assert all(answer.json()["error"] == "invalid_grant" for answer in answers if answer.status_code != 200)


def test_racing_refreshes_have_at_most_one_winner(server):
    world = OAuthWorld(server)
    refresh = world.tokens()["refresh_token"]
    answers = race(6, lambda: world.refresh(refresh))
    winners = [answer.json() for answer in answers if answer.status_code == 200]
    assert len(winners) <= 1, [answer.status_code for answer in answers]
    assert all(answer.json()["error"] == "invalid_grant" for answer in answers if answer.status_code != 200)


def test_refresh_with_a_granted_scope_states_the_scope_it_issued(server):
    """RFC 6749 §5.1/§6: the server may keep the granted scopes, but the answer's scope must say what the token carries."""
    world = OAuthWorld(server)
    tokens = world.tokens(scope="openid email")
    refreshed = world.token({"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
                             "client_id": "ios.app", "scope": "openid"})
    assert refreshed.status_code == 200, refreshed.text
    body = refreshed.json()
    claims = jwt.decode(body["access_token"], options={"verify_signature": False})
    assert set(body["scope"].split()) == set(claims["scope"].split())
    assert set(body["scope"].split()) <= {"openid", "email"} and "openid" in body["scope"].split()


def test_oauth_and_directus_refresh_tokens_do_not_cross_over(server):
    world = OAuthWorld(server)
    oauth = world.tokens()
    assert server.post("/auth/refresh", {"refresh_token": oauth["refresh_token"]}).status_code == 401
    directus = server.post("/auth/login", {"email": "jane@example.com", "password": GOOD_PASSWORD}).json()["data"]
    token_error(world.refresh(directus["refresh_token"]), 400, "invalid_grant")
    # Both still work where they belong.
    assert world.refresh(oauth["refresh_token"]).status_code == 200
    assert server.post("/auth/refresh", {"refresh_token": directus["refresh_token"]}).status_code == 200


def test_oversized_and_malformed_token_requests_get_oauth_errors(server):
    """Clients parse `error` as an RFC 6749 §5.2 string, also when the body is too large or badly encoded."""
    world = OAuthWorld(server)
    bad_encoding = requests.post(server.base + "/oauth/token", data=b"grant_type=%zz", timeout=30,
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    token_error(bad_encoding, 400, "invalid_request")
    too_large = world.token({"grant_type": "refresh_token", "refresh_token": "x" * 70_000, "client_id": "ios.app"})
    assert too_large.status_code in (400, 413), too_large.status_code
    token_error(too_large, too_large.status_code, "invalid_request")
