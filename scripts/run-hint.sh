#!/usr/bin/env bash
# Printed by `make run` before the server starts: how to try a password reset locally, at the
# address LATCHKEY_LISTEN (or LATCHKEY_PUBLIC_URL) says and with the LATCHKEY_DATA_DIR in use.
listen="${LATCHKEY_LISTEN:-127.0.0.1:8080}"
base="${LATCHKEY_PUBLIC_URL:-http://$listen}"
base="${base%/}"
data="${LATCHKEY_DATA_DIR:-./data}"
port="${listen##*:}"
if [[ -z "${LATCHKEY_PUBLIC_URL:-}" && "$port" == "0" ]]; then
    note="  (port 0: the system picks one; the server_started log line names it as public_url)"
    base="http://${listen%:*}:PORT"
fi
# The other terminal may not have the variable: name the directory on the command line.
option="${LATCHKEY_DATA_DIR:+ --data-dir $LATCHKEY_DATA_DIR}"
cat <<HINT
Latchkey is starting on $listen (SQLite and .eml mail under $data).${note:+
$note}
In another terminal:
  printf 'correct horse battery staple\n' | ./.build/release/latchkey users create you@example.com --password-stdin$option
  curl -s -X POST -H 'Content-Type: application/json' \\
       -d '{"email":"you@example.com"}' $base/auth/password/request
  ./.build/release/latchkey outbox list$option       # the reset mail: id, status, queued, attempts, recipient, subject
  ./.build/release/latchkey outbox show ID$option    # its text; open the link: $base/reset-password#token=...
HINT
