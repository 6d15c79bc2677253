"""Directus-compatible login, refresh rotation and logout through the real binary."""
from conftest import GOOD_PASSWORD, Server

NEW_PASSWORD = "violet tractor quietly juggles mountains"


def login(server, address, password=GOOD_PASSWORD):
    return server.post("/auth/login", {"email": address, "password": password})


def refresh(server, token):
    return server.post("/auth/refresh", {"refresh_token": token})


def error_code(response):
    return response.json()["errors"][0]["extensions"]["code"]


def test_login_returns_directus_tokens_and_refresh_rotates(server):
    server.create_user("jane@example.com")
    response = login(server, "Jane@Example.com")
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["expires"] == 600_000
    assert data["access_token"].count(".") == 2

    rotated = refresh(server, data["refresh_token"])
    assert rotated.status_code == 200
    new_refresh = rotated.json()["data"]["refresh_token"]
    assert new_refresh != data["refresh_token"]

    # Replaying the old token is reuse: it fails and takes the whole login with it.
    replay = refresh(server, data["refresh_token"])
    assert replay.status_code == 401
    assert error_code(replay) == "INVALID_TOKEN"
    assert refresh(server, new_refresh).status_code == 401


def test_logout_ends_the_login(server):
    server.create_user("jane@example.com")
    token = login(server, "jane@example.com").json()["data"]["refresh_token"]
    assert server.post("/auth/logout", {"refresh_token": token}).status_code == 204
    assert refresh(server, token).status_code == 401


def test_password_reset_ends_every_login(server):
    server.create_user("jane@example.com")
    token = login(server, "jane@example.com").json()["data"]["refresh_token"]

    assert server.post("/auth/password/request", {"email": "jane@example.com"}).status_code == 200
    [mail] = server.wait_for_mails("jane@example.com", 1)
    reset = server.post("/auth/password/reset", {"token": Server.token_in(mail), "password": NEW_PASSWORD})
    assert reset.status_code == 200

    failed = refresh(server, token)
    assert failed.status_code == 401
    assert error_code(failed) == "INVALID_TOKEN"
    assert login(server, "jane@example.com").status_code == 401
    assert login(server, "jane@example.com", NEW_PASSWORD).status_code == 200


def test_wrong_password_and_unknown_user_get_identical_answers(server):
    server.create_user("jane@example.com")
    wrong = login(server, "jane@example.com", "not the right password")
    unknown = login(server, "nobody@example.com")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.content == unknown.content
    assert error_code(wrong) == "INVALID_CREDENTIALS"
