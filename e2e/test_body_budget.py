"""The server-wide budget for request bodies in flight: a flood of half-sent bodies from
many addresses cannot make the server hold more than LATCHKEY_MAX_BODY_BYTES_IN_FLIGHT; past
it a request is answered 503 with Retry-After, in its route's shape with a code that says
"unavailable", and its connection closed; every share comes back when its request ends."""
import json
import socket
import time

import requests

from conftest import free_port  # noqa: F401  (the fixtures come from conftest)


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def half_sent(port, source, path="/auth/password/request", length=65536, sent=60000):
    """A connection from `source` that announces `length` bytes of body and sends `sent`."""
    connection = socket.socket()
    connection.bind((source, 0))
    connection.settimeout(5)
    connection.connect(("127.0.0.1", port))
    head = (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n\r\n").encode()
    try:
        connection.sendall(head + b" " * sent)
    except OSError:
        pass  # refused and closed already
    return connection


def response_of(connection, timeout=5):
    """Everything the server sent until it closed the connection (or `timeout` passed)."""
    connection.settimeout(timeout)
    received = b""
    try:
        while chunk := connection.recv(65536):
            received += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    return received


def test_a_flood_of_half_sent_bodies_holds_rss_under_the_budget(make_server):
    server = make_server(LATCHKEY_MAX_BODY_BYTES_IN_FLIGHT=1048576, LATCHKEY_REQUEST_TIMEOUT=30)
    pid = server.process.pid
    # Warm up the paths a body takes, then measure.
    for _ in range(3):
        server.post("/auth/password/request", {"email": "warm@example.com"})
    before = rss_kib(pid)
    flood = []
    deadline = time.time() + 60
    try:
        # 320 connections, 32 from each of 10 addresses, each 60 000 bytes into a 64 KiB body.
        for address in range(10):
            for _ in range(32):
                flood.append(half_sent(server.port, f"127.0.0.{10 + address}"))
                assert time.time() < deadline
        time.sleep(1)
        grown = rss_kib(pid) - before
        refused = [response_of(connection, timeout=1) for connection in flood[-20:]]
        # Today 320 such bodies grew the server by about 29 MiB; the budget holds 1 MiB of
        # bodies, plus the connections' own buffers (docs/operations.md).
        assert grown < 10 * 1024, f"RSS grew by {grown} KiB"
        busy = [answer for answer in refused if answer.startswith(b"HTTP/1.1 503")]
        assert busy, refused[:2]
        head, _, body = busy[0].partition(b"\r\n\r\n")
        assert b"retry-after: 1" in head.lower() and b"connection: close" in head.lower()
        assert json.loads(body)["error"]["code"] == "server_busy"
        assert json.loads(body)["errors"][0]["extensions"]["code"] == "SERVICE_UNAVAILABLE"
        # The large bodies leave the budget's last eighth to small ones: during the flood the
        # owner still signs in and asks for a reset.
        assert server.post("/auth/password/request", {"email": "owner@example.com"}).status_code == 200
        login = requests.post(server.base + "/auth/login", json={"email": "owner@example.com", "password": "x" * 12},
                              timeout=5)
        assert login.status_code == 401, login.text
    finally:
        for connection in flood:
            connection.close()
    # Every share comes back once the clients are gone: a whole body fits again.
    give_up = time.time() + 15
    while True:
        answer = server.post("/auth/password/request", {"email": "after@example.com", "padding": "x" * 60000})
        if answer.status_code != 503 or time.time() > give_up:
            break
        time.sleep(0.1)
    assert answer.status_code != 503, answer.text


def hold_budget(server, path="/auth/password/request"):
    """One connection holding the whole budget (LATCHKEY_MAX_BODY_BYTES_IN_FLIGHT=1024) with
    a half-sent body; returns it once the server has its head and refuses other bodies."""
    for _ in range(20):
        holder = half_sent(server.port, "127.0.0.5", path=path, length=1024, sent=10)
        time.sleep(0.3)
        answer = requests.post(server.base + "/auth/login", json={"email": "a@example.com", "password": "x"}, timeout=5)
        if answer.status_code == 503:
            return holder
        holder.close()
    raise AssertionError("the budget was never taken")


def test_503_answers_say_unavailable_in_every_shape(make_server):
    server = make_server(LATCHKEY_MAX_BODY_BYTES=1024, LATCHKEY_MAX_BODY_BYTES_IN_FLIGHT=1024)
    holder = hold_budget(server)
    try:
        directus = requests.post(server.base + "/auth/login", json={"email": "a@example.com", "password": "x"}, timeout=5)
        assert directus.status_code == 503 and directus.headers["Retry-After"] == "1"
        assert directus.json()["errors"][0]["extensions"]["code"] == "SERVICE_UNAVAILABLE"
        assert directus.headers["Connection"].lower() == "close"

        oauth = requests.post(server.base + "/oauth/token", data={"grant_type": "refresh_token", "refresh_token": "x",
                                                                  "client_id": "app"}, timeout=5)
        assert oauth.status_code == 503 and oauth.json()["error"] == "temporarily_unavailable"

        both = requests.post(server.base + "/auth/password/request", json={"email": "a@example.com"}, timeout=5)
        assert both.status_code == 503
        assert both.json()["error"]["code"] == "server_busy" and "internal_error" not in both.text

        for language, phrase in [("en", "try again in a moment"), ("pt", "Tente novamente daqui a pouco"),
                                 ("es", "Inténtalo de nuevo en un momento"), ("ar", "يُرجى المحاولة مرة أخرى بعد لحظات")]:
            page = requests.post(server.base + "/oauth/authorize", data={"step": "sign_in", "email": "a@example.com"},
                                 headers={"Accept-Language": language}, timeout=5)
            assert page.status_code == 503, page.text[:300]
            assert phrase in page.text, (language, page.text)
            for wrong in ["This sign-in link does not work", "Este link de acesso não funciona",
                          "Este enlace de inicio de sesión no funciona", "رابط تسجيل الدخول هذا لا يعمل"]:
                assert wrong not in page.text
    finally:
        holder.close()


def test_every_way_a_request_ends_gives_its_share_back(make_server):
    """Answered, refused for its size, cut off at the request deadline, hung up by the client
    (a TCP reset): after each, the whole budget is free again."""
    server = make_server(LATCHKEY_MAX_BODY_BYTES=1024, LATCHKEY_MAX_BODY_BYTES_IN_FLIGHT=1024, LATCHKEY_REQUEST_TIMEOUT=2)

    def whole_budget_free():
        for _ in range(100):
            answer = server.post("/auth/password/request", {"email": "a@example.com", "padding": "x" * 900})
            if answer.status_code != 503:
                return True
            time.sleep(0.05)
        return False

    # Answered.
    assert server.post("/auth/password/request", {"email": "a@example.com"}).status_code == 200
    assert whole_budget_free()
    # Refused: a chunked body over the size limit gets 413.
    too_large = requests.post(server.base + "/auth/password/request", data=iter([b"x" * 800, b"x" * 800]),
                              headers={"Content-Type": "application/json"}, timeout=5)
    assert too_large.status_code == 413
    assert whole_budget_free()
    # Cut off at the deadline.
    holder = hold_budget(server)
    assert response_of(holder, timeout=10) == b""
    holder.close()
    assert whole_budget_free()
    # Hung up with a reset.
    holder = hold_budget(server)
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    holder.close()
    assert whole_budget_free()
