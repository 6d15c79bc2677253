"""The login flood: many clients at once sending POST /auth/login with the right password,
each on its own keep-alive connection from one of several loopback addresses, sending its
next login as soon as the last one is answered, for a fixed time. Measures the server's
peak memory, logins per second, how every attempt was answered, and the latency of
POST /auth/password/validate (wrk) during the flood against the same probe before it."""
import collections
import dataclasses
import http.client
import json
import os
import threading
import time

from harness import EMAIL, PASSWORD, loopback_source
from loadgen import run_wrk


@dataclasses.dataclass
class FloodResult:
    clients: int
    seconds: float
    peak_rss_mib: float
    rss_after_mib: float
    succeeded: int
    busy_with_retry_after: int
    # every other outcome ("status 500", "503 without Retry-After", "closed", ...) -> count
    other: dict
    worst_seconds: float
    late: int
    validate_idle: object
    validate_during: object

    @property
    def logins_per_second(self):
        return self.succeeded / self.seconds


def login_flood(server, clients, seconds, per_address, answer_timeout, request_deadline, probe, cpu):
    """Floods `server` with `clients` concurrent logins for `seconds`, a reply awaited at most
    `answer_timeout` seconds; `late` counts answers slower than `request_deadline`. `probe`
    is (connections, a request file for bench/wrk/fixed_request.lua): the validate probe
    runs with that many connections for `seconds` before and during the flood, wrk on `cpu`."""
    probe_connections, probe_request = probe
    validate_url = server.base + "/auth/password/validate"

    def run_probe():
        return run_wrk(validate_url, seconds, probe_connections, cpu, "fixed_request.lua", [probe_request])

    validate_idle = run_probe()

    body = json.dumps({"email": EMAIL, "password": PASSWORD})
    outcomes = []  # (seconds, status or failure, has Retry-After)
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)
    stop_at = [0.0]

    def client(index):
        # The flood shares the load generator's CPU with the wrk probe: at nice 10 it cannot
        # delay the probe's own sending and reading, so the probe measures the server.
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
        source = loopback_source(index, per_address)
        conn = None
        start.wait()
        while time.time() < stop_at[0]:
            began = time.perf_counter()
            try:
                conn = conn or http.client.HTTPConnection("127.0.0.1", server.port, timeout=answer_timeout,
                                                          source_address=(source, 0))
                conn.request("POST", "/auth/login", body, {"Content-Type": "application/json"})
                response = conn.getresponse()
                response.read()
                outcome = (time.perf_counter() - began, response.status, response.getheader("Retry-After") is not None)
            except (OSError, http.client.HTTPException) as error:
                outcome = (time.perf_counter() - began, failure_name(error), False)
                conn.close()
                conn = None
                time.sleep(0.05)  # a server refusing connections must not make this a busy loop
            with lock:
                outcomes.append(outcome)
        if conn:
            conn.close()

    peak = [0.0]
    sampling = threading.Event()

    def sample_memory():
        while not sampling.wait(0.05):
            try:
                peak[0] = max(peak[0], server.memory.rss_mib())
            except (OSError, RuntimeError):
                return

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for thread in threads:
        thread.start()
    server.memory.reset_peak()
    sampler = threading.Thread(target=sample_memory, daemon=True)
    sampler.start()
    probe_result = {}
    prober = threading.Thread(target=lambda: probe_result.update(during=run_probe()), daemon=True)
    began = time.time()
    stop_at[0] = began + seconds
    start.wait()
    prober.start()
    for thread in threads:
        thread.join(timeout=max(0.0, began + seconds + answer_timeout + 5 - time.time()))
    elapsed = time.time() - began
    prober.join()
    sampling.set()
    sampler.join()
    peak_rss = max(peak[0], server.memory.peak_mib())
    time.sleep(1)

    with lock:
        finished = list(outcomes)
    unfinished = sum(thread.is_alive() for thread in threads)
    counts = collections.Counter((status, retry_after) for _, status, retry_after in finished)
    other = collections.Counter()
    for (status, retry_after), count in counts.items():
        if status != 200 and not (status == 503 and retry_after):
            name = status if not isinstance(status, int) else (
                "503 without Retry-After" if status == 503 else f"status {status}")
            other[name] += count
    if unfinished:
        other["still waiting"] += unfinished
    return FloodResult(
        clients=clients, seconds=elapsed, peak_rss_mib=peak_rss, rss_after_mib=server.memory.rss_mib(),
        succeeded=counts[(200, True)] + counts[(200, False)], busy_with_retry_after=counts[(503, True)],
        other=dict(other), worst_seconds=max((seconds for seconds, _, _ in finished), default=0.0),
        late=sum(1 for seconds, status, _ in finished if isinstance(status, int) and seconds > request_deadline),
        validate_idle=validate_idle, validate_during=probe_result.get("during"))


def failure_name(error):
    """A short name for why a request got no answer."""
    if isinstance(error, TimeoutError):
        return "no answer (timeout)"
    if isinstance(error, ConnectionRefusedError):
        return "refused"
    if isinstance(error, (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected)):
        return "closed"
    return type(error).__name__
