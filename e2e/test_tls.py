"""The release binary serving HTTPS itself (LATCHKEY_TLS_CERT / LATCHKEY_TLS_KEY)."""
import os
import socket
import ssl
import subprocess
import warnings

import pytest
import requests

from conftest import BINARY, Server


def handshake(port, version, cafile):
    """Completes a TLS handshake pinned to `version`; returns the negotiated version."""
    context = ssl.create_default_context(cafile=str(cafile))
    # The lowest security level lets the client offer TLS 1.1 at all, so a refusal is the server's.
    context.set_ciphers("DEFAULT:@SECLEVEL=0")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # TLS 1.1 is offered on purpose
        context.minimum_version = context.maximum_version = version
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            return tls.version()


def test_https_with_hsts_and_https_reset_links(https_server):
    assert https_server.base.startswith("https://")
    response = requests.get(https_server.base + "/healthz", verify=https_server.verify, timeout=10)
    assert response.status_code == 200
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"

    https_server.create_user("tls@example.com")
    response = https_server.post("/auth/password/request", {"email": "tls@example.com"})
    assert response.status_code == 200
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    mail = https_server.wait_for_mails("tls@example.com", 1)[0]
    assert f"https://127.0.0.1:{https_server.port}/reset-password#token=" in Server.text_of(mail)


def test_tls_1_2_and_1_3_only(https_server, certificate):
    cert, _ = certificate
    assert handshake(https_server.port, ssl.TLSVersion.TLSv1_2, cert) == "TLSv1.2"
    assert handshake(https_server.port, ssl.TLSVersion.TLSv1_3, cert) == "TLSv1.3"
    with pytest.raises((ssl.SSLError, ConnectionResetError)) as refused:
        handshake(https_server.port, ssl.TLSVersion.TLSv1_1, cert)
    # The client could offer TLS 1.1; the server is what refused it.
    assert "NO_PROTOCOLS_AVAILABLE" not in str(refused.value)


def test_plain_http_to_the_https_port_fails(https_server):
    with pytest.raises(requests.exceptions.ConnectionError):
        requests.get(f"http://127.0.0.1:{https_server.port}/healthz", timeout=10)
    assert requests.get(https_server.base + "/healthz", verify=https_server.verify, timeout=10).status_code == 200


def test_certificate_and_key_come_together(tmp_path, certificate):
    cert, key = certificate
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    env["LATCHKEY_DATA_DIR"] = str(tmp_path / "data")
    for settings, named in [({"LATCHKEY_TLS_CERT": str(cert)}, "LATCHKEY_TLS_KEY"),
                            ({"LATCHKEY_TLS_KEY": str(key)}, "LATCHKEY_TLS_CERT"),
                            ({"LATCHKEY_TLS_CERT": str(cert), "LATCHKEY_TLS_KEY": str(tmp_path / "missing.pem")},
                             "LATCHKEY_TLS_KEY")]:
        result = subprocess.run([str(BINARY), "serve"], env={**env, **settings}, capture_output=True, text=True, timeout=60)
        assert result.returncode == 1, settings
        assert named in result.stderr, (settings, result.stderr)
        assert "PRIVATE KEY" not in result.stderr
