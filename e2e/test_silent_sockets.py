"""Connections that send nothing cannot shut fresh clients out: at the connection limit the
one that has sent nothing for longest is closed to make room for a new one."""
import socket
import time



def test_with_every_slot_held_by_silent_sockets_fresh_requests_are_answered(make_server):
    server = make_server(LATCHKEY_MAX_CONNECTIONS=120, LATCHKEY_PER_IP_CONNECTIONS=30)
    silent = []
    try:
        # 120 connections from four addresses that never send a byte fill every slot.
        for index in range(120):
            connection = socket.socket()
            connection.bind((f"127.0.0.{2 + index // 30}", 0))
            connection.connect(("127.0.0.1", server.port))
            silent.append(connection)
        # The server lists the silent connections twice a second.
        time.sleep(1.5)
        answered = 0
        for _ in range(10):
            with socket.create_connection(("127.0.0.1", server.port), timeout=5) as fresh:
                fresh.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                try:
                    answered += fresh.recv(64).startswith(b"HTTP/1.1 200")
                except (ConnectionResetError, socket.timeout):
                    pass
        assert answered == 10
        # The ones closed to make room were silent ones, oldest first.
        closed = 0
        for connection in silent[:20]:
            connection.settimeout(2)
            try:
                closed += connection.recv(1) == b""
            except (ConnectionResetError, socket.timeout):
                closed += 1
        assert closed >= 10
    finally:
        for connection in silent:
            connection.close()

