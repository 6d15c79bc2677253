"""The signed-in person's own account against the release binary, on SQLite and on PostgreSQL:
Directus's SDKs on GET/PATCH/DELETE /users/me, the re-authentication rule, a new password that
keeps this device and ends another, a new address confirmed and undone through the mailed links,
the signed-in devices, and a deleted account whose tokens die at once on a second instance."""
import asyncio
import re
import sqlite3
import subprocess

import httpx
import pytest
import requests
from directus_sdk_py import DirectusClient
from py_directus import Directus, DirectusUser

from conftest import GOOD_PASSWORD, Server
from oauth_support import EMAIL, OAuthWorld

NEW_PASSWORD = "violet tractor quietly juggles mountains"
NEW_EMAIL = "jane.new@example.com"
SAFARI_ON_IOS = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                 "Version/17.4 Mobile/15E148 Safari/604.1")



def sql(server, statement):
    """Runs `statement` against the server's database, as an operator would with its own tool."""
    url = server.env.get("LATCHKEY_DATABASE_URL")
    if url:
        subprocess.run(["psql", "-q", "-X", "-d", url, "-c", statement], check=True, capture_output=True)
        return
    with sqlite3.connect(server.data_dir / "latchkey.sqlite3", timeout=10) as connection:
        connection.execute(statement)


