#!/usr/bin/env bash
# Runs a command with a throwaway Redis for the tests and stops Redis afterwards, even
# when the command fails:  scripts/with-redis.sh swift test --skip-build
# The command sees LATCHKEY_TEST_REDIS_URL. Wrappers like this one can be chained.
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/latchkey-redis.XXXXXX")
trap '"$here/redis-test-server.sh" stop "$dir"; rm -rf "$dir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
LATCHKEY_TEST_REDIS_URL=$("$here/redis-test-server.sh" start "$dir")
export LATCHKEY_TEST_REDIS_URL
"$@"
