"""No secret in any error message (issue 35, finding 6), through the release binary.

Credentials leave the messages of libpq, hiredis and libcurl by their form (a URL's password, a
`password=` parameter), never by searching for the password's text: that once turned libpq's
"Is the server running" into "Is the <redacted> running" for the password `server`, which gave
the password away.

- A server started with an unreachable database whose password is a common word says so in
  plain words: libpq's sentence whole, and `<redacted>` only where the URL's password was.
- A run with a failing database, a failing Redis and a refusing SMTP server (each with a
  password of its own) writes none of the three passwords anywhere: the server's log, the
  commands' output.
"""
import os
import subprocess
import time
import urllib.parse

from conftest import BINARY, GOOD_PASSWORD, SMTPServer, free_port

LIBPQ_SENTENCE = "Is the server running on that host and accepting TCP/IP connections?"


def latchkey(*args, env, stdin=None):
    full = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    full.update(env)
    return subprocess.run([str(BINARY), *args], env=full, input=stdin, capture_output=True, text=True, timeout=60)


def closed_port():
    return free_port()  # nothing listens there once the probe socket is closed


def test_a_common_word_as_database_password_leaves_the_message_readable(tmp_path):
    for password in ["server", "running", "5432"]:
        url = f"postgres://latchkey:{password}@127.0.0.1:{closed_port()}/latchkey?connect_timeout=2"
        env = {"LATCHKEY_DATA_DIR": str(tmp_path / "data"), "LATCHKEY_DATABASE_URL": url,
               "LATCHKEY_LISTEN": f"127.0.0.1:{free_port()}"}
        for command in (["serve"], ["migrate"]):
            result = latchkey(*command, env=env)
            output = result.stdout + result.stderr
            assert result.returncode != 0, output
            assert LIBPQ_SENTENCE in output, output
            assert f":{password}@" not in output
            assert "<redacted> running" not in output and "the <redacted>" not in output
            # The one placeholder is the URL's password.
            assert output.count("<redacted>") == output.count("postgres://latchkey:<redacted>@127.0.0.1:"), output


def test_failing_database_redis_and_smtp_show_no_password_anywhere(tmp_path, smtp_server, make_server):
    database_password = "db-secret@Tx7%q"
    redis_password = "redis-secret-Kp3"
    smtp_password = "smtp-secret-Wn5"
    secrets = [database_password, urllib.parse.quote(database_password, safe=""), redis_password, smtp_password]
    outputs = []

    # The database: unreachable, so neither the server nor a command starts with it.
    database_url = (f"postgres://latchkey:{urllib.parse.quote(database_password, safe='')}"
                    f"@127.0.0.1:{closed_port()}/latchkey?connect_timeout=2")
    for command in (["serve"], ["migrate"], ["users", "list"]):
        result = latchkey(*command, env={"LATCHKEY_DATA_DIR": str(tmp_path / "pg"), "LATCHKEY_DATABASE_URL": database_url,
                                         "LATCHKEY_LISTEN": f"127.0.0.1:{free_port()}"})
        assert result.returncode != 0
        outputs.append(result.stdout + result.stderr)

    # Redis: unreachable (the limits pass open, so a reset is still mailed); SMTP: refuses the login.
    smtp = smtp_server("starttls")
    server = make_server(
        LATCHKEY_REDIS_URL=f"redis://:{redis_password}@127.0.0.1:{closed_port()}/0", LATCHKEY_RATE_LIMIT_FAIL_OPEN="true",
        **smtp.settings(password=smtp_password))
    server.create_user("pat@example.com", GOOD_PASSWORD)
    assert server.post("/auth/password/request", {"email": "pat@example.com"}).status_code == 200
    deadline = time.time() + 20
    while '"mail_failed"' not in server.log():
        assert time.time() < deadline, server.log()[-3000:]
        time.sleep(0.1)
    assert '"rate_limiter_unavailable"' in server.log()
    listed = server.cli("outbox", "list", check=False)
    tested = server.cli("mail", "test", "pat@example.com", check=False)
    assert tested.returncode != 0
    assert "SMTP" in tested.stdout + tested.stderr
    outputs += [server.log(), listed.stdout + listed.stderr, tested.stdout + tested.stderr]

    for output in outputs:
        for secret in secrets:
            assert secret not in output, f"{secret!r} in:\n{output[-2000:]}"
    assert SMTPServer.PASSWORD not in "".join(outputs)
