"""Signing keys: created on first start, published as a JWK Set, rotated by the CLI."""
import base64
import hashlib
import json
import time

import requests


def jwks(server):
    response = requests.get(server.base + "/.well-known/jwks.json", timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/jwk-set+json"
    assert "max-age" in response.headers["Cache-Control"]
    return response.json()["keys"]


PRIVATE_MEMBERS = {"d", "p", "q", "dp", "dq", "qi"}


def thumbprint(key):
    """RFC 7638, computed here independently of the server."""
    members = {"EC": ["crv", "kty", "x", "y"], "OKP": ["crv", "kty", "x"], "RSA": ["e", "kty", "n"]}[key["kty"]]
    canonical = json.dumps({name: key[name] for name in members}, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(hashlib.sha256(canonical.encode()).digest()).rstrip(b"=").decode()


def test_jwks_publishes_public_keys_and_rotation_keeps_the_old_ones(server):
    keys = {key["alg"]: key for key in jwks(server)}
    assert sorted(keys) == ["ES256", "EdDSA", "RS256"]
    assert keys["ES256"]["kty"] == "EC" and keys["ES256"]["crv"] == "P-256"
    assert keys["EdDSA"]["kty"] == "OKP" and keys["EdDSA"]["crv"] == "Ed25519"
    rsa = keys["RS256"]
    assert rsa["kty"] == "RSA" and rsa["e"] == "AQAB"
    assert len(base64.urlsafe_b64decode(rsa["n"] + "=" * (-len(rsa["n"]) % 4))) * 8 >= 3072
    for key in keys.values():
        assert key["use"] == "sig" and key["kid"] == thumbprint(key)
        assert not PRIVATE_MEMBERS & key.keys()

    rotated = server.cli("keys", "rotate").stdout.splitlines()
    new = dict(line.removeprefix("active ").split(" key: ") for line in rotated)
    assert sorted(new) == ["ES256", "EdDSA", "RS256"]
    listing = [line.split("\t") for line in server.cli("keys", "list").stdout.splitlines()]
    assert {(row[0], row[1]) for row in listing if row[3].startswith("retired")} == {(k["kid"], alg) for alg, k in keys.items()}
    assert {(row[0], row[1]) for row in listing if row[3] == "active"} == {(kid, alg) for alg, kid in new.items()}

    # The running server picks the rotation up without a restart.
    expected = {k["kid"] for k in keys.values()} | set(new.values())
    deadline = time.time() + 5
    while {k["kid"] for k in jwks(server)} != expected:
        assert time.time() < deadline, "the server did not reload the rotated keys"
        time.sleep(0.2)
    assert all(not PRIVATE_MEMBERS & k.keys() for k in jwks(server))

    # Access tokens are signed with the new ES256 key once it is loaded.
    server.create_user("jane@example.com")
    login = server.post("/auth/login", {"email": "jane@example.com", "password": "correct horse battery staple"})
    header = login.json()["data"]["access_token"].split(".")[0]
    assert base64url_json(header)["kid"] == new["ES256"]


def base64url_json(part):
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
