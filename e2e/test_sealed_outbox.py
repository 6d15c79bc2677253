"""Mail waiting in the outbox is sealed (issue 35): a pending reset mail holds a live link, so a
copy of the database files alone (the SQLite file, its WAL) must not yield it. The server with
the secret key file still sends it, and the link works."""
import shutil
import time

NEW_PASSWORD = "violet tractor quietly juggles mountains"


def pending_attempted(server):
    rows = [line.split("\t") for line in server.cli("outbox", "list", "--pending").stdout.splitlines()]
    return len(rows) == 1 and rows[0][3] == "1"


def reset_mail_waiting(make_server, smtp):
    """A server whose SMTP password is wrong, with a reset mail for pat waiting after one attempt."""
    failing = make_server(**smtp.settings(password="not the smtp password"))
    failing.create_user("pat@example.com")
    assert failing.post("/auth/password/request", {"email": "pat@example.com"}).status_code == 200
    deadline = time.time() + 30
    while time.time() < deadline and not pending_attempted(failing):
        time.sleep(0.2)
    assert pending_attempted(failing), failing.log()[-2000:]
    return failing


def test_a_copy_of_the_database_holds_no_live_link(make_server, smtp_server, tmp_path):
    smtp = smtp_server("starttls")
    failing = reset_mail_waiting(make_server, smtp)

    # What a thief of the database gets: the file and its WAL, copied while the server runs.
    stolen = tmp_path / "stolen"
    stolen.mkdir()
    files = sorted(failing.data_dir.glob("latchkey.sqlite3*"))
    assert any(path.name.endswith("-wal") for path in files)
    for path in files:
        shutil.copy(path, stolen / path.name)
    for path in stolen.iterdir():
        data = path.read_bytes()
        assert b"token=" not in data, path.name
        assert failing.base.encode() not in data, path.name
    failing.stop()

    # The server, with its key file, sends it (due now, rather than after its back-off); the
    # link in it works.
    working = make_server(data_dir=failing.data_dir, **smtp.settings())
    [row] = [line.split("\t") for line in working.cli("outbox", "list", "--pending").stdout.splitlines()]
    working.cli("outbox", "retry", row[0])
    deadline = time.time() + 20
    while time.time() < deadline and not smtp.received():
        time.sleep(0.1)
    [received] = smtp.received()
    token = received["text"].split("#token=", 1)[1][:43]
    assert working.post("/auth/password/reset", {"token": token, "password": NEW_PASSWORD}).status_code == 200
    assert working.password_matches("pat@example.com", NEW_PASSWORD)


def test_the_database_without_its_key_file_sends_nothing(make_server, smtp_server, tmp_path):
    smtp = smtp_server("starttls")
    failing = reset_mail_waiting(make_server, smtp)
    failing.stop()

    # The database moved to a machine without the secret key file: a new key is made there,
    # and the waiting mail is given up with why instead of being sent.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    for path in failing.data_dir.glob("latchkey.sqlite3*"):
        shutil.copy(path, elsewhere / path.name)
    moved = make_server(data_dir=elsewhere, **smtp.settings())
    [row] = [line.split("\t") for line in moved.cli("outbox", "list", "--pending").stdout.splitlines()]
    moved.cli("outbox", "retry", row[0])
    deadline = time.time() + 20
    failed = []
    while time.time() < deadline and not failed:
        failed = [line.split("\t") for line in moved.cli("outbox", "list", "--failed").stdout.splitlines()]
        time.sleep(0.2)
    assert failed and "another key" in failed[0][6], moved.log()[-2000:]
    assert smtp.received() == []
