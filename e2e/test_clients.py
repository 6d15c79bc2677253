"""OAuth clients: registered, listed and deleted with `latchkey clients`."""
import re


def test_public_and_confidential_clients_are_created_listed_and_deleted(server):
    created = server.cli("clients", "create", "ios.app", "--redirect-uri", "com.example.app:/oauth",
                         "--redirect-uri", "http://127.0.0.1/callback", "--first-party", "--scope", "openid",
                         "--scope", "profile")
    assert created.stdout.splitlines() == ["client_id: ios.app"]

    confidential = server.cli("clients", "create", "backend", "--redirect-uri", "https://app.example.com/cb",
                              "--confidential")
    lines = confidential.stdout.splitlines()
    assert lines[0] == "client_id: backend"
    secrets = [line for line in lines if line.startswith("client_secret: ")]
    assert len(secrets) == 1 and len(lines) == 2
    secret = secrets[0].split(": ", 1)[1]
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", secret)

    listing = server.cli("clients", "list").stdout
    rows = [line.split("\t") for line in listing.splitlines()]
    assert rows == [
        ["ios.app", "public", "first-party", "-", "RS256", "com.example.app:/oauth http://127.0.0.1/callback", "openid email profile", "-"],
        ["backend", "confidential", "third-party", "-", "RS256", "https://app.example.com/cb", "openid email", "-"],
    ]
    assert secret not in listing
    stored = [path for path in server.data_dir.rglob("*") if path.is_file()]
    assert any(path.name.startswith("latchkey.sqlite") for path in stored)
    assert all(secret.encode() not in path.read_bytes() for path in stored)

    duplicate = server.cli("clients", "create", "backend", "--redirect-uri", "https://b.example/cb", check=False)
    assert duplicate.returncode == 1 and "already exists" in duplicate.stderr

    assert server.cli("clients", "delete", "backend").returncode == 0
    assert "backend" not in server.cli("clients", "list").stdout
    missing = server.cli("clients", "delete", "backend", check=False)
    assert missing.returncode == 1 and "No client" in missing.stderr


def test_bad_redirect_uris_and_usage_errors_are_refused(server):
    for uri, problem in [
        ("http://localhost/cb", "localhost"),
        ("http://app.example.com/cb", "loopback"),
        ("https://app.example.com/cb#x", "fragment"),
        ("https://*.example.com/cb", "wildcard"),
        ("javascript:alert(1)", "reverse-DNS"),
    ]:
        result = server.cli("clients", "create", "app", "--redirect-uri", uri, check=False)
        assert result.returncode == 1, uri
        assert "redirect URI" in result.stderr and problem in result.stderr and uri in result.stderr, result.stderr
        assert result.stdout == ""

    assert server.cli("clients", "create", "app", check=False).returncode == 2
    assert server.cli("clients", "create", "--redirect-uri", "https://a.example/cb", check=False).returncode == 2
    assert server.cli("clients", "list", "--confidential", check=False).returncode == 2
    assert server.cli("clients", "create", "bad id", "--redirect-uri", "https://a.example/cb", check=False).returncode == 1
    assert server.cli("clients", "list").stdout == ""


def test_the_id_token_algorithm_is_chosen_at_registration(server):
    for client_id, extra in [("default", []), ("es", ["--id-token-alg", "ES256"]), ("ed", ["--id-token-alg", "EdDSA"])]:
        server.cli("clients", "create", client_id, "--redirect-uri", "https://a.example/cb", *extra)
    algorithms = {row.split("\t")[0]: row.split("\t")[4] for row in server.cli("clients", "list").stdout.splitlines()}
    assert algorithms == {"default": "RS256", "es": "ES256", "ed": "EdDSA"}
    for bad in [["--id-token-alg", "HS256"], ["--id-token-alg", "none"], ["--id-token-alg", "RS256", "--id-token-alg", "ES256"]]:
        refused = server.cli("clients", "create", "bad", "--redirect-uri", "https://a.example/cb", *bad, check=False)
        assert refused.returncode == 2 and refused.stdout == ""
    assert "--id-token-alg" in server.cli("clients", "--help").stdout
