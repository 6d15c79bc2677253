"""The client commands for an account's own life (`latchkey register …`, `latchkey account …`)
against the real server: sign-up and its confirmation link, with every secret on standard
input and none in an argument, an output or the server's log."""
import os
import re
import subprocess

from conftest import BINARY, Server

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
                    "account sessions", "account delete"]:
        assert command in main
    assert "LATCHKEY_REGISTRATION=open" in client(env, "register", "--help").stdout
    assert "--yes" in client(env, "account", "--help").stdout
