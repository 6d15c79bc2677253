"""The first hour with the command line (issue 13): usage and version, administration commands
that never quietly use an empty database (`--data-dir`, LATCHKEY_CONFIG_FILE), an unwritable
data directory named with its permission problem, the account commands, the file transport's
outbox, `make run`'s hint and a server on port 0."""
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import tempfile
import time

import requests

from conftest import BINARY, GOOD_PASSWORD, ROOT

NEW_PASSWORD = "violet tractor quietly juggles mountains"


def latchkey(*args, env=None, stdin=None, cwd=None, user=None):
    """Runs the binary with a clean LATCHKEY_* environment plus `env`; as `user` (a uid) when given."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    full_env.update(env or {})
    command = [str(BINARY), *args]
    if user is not None:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    return subprocess.run(command, env=full_env, input=stdin, capture_output=True, text=True, timeout=60, cwd=cwd)


def test_bare_latchkey_prints_usage_and_version_is_known(tmp_path):
    bare = latchkey(cwd=tmp_path)
    assert bare.returncode == 2
    assert "Usage: latchkey COMMAND" in bare.stderr and "users set-password" in bare.stderr
    version = latchkey("--version", cwd=tmp_path)
    assert version.returncode == 0
    assert re.fullmatch(r"latchkey \d+\.\d+\.\d+\n", version.stdout)
    # --help points to where the settings are documented now.
    help_text = latchkey("--help", cwd=tmp_path).stdout
    assert "docs/deploy.md#settings" in help_text and "latchkey settings" in help_text
    assert "--data-dir" in help_text and "outbox show ID" in help_text
    assert not (tmp_path / "data").exists()


def test_admin_commands_never_quietly_use_an_empty_database(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    expected = str(elsewhere / "data" / "latchkey.sqlite3")
    for args, stdin in [(("users", "list"), None), (("users", "create", "pat@example.com", "--password-stdin"), GOOD_PASSWORD),
                        (("users", "disable", "pat@example.com"), None), (("clients", "list"), None)]:
        result = latchkey(*args, stdin=stdin, cwd=elsewhere)
        assert result.returncode == 1, (args, result.stderr)
        assert expected in result.stderr and "--data-dir" in result.stderr, (args, result.stderr)
    keys = latchkey("keys", "list", cwd=elsewhere)
    assert keys.returncode == 1 and str(elsewhere / "data" / "signing-keys.json") in keys.stderr
    mail = latchkey("outbox", "show", "m-1", cwd=elsewhere)
    assert mail.returncode == 1 and str(elsewhere / "data" / "outbox") in mail.stderr
    listed = latchkey("outbox", "list", cwd=elsewhere)
    assert listed.returncode == 1 and str(elsewhere / "data" / "latchkey.sqlite3") in listed.stderr
    assert list(elsewhere.iterdir()) == [], "a command created files where it looked"

    # migrate creates the database and the key files, in the directory --data-dir names.
    data = tmp_path / "server-data"
    migrated = latchkey("migrate", "--data-dir", str(data), cwd=elsewhere)
    assert migrated.returncode == 0, migrated.stderr
    assert f"created {data / 'signing-keys.json'}" in migrated.stdout
    assert (data / "latchkey.sqlite3").exists() and (data / "address-hash.key").exists()
    created = latchkey("users", "create", "pat@example.com", "--password-stdin", "--data-dir", str(data),
                       stdin=GOOD_PASSWORD + "\n", cwd=elsewhere)
    assert created.returncode == 0, created.stderr
    assert latchkey("keys", "list", "--data-dir", str(data)).returncode == 0

    # Every command reads LATCHKEY_CONFIG_FILE as serve does; --data-dir wins over it and the environment.
    config = tmp_path / "latchkey.json"
    config.write_text(json.dumps({"LATCHKEY_DATA_DIR": str(data)}))
    listing = latchkey("users", "list", env={"LATCHKEY_CONFIG_FILE": str(config)}, cwd=elsewhere)
    assert listing.returncode == 0 and "pat@example.com\tactive" in listing.stdout, listing.stderr
    overridden = latchkey("users", "list", "--data-dir", str(elsewhere), env={"LATCHKEY_DATA_DIR": str(data)})
    assert overridden.returncode == 1 and str(elsewhere / "latchkey.sqlite3") in overridden.stderr

    # A database without Latchkey's tables is not used either.
    empty = tmp_path / "empty"
    empty.mkdir()
    subprocess.run(["python3", "-c", f"import sqlite3; sqlite3.connect({str(empty / 'latchkey.sqlite3')!r}).close()"], check=True)
    refused = latchkey("users", "list", "--data-dir", str(empty))
    assert refused.returncode == 1 and "has no Latchkey tables" in refused.stderr and "latchkey migrate" in refused.stderr


def test_an_unusable_data_directory_is_named_with_its_permission_problem(tmp_path):
    """As root the commands run as `nobody` on root's data; otherwise on a directory made read-only."""
    nobody = 65534 if os.geteuid() == 0 else None
    base = pathlib.Path(tempfile.mkdtemp(prefix="latchkey-perm-", dir="/tmp"))
    os.chmod(base, 0o755)
    data = base / "data"
    try:
        assert latchkey("migrate", "--data-dir", str(data)).returncode == 0
        os.chmod(data, 0o755 if nobody is not None else 0o500)
        for args in [("users", "list"), ("clients", "list"), ("migrate",), ("serve",)]:
            result = latchkey(*args, "--data-dir", str(data), user=nobody, env={"LATCHKEY_LISTEN": "127.0.0.1:0"})
            assert result.returncode == 1, (args, result.stderr)
            assert f"The database directory {data} is not usable by" in result.stderr, (args, result.stderr)
            assert "write and search permission" in result.stderr and "mode 0" in result.stderr
            assert "could not be prepared" not in result.stderr
        if nobody is not None:
            # The directory is the user's now, the database file still root's (mode 0600).
            os.chown(data, nobody, nobody)
            result = latchkey("users", "list", "--data-dir", str(data), user=nobody)
            assert result.returncode == 1
            assert f"The database file {data / 'latchkey.sqlite3'} is not usable by nobody" in result.stderr
            assert "read and write permission" in result.stderr and "owned by root (uid 0) with mode 0600" in result.stderr
            # Key files the user cannot read are named as such, never taken for missing ones
            # (a key ring of its own would sign what no other instance verifies).
            for path in data.rglob("*"):
                os.chown(path, nobody, nobody)
            os.chown(data / "signing-keys.json", 0, 0)
            keys = latchkey("keys", "list", "--data-dir", str(data), user=nobody)
            assert keys.returncode == 1 and keys.stdout == ""
            assert f"The signing keys file {data / 'signing-keys.json'} is not usable by nobody" in keys.stderr, keys.stderr
            os.chown(data / "signing-keys.json", nobody, nobody)
            os.chown(data / "address-hash.key", 0, 0)
            serve = latchkey("serve", "--data-dir", str(data), user=nobody, env={"LATCHKEY_LISTEN": "127.0.0.1:0"})
            assert serve.returncode == 1
            assert f"The address key file {data / 'address-hash.key'} is not usable by nobody" in serve.stderr, serve.stderr
            assert "damaged" not in serve.stderr
            # The outbox and the mail in it: read by the outbox commands, named when they cannot be.
            (data / "outbox").mkdir(exist_ok=True)
            os.chown(data / "outbox", 0, 0)
            os.chmod(data / "outbox", 0o700)
            hidden_outbox = latchkey("outbox", "show", "m-1", "--data-dir", str(data), user=nobody)
            assert hidden_outbox.returncode == 1
            assert f"The outbox {data / 'outbox'} is not usable by nobody" in hidden_outbox.stderr, hidden_outbox.stderr
            os.chown(data / "outbox", nobody, nobody)
            (data / "outbox" / "m-1.eml").write_text("To: pat@example.com\r\nSubject: Hi\r\n\r\nHello\r\n")
            os.chmod(data / "outbox" / "m-1.eml", 0o600)
            unreadable = latchkey("outbox", "show", "m-1", "--data-dir", str(data), user=nobody)
            assert unreadable.returncode == 1
            assert f"The mail file {data / 'outbox' / 'm-1.eml'} is not usable by nobody" in unreadable.stderr, unreadable.stderr
            # A directory above the data that the user cannot search.
            hidden = latchkey("users", "list", "--data-dir", str(tmp_path / "data"), user=nobody)
            assert hidden.returncode == 1 and "cannot be reached by nobody" in hidden.stderr, hidden.stderr
    finally:
        os.chmod(data, 0o700)
        shutil.rmtree(base)


