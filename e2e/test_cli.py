"""The `latchkey` command line: help, exit codes, configuration errors, account commands."""
import json
import os
import subprocess

from conftest import BINARY, GOOD_PASSWORD


def latchkey(*args, env=None, stdin=None, data_dir):
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    full_env["LATCHKEY_DATA_DIR"] = str(data_dir)
    full_env.update(env or {})
    return subprocess.run([str(BINARY), *args], env=full_env, input=stdin, capture_output=True, text=True, timeout=60)


def test_help_explains_every_command(tmp_path):
    result = latchkey("--help", data_dir=tmp_path)
    assert result.returncode == 0
    for command in ["serve", "migrate", "users create", "users list", "users disable", "keys rotate"]:
        assert command in result.stdout
    for command in ["serve", "migrate", "users", "keys"]:
        sub = latchkey(command, "--help", data_dir=tmp_path)
        assert sub.returncode == 0 and "Usage:" in sub.stdout


def test_usage_errors_exit_2_with_one_line(tmp_path):
    for args in [("frobnicate",), ("users",), ("users", "create"), ("users", "create", "a@example.com"),
                 ("users", "list", "--bogus")]:
        result = latchkey(*args, data_dir=tmp_path)
        assert result.returncode == 2, args
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("latchkey: ")


def test_bad_configuration_names_the_variable(tmp_path):
    for name, value in [("LATCHKEY_RESET_TOKEN_TTL", "60"), ("LATCHKEY_LISTEN", "localhost"),
                        ("LATCHKEY_PUBLIC_URL", "ftp://x"), ("LATCHKEY_MAIL_TRANSPORT", "pigeon"),
                        ("LATCHKEY_APPLE_APP_IDS", "nope"), ("LATCHKEY_ANDROID_APPS", "com.x:12"),
                        ("LATCHKEY_RESET_URL_ALLOW_LIST", "not a url")]:
        result = latchkey("serve", env={name: value}, data_dir=tmp_path)
        assert result.returncode == 1, name
        assert name in result.stderr, (name, result.stderr)


def test_smtp_transport_needs_its_url(tmp_path):
    result = latchkey("serve", env={"LATCHKEY_MAIL_TRANSPORT": "smtp"}, data_dir=tmp_path)
    assert result.returncode == 1
    assert "LATCHKEY_SMTP_URL" in result.stderr


def test_account_commands(tmp_path):
    assert latchkey("migrate", data_dir=tmp_path).returncode == 0
    assert "up to date" in latchkey("migrate", data_dir=tmp_path).stdout
    created = latchkey("users", "create", "Pat@Example.com", "--password-stdin", stdin=GOOD_PASSWORD + "\n", data_dir=tmp_path)
    assert created.returncode == 0, created.stderr
    duplicate = latchkey("users", "create", "pat@example.com", "--password-stdin", stdin=GOOD_PASSWORD, data_dir=tmp_path)
    assert duplicate.returncode == 1
    weak = latchkey("users", "create", "weak@example.com", "--password-stdin", stdin="password\n", data_dir=tmp_path)
    assert weak.returncode == 1
    listing = latchkey("users", "list", data_dir=tmp_path).stdout
    assert "pat@example.com\tactive" in listing and "weak@example.com" not in listing
    assert GOOD_PASSWORD not in listing
    assert latchkey("users", "disable", "pat@example.com", data_dir=tmp_path).returncode == 0
    assert "pat@example.com\tdisabled" in latchkey("users", "list", data_dir=tmp_path).stdout
    assert latchkey("users", "disable", "ghost@example.com", data_dir=tmp_path).returncode == 1


def test_settings_are_listed_and_typos_are_named(tmp_path):
    listing = latchkey("settings", data_dir=tmp_path)
    assert listing.returncode == 0
    assert "LATCHKEY_LOG_LEVEL" in listing.stdout and "LATCHKEY_RESET_TOKEN_TTL" in listing.stdout
    table = latchkey("settings", "--markdown", data_dir=tmp_path).stdout
    assert table.startswith("| variable | default | values | meaning |")

    # A misspelt variable is not silently ignored: the warning names the setting meant.
    typo = latchkey("migrate", env={"LATCHKEY_LOG_LEVLE": "debug"}, data_dir=tmp_path)
    assert typo.returncode == 0, typo.stderr
    assert "LATCHKEY_LOG_LEVLE" in typo.stderr and "did you mean LATCHKEY_LOG_LEVEL?" in typo.stderr

    # A bad value's error lists what the setting takes.
    bad = latchkey("serve", env={"LATCHKEY_LOG_LEVEL": "loud"}, data_dir=tmp_path)
    assert bad.returncode == 1
    assert "LATCHKEY_LOG_LEVEL must be one of debug, info, warning, error" in bad.stderr


def test_worker_threads_setting_sizes_the_request_workers(make_server):
    """LATCHKEY_WORKER_THREADS reaches the HTTP server (its start line says how many workers run),
    and the server still answers with a single worker."""
    server = make_server(LATCHKEY_WORKER_THREADS="1")
    started = [json.loads(line) for line in server.log().splitlines() if '"http_server_started"' in line]
    assert [event["worker_threads"] for event in started] == [1]
    server.create_user("one-worker@example.com")
    for _ in range(3):
        response = server.post("/auth/password/request", {"email": "one-worker@example.com"})
        assert response.status_code == 200
