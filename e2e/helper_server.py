"""What the HTTP helper servers of the Swift tests share (see PythonHelper.swift): a handler
that logs nothing, and a loop that listens on a free loopback port, prints `READY <port>`
and serves until standard input closes."""
import http.server
import sys
import threading


class QuietHandler(http.server.BaseHTTPRequestHandler):
    """A request handler that writes no access log."""

    def log_message(self, *args):
        pass


def serve_until_stdin_closes(handler):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"READY {server.server_address[1]}", flush=True)
    sys.stdin.read()
    server.shutdown()
