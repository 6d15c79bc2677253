"""`latchkey users import` (issue 34): Directus users brought over with their ids, their
Argon2 hashes (node-argon2's defaults and other HASH_* settings, made here with argon2-cffi,
which builds the same reference code node-argon2 does) and their statuses; each refused user
reported with its reason; a rerun changes nothing. On SQLite and on PostgreSQL."""
import base64
import csv
import os
import io
import json
import sqlite3
import subprocess

import pyotp
from argon2.low_level import Type, hash_secret

from conftest import Server

NEW_PASSWORD = "violet tractor quietly juggles mountains"


def directus_hash(password, *, variant=Type.ID, memory=65536, time=3, lanes=4, length=32, version=19, drop_version=False):
    """A PHC string as node-argon2 writes one with these HASH_* settings (defaults: node-argon2's own)."""
    phc = hash_secret(password.encode(), b"0123456789abcdef", time_cost=time, memory_cost=memory, parallelism=lanes,
                      hash_len=length, type=variant, version=version).decode()
    return phc.replace(f"$v={version}", "") if drop_version else phc


# Directus users: id, email, password, status, tfa_secret (plus columns the import ignores).
USERS = [
    ("3b241101-e2bb-4255-8caf-4136c566a962", "admin@example.com", directus_hash("node defaults pw"), "active"),
    ("5a8a2b0c-1111-4cde-9f00-000000000002", "legacy@example.com",
     directus_hash("legacy argon2i pw", variant=Type.I, memory=4096, lanes=1), "active"),
    ("5a8a2b0c-1111-4cde-9f00-000000000003", "wide@example.com",
     directus_hash("argon2d long tag pw", variant=Type.D, memory=8192, time=2, lanes=2, length=64), "active"),
    ("5a8a2b0c-1111-4cde-9f00-000000000004", "old@example.com",
     directus_hash("version ten pw", variant=Type.I, memory=4096, time=2, lanes=1, version=16, drop_version=True), "active"),
    ("5a8a2b0c-1111-4cde-9f00-000000000005", "away@example.com", directus_hash("suspended pw"), "suspended"),
    ("5a8a2b0c-1111-4cde-9f00-000000000006", "invited@example.com", "", "invited"),
]
PASSWORDS = {"admin@example.com": "node defaults pw", "legacy@example.com": "legacy argon2i pw",
             "wide@example.com": "argon2d long tag pw", "old@example.com": "version ten pw"}
HIDDEN = ("5a8a2b0c-1111-4cde-9f00-000000000007", "hidden@example.com", "**********", "active")



def stored_hash(server, email):
    url = server.env.get("LATCHKEY_DATABASE_URL")
    statement = f"SELECT password_hash FROM accounts WHERE email = '{email}'"
    if url:
        return subprocess.run(["psql", "-At", "-X", "-d", url, "-c", statement], check=True, capture_output=True, text=True).stdout.strip()
    with sqlite3.connect(server.data_dir / "latchkey.sqlite3", timeout=10) as connection:
        return connection.execute(statement).fetchone()[0]


def csv_export(users, tfa=None):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["id", "first_name", "email", "password", "status", "role", "tfa_secret", "language"])
    for user_id, email, password, status in users:
        writer.writerow([user_id, "Name, with comma", email, password, status, "", (tfa or {}).get(email, ""), "en-US"])
    return out.getvalue()


class DirectusTOTP(pyotp.TOTP):
    """pyotp's TOTP, taking the 80-bit secrets Directus (otplib) makes by default."""
    min_secret_length_bits = 80


def sign_in(server, email, password):
    return server.post("/auth/login", {"email": email, "password": password})


def subject(access_token):
    payload = access_token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["sub"]