def login(server, address, password):
    return requests.post(server.base + "/auth/login", json={"email": address, "password": password}, timeout=30)


def test_users_set_password_enable_and_delete(server):
    server.create_user("pat@example.com")
    session = login(server, "pat@example.com", GOOD_PASSWORD)
    assert session.status_code == 200
    refresh_token = session.json()["data"]["refresh_token"]

    weak = server.cli("users", "set-password", "pat@example.com", "--password-stdin", stdin="password\n", check=False)
    assert weak.returncode == 1 and "password" in weak.stderr
    assert server.password_matches("pat@example.com", GOOD_PASSWORD)
    missing = server.cli("users", "set-password", "ghost@example.com", "--password-stdin", stdin=NEW_PASSWORD, check=False)
    assert missing.returncode == 1 and "ghost@example.com" in missing.stderr
    # A mistyped address is said before anything about the password.
    weak_for_nobody = server.cli("users", "set-password", "ghost@example.com", "--password-stdin", stdin="password\n", check=False)
    assert weak_for_nobody.returncode == 1
    assert weak_for_nobody.stderr == "latchkey: No such account: ghost@example.com.\n", weak_for_nobody.stderr

    changed = server.cli("users", "set-password", "pat@example.com", "--password-stdin", stdin=NEW_PASSWORD + "\n")
    assert NEW_PASSWORD not in changed.stdout + changed.stderr
    assert server.password_matches("pat@example.com", NEW_PASSWORD)
    # Like a reset: the login that existed has ended.
    refreshed = requests.post(server.base + "/auth/refresh", json={"refresh_token": refresh_token}, timeout=30)
    assert refreshed.status_code == 401
    assert login(server, "pat@example.com", GOOD_PASSWORD).status_code == 401
    assert login(server, "pat@example.com", NEW_PASSWORD).status_code == 200

    before_disable = login(server, "pat@example.com", NEW_PASSWORD).json()["data"]["refresh_token"]
    server.cli("users", "disable", "pat@example.com")
    assert login(server, "pat@example.com", NEW_PASSWORD).status_code == 401
    server.cli("users", "enable", "pat@example.com")
    assert "pat@example.com\tactive" in server.cli("users", "list").stdout
    # Disabling ended the login for good: enabling the account does not bring it back.
    revived = requests.post(server.base + "/auth/refresh", json={"refresh_token": before_disable}, timeout=30)
    assert revived.status_code == 401
    assert login(server, "pat@example.com", NEW_PASSWORD).status_code == 200

    server.cli("users", "delete", "pat@example.com")
    assert "pat@example.com" not in server.cli("users", "list").stdout
    assert login(server, "pat@example.com", NEW_PASSWORD).status_code == 401
    again = server.cli("users", "delete", "pat@example.com", check=False)
    assert again.returncode == 1 and "pat@example.com" in again.stderr


