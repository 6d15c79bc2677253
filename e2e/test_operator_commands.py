"""Operator commands from the accounts issue (32), as issue 36 asks for them: `users set-email`
(every session ends, the old address is told), `clients update` (redirect URIs, scopes, name, a
new secret printed once), `keys revoke` (unpublished, the tokens it signed refused on a running
server within a second)."""
import base64
import json
import re
import time

import requests

from conftest import GOOD_PASSWORD

CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"


def login(server, email, password=GOOD_PASSWORD):
    return requests.post(server.base + "/auth/login", json={"email": email, "password": password}, timeout=30)


def refresh(server, token):
    return requests.post(server.base + "/auth/refresh", json={"refresh_token": token}, timeout=30).status_code


def test_users_set_email_ends_every_session_and_tells_the_old_address(server):
    server.create_user("pat@example.com")
    server.create_user("sam@example.com")
    session = login(server, "pat@example.com").json()["data"]
    assert server.post("/auth/password/request", {"email": "pat@example.com"}).status_code == 200
    [reset_mail] = server.wait_for_mails("pat@example.com", 1)
    token = server.token_in(reset_mail)

    moved = server.cli("users", "set-email", "Pat@Example.com", "Patricia@Example.net")
    assert "moved Pat@Example.com to patricia@example.net" in moved.stdout
    listing = server.cli("users", "list").stdout
    assert "patricia@example.net\tactive" in listing and "pat@example.com" not in listing
    # Every session and reset link of the account ended; the account signs in with the new address only.
    assert refresh(server, session["refresh_token"]) == 401
    assert server.post("/auth/password/validate", {"token": token}).status_code == 400
    assert login(server, "pat@example.com").status_code == 401
    assert login(server, "patricia@example.net").status_code == 200
    # The old address is told, with a hint of the new one and when; never the whole new address.
    notices = [mail for mail in server.wait_for_mails("pat@example.com", 2) if mail is not reset_mail and "changed" in mail["Subject"]]
    assert [mail["Subject"] for mail in notices] == ["The email address of your Latchkey account was changed"]
    text = server.text_of(notices[0])
    assert "p***@example.net" in text and "patricia@example.net" not in text and " UTC" in text
    assert server.mails("patricia@example.net") == []

    taken = server.cli("users", "set-email", "patricia@example.net", "sam@example.com", check=False)
    assert taken.returncode == 1 and "already exists" in taken.stderr
    missing = server.cli("users", "set-email", "ghost@example.com", "ghost2@example.com", check=False)
    assert missing.returncode == 1 and "No such account: ghost@example.com" in missing.stderr
    usage = server.cli("users", "set-email", "sam@example.com", check=False)
    assert usage.returncode == 2
    assert login(server, "sam@example.com").status_code == 200


def authorize(server, client_id, redirect_uri, scope="openid"):
    return requests.get(server.base + "/oauth/authorize", allow_redirects=False, timeout=30, params={
        "response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri, "scope": scope,
        "code_challenge": CHALLENGE, "code_challenge_method": "S256", "state": "s"})