def test_a_directus_export_signs_in_with_its_passwords_and_ids(store_server, tmp_path):
    server = store_server
    export = tmp_path / "directus_users.csv"
    export.write_text(csv_export(USERS + [HIDDEN]))
    first = server.cli("users", "import", str(export), check=False)
    assert first.returncode == 1, first.stderr
    assert "line 8: refused: its password is hidden" in first.stdout
    assert "imported 6 (4 active, 1 disabled, 1 unverified; 0 with an authenticator app), 0 already imported, 1 refused, of 7" in first.stdout

    for user_id, email, _, status in USERS[:4]:
        answer = sign_in(server, email, PASSWORDS[email])
        assert answer.status_code == 200, (email, answer.text)
        # The Directus id is the account's id, so the tokens' subject is what apps stored.
        assert subject(answer.json()["data"]["access_token"]) == user_id
        assert sign_in(server, email, PASSWORDS[email] + "x").status_code == 401

    # Weaker hashes were replaced with current ones at the sign-in; node-argon2's defaults
    # (m=65536, t=3, p=4) are no weaker than the server's and stay.
    assert stored_hash(server, "admin@example.com") == USERS[0][2]
    for email in ("legacy@example.com", "wide@example.com", "old@example.com"):
        assert stored_hash(server, email).startswith("$argon2id$v=19$"), email
        assert sign_in(server, email, PASSWORDS[email]).status_code == 200

    # Suspended is disabled: the right password does not sign in.
    assert sign_in(server, "away@example.com", "suspended pw").status_code == 401
    # Invited has no password until a reset proves the address.
    server.post("/auth/password/request", {"email": "invited@example.com"})
    [mail] = server.wait_for_mails("invited@example.com", 1)
    assert server.post("/auth/password/reset", {"token": Server.token_in(mail), "password": NEW_PASSWORD}).status_code == 200
    assert sign_in(server, "invited@example.com", NEW_PASSWORD).status_code == 200

    # A rerun (the same file, now as JSON) changes nothing, and says so.
    export_json = tmp_path / "directus_users.json"
    export_json.write_text(json.dumps({"data": [
        {"id": i, "email": e, "password": p or None, "status": s, "tfa_secret": None} for i, e, p, s in USERS + [HIDDEN]]}))
    again = server.cli("users", "import", str(export_json), check=False)
    assert again.returncode == 1
    assert "user 7: refused: its password is hidden" in again.stdout
    assert "imported 0 (0 active, 0 disabled, 0 unverified; 0 with an authenticator app), 6 already imported, 1 refused, of 7" in again.stdout
    assert sign_in(server, "invited@example.com", NEW_PASSWORD).status_code == 200
    assert sign_in(server, "away@example.com", "suspended pw").status_code == 401


def test_a_dry_run_and_refusals_change_nothing(server, tmp_path):
    export = tmp_path / "users.csv"
    export.write_text(csv_export([
        ("taken-id", "taken@example.com", directus_hash("pw one"), "active"),
        ("other-id", "TAKEN@example.com", directus_hash("pw two"), "active"),
        ("bcrypt-id", "bcrypt@example.com", "$2b$10$abcdefghijklmnopqrstuuJ1rwM7gqsW7QWm6nY3n0w8uUQ3uJq1e", "active"),
        ("gone-id", "gone@example.com", directus_hash("pw three"), "deleted"),
    ]))
    dry = server.cli("users", "import", str(export), "--dry-run", check=False)
    assert "would import 2 (2 active, 0 disabled, 0 unverified; 0 with an authenticator app), 0 already imported, 2 refused, of 4" in dry.stdout
    assert server.cli("users", "list").stdout == ""
    wet = server.cli("users", "import", str(export), check=False)
    assert wet.returncode == 1
    assert "line 3: refused: an account with the address taken@example.com exists already (id taken-id)" in wet.stdout
    assert "line 4: refused: its password is not an Argon2 hash Latchkey can verify" in wet.stdout
    assert "line 5: refused: its status \"deleted\" is not one Directus gives" in wet.stdout
    assert [line.split("\t")[1] for line in server.cli("users", "list").stdout.splitlines()] == ["taken@example.com"]


def test_an_imported_authenticator_app_keeps_working_and_its_codes_are_spent_once(store_server, tmp_path):
    server = store_server
    # 80 bits, what Directus (otplib) makes; pyotp makes no secret that short itself.
    directus_default = base64.b32encode(os.urandom(10)).decode()
    longer = pyotp.random_base32()  # 160 bits
    users = [("7f000001-0000-4000-8000-000000000001", "two@example.com", directus_hash("two step pw"), "active"),
             ("7f000001-0000-4000-8000-000000000002", "long@example.com", directus_hash("long secret pw"), "active")]
    export = tmp_path / "users.csv"
    export.write_text(csv_export(users, tfa={"two@example.com": directus_default, "long@example.com": longer}))
    result = server.cli("users", "import", str(export))
    assert "imported 2 (2 active, 0 disabled, 0 unverified; 2 with an authenticator app)" in result.stdout
    for (_, email, _, _), secret, password in [(users[0], directus_default, "two step pw"), (users[1], longer, "long secret pw")]:
        # The password alone is not enough, and says so only after the password was right.
        missing = server.post("/auth/login", {"email": email, "password": password})
        assert missing.status_code == 401 and missing.json()["errors"][0]["extensions"]["code"] == "INVALID_OTP"
        wrong_password = server.post("/auth/login", {"email": email, "password": password + "x"})
        assert wrong_password.json()["errors"][0]["extensions"]["code"] == "INVALID_CREDENTIALS"
        # The code from the person's existing authenticator app signs in, once.
        code = DirectusTOTP(secret).now()
        assert server.post("/auth/login", {"email": email, "password": password, "otp": code}).status_code == 200
        replay = server.post("/auth/login", {"email": email, "password": password, "otp": code})
        assert replay.status_code == 401
    # The secrets are nowhere in clear: not in the database, not in the log.
    for path in server.data_dir.glob("latchkey.sqlite3*"):
        data = path.read_bytes()
        assert directus_default.encode() not in data and longer.encode() not in data
    assert directus_default not in server.log() and longer not in server.log()