def test_clients_list_shows_the_scopes_a_client_may_request(server):
    server.cli("clients", "create", "ios.app", "--redirect-uri", "com.example.app:/oauth", "--scope", "openid",
               "--scope", "profile")
    server.cli("clients", "create", "bare.app", "--redirect-uri", "com.example.bare:/oauth")
    rows = {line.split("\t")[0]: line.split("\t") for line in server.cli("clients", "list").stdout.splitlines()}
    # openid and email, which every client may request, then the registered ones.
    assert rows["ios.app"][6] == "openid email profile"
    assert rows["bare.app"][6] == "openid email"
    # What the list says is what the server grants: a client registered without scopes may ask for email.
    query = {"response_type": "code", "client_id": "bare.app", "redirect_uri": "com.example.bare:/oauth",
             "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method": "S256"}
    for scope, allowed in [("openid email", True), ("profile", False)]:
        answer = requests.get(server.base + "/oauth/authorize", params={**query, "scope": scope}, allow_redirects=False, timeout=30)
        assert (answer.status_code == 200) == allowed, (scope, answer.status_code)


def test_options_before_the_command_and_misspelt_commands(tmp_path):
    data = tmp_path / "data"
    assert latchkey("migrate", "--data-dir", str(data)).returncode == 0
    assert latchkey("users", "create", "pat@example.com", "--password-stdin", "--data-dir", str(data),
                    stdin=GOOD_PASSWORD).returncode == 0
    # Global options before the command, as `latchkey --data-dir ./data users list`.
    for args in [("--data-dir", str(data), "users", "list"), (f"--data-dir={data}", "users", "list"),
                 ("users", "list", f"--data-dir={data}")]:
        listed = latchkey(*args, cwd=tmp_path)
        assert listed.returncode == 0 and "pat@example.com\tactive" in listed.stdout, (args, listed.stderr)
    relative = latchkey("--data-dir", "./data", "users", "list", cwd=tmp_path)
    assert relative.returncode == 0 and "pat@example.com" in relative.stdout, relative.stderr
    not_for_clients = latchkey("--data-dir", str(data), "token", cwd=tmp_path)
    assert not_for_clients.returncode == 2 and "--data-dir is an option of the server commands" in not_for_clients.stderr

    # A misspelt command or subcommand is named with what was likely meant.
    for args, meant in [(("user", "list"), "did you mean `users`?"), (("users", "lsit"), "did you mean `users list`?"),
                        (("client", "list"), "did you mean `clients`?"), (("key", "--help"), "did you mean `keys`?"),
                        (("outbox", "shwo", "x"), "did you mean `outbox show`?")]:
        result = latchkey(*args, "--data-dir", str(data), cwd=tmp_path)
        assert result.returncode == 2 and meant in result.stderr and result.stderr.count("\n") == 1, (args, result.stderr)
    unrelated = latchkey("frobnicate", cwd=tmp_path)
    assert unrelated.returncode == 2 and "did you mean" not in unrelated.stderr and "latchkey --help" in unrelated.stderr

    # A password given as an argument is refused without being repeated, pointing to --password-stdin.
    for args in [("users", "create", "sam@example.com", "--password", "hunter2-tractor"),
                 ("users", "set-password", "pat@example.com", "--password=hunter2-tractor"),
                 ("login", "--email", "pat@example.com", "--password", "hunter2-tractor")]:
        result = latchkey(*args, "--data-dir", str(data), cwd=tmp_path) if args[0] != "login" else latchkey(*args, cwd=tmp_path)
        assert result.returncode == 2, (args, result.stderr)
        assert "--password-stdin" in result.stderr and "hunter2" not in result.stderr, (args, result.stderr)
    assert "sam@example.com" not in latchkey("users", "list", "--data-dir", str(data)).stdout


