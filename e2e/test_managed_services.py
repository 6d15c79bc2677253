"""Managed services (issue 36): Redis over TLS (`rediss://`, the CA in LATCHKEY_REDIS_CA_FILE) with
an ACL user, against a redis-server started with `--tls-port`; and the libpq URL parameters
operators use (`connect_timeout`, `sslmode`, `sslrootcert`) checked and passed to libpq."""
import os
import pathlib
import shutil
import socket
import subprocess
import threading
import time

import pytest
import requests

from conftest import BINARY, GOOD_PASSWORD, free_port

ACL_PASSWORD = "acl-password-for-the-tls-redis"


class TLSRedis:
    """redis-server speaking only TLS on a free loopback port, with the default user off and
    one ACL user, `latchkey`."""

    def __init__(self, directory):
        if shutil.which("redis-server") is None:
            if os.environ.get("LATCHKEY_REQUIRE_CLUSTER"):
                pytest.fail("redis-server is missing (scripts/bootstrap.sh --test installs it)")
            pytest.skip("redis-server is missing")
        self.directory = directory
        directory.mkdir()
        self.cert, key = directory / "cert.pem", directory / "key.pem"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(self.cert)],
            check=True, capture_output=True)
        (directory / "users.acl").write_text(f"user default off\nuser latchkey on >{ACL_PASSWORD} ~latchkey:* &* +@all\n")
        self.port = free_port()
        self.process = subprocess.Popen(
            ["redis-server", "--port", "0", "--tls-port", str(self.port), "--bind", "127.0.0.1", "--tls-cert-file", str(self.cert),
             "--tls-key-file", str(key), "--tls-ca-cert-file", str(self.cert), "--tls-auth-clients", "no", "--save", "",
             "--appendonly", "no", "--aclfile", str(directory / "users.acl"), "--dir", str(directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while time.time() < deadline:
            if self.cli("PING").strip() == "PONG":
                return
            time.sleep(0.05)
        raise RuntimeError("the TLS redis-server did not start")

    def cli(self, *command):
        return subprocess.run(
            ["redis-cli", "--tls", "--cacert", str(self.cert), "-h", "127.0.0.1", "-p", str(self.port), "--user", "latchkey",
             "--pass", ACL_PASSWORD, "--no-auth-warning", *command], capture_output=True, text=True, timeout=10).stdout

    def url(self, password=ACL_PASSWORD, host="127.0.0.1"):
        return f"rediss://latchkey:{password}@{host}:{self.port}/0"

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def tls_redis(tmp_path):
    redis = TLSRedis(tmp_path / "tls-redis")
    yield redis
    redis.stop()


def sign_in(server, password):
    return requests.post(server.base + "/auth/login", json={"email": "pat@example.com", "password": password}, timeout=30)


def test_rate_limits_live_in_a_tls_redis_as_an_acl_user(make_server, tls_redis):
    server = make_server(LATCHKEY_REDIS_URL=tls_redis.url(), LATCHKEY_REDIS_CA_FILE=tls_redis.cert)
    server.create_user("pat@example.com")
    assert sign_in(server, GOOD_PASSWORD).status_code == 200
    assert sign_in(server, "not the password at all").status_code == 401
    keys = tls_redis.cli("--scan", "--pattern", "latchkey:rl:*").split()
    assert any(key.startswith("latchkey:rl:{login-ip:127.0.0.1}") for key in keys), keys
    assert '"rate_limiter":"rediss://latchkey@127.0.0.1:' in server.log()
    assert ACL_PASSWORD not in server.log() and "rate_limiter_unavailable" not in server.log()
    metrics = requests.get(server.base + "/metrics", timeout=10).text
    assert 'latchkey_rate_limit_decisions_total{limit="login-ip",decision="allowed"} 2' in metrics


@pytest.mark.parametrize("case", ["untrusted certificate", "wrong host name", "wrong ACL password"])
def test_a_tls_redis_that_cannot_be_trusted_or_refuses_the_login_fails_closed(make_server, tls_redis, case):
    settings = {"LATCHKEY_REDIS_URL": tls_redis.url(), "LATCHKEY_REDIS_CA_FILE": tls_redis.cert}
    if case == "untrusted certificate":
        del settings["LATCHKEY_REDIS_CA_FILE"]  # the system's CAs never signed the test certificate
    elif case == "wrong host name":
        settings["LATCHKEY_REDIS_URL"] = tls_redis.url(host="localhost")  # the certificate names 127.0.0.1 only
    else:
        settings["LATCHKEY_REDIS_URL"] = tls_redis.url(password="not-the-acl-password")
    server = make_server(**settings)
    server.create_user("pat@example.com")
    refused = sign_in(server, GOOD_PASSWORD)
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"
    log = server.log()
    assert "rate_limiter_unavailable" in log and ACL_PASSWORD not in log and "not-the-acl-password" not in log
    expected = {"untrusted certificate": "certificate", "wrong host name": "certificate", "wrong ACL password": "WRONGPASS"}[case]
    assert expected in log, log[-2000:]
    assert tls_redis.cli("--scan", "--pattern", "latchkey:*").split() == []


def latchkey(*args, env):
    full = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    full.update(env)
    return subprocess.run([str(BINARY), *args], env=full, capture_output=True, text=True, timeout=60)


def test_libpq_url_parameters_are_checked_and_reach_libpq(fresh_database, tmp_path):
    env = {"LATCHKEY_DATA_DIR": str(tmp_path / "data")}
    assert latchkey("migrate", env={**env, "LATCHKEY_DATABASE_URL": fresh_database}).returncode == 0
    # The fixture's URL says sslmode=disable; each case says its own.
    base = fresh_database.split("?", 1)[0]

    def with_parameters(query):
        return {**env, "LATCHKEY_DATABASE_URL": base + "?" + query}

    # Accepted and used: the test server has no TLS, so `disable` and `prefer` work and `require` is refused by libpq.
    for query in ["sslmode=disable&connect_timeout=5", "sslmode=prefer", "connect_timeout=2"]:
        result = latchkey("users", "list", env=with_parameters(query))
        assert result.returncode == 0, (query, result.stderr)
    required = latchkey("users", "list", env=with_parameters("sslmode=require"))
    assert required.returncode == 1 and "SSL" in required.stderr, required.stderr
    ca = tmp_path / "ca.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                    "-subj", "/CN=db", "-keyout", str(tmp_path / "ca-key.pem"), "-out", str(ca)], check=True, capture_output=True)
    verified = latchkey("users", "list", env=with_parameters(f"sslmode=verify-full&sslrootcert={ca}"))
    assert verified.returncode == 1 and "SSL" in verified.stderr, verified.stderr

    # Checked before libpq sees them, naming the setting and what it takes, never the password.
    for query, expected in [
        ("sslmode=verify", "sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full"),
        ("connect_timeout=1", "connect_timeout must be a whole number of seconds from 2 to 300"),
        ("connect_timeout=soon", "connect_timeout must be a whole number of seconds from 2 to 300"),
        (f"sslmode=verify-full&sslrootcert={tmp_path / 'missing.pem'}", f"sslrootcert '{tmp_path / 'missing.pem'}' is not a readable file"),
        ("sslrootcert=/etc/hostname", "sslrootcert needs sslmode=verify-ca or verify-full"),
    ]:
        result = latchkey("users", "list", env=with_parameters(query))
        assert result.returncode == 1 and "LATCHKEY_DATABASE_URL" in result.stderr and expected in result.stderr, (query, result.stderr)
        password = fresh_database.split("@")[0].rsplit(":", 1)[-1]
        assert password not in result.stderr


def test_connect_timeout_bounds_a_database_that_never_answers(tmp_path):
    """A server that accepts the connection and never says a word: connect_timeout ends the wait."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    port = silent.getsockname()[1]
    accepted = []
    threading.Thread(target=lambda: accepted.append(silent.accept()), daemon=True).start()
    try:
        started = time.monotonic()
        result = latchkey("users", "list", env={"LATCHKEY_DATA_DIR": str(tmp_path / "data"),
                                                 "LATCHKEY_DATABASE_URL": f"postgres://latchkey:pw@127.0.0.1:{port}/latchkey?connect_timeout=2"})
        elapsed = time.monotonic() - started
    finally:
        silent.close()
    assert result.returncode == 1 and "could not be reached" in result.stderr, result.stderr
    assert 1.5 < elapsed < 15, elapsed
