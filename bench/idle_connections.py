"""Idle connections: many clients from several loopback addresses each open a connection,
send one GET /healthz and then hold the connection open, sending nothing; while they stay
open, fresh clients send requests and the server's memory is sampled. Also a dripped
request head: one header line every few seconds, never the blank line that ends it,
watching when (and how) the server closes the connection.

Every phase has a deadline; a connection the server refuses, closes or never answers is
counted, never an error of the benchmark."""
import collections
import dataclasses
import errno
import http.client
import resource
import selectors
import socket
import threading
import time

from harness import loopback_source

REQUEST = b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n"


@dataclasses.dataclass
class IdleResult:
    wanted: int
    # outcome of opening ("answered 200", "refused", "closed", "no answer", ...) -> count
    opened: dict
    still_open: int
    rss_mib: float
    threads: int
    fresh_latencies: list
    # failures of fresh requests (name -> count)
    fresh_failures: dict


@dataclasses.dataclass
class DripResult:
    interval: float
    limit: float
    # seconds until the server closed the connection, None if it was still open at `limit`
    closed_after: object
    # how it ended: the status line the server sent, "closed", "refused", or "" while open
    how: str


def raise_file_limit(wanted):
    """Raises this process's open-file limit (inherited by the servers it starts) to fit
    `wanted` connections and some files besides, as far as the hard limit allows; returns how
    many connections fit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    limit = wanted + 1024 if hard == resource.RLIM_INFINITY else min(wanted + 1024, hard)
    if limit > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
    return min(wanted, max(soft, limit) - 256)


class Opening:
    """One connection being opened: connect, send the request, read one answer."""

    def __init__(self, selector, source, port):
        self.buffer = b""
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        try:
            self.sock.bind((source, 0))
            result = self.sock.connect_ex(("127.0.0.1", port))
            if result not in (0, errno.EINPROGRESS):
                raise OSError(result, "connect")
        except OSError:
            self.sock.close()
            raise
        selector.register(self.sock, selectors.EVENT_WRITE, self)

    def writable(self, selector):
        """Returns an outcome if connecting failed, else sends the request."""
        error = self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if error:
            return outcome_of(error)
        self.sock.sendall(REQUEST)
        selector.modify(self.sock, selectors.EVENT_READ, self)
        return None

    def readable(self):
        """Returns an outcome once the answer is complete or the connection ended."""
        try:
            data = self.sock.recv(65536)
        except ConnectionResetError:
            return "closed"
        if not data:
            return "closed"
        self.buffer += data
        head, separator, body = self.buffer.partition(b"\r\n\r\n")
        if not separator:
            return None
        lines = head.decode("latin-1").split("\r\n")
        length = next((int(line.split(":", 1)[1]) for line in lines[1:] if line.lower().startswith("content-length:")), 0)
        if len(body) < length:
            return None
        status = lines[0].split(" ")[1]
        return "answered " + status


def outcome_of(error_number):
    """What a failed connection attempt says about the server (or, for the errors the
    server cannot cause, about this client)."""
    if error_number == errno.ECONNREFUSED:
        return "refused"
    if error_number in (errno.ECONNRESET, errno.EPIPE):
        return "closed"
    return "client error " + errno.errorcode.get(error_number, str(error_number))


def open_idle(port, count, per_address, deadline_seconds, in_flight=500):
    """Opens `count` connections (at most `in_flight` at a time still waiting for their
    answer) within `deadline_seconds`; returns (held sockets answered 200, outcome counts)."""
    selector = selectors.DefaultSelector()
    outcomes = collections.Counter()
    held = []
    pending = 0
    started = 0
    deadline = time.time() + deadline_seconds
    while (started < count or pending) and time.time() < deadline:
        while started < count and pending < in_flight:
            try:
                Opening(selector, loopback_source(started, per_address), port)
                pending += 1
            except OSError as error:
                outcomes[outcome_of(error.errno)] += 1
            started += 1
        for key, events in selector.select(timeout=0.2):
            opening = key.data
            try:
                outcome = opening.writable(selector) if events & selectors.EVENT_WRITE else opening.readable()
            except OSError:
                outcome = "closed"
            if outcome is None:
                continue
            selector.unregister(opening.sock)
            pending -= 1
            outcomes[outcome] += 1
            if outcome == "answered 200":
                held.append(opening.sock)
            else:
                opening.sock.close()
    for key in list(selector.get_map().values()):
        outcomes["no answer"] += 1
        key.fileobj.close()
    outcomes["not attempted (deadline)"] += count - started
    selector.close()
    return held, {name: n for name, n in outcomes.items() if n}


def is_open(sock):
    """Whether the server has not closed `sock` (nothing to read, no end of stream)."""
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def fresh_request(port, timeout):
    """One GET /healthz on a new connection from 127.0.0.1; returns (seconds, failure or None)."""
    began = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", "/healthz")
        response = conn.getresponse()
        response.read()
        failure = None if response.status == 200 else f"status {response.status}"
    except TimeoutError:
        failure = "no answer"
    except ConnectionRefusedError:
        failure = "refused"
    except (OSError, http.client.HTTPException):
        failure = "closed"
    finally:
        conn.close()
    return time.perf_counter() - began, failure


def idle_connections(server, count, per_address, open_seconds, hold_seconds, probe_interval=1.0, probe_timeout=5.0):
    """Opens and holds `count` idle connections to `server`; while they are held for
    `hold_seconds`, one fresh request every `probe_interval` seconds."""
    held, opened = open_idle(server.port, count, per_address, open_seconds)
    rss = server.memory.rss_mib()
    threads = server.memory.threads()
    latencies = []
    failures = collections.Counter()
    hold_until = time.time() + hold_seconds
    while time.time() < hold_until:
        seconds, failure = fresh_request(server.port, probe_timeout)
        if failure:
            failures[failure] += 1
        else:
            latencies.append(seconds)
        rss = max(rss, server.memory.rss_mib())
        threads = max(threads, server.memory.threads())
        time.sleep(max(0.0, min(probe_interval - seconds, hold_until - time.time())))
    still_open = sum(is_open(sock) for sock in held)
    for sock in held:
        sock.close()
    return IdleResult(wanted=count, opened=opened, still_open=still_open, rss_mib=rss, threads=threads,
                      fresh_latencies=sorted(latencies), fresh_failures=dict(failures))


class Drip(threading.Thread):
    """A request head sent one header line every `interval` seconds and never finished, on a
    connection from 127.0.0.1; stops at `limit` seconds. `connected` is set once the
    connection is open (or refused)."""

    def __init__(self, port, interval, limit):
        super().__init__(daemon=True)
        self.port = port
        self.interval = interval
        self.limit = limit
        self.connected = threading.Event()
        self.result = DripResult(interval, limit, None, "")

    def run(self):
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        except OSError:
            self.result.closed_after, self.result.how = 0.0, "refused"
            self.connected.set()
            return
        self.connected.set()
        began = time.time()
        line = 0
        try:
            sock.sendall(b"POST /auth/password/validate HTTP/1.1\r\nHost: bench\r\n")
            while (remaining := began + self.limit - time.time()) > 0:
                sock.settimeout(min(self.interval, remaining))
                try:
                    data = sock.recv(4096)
                except TimeoutError:
                    line += 1
                    sock.sendall(f"X-Drip-{line}: {line}\r\n".encode())
                    continue
                self.result.how = data.split(b"\r\n", 1)[0].decode("latin-1") if data else "closed"
                self.result.closed_after = time.time() - began
                return
        except OSError:
            self.result.closed_after, self.result.how = time.time() - began, "closed"
        finally:
            sock.close()