def login(server, email=EMAIL, password=GOOD_PASSWORD, user_agent=None):
    headers = {"User-Agent": user_agent} if user_agent else {}
    response = server.post("/auth/login", {"email": email, "password": password}, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def call(server, method, path, token=None, body=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.request(method, server.base + path, json=body, headers=headers, timeout=30)


def code(response):
    return response.json()["errors"][0]["extensions"]["code"]


def link_token(message, page):
    match = re.search(rf"/{page}#token=([A-Za-z0-9_-]{{43}})", Server.text_of(message))
    assert match, f"no /{page} link in mail"
    return match.group(1)


def test_directus_sdks_read_the_account_and_change_its_password(store_server):
    """directus-sdk-py reads /users/me and changes the password (PATCH, 200); its own login goes on
    after a refresh, while another device's ends; py-directus reads /users/me too."""
    server = store_server
    server.create_user(EMAIL)
    client = DirectusClient(server.base, email=EMAIL, password=GOOD_PASSWORD)
    me = client.me()
    assert me["email"] == EMAIL and me["email_verified"] is True and me["status"] == "active"
    other = login(server)

    changed = client.patch("/users/me", json={"password": NEW_PASSWORD})
    assert changed["data"]["email"] == EMAIL
    assert server.password_matches(EMAIL, NEW_PASSWORD)
    assert call(server, "POST", "/auth/refresh", body={"refresh_token": other["refresh_token"]}).status_code == 401
    assert call(server, "GET", "/users/me", other["access_token"]).status_code == 401
    # This device's access token carries the old credential version: refreshed, it goes on.
    with pytest.raises(AssertionError):
        client.me()
    client.refresh(client.refresh_token)
    assert client.me()["id"] == me["id"]
    [notice] = server.wait_for_mails(EMAIL, 1)
    assert "password was changed" in notice["Subject"]

    async def read_with_py_directus():
        async with httpx.AsyncClient() as connection:
            directus = await Directus(server.base, email=EMAIL, password=NEW_PASSWORD, connection=connection)
            return (await directus.me()).item

    user = asyncio.run(read_with_py_directus())
    assert isinstance(user, DirectusUser) and user.email == EMAIL and user.id == me["id"]


def test_every_reauthentication_rule_is_refused_when_unmet(store_server):
    """A login that signed in more than 5 minutes ago (its sign-in time set back in the database)
    changes nothing without the current password; a wrong one counts as a failed sign-in; a
    third-party client's token is refused outright."""
    server = store_server
    world = OAuthWorld(server)  # Jane, the first-party ios.app and the third-party partner.app
    tokens = login(server)
    sql(server, "UPDATE sessions SET auth_time = auth_time - 600000 WHERE kind = 'refresh_family'")

    for method, body in [("PATCH", {"password": NEW_PASSWORD}), ("PATCH", {"email": NEW_EMAIL}), ("DELETE", None)]:
        refused = call(server, method, "/users/me", tokens["access_token"], body)
        assert refused.status_code == 403, refused.text
        assert code(refused) == "REAUTHENTICATION_REQUIRED"
        assert refused.json()["error"]["code"] == "reauthentication_required"
    wrong = call(server, "DELETE", "/users/me", tokens["access_token"], {"current_password": "not the password"})
    assert wrong.status_code == 401 and code(wrong) == "INVALID_CREDENTIALS"
    assert "WWW-Authenticate" not in wrong.headers
    assert server.password_matches(EMAIL, GOOD_PASSWORD)
    assert call(server, "GET", "/users/me", tokens["access_token"]).status_code == 200
    assert '"event":"login_failed"' in server.log()

    partner = world.tokens("partner.app")
    refused = call(server, "GET", "/users/me", partner["access_token"])
    assert refused.status_code == 403 and code(refused) == "FORBIDDEN"
    app = world.tokens("ios.app")
    assert call(server, "GET", "/users/me", app["access_token"]).status_code == 200

    allowed = call(server, "PATCH", "/users/me", tokens["access_token"],
                   {"password": NEW_PASSWORD, "current_password": GOOD_PASSWORD})
    assert allowed.status_code == 200, allowed.text
    assert server.password_matches(EMAIL, NEW_PASSWORD)


def test_the_signed_in_devices_are_listed_and_one_is_ended(store_server):
    """Logins started at /auth/login and by a code redeemed at /oauth/token (the app's requests
    are python-requests') are listed with their client, address and user agent family."""
    server = store_server
    world = OAuthWorld(server)
    app = world.tokens("ios.app")
    phone = login(server, user_agent=SAFARI_ON_IOS)
    laptop = login(server, user_agent="curl/8.5.0")

    listed = call(server, "GET", "/users/me/sessions", phone["access_token"])
    assert listed.status_code == 200, listed.text
    devices = listed.json()["data"]
    assert [device["user_agent"] for device in devices] == ["curl", "Safari on iOS", "python-requests"]
    assert [device["client_id"] for device in devices] == [None, None, "ios.app"]
    assert [device["current"] for device in devices] == [False, True, False]
    assert {device["ip"] for device in devices} == {"127.0.0.0"}
    assert "Mozilla" not in listed.text
    assert world.refresh(app["refresh_token"]).status_code == 200  # a refresh keeps where the login started
    assert call(server, "GET", "/users/me/sessions", phone["access_token"]).json()["data"][0]["user_agent"] == "python-requests"
    devices = [device for device in devices if device["client_id"] is None]

    ended = call(server, "DELETE", f"/users/me/sessions?id={devices[0]['id']}", phone["access_token"])
    assert ended.status_code == 204
    assert call(server, "GET", "/users/me", laptop["access_token"]).status_code == 401
    assert call(server, "POST", "/auth/refresh", body={"refresh_token": laptop["refresh_token"]}).status_code == 401
    again = call(server, "DELETE", f"/users/me/sessions?id={devices[0]['id']}", phone["access_token"])
    assert again.status_code == 404 and code(again) == "INVALID_QUERY"
    left = call(server, "GET", "/users/me/sessions", phone["access_token"]).json()["data"]
    assert [(device["client_id"], device["current"]) for device in left] == [("ios.app", False), (None, True)]


def test_a_new_address_is_confirmed_by_its_link_and_undone_from_the_old_one(store_server):
    """The change is asked for (PATCH /users/me, 200 with the address unchanged, as a Directus SDK
    expects a PATCH to answer); the new address confirms it from another device; the old address
    undoes it, which signs every device out."""
    server = store_server
    server.create_user(EMAIL)
    tokens = login(server)

    asked = call(server, "PATCH", "/users/me", tokens["access_token"], {"email": NEW_EMAIL, "current_password": GOOD_PASSWORD})
    assert asked.status_code == 200, asked.text
    assert asked.json()["data"]["email"] == EMAIL
    [confirmation] = server.wait_for_mails(NEW_EMAIL, 1)
    token = link_token(confirmation, "confirm-email")
    assert call(server, "POST", "/users/email/confirm", body={"token": token}).status_code == 204
    assert call(server, "GET", "/users/me", tokens["access_token"]).json()["data"]["email"] == NEW_EMAIL
    replay = call(server, "POST", "/users/email/confirm", body={"token": token})
    assert replay.status_code == 400 and code(replay) == "INVALID_TOKEN"
    login(server, email=NEW_EMAIL)

    [notice] = server.wait_for_mails(EMAIL, 1)
    assert "j***@example.com" in Server.text_of(notice)
    undo = link_token(notice, "undo-email-change")
    assert call(server, "POST", "/users/email/undo", body={"token": undo}).status_code == 204
    assert call(server, "GET", "/users/me", tokens["access_token"]).status_code == 401
    assert call(server, "POST", "/auth/refresh", body={"refresh_token": tokens["refresh_token"]}).status_code == 401
    restored = login(server)
    assert call(server, "GET", "/users/me", restored["access_token"]).json()["data"]["email"] == EMAIL
    assert call(server, "POST", "/users/email/undo", body={"token": undo}).status_code == 400


def test_asking_for_an_address_with_an_account_answers_alike_and_changes_nothing(store_server):
    server = store_server
    server.create_user(EMAIL)
    server.create_user("taken@example.com")
    tokens = login(server)
    taken = call(server, "PATCH", "/users/me", tokens["access_token"], {"email": "taken@example.com"})
    free = call(server, "PATCH", "/users/me", tokens["access_token"], {"email": "free@example.com"})
    assert taken.status_code == free.status_code == 200
    assert taken.content == free.content
    [notice] = server.wait_for_mails("taken@example.com", 1)
    assert "#token=" not in Server.text_of(notice)
    server.wait_for_mails("free@example.com", 1)


def test_a_deleted_accounts_tokens_are_dead_at_once_on_another_instance(make_cluster):
    """Two instances on one PostgreSQL database: the account is deleted through one, and at once
    every token of it is refused by the other; the address registers again."""
    a, b = make_cluster(LATCHKEY_PUBLIC_URL="https://auth.example.com", LATCHKEY_REGISTRATION="open")  # one issuer
    a.create_user(EMAIL)
    here = login(a)
    there = login(b, user_agent="curl/8.5.0")
    assert call(a, "GET", "/users/me", there["access_token"]).status_code == 200

    client = DirectusClient(b.base, token=here["access_token"])
    client.delete("/users/me")  # directus-sdk-py: 204 is its success
    assert call(a, "GET", "/users/me", there["access_token"]).status_code == 401
    assert call(a, "POST", "/auth/refresh", body={"refresh_token": there["refresh_token"]}).status_code == 401
    assert call(b, "GET", "/users/me/sessions", here["access_token"]).status_code == 401
    [confirmation] = a.wait_for_mails(EMAIL, 1)
    assert "deleted" in confirmation["Subject"]
    log = a.log() + b.log()
    assert '"event":"account_deleted"' in log and EMAIL not in log

    # The address signs up again, through the other instance, with a new password.
    new_password = "violet tractor quietly juggles mountains"
    assert b.post("/users/register", {"email": EMAIL, "password": new_password}).status_code == 204
    [_, verification] = a.wait_for_mails(EMAIL, 2)
    token = re.search(r"/verify-email#token=([A-Za-z0-9_-]{43})", a.text_of(verification)).group(1)
    assert a.post("/users/register/verify-email", {"token": token}).status_code == 204
    again = b.post("/auth/login", {"email": EMAIL, "password": new_password})
    assert again.status_code == 200
    assert call(b, "GET", "/users/me", again.json()["data"]["access_token"]).json()["data"]["email"] == EMAIL


def test_deleting_with_the_current_password_frees_the_address(store_server):
    server = store_server
    server.create_user(EMAIL)
    tokens = login(server)
    deleted = call(server, "DELETE", "/users/me", tokens["access_token"], {"current_password": GOOD_PASSWORD})
    assert deleted.status_code == 204
    assert call(server, "GET", "/users/me", tokens["access_token"]).status_code == 401
    assert "jane@example.com" not in server.cli("users", "list").stdout
    server.create_user(EMAIL)
    login(server)
