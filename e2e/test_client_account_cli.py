"""The client commands for an account's own life (`latchkey register …`, `latchkey account …`)
against the real server: sign-up and its confirmation link, the account, its password and
address, its signed-in devices and its deletion — with every secret on standard input (or
typed at a terminal) and none in an argument, an output or the server's log."""
import os
import pty
import re
import sqlite3
import subprocess

from conftest import BINARY, GOOD_PASSWORD, Server

NEW = "newcomer@example.com"
CHOSEN = "violet tractor quietly juggles mountains"


def client_env(server, tmp_path):
    env = dict(server.env)
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    env["LATCHKEY_ISSUER"] = server.base
    return env


def client(env, *args, stdin=None):
    return subprocess.run([str(BINARY), *args], env=env, input=stdin, capture_output=True, text=True, timeout=60)


def link_in(message, path):
    match = re.search(r"(\S+" + re.escape(path) + r"#token=[A-Za-z0-9_-]{43})", Server.text_of(message))
    assert match, f"no {path} link in mail"
    return match.group(1)


def test_register_then_confirm_makes_an_account_that_signs_in(make_server, tmp_path):
    server = make_server(LATCHKEY_REGISTRATION="open")
    env = client_env(server, tmp_path)
    signed_up = client(env, "register", NEW, "--locale", "es", stdin=CHOSEN + "\n")
    assert signed_up.returncode == 0, signed_up.stderr
    assert f"If {NEW} has no account yet, a confirmation link is on its way" in signed_up.stdout
    [mail] = server.wait_for_mails(NEW, 1)
    assert mail["Content-Language"] == "es"
    link = link_in(mail, "/verify-email")

    # Not an account before the link is used.
    early = client(env, "login", "--email", NEW, "--password-stdin", stdin=CHOSEN + "\n")
    assert early.returncode == 1 and "invalid_credentials" in early.stderr

    # The link is never an argument: refused before anything is sent, without echoing it.
    in_argv = client(env, "register", "confirm", link)
    assert in_argv.returncode == 2 and link not in in_argv.stderr
    confirmed = client(env, "register", "confirm", stdin=link + "\n")
    assert confirmed.returncode == 0, confirmed.stderr
    assert "account is ready" in confirmed.stdout

    signed_in = client(env, "login", "--email", NEW, "--password-stdin", stdin=CHOSEN + "\n")
    assert signed_in.returncode == 0, signed_in.stderr
    again = client(env, "register", "confirm", stdin=link + "\n")
    assert again.returncode == 1 and "invalid_token" in again.stderr
    token = link.rsplit("=", 1)[1]
    for text in [server.log(), signed_up.stdout, signed_up.stderr, confirmed.stdout, again.stderr]:
        assert CHOSEN not in text and token not in text


def test_register_refusals_say_why(make_server, tmp_path):
    closed = make_server()
    refused = client(client_env(closed, tmp_path), "register", NEW, stdin=CHOSEN + "\n")
    assert refused.returncode == 1 and "registration_closed" in refused.stderr

    server = make_server(LATCHKEY_REGISTRATION="open")
    env = client_env(server, tmp_path)
    weak = client(env, "register", NEW, stdin="newcomer1\n")
    assert weak.returncode == 1 and "weak_password: contains_email" in weak.stderr
    too_weak = client(env, "register", NEW, stdin="password1234\n")
    assert too_weak.returncode == 1 and "weak_password: too_weak" in too_weak.stderr
    no_password = client(env, "register", NEW, stdin="")
    assert no_password.returncode == 1 and "password on its first line" in no_password.stderr
    usage = client(env, "register")
    assert usage.returncode == 2
    wrong_link = client(env, "register", "confirm", stdin=server.base + "/reset-password#token=" + "A" * 43 + "\n")
    assert wrong_link.returncode == 1 and "invalid_link: wrong_path" in wrong_link.stderr
    assert server.mails(NEW) == []


