#!/usr/bin/env bash
# A throwaway Redis for tests: no persistence, loopback only, state under DIR.
#   scripts/redis-test-server.sh start DIR [PORT]   start it (on a free port unless PORT is
#                                                   given) and print its redis:// URL
#   scripts/redis-test-server.sh stop DIR           stop it (waits until it has exited)
set -euo pipefail

usage() { echo "usage: $0 start DIR [PORT] | stop DIR" >&2; exit 2; }
[[ $# -ge 2 ]] || usage
command=$1
dir=$2
pidfile="$dir/redis.pid"

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

case "$command" in
start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    pidfile="$dir/redis.pid"
    for attempt in 1 2 3 4 5; do
        port=${3:-$(free_port)}
        rm -f "$pidfile"
        redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no \
            --daemonize yes --pidfile "$pidfile" --dir "$dir" --logfile "$dir/redis.log" >/dev/null
        for _ in $(seq 1 100); do
            if [[ "$(redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null)" == "PONG" && -s "$pidfile" ]]; then
                echo "$port" >"$dir/port"
                echo "redis://127.0.0.1:$port/0"
                exit 0
            fi
            sleep 0.05
        done
        # The port was taken between choosing and binding; stop any half-started server and retry.
        [[ -s "$pidfile" ]] && kill "$(cat "$pidfile")" 2>/dev/null || true
        [[ -n "${3:-}" ]] && break
    done
    echo "redis-test-server: could not start redis-server (see $dir/redis.log)" >&2
    exit 1
    ;;
stop)
    [[ -s "$pidfile" ]] || exit 0
    pid=$(cat "$pidfile")
    gone() {
        for _ in $(seq 1 "$1"); do
            kill -0 "$pid" 2>/dev/null || return 0
            sleep 0.05
        done
        return 1
    }
    # SHUTDOWN first: it works even if the server inherited a mask blocking SIGTERM (a
    # test may have set a password, hence the signals after it).
    redis-cli -h 127.0.0.1 -p "$(cat "$dir/port")" shutdown nosave >/dev/null 2>&1 || true
    gone 10 || { kill "$pid" 2>/dev/null; gone 100; } || { kill -9 "$pid" 2>/dev/null; gone 100; } || true
    rm -f "$pidfile"
    ;;
*)
    usage
    ;;
esac
