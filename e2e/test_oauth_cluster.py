"""The OAuth flow across two instances on one PostgreSQL database and one Redis, as behind a
load balancer: a page served by one instance is submitted to the other, codes and tokens
issued by one are redeemed, refreshed, replayed and checked on the other."""
from conftest import GOOD_PASSWORD
from oauth_support import (EMAIL, Browser, OAuthWorld, Page, authorize_params, authorize_url, pkce_pair, race,
                           redirect_params)

# A made-up host over http: LATCHKEY_ALLOW_HTTP_PUBLIC_URL lets the servers start with it.
ISSUER = "http://login.example.test"
NEW_PASSWORD = "violet tractor quietly juggles mountains"


def cluster(make_cluster):
    a, b = make_cluster(LATCHKEY_PUBLIC_URL=ISSUER, LATCHKEY_ALLOW_HTTP_PUBLIC_URL="true")
    world = OAuthWorld(a)
    return world, world.on(b)


def test_sign_in_page_and_session_of_one_instance_work_on_the_other(make_cluster):
    on_a, on_b = cluster(make_cluster)
    browser = Browser(on_a.server)
    verifier, challenge = pkce_pair()
    page = browser.get(authorize_url(on_a.server, authorize_params("ios.app", challenge)))
    assert page.status_code == 200
    first = redirect_params(browser.sign_in(page, via=on_b.server))
    assert first["iss"] == ISSUER

    answer = on_a.exchange(first["code"], verifier)
    assert answer.status_code == 200, answer.text

    # The browser session started on B is known to A (web.app, a confidential client, gets its
    # code at once); the consent form from A is accepted by B.
    verifier, challenge = pkce_pair()
    again = browser.get(authorize_url(on_a.server, authorize_params("ios.app", challenge)))
    assert again.status_code == 200  # a reused session confirms for a loopback client (RFC 8252 §8.6)
    confirmed = browser.decide(again, "allow", via=on_b.server)
    assert on_b.exchange(redirect_params(confirmed)["code"], verifier).status_code == 200

    verifier, challenge = pkce_pair()
    again = browser.get(authorize_url(on_a.server, authorize_params("web.app", challenge)))
    code = redirect_params(again)["code"]
    assert on_b.exchange(code, verifier, "web.app", secret=on_b.web_secret).status_code == 200
    consent = browser.get(authorize_url(on_a.server, authorize_params("partner.app", challenge)))
    assert consent.status_code == 200
    form = Page(consent.text).form
    allowed = browser.post_form(consent, Page.hidden_fields(form) + [("decision", "allow")], via=on_b.server)
    assert "code" in redirect_params(allowed)


def test_tokens_from_one_instance_are_refreshed_checked_and_revoked_on_the_other(make_cluster):
    on_a, on_b = cluster(make_cluster)
    tokens = on_a.tokens()
    assert on_b.is_active(tokens["access_token"])
    assert on_b.userinfo(tokens["access_token"]).json() == {"sub": on_a.account_id(), "email": EMAIL, "email_verified": True}

    rotated = on_b.refresh(tokens["refresh_token"])
    assert rotated.status_code == 200, rotated.text
    successor = rotated.json()
    # Reuse of the first token on A ends the family everywhere.
    assert on_a.refresh(tokens["refresh_token"]).json()["error"] == "invalid_grant"
    assert on_b.refresh(successor["refresh_token"]).json()["error"] == "invalid_grant"
    assert not on_b.is_active(successor["access_token"])

    other = on_a.tokens()
    assert on_b.revoke(other["refresh_token"]).status_code == 200
    assert not on_a.is_active(other["access_token"])


def test_a_code_replayed_on_the_other_instance_revokes_what_it_issued(make_cluster):
    on_a, on_b = cluster(make_cluster)
    code, verifier = on_a.code()
    tokens = on_a.exchange(code, verifier).json()
    assert on_b.exchange(code, verifier).json()["error"] == "invalid_grant"
    assert not on_a.is_active(tokens["access_token"])
    assert on_a.refresh(tokens["refresh_token"]).json()["error"] == "invalid_grant"


def test_one_code_redeemed_in_parallel_on_both_instances_wins_at_most_once(make_cluster):
    on_a, on_b = cluster(make_cluster)
    code, verifier = on_a.code()
    worlds = iter([on_a, on_b] * 10)
    answers = race(20, lambda: next(worlds).exchange(code, verifier))
    assert len([answer for answer in answers if answer.status_code == 200]) <= 1
    assert {answer.json()["error"] for answer in answers if answer.status_code != 200} == {"invalid_grant"}


def test_a_password_reset_through_one_instance_ends_tokens_and_sessions_on_the_other(make_cluster):
    on_a, on_b = cluster(make_cluster)
    browser = Browser(on_b.server)
    _, challenge = pkce_pair()
    page = browser.get(authorize_url(on_b.server, authorize_params("ios.app", challenge)))
    redirect_params(browser.sign_in(page, EMAIL, GOOD_PASSWORD))
    tokens = on_b.tokens()
    on_a.reset_password(NEW_PASSWORD)
    assert not on_b.is_active(tokens["access_token"])
    assert on_b.refresh(tokens["refresh_token"]).json()["error"] == "invalid_grant"
    assert browser.get(authorize_url(on_b.server, authorize_params("ios.app", challenge))).status_code == 200
