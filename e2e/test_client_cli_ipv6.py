"""RFC 8252 §7.3: `latchkey login`'s loopback listener assumes no IP version. It listens on
127.0.0.1 and [::1] at the same port, and signs in through an `http://[::1]` redirect URI when
asked for one."""
import socket
import subprocess
import urllib.parse

import pytest
import requests

from conftest import BINARY
from test_client_cli import client, client_env, sign_in_at


def ipv6_loopback_available():
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


pytestmark = pytest.mark.skipif(not ipv6_loopback_available(), reason="this machine has no IPv6 loopback")


def start_login(env, *args):
    login = subprocess.Popen(
        [str(BINARY), "login", "--client-id", "cli-test", "--no-browser", "--timeout", "60", *args],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = login.stdout.readline().strip()
    assert url, login.stderr.read()
    return login, url, urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["redirect_uri"][0]


def stop(login):
    if login.poll() is None:
        login.kill()
        login.wait()


def test_the_listener_answers_on_127_0_0_1_and_on_ipv6_loopback_at_one_port(server, tmp_path):
    server.cli("clients", "create", "cli-test", "--redirect-uri", "http://127.0.0.1/callback", "--first-party")
    login, _, redirect_uri = start_login(client_env(server, tmp_path))
    try:
        port = urllib.parse.urlsplit(redirect_uri).port
        assert redirect_uri == f"http://127.0.0.1:{port}/callback"
        for host in ["127.0.0.1", "[::1]"]:
            answer = requests.get(f"http://{host}:{port}/elsewhere", timeout=10)
            assert answer.status_code == 404 and "Not found." in answer.text
            refused = requests.get(f"http://{host}:{port}/callback?code=x&state=forged", timeout=10)
            assert refused.status_code == 400
        assert login.poll() is None
    finally:
        stop(login)


def test_login_through_an_ipv6_loopback_redirect(server, tmp_path):
    server.create_user("jane@example.com")
    server.cli("clients", "create", "cli-test", "--redirect-uri", "http://[::1]/callback", "--first-party")
    env = client_env(server, tmp_path)
    login, url, redirect_uri = start_login(env, "--redirect-uri", "http://[::1]/callback")
    try:
        assert redirect_uri.startswith("http://[::1]:") and redirect_uri.endswith("/callback")
        location = sign_in_at(requests.Session(), url)
        assert location.startswith(redirect_uri + "?")
        assert requests.get(location, timeout=10).status_code == 200
        _, errors = login.communicate(timeout=60)
        assert login.returncode == 0, errors
    finally:
        stop(login)
    assert client(env, "token").returncode == 0


def test_a_redirect_uri_that_is_not_a_loopback_literal_is_a_usage_error(server, tmp_path):
    env = client_env(server, tmp_path)
    for uri in ["http://localhost/callback", "http://[::2]/callback", "https://127.0.0.1/callback"]:
        result = client(env, "login", "--client-id", "cli-test", "--no-browser", "--redirect-uri", uri)
        assert result.returncode == 2, (uri, result.stderr)
        assert "http://[::1][:PORT]/PATH" in result.stderr
