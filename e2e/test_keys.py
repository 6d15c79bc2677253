"""Signing keys: created on first start, published as a JWK Set, rotated by the CLI."""
import base64
import json
import time

import requests


def jwks(server):
    response = requests.get(server.base + "/.well-known/jwks.json", timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/jwk-set+json"
    assert "max-age" in response.headers["Cache-Control"]
    return response.json()["keys"]


def test_jwks_publishes_public_keys_and_rotation_keeps_the_old_one(server):
    [key] = jwks(server)
    assert key["kty"] == "EC" and key["crv"] == "P-256" and key["alg"] == "ES256" and key["use"] == "sig"
    assert "d" not in key and key["kid"]

    rotated = server.cli("keys", "rotate")
    new_kid = rotated.stdout.split()[-1]
    listing = server.cli("keys", "list").stdout
    assert f"{key['kid']}\t" in listing and "retired" in listing and f"{new_kid}\t" in listing

    # The running server picks the rotation up without a restart.
    deadline = time.time() + 5
    while {k["kid"] for k in jwks(server)} != {key["kid"], new_kid}:
        assert time.time() < deadline, "the server did not reload the rotated keys"
        time.sleep(0.2)
    assert all("d" not in k for k in jwks(server))

    # Tokens are signed with the new key once it is loaded.
    server.create_user("jane@example.com")
    login = server.post("/auth/login", {"email": "jane@example.com", "password": "correct horse battery staple"})
    header = login.json()["data"]["access_token"].split(".")[0]
    assert base64url_json(header)["kid"] == new_kid


def base64url_json(part):
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
