"""Backup and restore (issue 36): `latchkey backup` copies the SQLite database while the server
answers sign-ins, and the restore steps of docs/deploy.md bring it back after the database is
wiped: the account and its password from before the backup sign in, what came after is gone."""
import os
import stat
import subprocess
import threading
import time

import requests

from conftest import BINARY, GOOD_PASSWORD, ROOT

NEW_PASSWORD = "violet tractor quietly juggles mountains"


def sign_in(server, email, password):
    return requests.post(server.base + "/auth/login", json={"email": email, "password": password}, timeout=30).status_code


def test_backup_while_serving_then_wipe_and_restore(make_server, tmp_path):
    docs = (ROOT / "docs" / "deploy.md").read_text()
    restore = docs.split("### Restoring SQLite", 1)[1].split("\n## ", 1)[0]
    # The steps this test takes are the documented ones.
    assert "mv latchkey.sqlite3 latchkey.sqlite3-wal latchkey.sqlite3-shm damaged/" in restore
    assert "install -m 0600 -o latchkey -g latchkey /var/backups/latchkey/" in restore
    assert "latchkey-admin migrate" in restore and "latchkey-admin backup " in docs

    server = make_server()
    server.create_user("pat@example.com")
    server.cli("clients", "create", "ios.app", "--redirect-uri", "com.example.app:/oauth")

    # Sign-ins (each a write: a new login) run the whole time the backup is made.
    stop = threading.Event()
    statuses = []

    def keep_signing_in():
        while not stop.is_set():
            statuses.append(sign_in(server, "pat@example.com", GOOD_PASSWORD))

    threads = [threading.Thread(target=keep_signing_in) for _ in range(2)]
    for thread in threads:
        thread.start()
    try:
        while len(statuses) < 4:
            time.sleep(0.01)
        backup = tmp_path / "backups" / "latchkey-backup.sqlite3"
        backup.parent.mkdir()
        made = server.cli("backup", str(backup))
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert set(statuses) == {200}
    assert "pages" in made.stdout and "schema version" in made.stdout and "signing-keys.json" in made.stdout
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    again = server.cli("backup", str(backup), check=False)
    assert again.returncode == 1 and "exists already" in again.stderr

    # After the backup: a new account and a new password, which the restore undoes.
    server.create_user("sam@example.com")
    server.cli("users", "set-password", "pat@example.com", "--password-stdin", stdin=NEW_PASSWORD + "\n")
    assert sign_in(server, "pat@example.com", NEW_PASSWORD) == 200
    server.stop()

    # The database is lost: the file and its -wal and -shm companions.
    data = server.data_dir
    damaged = data / "damaged"
    damaged.mkdir()
    for name in ["latchkey.sqlite3", "latchkey.sqlite3-wal", "latchkey.sqlite3-shm"]:
        if (data / name).exists():
            os.rename(data / name, damaged / name)
    assert server.cli("users", "list", check=False).returncode == 1

    # The documented restore: install the backup 0600 as the database, migrate, start.
    subprocess.run(["install", "-m", "0600", str(backup), str(data / "latchkey.sqlite3")], check=True)
    server.cli("migrate")
    restored = make_server(data_dir=data)
    assert sign_in(restored, "pat@example.com", GOOD_PASSWORD) == 200
    assert sign_in(restored, "pat@example.com", NEW_PASSWORD) == 401
    listing = restored.cli("users", "list").stdout
    assert "pat@example.com" in listing and "sam@example.com" not in listing
    assert "ios.app" in restored.cli("clients", "list").stdout


def test_backup_of_a_postgresql_database_points_to_pg_dump(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    env.update({"LATCHKEY_DATA_DIR": str(tmp_path / "data"), "LATCHKEY_DATABASE_URL": "postgres://latchkey@127.0.0.1:1/latchkey"})
    result = subprocess.run([str(BINARY), "backup", str(tmp_path / "copy")], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "pg_dump" in result.stderr
    assert not (tmp_path / "copy").exists()