def test_a_broken_configuration_file_is_named_with_line_and_column(tmp_path):
    config = tmp_path / "latchkey.json"
    config.write_text('{\n  "LATCHKEY_LISTEN": "127.0.0.1:8080",\n  "LATCHKEY_DATA_DIR": /var/lib/latchkey\n}\n')
    for args in [("users", "list"), ("serve",)]:
        result = latchkey(*args, env={"LATCHKEY_CONFIG_FILE": str(config)}, cwd=tmp_path)
        assert result.returncode == 1, args
        assert f"LATCHKEY_CONFIG_FILE '{config}' is not valid JSON: invalid value at line 3, column 24" in result.stderr, result.stderr


def test_a_misspelt_variable_is_warned_about_when_the_server_starts(make_server):
    server = make_server(LATCHKEY_RESET_TOKEN_TLL="600")
    assert "LATCHKEY_RESET_TOKEN_TLL is not a Latchkey setting" in server.log()
    assert "did you mean LATCHKEY_RESET_TOKEN_TTL?" in server.log()


def test_the_outbox_commands_show_the_reset_mail_with_its_link_whole(server, tmp_path):
    server.create_user("pat@example.com")
    server.create_user("sam@example.com")
    for address in ["pat@example.com", "sam@example.com"]:
        assert server.post("/auth/password/request", {"email": address}).status_code == 200
    [mail] = server.wait_for_mails("pat@example.com", 1)
    server.wait_for_mails("sam@example.com", 1)

    rows = [line.split("\t") for line in server.cli("outbox", "list").stdout.splitlines()]
    assert len(rows) == 2 and all(len(row) == 7 for row in rows)
    [row] = [row for row in rows if row[4] == "pat@example.com"]
    mail_id, status, queued, attempts, _, subject, last_error = row
    assert subject == mail["Subject"] and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", queued)
    assert (status, attempts, last_error) in [("sent", "0", "-"), ("pending", "0", "-")]

    shown = server.cli("outbox", "show", mail_id).stdout
    assert "To: pat@example.com" in shown and f"Subject: {subject}" in shown
    links = [line for line in shown.splitlines() if "#token=" in line]
    assert links, shown
    link = re.search(r"http://\S+/reset-password#token=[A-Za-z0-9_-]{43}", links[0]).group(0)
    assert link.endswith(server.token_in(mail))
    # A prefix of the id is enough when only one mail has it.
    assert server.cli("outbox", "show", mail_id[:12]).stdout == shown
    unknown = server.cli("outbox", "show", "nope", check=False)
    assert unknown.returncode == 1 and "outbox list" in unknown.stderr
    traversal = server.cli("outbox", "show", "../latchkey", check=False)
    assert traversal.returncode == 2

    # The link copied from the output works as it is.
    env = dict(server.env, XDG_STATE_HOME=str(tmp_path / "state"), LATCHKEY_ISSUER=server.base)
    done = subprocess.run([str(BINARY), "reset", "complete"], env=env, input=link + "\n" + NEW_PASSWORD + "\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert server.password_matches("pat@example.com", NEW_PASSWORD)


def test_port_zero_gives_out_the_port_actually_bound(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    env.update({"LATCHKEY_LISTEN": "127.0.0.1:0", "LATCHKEY_DATA_DIR": str(tmp_path / "data")})
    process = subprocess.Popen([str(BINARY), "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        started = None
        deadline = time.time() + 30
        while started is None and time.time() < deadline:
            line = process.stderr.readline()
            assert line, "the server exited"
            if '"server_started"' in line:
                started = json.loads(line)
        port = int(started["listen"].rsplit(":", 1)[1])
        base = f"http://127.0.0.1:{port}"
        assert port != 0 and started["public_url"] == base
        metadata = requests.get(base + "/.well-known/oauth-authorization-server", timeout=10).json()
        assert metadata["issuer"] == base and metadata["token_endpoint"] == base + "/oauth/token"

        created = latchkey("users", "create", "pat@example.com", "--password-stdin", env=env, stdin=GOOD_PASSWORD)
        assert created.returncode == 0, created.stderr
        assert requests.post(base + "/auth/password/request", json={"email": "pat@example.com"}, timeout=10).status_code == 200
        deadline = time.time() + 15
        shown = ""
        while "#token=" not in shown and time.time() < deadline:
            listed = latchkey("outbox", "list", env=env).stdout.split("\t")
            shown = latchkey("outbox", "show", listed[0], env=env).stdout if listed[0] else ""
            time.sleep(0.1)
        assert f"{base}/reset-password#token=" in shown
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def test_make_run_hint_names_the_address_latchkey_listen_says():
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    default = subprocess.run(["bash", str(ROOT / "scripts" / "run-hint.sh")], env=env, capture_output=True, text=True).stdout
    assert "http://127.0.0.1:8080/auth/password/request" in default
    env["LATCHKEY_LISTEN"] = "127.0.0.1:9191"
    hint = subprocess.run(["bash", str(ROOT / "scripts" / "run-hint.sh")], env=env, capture_output=True, text=True).stdout
    assert "http://127.0.0.1:9191/auth/password/request" in hint and "8080" not in hint
    assert "latchkey outbox show" in hint
    env.update({"LATCHKEY_PUBLIC_URL": "https://auth.example.com/", "LATCHKEY_DATA_DIR": "/srv/latchkey"})
    hint = subprocess.run(["bash", str(ROOT / "scripts" / "run-hint.sh")], env=env, capture_output=True, text=True).stdout
    assert "https://auth.example.com/reset-password#token=" in hint and "--data-dir /srv/latchkey" in hint


def test_an_empty_postgresql_database_is_not_used_by_admin_commands(fresh_database, tmp_path):
    env = {"LATCHKEY_DATABASE_URL": fresh_database, "LATCHKEY_DATA_DIR": str(tmp_path / "data")}
    refused = latchkey("users", "list", env=env)
    assert refused.returncode == 1
    assert "The PostgreSQL database postgres" in refused.stderr and "has no Latchkey tables" in refused.stderr
    password = re.search(r"://[^:/@]+:([^@]+)@", fresh_database)
    assert password is None or password.group(1) not in refused.stderr
    assert latchkey("migrate", env=env).returncode == 0
    assert latchkey("users", "list", env=env).returncode == 0


def test_users_sessions_lists_and_ends_the_signed_in_devices(server):
    server.create_user("dev@example.com")
    phone = requests.post(server.base + "/auth/login", json={"email": "dev@example.com", "password": GOOD_PASSWORD},
                          headers={"User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
                                                 "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"},
                          timeout=30).json()["data"]
    laptop = requests.post(server.base + "/auth/login", json={"email": "dev@example.com", "password": GOOD_PASSWORD},
                           headers={"User-Agent": "curl/8.5.0"}, timeout=30).json()["data"]
    lines = server.cli("users", "sessions", "dev@example.com").stdout.splitlines()
    assert len(lines) == 2
    rows = [line.split("\t") for line in lines]
    assert all(row[1] == "first-party" and row[4] == "127.0.0.0" for row in rows)
    assert {row[5] for row in rows} == {"Safari on iOS", "curl"}
    phone_id = next(row[0] for row in rows if row[5] == "Safari on iOS")

    ended = server.cli("users", "sessions", "end", "dev@example.com", phone_id)
    assert phone_id in ended.stdout
    assert requests.post(server.base + "/auth/refresh", json={"refresh_token": phone["refresh_token"]}, timeout=30).status_code == 401
    assert requests.post(server.base + "/auth/refresh", json={"refresh_token": laptop["refresh_token"]}, timeout=30).status_code == 200
    unknown = server.cli("users", "sessions", "end", "dev@example.com", phone_id, check=False)
    assert unknown.returncode == 1 and "no live login" in unknown.stderr

    assert "ended 1 login" in server.cli("users", "sessions", "end", "dev@example.com", "--all").stdout
    assert server.cli("users", "sessions", "dev@example.com").stdout == ""
    missing = server.cli("users", "sessions", "nobody@example.com", check=False)
    assert missing.returncode == 1 and "nobody@example.com" in missing.stderr
