#!/usr/bin/env bash
# Installs what `make bench` needs beyond scripts/bootstrap.sh: the load generator wrk
# (Debian package, with LuaJIT for the request scripts under bench/wrk/) and python3 (the
# bench uses only its standard library), and the tools named as arguments (Debian packages
# named as their command: `bench/setup.sh valgrind` for `make function-order`). Idempotent:
# installs nothing (and runs no apt-get update) when all are present.
set -euo pipefail

missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done

if (( ${#missing[@]} > 0 )); then
    echo "bench/setup.sh: installing ${missing[*]}" >&2
    sudo_cmd=()
    [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
