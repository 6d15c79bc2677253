"""The operator's mail commands (issue 36): `latchkey mail test ADDRESS` against a real SMTP server
(e2e/smtp_server.py) that accepts, that offers no STARTTLS and that refuses the credentials; and
the outbox commands under the SMTP transport: list (pending, failed with the last error), retry
now, drop."""
import os
import sqlite3
import subprocess
import time

from conftest import BINARY, SMTPServer


def latchkey(*args, env):
    full = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    full.update(env)
    return subprocess.run([str(BINARY), *args], env=full, capture_output=True, text=True, timeout=60)


def secrets_absent(result, *secrets):
    output = result.stdout + result.stderr
    return all(secret not in output for secret in secrets)


def test_mail_test_reports_tls_authentication_and_the_servers_reply(smtp_server, tmp_path):
    smtp = smtp_server("starttls")
    env = {"LATCHKEY_DATA_DIR": str(tmp_path / "data"), "LATCHKEY_MAIL_FROM": "no-reply@example.com", **smtp.settings()}
    result = latchkey("mail", "test", "pat@example.com", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"Sending a test mail to pat@example.com through smtp://127.0.0.1:{smtp.port} (STARTTLS required, signing in as latchkey):"
    assert "  > STARTTLS" in lines and "  > MAIL FROM:<no-reply@example.com>" in lines and "  > RCPT TO:<pat@example.com>" in lines
    assert any(line.startswith("  > AUTH ") for line in lines) and "  > (credentials, not shown)" in lines
    assert any(line.startswith("TLS: TLSv1.3") for line in lines), result.stdout
    assert [line for line in lines if line.startswith("authentication: ")][0].startswith("authentication: 235")
    assert "the server's last reply: 221" in result.stdout or "the server's last reply: 250" in result.stdout
    assert lines[-1] == "sent: the server accepted the message"
    assert secrets_absent(result, SMTPServer.PASSWORD)
    [received] = smtp.received()
    assert received["tls"] and received["auth_user"] == "latchkey" and received["rcpt_tos"] == ["pat@example.com"]
    assert received["subject"] == "Latchkey: test mail" and "latchkey mail test" in received["text"]
    assert not (tmp_path / "data").exists(), "mail test needs no database"


def test_mail_test_refuses_a_server_without_starttls(smtp_server, tmp_path):
    smtp = smtp_server("plain")
    env = {"LATCHKEY_DATA_DIR": str(tmp_path / "data"), **smtp.settings()}
    result = latchkey("mail", "test", "pat@example.com", env=env)
    assert result.returncode == 1
    assert "  > STARTTLS" not in result.stdout and "TLS: none" in result.stdout
    # What the server offered, in its own words: no STARTTLS among its extensions.
    assert any(line.startswith("  < 250") for line in result.stdout.splitlines())
    assert "STARTTLS" in result.stderr and result.stderr.startswith("latchkey: not sent: ")
    assert secrets_absent(result, SMTPServer.PASSWORD)
    assert smtp.received() == []


def test_mail_test_names_refused_credentials_without_showing_them(smtp_server, tmp_path):
    smtp = smtp_server("starttls")
    wrong = "a wrong smtp password"
    env = {"LATCHKEY_DATA_DIR": str(tmp_path / "data"), **smtp.settings(password=wrong)}
    result = latchkey("mail", "test", "pat@example.com", env=env)
    assert result.returncode == 1
    assert any(line.startswith("TLS: TLSv1.3") for line in result.stdout.splitlines())
    assert "authentication: 535" in result.stdout
    assert "username or password" in result.stderr
    assert secrets_absent(result, wrong, SMTPServer.PASSWORD)
    assert smtp.received() == []


def test_mail_test_with_the_file_transport_names_the_file(server):
    result = server.cli("mail", "test", "pat@example.com")
    path = result.stdout.strip().rsplit(" ", 1)[1]
    assert path.startswith(str(server.outbox)) and os.path.exists(path)
    assert "nothing leaves this machine" in result.stdout


def outbox_rows(server, *flags):
    rows = [line.split("\t") for line in server.cli("outbox", "list", *flags).stdout.splitlines()]
    assert all(len(row) == 7 for row in rows), rows
    return rows


def test_outbox_commands_under_smtp_list_retry_and_drop(make_server, smtp_server):
    smtp = smtp_server("starttls")
    failing = make_server(**smtp.settings(password="not the smtp password"))
    for address in ["pat@example.com", "sam@example.com"]:
        failing.create_user(address)
        assert failing.post("/auth/password/request", {"email": address}).status_code == 200
    deadline = time.time() + 30
    while time.time() < deadline:
        pending = outbox_rows(failing, "--pending")
        if len(pending) == 2 and all(row[3] == "1" for row in pending):
            break
        time.sleep(0.2)
    assert [(row[1], row[3]) for row in pending] == [("pending", "1"), ("pending", "1")], pending
    assert all("username or password" in row[6] and "not the smtp password" not in row[6] for row in pending)
    by_recipient = {row[4]: row for row in pending}
    failing.stop()

    # Sam's mail is given up, as after its tenth attempt.
    with sqlite3.connect(failing.data_dir / "latchkey.sqlite3") as database:
        database.execute("UPDATE outbox SET status = 'failed', attempts = 10 WHERE id = ?", (by_recipient["sam@example.com"][0],))
    [failed] = outbox_rows(failing, "--failed")
    assert failed[0] == by_recipient["sam@example.com"][0] and failed[3] == "10" and "username or password" in failed[6]

    # Pat's is dropped (by the start of its id), and never sent.
    dropped = failing.cli("outbox", "drop", by_recipient["pat@example.com"][0][:13])
    assert dropped.stdout.startswith(f"dropped {by_recipient['pat@example.com'][0]} to pat@example.com")
    again = failing.cli("outbox", "drop", by_recipient["pat@example.com"][0], check=False)
    assert again.returncode == 1 and "no pending or failed mail" in again.stderr

    # With the right password, retry sends the given-up mail at once.
    working = make_server(data_dir=failing.data_dir, **smtp.settings())
    retried = working.cli("outbox", "retry", by_recipient["sam@example.com"][0])
    assert "is due now" in retried.stdout
    deadline = time.time() + 15
    while time.time() < deadline and not smtp.received():
        time.sleep(0.1)
    [received] = smtp.received()
    assert received["rcpt_tos"] == ["sam@example.com"] and "#token=" in received["text"]
    deadline = time.time() + 10
    while time.time() < deadline and outbox_rows(working, "--sent") == []:
        time.sleep(0.1)
    [sent] = outbox_rows(working, "--sent")
    assert sent[0] == by_recipient["sam@example.com"][0] and sent[4] == "sam@example.com"
    assert outbox_rows(working, "--pending") == [] and outbox_rows(working, "--failed") == []
    assert working.cli("outbox", "retry", sent[0], check=False).returncode == 1
    time.sleep(1)
    assert len(smtp.received()) == 1

    # `outbox show` reads files, which the SMTP transport does not write; the list says so.
    show = working.cli("outbox", "show", sent[0], check=False)
    assert show.returncode == 1 and "outbox list" in show.stderr
