"""The public URL is the OAuth issuer and the base of every endpoint and link: plain http is
refused at start-up for a host other than loopback (RFC 6749 §10.3, §10.9; RFC 8414 §2;
RFC 9207 §2), unless the development setting LATCHKEY_ALLOW_HTTP_PUBLIC_URL says so."""
import json
import os
import subprocess

import requests

from conftest import BINARY, free_port


def serve(tmp_path, **settings):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    env.update({"LATCHKEY_DATA_DIR": str(tmp_path / "data"), "LATCHKEY_LISTEN": f"127.0.0.1:{free_port()}"})
    env.update(settings)
    return subprocess.run([str(BINARY), "serve"], env=env, capture_output=True, text=True, timeout=60)


def test_an_http_public_url_for_a_remote_host_stops_start_up(tmp_path):
    for settings in [{"LATCHKEY_PUBLIC_URL": "http://auth.example.com"},
                     {"LATCHKEY_PUBLIC_URL": "http://10.0.0.8:8080/id"},
                     {"LATCHKEY_LISTEN": f"0.0.0.0:{free_port()}"}]:
        result = serve(tmp_path, **settings)
        assert result.returncode == 1, (settings, result.stderr)
        [line] = result.stderr.splitlines()
        event = json.loads(line)
        assert event["event"] == "server_start_failed" and event["code"] == "invalid_configuration"
        assert event["message"].startswith("LATCHKEY_PUBLIC_URL must be an https URL when its host is not loopback")
        assert "LATCHKEY_ALLOW_HTTP_PUBLIC_URL=true for development only" in event["message"]


def test_the_development_setting_allows_http_and_is_named_in_the_production_advice(make_server):
    server = make_server(LATCHKEY_PUBLIC_URL="http://auth.example.test", LATCHKEY_ALLOW_HTTP_PUBLIC_URL="true")
    metadata = requests.get(server.base + "/.well-known/oauth-authorization-server", timeout=10).json()
    assert metadata["issuer"] == "http://auth.example.test"
    server.stop()
    advice = [json.loads(line) for line in server.log().splitlines() if '"production_advice"' in line]
    assert [event["advice"] for event in advice if event["setting"] == "LATCHKEY_ALLOW_HTTP_PUBLIC_URL"] == [
        "false, with an https LATCHKEY_PUBLIC_URL"]
