"""The database goes away under a running server (PostgreSQL behind a TCP relay the test cuts):
requests get 503 with Retry-After in their route's shape — never a 500 — and the server serves
again, by itself, once the database is back."""
import socket
import threading
import time
import urllib.parse

import requests

from conftest import free_port


class Relay:
    """A TCP relay on loopback to `upstream`; `cut()` drops every relayed connection and refuses
    new ones (a database host gone), `restore()` accepts again on the same port."""

    def __init__(self, upstream):
        self.upstream = upstream
        self.port = free_port()
        self.lock = threading.Lock()
        self.sockets = []
        self.listener = None
        self.restore()

    def restore(self):
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self):
        # A listener closed while another thread blocks in accept() keeps listening until that
        # accept returns: shutdown() wakes it (EINVAL on Linux) and stops the listening.
        self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        with self.lock:
            for side in self.sockets:
                try:
                    side.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                side.close()
            self.sockets.clear()

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            server = socket.create_connection(self.upstream, timeout=5)
            server.settimeout(None)
            with self.lock:
                self.sockets += [client, server]
            for source, target in [(client, server), (server, client)]:
                threading.Thread(target=self._pump, args=(source, target), daemon=True).start()

    @staticmethod
    def _pump(source, target):
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        for side in (source, target):
            try:
                side.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def test_a_database_outage_is_503_with_retry_after_and_the_server_recovers(make_server, fresh_database):
    parts = urllib.parse.urlsplit(fresh_database)
    relay = Relay((parts.hostname, parts.port or 5432))
    relayed = urllib.parse.urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.port}", f":{relay.port}")))
    server = make_server(LATCHKEY_DATABASE_URL=relayed, LATCHKEY_DATABASE_STATEMENT_TIMEOUT=2)
    wrong = {"email": "owner@example.com", "password": "not the password"}
    assert requests.post(server.base + "/auth/login", json=wrong, timeout=10).status_code == 401

    relay.cut()
    try:
        login = requests.post(server.base + "/auth/login", json=wrong, timeout=30)
        assert login.status_code == 503, login.text
        assert int(login.headers["Retry-After"]) > 0
        assert login.json()["errors"][0]["extensions"]["code"] == "SERVICE_UNAVAILABLE"

        token = requests.post(server.base + "/oauth/token", timeout=30, data={
            "grant_type": "refresh_token", "refresh_token": "x" * 43, "client_id": "app"})
        assert token.status_code == 503, token.text
        assert token.json()["error"] == "temporarily_unavailable" and "Retry-After" in token.headers

        reset = requests.post(server.base + "/auth/password/request", json={"email": "owner@example.com"}, timeout=30)
        assert reset.status_code == 503, reset.text
        assert reset.json()["error"]["code"] == "storage_unavailable" and "Retry-After" in reset.headers
        assert "internal_error" not in reset.text
    finally:
        relay.restore()

    # Back by itself: the broken connections were replaced, nothing restarted.
    give_up = time.time() + 20
    while True:
        answer = requests.post(server.base + "/auth/login", json=wrong, timeout=30)
        if answer.status_code != 503 or time.time() > give_up:
            break
        time.sleep(0.2)
    assert answer.status_code == 401, answer.text
    assert server.process.poll() is None
