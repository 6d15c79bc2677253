"""Refresh rotation against a crashing server, through the release binary: a rotation answered
200 has been committed.

32 Directus logins of one account rotate at once, pipelined over 8 connections, so the server's
workers meet at the SQLite writer and their transactions share batches and commits (group
commit); SIGKILL goes out right after the last answer is read. After a restart on the same data
directory, for every login the rotation's outcome must be the one its answer reported: the
new refresh token rotates again (half of the logins), and the token that was presented is
refused as used (the other half). A rotation answered before its commit and lost in the kill
fails the first check; one committed without being answered cannot happen unseen either, since
every request is answered before the kill.
"""
import json
import signal
import socket

from conftest import GOOD_PASSWORD, json_request_bytes, read_response

ADDRESS = "rotating@example.com"
CHAINS = 32
CONNECTIONS = 8


def test_rotations_answered_200_survive_sigkill(make_server):
    server = make_server()
    server.create_user(ADDRESS)
    presented = []
    for _ in range(CHAINS):
        response = server.post("/auth/login", {"email": ADDRESS, "password": GOOD_PASSWORD})
        assert response.status_code == 200, response.text
        presented.append(response.json()["data"]["refresh_token"])

    chunks = [list(range(index, CHAINS, CONNECTIONS)) for index in range(CONNECTIONS)]
    sockets = []
    answers = {}
    try:
        for chunk in chunks:
            connection = socket.create_connection(("127.0.0.1", server.port), timeout=60)
            sockets.append(connection)
            connection.sendall(b"".join(json_request_bytes(server.port, "/auth/refresh",
                                                           {"refresh_token": presented[chain]}) for chain in chunk))
        for connection, chunk in zip(sockets, chunks):
            reader = connection.makefile("rb")
            for chain in chunk:
                answers[chain] = read_response(reader)
        server.process.send_signal(signal.SIGKILL)
    finally:
        for connection in sockets:
            connection.close()
    server.process.wait()

    assert {status for status, _ in answers.values()} == {200}, answers
    rotated = {chain: json.loads(body)["data"]["refresh_token"] for chain, (_, body) in answers.items()}

    restarted = make_server(data_dir=server.data_dir)
    for chain in range(CHAINS):
        if chain % 2 == 0:
            again = restarted.post("/auth/refresh", {"refresh_token": rotated[chain]})
            assert again.status_code == 200, f"login {chain}: the token its rotation returned was lost: {again.text}"
        else:
            replay = restarted.post("/auth/refresh", {"refresh_token": presented[chain]})
            assert replay.status_code == 401, f"login {chain}: the presented token still works: {replay.text}"
