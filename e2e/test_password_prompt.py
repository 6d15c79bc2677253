"""`--password-stdin` at a terminal (issue 35, finding 7), through the release binary.

When standard input is a terminal, the command writes a prompt to standard error and reads the
password with the terminal's echo off, restoring the terminal's mode afterwards — also when
Ctrl-C (SIGINT) ends it while it waits. From a pipe it reads the first line silently, as before.
A real pseudo-terminal (Python's `pty`) stands in for the person's terminal: what the terminal
shows is what its other end reads.
"""
import os
import pty
import select
import signal
import subprocess
import termios
import time

from conftest import BINARY

PASSWORD = "violet tractor quietly juggles mountains"


def read_until(primary, text, timeout=30):
    """Reads what the terminal shows until `text` has appeared; returns all of it."""
    shown = b""
    deadline = time.time() + timeout
    while text.encode() not in shown:
        remaining = deadline - time.time()
        assert remaining > 0, f"waited for {text!r}, the terminal showed {shown!r}"
        ready, _, _ = select.select([primary], [], [], remaining)
        if ready:
            try:
                chunk = os.read(primary, 4096)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            shown += chunk
    return shown.decode(errors="replace")


def read_rest(primary, process):
    shown = b""
    while True:
        ready, _, _ = select.select([primary], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(primary, 4096)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
        elif process.poll() is not None:
            break
    return shown.decode(errors="replace")


def echoes(fd):
    return bool(termios.tcgetattr(fd)[3] & termios.ECHO)


def at_terminal(server, *args):
    """Starts `latchkey ARGS` with the three standard streams on a new pseudo-terminal."""
    primary, secondary = pty.openpty()
    process = subprocess.Popen([str(BINARY), *args], env=server.env, stdin=secondary, stdout=secondary, stderr=secondary)
    return process, primary, secondary


def test_a_password_typed_at_a_terminal_is_asked_for_and_not_echoed(server):
    process, primary, secondary = at_terminal(server, "users", "create", "pat@example.com", "--password-stdin")
    try:
        assert echoes(secondary)
        shown = read_until(primary, "Password for pat@example.com: ")
        assert not echoes(secondary), "the echo must be off while the password is typed"
        os.write(primary, (PASSWORD + "\n").encode())
        shown += read_rest(primary, process)
        assert process.wait(timeout=60) == 0, shown
        assert "created pat@example.com" in shown
        assert PASSWORD not in shown
        assert echoes(secondary), "the terminal's mode must be restored"
    finally:
        os.close(primary)
        os.close(secondary)
    assert server.password_matches("pat@example.com", PASSWORD)


def test_ctrl_c_at_the_prompt_restores_the_terminal(server):
    server.create_user("sam@example.com")
    process, primary, secondary = at_terminal(server, "users", "verify", "sam@example.com", "--password-stdin")
    try:
        read_until(primary, "Password for sam@example.com: ")
        assert not echoes(secondary)
        os.write(primary, b"half a passw")  # typed, not yet entered
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == -signal.SIGINT
        assert echoes(secondary), "Ctrl-C must not leave the terminal silent"
        assert "half a passw" not in read_rest(primary, process)
    finally:
        os.close(primary)
        os.close(secondary)


def test_a_piped_password_is_read_without_a_prompt(server):
    created = server.cli("users", "create", "pipe@example.com", "--password-stdin", stdin=PASSWORD + "\n")
    assert created.stderr == ""
    assert created.stdout.startswith("created pipe@example.com")
    assert server.password_matches("pipe@example.com", PASSWORD)
