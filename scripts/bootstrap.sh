#!/usr/bin/env bash
# Installs every Debian package Latchkey needs that this machine lacks.
#   scripts/bootstrap.sh          build and run dependencies
#   scripts/bootstrap.sh --test   plus what the test suites start (Chromium, its driver, PostgreSQL) and
#                                 need (libmagic for the py-directus SDK)
# Idempotent: installs nothing (and runs no apt-get update) when everything is present.
set -euo pipefail

# binutils: objcopy, which `make dist` splits the binary's debug information off with.
packages=(pkg-config libsqlite3-dev libssl-dev libargon2-dev libmicrohttpd-dev
          libcurl4-openssl-dev libzxcvbn-dev
          libhiredis-dev libpq-dev libqrencode-dev binutils)
if [[ "${1:-}" == "--test" ]]; then
    packages+=(chromium chromium-driver python3-venv openssl redis-server postgresql libmagic1)
fi
if [[ "${1:-}" == "--test" ]]; then
    # systemd-analyze verify checks the unit `make dist` ships (e2e/test_dist.py).
    packages+=(systemd)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if (( ${#missing[@]} > 0 )); then
    echo "bootstrap: installing ${missing[*]}" >&2
    sudo_cmd=()
    [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v swift >/dev/null 2>&1 && [[ ! -x /opt/swift/usr/bin/swift ]]; then
    echo "bootstrap: Swift 6 toolchain not found (expected on PATH or at /opt/swift)" >&2
    exit 1
fi