def test_help_names_every_account_command(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    main = client(env, "--help").stdout
    for command in ["register EMAIL", "register confirm", "account show", "account password", "account email NEW",
                    "account sessions", "account passkeys", "account delete"]:
        assert command in main
    assert "LATCHKEY_REGISTRATION=open" in client(env, "register", "--help").stdout
    assert "--yes" in client(env, "account", "--help").stdout
    assert "a terminal has none, so there is no command to make one here" in " ".join(client(env, "account", "--help").stdout.split())


EMAIL = "jane@example.com"
NEW_PASSWORD = "violet tractor quietly juggles mountains"


def signed_in(server, tmp_path):
    """A server with Jane's account and the command line signed in to it with her password."""
    server.create_user(EMAIL)
    env = client_env(server, tmp_path)
    login = client(env, "login", "--email", EMAIL, "--password-stdin", stdin=GOOD_PASSWORD + "\n")
    assert login.returncode == 0, login.stderr
    return env


def age_sign_ins(server):
    """Every login's sign-in ten minutes older: past the five in which no password is asked for."""
    with sqlite3.connect(server.data_dir / "latchkey.sqlite3", timeout=10) as db:
        db.execute("UPDATE sessions SET auth_time = auth_time - 600000 WHERE kind = 'refresh_family'")


def test_account_show_sessions_and_a_new_password(server, tmp_path):
    env = signed_in(server, tmp_path)
    shown = client(env, "account", "show")
    assert shown.returncode == 0, shown.stderr
    assert f"email: {EMAIL}" in shown.stdout and "email_verified: true" in shown.stdout and "status: active" in shown.stdout
    other = server.post("/auth/login", {"email": EMAIL, "password": GOOD_PASSWORD}).json()["data"]

    listed = client(env, "account", "sessions")
    assert listed.returncode == 0, listed.stderr
    rows = [line.split("\t") for line in listed.stdout.splitlines()]
    assert len(rows) == 2 and sorted(row[1] for row in rows) == ["-", "current"]
    assert all(row[2] == "password-login" for row in rows)
    [other_id] = [row[0] for row in rows if row[1] == "-"]
    ended = client(env, "account", "sessions", "end", other_id)
    assert ended.returncode == 0 and f"signed out {other_id}" in ended.stdout
    assert server.post("/auth/refresh", {"refresh_token": other["refresh_token"]}).status_code == 401
    unknown = client(env, "account", "sessions", "end", "no-such-login")
    assert unknown.returncode == 1 and "no device is signed in with the id" in unknown.stderr

    changed = client(env, "account", "password", stdin=NEW_PASSWORD + "\n")
    assert changed.returncode == 0, changed.stderr
    assert server.password_matches(EMAIL, NEW_PASSWORD)
    # This login goes on with a renewed access token.
    assert client(env, "account", "show").returncode == 0
    assert client(env, "token").returncode == 0
    assert NEW_PASSWORD not in server.log() and NEW_PASSWORD not in changed.stdout + changed.stderr


def test_an_old_sign_in_asks_for_the_current_password(server, tmp_path):
    env = signed_in(server, tmp_path)
    age_sign_ins(server)
    asked = client(env, "account", "password", stdin=NEW_PASSWORD + "\n")
    assert asked.returncode == 1
    assert "reauthentication_required" in asked.stderr and "second line" in asked.stderr
    wrong = client(env, "account", "password", stdin=NEW_PASSWORD + "\nnot the password\n")
    assert wrong.returncode == 1 and "invalid_credentials" in wrong.stderr
    assert server.password_matches(EMAIL, GOOD_PASSWORD)
    changed = client(env, "account", "password", stdin=NEW_PASSWORD + "\n" + GOOD_PASSWORD + "\n")
    assert changed.returncode == 0, changed.stderr
    assert server.password_matches(EMAIL, NEW_PASSWORD)
    moved = client(env, "account", "email", "jane.new@example.com")
    assert moved.returncode == 1 and "first line" in moved.stderr


def test_a_new_address_is_confirmed_and_undone_with_its_links(server, tmp_path):
    env = signed_in(server, tmp_path)
    asked = client(env, "account", "email", "jane.new@example.com")
    assert asked.returncode == 0, asked.stderr
    assert "A confirmation link is on its way to jane.new@example.com" in asked.stdout
    confirm = link_in(server.wait_for_mails("jane.new@example.com", 1)[0], "/confirm-email")
    assert client(env, "account", "email", "confirm", confirm).returncode == 2
    confirmed = client(env, "account", "email", "confirm", stdin=confirm + "\n")
    assert confirmed.returncode == 0, confirmed.stderr
    assert "email: jane.new@example.com" in client(env, "account", "show").stdout

    undo = link_in(server.wait_for_mails(EMAIL, 1)[-1], "/undo-email-change")
    wrong_kind = client(env, "account", "email", "undo", stdin=confirm + "\n")
    assert wrong_kind.returncode == 1 and "invalid_link: wrong_path" in wrong_kind.stderr
    undone = client(env, "account", "email", "undo", stdin=undo + "\n")
    assert undone.returncode == 0, undone.stderr
    assert "signed out" in undone.stderr
    assert "not signed in" in client(env, "token").stderr
    assert client(env, "login", "--email", EMAIL, "--password-stdin", stdin=GOOD_PASSWORD + "\n").returncode == 0


def test_delete_asks_on_a_terminal_and_needs_yes_otherwise(server, tmp_path):
    env = signed_in(server, tmp_path)
    refused = client(env, "account", "delete", stdin="")
    assert refused.returncode == 2 and "--yes" in refused.stderr

    # At a terminal: the address must be typed.
    def at_terminal(answer):
        primary, secondary = pty.openpty()
        process = subprocess.Popen([str(BINARY), "account", "delete"], env=env, stdin=secondary,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        os.close(secondary)
        os.write(primary, (answer + "\n").encode())
        out, err = process.communicate(timeout=60)
        os.close(primary)
        return process.returncode, out, err

    status, _, err = at_terminal("someone.else@example.com")
    assert status == 1 and "not deleted" in err and f"This deletes the account {EMAIL}" in err
    assert client(env, "account", "show").returncode == 0
    status, out, err = at_terminal(EMAIL.upper())
    assert status == 0, err
    assert "Your account has been deleted" in out
    assert "not signed in" in client(env, "token").stderr
    gone = server.post("/auth/login", {"email": EMAIL, "password": GOOD_PASSWORD})
    assert gone.status_code == 401


def test_delete_with_yes_and_the_current_password_on_standard_input(server, tmp_path):
    env = signed_in(server, tmp_path)
    age_sign_ins(server)
    asked = client(env, "account", "delete", "--yes", stdin="")
    assert asked.returncode == 1 and "reauthentication_required" in asked.stderr
    deleted = client(env, "account", "delete", "--yes", stdin=GOOD_PASSWORD + "\n")
    assert deleted.returncode == 0, deleted.stderr
    assert "not signed in" in client(env, "account", "show").stderr
    [notice] = [m for m in server.wait_for_mails(EMAIL, 1)]
    assert notice is not None


def test_ending_this_device_signs_the_command_line_out(server, tmp_path):
    env = signed_in(server, tmp_path)
    [row] = [line.split("\t") for line in client(env, "account", "sessions").stdout.splitlines()]
    ended = client(env, "account", "sessions", "end", row[0])
    assert ended.returncode == 0 and "stored login" in ended.stderr
    assert "not signed in" in client(env, "token").stderr
