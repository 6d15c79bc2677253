#!/usr/bin/env python3
"""Requests per second of the token endpoints, against the release binary on a free loopback
port: POST /oauth/token (refresh grant: rotation + ES256 access token, one chain per
connection), POST /auth/refresh (the Directus-compatible equivalent), POST /oauth/introspect
(an access token: ES256 verification + a liveness query) and GET /.well-known/jwks.json.

Usage: .venv/bin/python bench/token_endpoints.py [--seconds 10] [--connections 4]
"""
import argparse
import base64
import hashlib
import html.parser
import json
import secrets
import urllib.parse

from harness import PASSWORD, BenchServer, request, throughput

REDIRECT = "http://127.0.0.1/callback"


class HiddenFields(html.parser.HTMLParser):
    """The hidden inputs of the sign-in form."""

    def __init__(self):
        super().__init__()
        self.fields = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "input" and attrs.get("type") == "hidden":
            self.fields[attrs["name"]] = attrs.get("value", "")


def oauth_sign_in(server):
    """Runs the authorization code flow as a browser would; returns the token response."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = urllib.parse.urlencode({"response_type": "code", "client_id": "bench-app", "redirect_uri": REDIRECT,
                                    "code_challenge": challenge, "code_challenge_method": "S256", "state": "s"})
    conn = server.connect()
    conn.request("GET", "/oauth/authorize?" + query)
    page = conn.getresponse()
    cookie = page.getheader("Set-Cookie").split(";")[0]
    parser = HiddenFields()
    parser.feed(page.read().decode())
    form = dict(parser.fields, email="bench@example.com", password=PASSWORD)
    conn.request("POST", "/oauth/authorize", urllib.parse.urlencode(form),
                 {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
    redirect = conn.getresponse()
    redirect.read()
    assert redirect.status == 303, redirect.status
    location = redirect.getheader("Location")
    code = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)["code"][0]
    _, status, body = request(conn, "POST", "/oauth/token", form={
        "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT, "code_verifier": verifier,
        "client_id": "bench-app"})
    assert status == 200, body
    return json.loads(body)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=4)
    args = parser.parse_args()
    server = BenchServer()
    server.create_user("bench@example.com")
    server.cli("clients", "create", "bench-app", "--redirect-uri", REDIRECT, "--first-party")
    created = server.cli("clients", "create", "bench-api", "--redirect-uri", "https://api.example/cb", "--confidential")
    secret = next(line.split(": ", 1)[1] for line in created.splitlines() if line.startswith("client_secret: "))
    basic = "Basic " + base64.b64encode(f"bench-api:{secret}".encode()).decode()
    with server:
        # One sign-in per connection (sign-ins are deliberately slow: Argon2id).
        oauth_chains, directus_chains = [], []
        for _ in range(args.connections):
            oauth_chains.append(oauth_sign_in(server)["refresh_token"])
            _, status, body = request(server.connect(), "POST", "/auth/login",
                                      {"email": "bench@example.com", "password": PASSWORD})
            assert status == 200, body
            directus_chains.append(json.loads(body)["data"]["refresh_token"])
        access_token = oauth_sign_in(server)["access_token"]

        def oauth_refresh(conn, index):
            _, status, body = request(conn, "POST", "/oauth/token", form={
                "grant_type": "refresh_token", "refresh_token": oauth_chains[index], "client_id": "bench-app"})
            assert status == 200, body
            oauth_chains[index] = json.loads(body)["refresh_token"]

        def directus_refresh(conn, index):
            _, status, body = request(conn, "POST", "/auth/refresh", {"refresh_token": directus_chains[index]})
            assert status == 200, body
            directus_chains[index] = json.loads(body)["data"]["refresh_token"]

        def introspect(conn, index):
            _, status, body = request(conn, "POST", "/oauth/introspect", form={"token": access_token},
                                      headers={"Authorization": basic})
            assert status == 200 and json.loads(body)["active"], body

        def jwks(conn, index):
            _, status, _ = request(conn, "GET", "/.well-known/jwks.json")
            assert status == 200

        for name, work in [("POST /oauth/token (refresh grant: rotation + ES256 access token)", oauth_refresh),
                           ("POST /auth/refresh (Directus-compatible rotation)", directus_refresh),
                           ("POST /oauth/introspect (access token: ES256 verify + liveness query)", introspect),
                           ("GET /.well-known/jwks.json", jwks)]:
            count, elapsed, _ = throughput(server, args.seconds, args.connections, work)
            print(f"{name}: {count} requests in {elapsed:.1f} s over {args.connections} keep-alive connections: "
                  f"{count / elapsed:.0f} requests/s")


if __name__ == "__main__":
    main()
