"""`latchkey login --email` makes the machine a recognised device (issue 35): the device token
the server hands back is kept beside the CLI's tokens (0600), survives `latchkey logout`, and
is sent with the next login — which then gets past the account-wide cap that holds a new device.
"""
import json
import stat

from conftest import GOOD_PASSWORD
from test_client_cli import client, client_env


def login(env):
    return client(env, "login", "--email", "kim@example.com", "--password-stdin", stdin=GOOD_PASSWORD + "\n")


def signed_in_with_device(server, tmp_path):
    """kim's account, signed in with `login --email`: the client's environment, its state
    directory and the one device-token file there."""
    server.create_user("kim@example.com")
    env = client_env(server, tmp_path)
    assert login(env).returncode == 0
    state = tmp_path / "state" / "latchkey"
    [device_file] = list(state.glob("device-*.json"))
    return env, state, device_file


def fill_account_cap(server):
    """20 wrong passwords from 20 other addresses: the account-wide cap then holds new devices."""
    for index in range(20):
        response = server.post("/auth/login", {"email": "kim@example.com", "password": f"guess {index}"}, ip=f"127.0.1.{index + 1}")
        assert response.status_code == 401, response.text


def test_cli_login_keeps_its_device_token_across_logout_and_gets_past_the_cap(server, tmp_path):
    env, state, device_file = signed_in_with_device(server, tmp_path)
    assert stat.S_IMODE(device_file.stat().st_mode) == 0o600
    kept = json.loads(device_file.read_text())
    assert kept["server"] == server.base.rstrip("/") and len(kept["device_token"]) == 43

    assert client(env, "logout").returncode == 0
    assert not (state / "tokens.json").exists()
    assert json.loads(device_file.read_text()) == kept

    # The account-wide cap, filled from other addresses, holds new devices …
    fill_account_cap(server)
    fresh = client_env(server, tmp_path / "elsewhere")
    refused = login(fresh)
    assert refused.returncode == 1 and refused.stderr.endswith("(rate_limited)\n"), refused.stderr
    # … while this machine, which sends its token, signs in; the token stays the same.
    signed_in = login(env)
    assert signed_in.returncode == 0, signed_in.stderr
    assert json.loads(device_file.read_text()) == kept


def test_cli_logout_forget_device_deletes_the_token_and_the_next_login_is_a_new_device(server, tmp_path):
    env, state, device_file = signed_in_with_device(server, tmp_path)

    forgotten = client(env, "logout", "--forget-device")
    assert forgotten.returncode == 0, forgotten.stderr
    assert "no longer a recognised device" in forgotten.stderr
    assert not (state / "tokens.json").exists() and not device_file.exists()
    # Signed out already, the flag still forgets (nothing there: no failure).
    again = client(env, "logout", "--forget-device")
    assert again.returncode == 0 and "not signed in" in again.stderr, again.stderr

    # Past the account-wide cap this machine is now held like any new device.
    fill_account_cap(server)
    refused = login(env)
    assert refused.returncode == 1 and refused.stderr.endswith("(rate_limited)\n"), refused.stderr
    assert not list(state.glob("device-*.json"))
