"""The refresh-token reuse grace (LATCHKEY_REFRESH_REUSE_GRACE, default 10 s), as an app that
lost a rotation meets it: the server rotated the refresh token, but the app never saved the
new one (killed, Keychain locked). Presenting the old token again within the grace gets a
fresh one instead of ending the login; the lost token turning up afterwards is reuse and ends
it; past the grace, or once the new token was used, the old one is reuse as always. At
/auth/refresh and /oauth/token, on SQLite, and across two instances on PostgreSQL."""
import time

from conftest import GOOD_PASSWORD
from oauth_support import OAuthWorld

EMAIL = "grace@example.com"


def directus_refresh(server, token):
    return server.post("/auth/refresh", {"refresh_token": token})


def directus_login(server):
    response = server.post("/auth/login", {"email": EMAIL, "password": GOOD_PASSWORD})
    assert response.status_code == 200, response.text
    return response.json()["data"]["refresh_token"]


def test_a_lost_rotation_is_forgiven_within_the_grace_at_auth_refresh(make_server):
    server = make_server(LATCHKEY_REFRESH_REUSE_GRACE="10")
    server.create_user(EMAIL)
    first = directus_login(server)
    lost = directus_refresh(server, first).json()["data"]["refresh_token"]

    again = directus_refresh(server, first)
    assert again.status_code == 200
    renewed = again.json()["data"]["refresh_token"]
    assert renewed not in (first, lost)

    # The lost token turns up after all: reuse, and the whole login ends.
    assert directus_refresh(server, lost).status_code == 401
    assert directus_refresh(server, renewed).status_code == 401
    assert "token_replay_detected" in server.log()


def test_the_grace_ends_when_the_new_token_is_used_or_the_time_is_up(make_server):
    server = make_server(LATCHKEY_REFRESH_REUSE_GRACE="1")
    server.create_user(EMAIL)
    first = directus_login(server)
    second = directus_refresh(server, first).json()["data"]["refresh_token"]
    third = directus_refresh(server, second).json()["data"]["refresh_token"]
    assert directus_refresh(server, first).status_code == 401
    assert directus_refresh(server, third).status_code == 401

    start = directus_login(server)
    directus_refresh(server, start)
    time.sleep(1.5)  # the server's own clock decides; the grace is 1 s here
    assert directus_refresh(server, start).status_code == 401


def test_a_lost_rotation_is_forgiven_across_instances_at_the_token_endpoint(make_cluster):
    a, b = make_cluster(LATCHKEY_REFRESH_REUSE_GRACE="10")
    world = OAuthWorld(a)
    tokens = world.tokens()
    lost = world.refresh(tokens["refresh_token"]).json()["refresh_token"]

    again = world.on(b).refresh(tokens["refresh_token"])
    assert again.status_code == 200, again.text
    renewed = again.json()["refresh_token"]
    # Another client cannot use the grace for this token.
    assert world.on(b).refresh(tokens["refresh_token"], client_id="partner.app").status_code == 400

    assert world.refresh(lost).json()["error"] == "invalid_grant"
    assert world.on(b).refresh(renewed).json()["error"] == "invalid_grant"
