#!/usr/bin/env bash
# Printed by `make run` before the server starts: how to try a password reset locally.
cat <<'HINT'
Latchkey is starting on the embedded default (SQLite and .eml mail under ./data).
In another terminal:
  printf 'correct horse battery staple' | ./.build/release/latchkey users create you@example.com --password-stdin
  curl -s -X POST -H 'Content-Type: application/json' \
       -d '{"email":"you@example.com"}' http://127.0.0.1:8080/auth/password/request
  ls data/outbox/    # the reset mail; open its link: http://127.0.0.1:8080/reset-password#token=...
HINT
