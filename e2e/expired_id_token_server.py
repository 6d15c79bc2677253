"""A third-party token endpoint for the SDK's tests: answers every POST /token with rotated
tokens and an ID token that expired an hour ago (as a server with a wrong clock would).
Latchkey itself issues no ID token on refresh, so this server stands in for one that does.

Prints `READY <port>` once it listens on 127.0.0.1; stops when its standard input closes."""
import base64
import json
import time

from helper_server import QuietHandler, serve_until_stdin_closes


def part(value):
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


class TokenEndpoint(QuietHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        issuer = f"http://127.0.0.1:{self.server.server_address[1]}"
        now = int(time.time())
        id_token = ".".join([part({"alg": "ES256", "typ": "JWT"}),
                             part({"iss": issuer, "sub": "person", "aud": "app", "iat": now - 7200, "exp": now - 3600}),
                             "c2lnbmF0dXJl"])
        body = json.dumps({"access_token": "access-2", "token_type": "Bearer", "expires_in": 600,
                           "refresh_token": "refresh-2", "id_token": id_token}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


serve_until_stdin_closes(TokenEndpoint)