def test_clients_update_changes_redirect_uris_scopes_name_and_secret(server):
    created = server.cli("clients", "create", "partner.app", "--redirect-uri", "https://partner.example/callback",
                         "--confidential", "--introspect").stdout
    old_secret = re.search(r"client_secret: (\S+)", created).group(1)
    introspect = lambda secret: requests.post(server.base + "/oauth/introspect", data={"token": "x"},
                                              auth=("partner.app", secret), timeout=30).status_code
    assert introspect(old_secret) == 200
    assert authorize(server, "partner.app", "https://partner.example/callback").status_code == 200
    assert authorize(server, "partner.app", "https://partner.example/callback", scope="calendar").status_code == 303

    updated = server.cli("clients", "update", "partner.app", "--redirect-uri", "https://partner.example/oauth",
                         "--redirect-uri", "https://partner.example/oauth2", "--scope", "calendar", "--name", "Partner Calendar",
                         "--new-secret")
    new_secret = re.search(r"^client_secret: (\S+)$", updated.stdout, re.M).group(1)
    assert new_secret != old_secret and updated.stdout.count(new_secret) == 1
    assert "scopes openid email calendar" in updated.stdout and "name Partner Calendar" in updated.stdout
    # The old secret is refused at once, the new one works; the secret is never listed.
    assert introspect(old_secret) == 401 and introspect(new_secret) == 200
    assert new_secret not in server.cli("clients", "list").stdout
    # The old redirect URI is refused with the error page, the new ones work, the new scope may be asked for.
    assert authorize(server, "partner.app", "https://partner.example/callback").status_code == 400
    page = authorize(server, "partner.app", "https://partner.example/oauth2", scope="openid calendar")
    assert page.status_code == 200 and "Partner Calendar" in page.text
    [row] = [line.split("\t") for line in server.cli("clients", "list").stdout.splitlines() if line.startswith("partner.app\t")]
    assert row[5] == "https://partner.example/oauth https://partner.example/oauth2" and row[6] == "openid email calendar"

    # Where /oauth/logout may send the browser afterwards is the client's too; it survives other changes.
    server.cli("clients", "update", "partner.app", "--post-logout-redirect-uri", "https://partner.example/bye")
    # Only what is given changes; a public client has no secret to renew; nothing to change is a mistake.
    server.cli("clients", "update", "partner.app", "--clear-scopes", "--clear-name")
    [row] = [line.split("\t") for line in server.cli("clients", "list").stdout.splitlines() if line.startswith("partner.app\t")]
    assert row[6] == "openid email" and row[7] == "https://partner.example/bye"
    server.cli("clients", "update", "partner.app", "--clear-post-logout-redirect-uris")
    assert server.cli("clients", "list").stdout.split("partner.app\t", 1)[1].splitlines()[0].endswith("\t-")
    assert authorize(server, "partner.app", "https://partner.example/oauth", scope="calendar").status_code == 303
    assert introspect(new_secret) == 200
    server.cli("clients", "create", "ios.app", "--redirect-uri", "com.example.app:/oauth")
    public = server.cli("clients", "update", "ios.app", "--new-secret", check=False)
    assert public.returncode == 1 and "public client" in public.stderr
    for args in [("clients", "update", "ios.app"), ("clients", "update", "nope", "--name", "x")]:
        assert server.cli(*args, check=False).returncode == 1, args


def jwt_kid(token):
    header = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))["kid"]


def test_keys_revoke_unpublishes_a_key_and_its_tokens_stop_verifying_within_a_second(server):
    server.create_user("pat@example.com")
    created = server.cli("clients", "create", "resource.server", "--redirect-uri", "https://api.example/cb",
                         "--confidential", "--introspect").stdout
    secret = re.search(r"client_secret: (\S+)", created).group(1)
    active = lambda token: requests.post(server.base + "/oauth/introspect", data={"token": token},
                                         auth=("resource.server", secret), timeout=30).json()["active"]
    access_token = login(server, "pat@example.com").json()["data"]["access_token"]
    kid = jwt_kid(access_token)
    assert active(access_token) is True
    published = lambda: {key["kid"] for key in requests.get(server.base + "/.well-known/jwks.json", timeout=10).json()["keys"]}
    assert kid in published()

    revoked = server.cli("keys", "revoke", kid).stdout
    assert f"revoked ES256 key {kid}" in revoked and "within a second" in revoked
    replacement = re.search(r"^active ES256 key: (\S+)$", revoked, re.M).group(1)
    # The running server reloads the key file within a second: the key is gone and its token refused.
    deadline = time.time() + 3
    while time.time() < deadline and kid in published():
        time.sleep(0.05)
    assert kid not in published() and replacement in published()
    assert active(access_token) is False
    fresh = login(server, "pat@example.com").json()["data"]["access_token"]
    assert jwt_kid(fresh) == replacement and active(fresh) is True
    listed = server.cli("keys", "list").stdout
    assert kid not in listed and replacement in listed

    # A retired key is removed without a replacement; an unknown kid is an error.
    rotated = server.cli("keys", "rotate").stdout
    retired_rs256 = [line.split("\t")[0] for line in server.cli("keys", "list").stdout.splitlines() if "RS256" in line and "retired" in line]
    assert retired_rs256
    again = server.cli("keys", "revoke", retired_rs256[0]).stdout
    assert "revoked RS256 key" in again and "active" not in again and rotated
    unknown = server.cli("keys", "revoke", "no-such-kid", check=False)
    assert unknown.returncode == 1 and "keys list" in unknown.stderr
