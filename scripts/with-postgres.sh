#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL running and its URL exported as
# LATCHKEY_TEST_DATABASE_URL; stops and deletes the server afterwards, even when the
# command fails. The command's exit status is this script's.
#   scripts/with-postgres.sh swift test --skip-build
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/latchkey-postgres.XXXXXX)
cleanup() {
    "$here/postgres-test-server.sh" stop "$dir" || true
    rm -rf "$dir"
}
trap cleanup EXIT
LATCHKEY_TEST_DATABASE_URL=$("$here/postgres-test-server.sh" start "$dir")
export LATCHKEY_TEST_DATABASE_URL
"$@"
