#!/usr/bin/env bash
# A throwaway PostgreSQL 15 for the test suites, listening only on 127.0.0.1.
#   scripts/postgres-test-server.sh start DIR   initdb into DIR, start on a free port, print the URL
#   scripts/postgres-test-server.sh stop DIR    stop it (DIR can then be deleted)
# The superuser `postgres` gets a random password (scram-sha-256), so tests exercise real
# password authentication. PostgreSQL refuses to run as root: as root, the cluster is owned
# by and run as the `postgres` system user.
set -euo pipefail

# The newest installed server (Debian's postgresql package puts it there), unless POSTGRES_BIN says.
bin=${POSTGRES_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
if [[ ! -x "$bin/initdb" ]]; then
    echo "postgres-test-server: no PostgreSQL server found (install the postgresql package or set POSTGRES_BIN)" >&2
    exit 1
fi
command=${1:-}
dir=${2:-}
if [[ -z "$command" || -z "$dir" ]]; then
    echo "usage: $0 start|stop DIR" >&2
    exit 2
fi
dir=$(mkdir -p "$dir" && cd "$dir" && pwd)

as_owner() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "$command" in
start)
    [[ $(id -u) -eq 0 ]] && chown postgres: "$dir"
    password=$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    umask 077
    printf '%s\n' "$password" >"$dir/pwfile"
    [[ $(id -u) -eq 0 ]] && chown postgres: "$dir/pwfile"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --pwfile="$dir/pwfile" \
        --auth-host=scram-sha-256 --auth-local=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    rm -f "$dir/pwfile"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off" >/dev/null \
        || { cat "$dir/server.log" >&2; exit 1; }
    url="postgres://postgres:$password@127.0.0.1:$port/postgres?sslmode=disable"
    "$bin/psql" -q -X -d "$url" -c "SELECT 1" >/dev/null
    echo "$url"
    ;;
stop)
    if [[ -f "$dir/data/postmaster.pid" ]]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
    fi
    ;;
*)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
