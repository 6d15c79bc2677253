#!/usr/bin/env python3
"""Requests per second of POST /auth/refresh (rotation, one chain per connection) and of
GET /.well-known/jwks.json, against the release binary on a free loopback port.

Usage: .venv/bin/python bench/token_endpoints.py [--seconds 10] [--connections 4]
"""
import argparse
import json

from harness import PASSWORD, BenchServer, request, throughput


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=4)
    args = parser.parse_args()
    server = BenchServer()
    server.create_user("bench@example.com")
    with server:
        # One login per connection (logins are rate limited per account and deliberately slow).
        chains = []
        for _ in range(args.connections):
            _, status, body = request(server.connect(), "POST", "/auth/login",
                                      {"email": "bench@example.com", "password": PASSWORD})
            assert status == 200, body
            chains.append(json.loads(body)["data"]["refresh_token"])

        def refresh(conn, index):
            _, status, body = request(conn, "POST", "/auth/refresh", {"refresh_token": chains[index]})
            assert status == 200, body
            chains[index] = json.loads(body)["data"]["refresh_token"]

        def jwks(conn, index):
            _, status, _ = request(conn, "GET", "/.well-known/jwks.json")
            assert status == 200

        for name, work in [("POST /auth/refresh (rotation + ES256 access token)", refresh),
                           ("GET /.well-known/jwks.json", jwks)]:
            count, elapsed = throughput(server, args.seconds, args.connections, work)
            print(f"{name}: {count} requests in {elapsed:.1f} s over {args.connections} keep-alive connections: "
                  f"{count / elapsed:.0f} requests/s")


if __name__ == "__main__":
    main()
