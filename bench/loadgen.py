"""The load generator: wrk with the Lua scripts under bench/wrk/, pinned to one CPU, and the
bare libmicrohttpd "hello" server (bench/hello_mhd.c) it measures as the ceiling."""
import dataclasses
import json
import shutil
import subprocess

from harness import ROOT, free_port, pinned, stop, wait_for_port

SCRIPTS = ROOT / "bench" / "wrk"


@dataclasses.dataclass
class WrkResult:
    """What one wrk run measured; latencies in milliseconds."""
    requests: int
    seconds: float
    errors: int
    starved: int
    p50_ms: float
    p99_ms: float
    max_ms: float

    @property
    def rate(self):
        return self.requests / self.seconds


def run_wrk(url, seconds, connections, cpu, script="report.lua", args=(), threads=1, timeout=10):
    """Runs `wrk -t threads -c connections -d seconds` (whole seconds) against `url` with bench/wrk/`script`
    (its arguments after `args`) on `cpu`; a request slower than `timeout` seconds counts as
    an error. `errors` adds up connect, read and write errors, answers with a status of 400
    or more, and timeouts."""
    command = pinned(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", f"--timeout={timeout}s",
                      "-s", str(SCRIPTS / script), url, "--", *map(str, args)], cpu)
    finished = subprocess.run(command, capture_output=True, text=True, timeout=seconds + timeout + 60)
    line = next((line for line in finished.stdout.splitlines() if line.startswith("BENCH-RESULT ")), None)
    if finished.returncode != 0 or line is None:
        raise RuntimeError(f"{' '.join(command)} failed ({finished.returncode}):\n{finished.stdout}{finished.stderr}")
    raw = json.loads(line.removeprefix("BENCH-RESULT "))
    return WrkResult(
        requests=raw["requests"], seconds=raw["duration_us"] / 1e6,
        errors=sum(raw[key] for key in ("connect_errors", "read_errors", "write_errors", "status_errors", "timeouts")),
        starved=raw["starved"], p50_ms=raw["p50_us"] / 1000, p99_ms=raw["p99_us"] / 1000, max_ms=raw["max_us"] / 1000)


class HelloServer:
    """bench/hello_mhd.c in `mode` ("epoll": one thread; "thread": a thread per connection),
    compiled with the toolchain's clang, on a free port, pinned to `cpu`."""

    BINARY = ROOT / ".build" / "bench" / "hello_mhd"

    def __init__(self, mode, cpu):
        self.mode = mode
        self.cpu = cpu
        self.port = free_port()

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    @classmethod
    def build(cls):
        cls.BINARY.parent.mkdir(parents=True, exist_ok=True)
        compiler = shutil.which("clang") or shutil.which("cc")
        subprocess.run([compiler, "-O2", "-o", str(cls.BINARY), str(ROOT / "bench" / "hello_mhd.c"), "-lmicrohttpd"],
                       check=True)

    def __enter__(self):
        self.process = subprocess.Popen(pinned([str(self.BINARY), str(self.port), self.mode], self.cpu))
        wait_for_port(self.port, self.process)
        return self

    def __exit__(self, *exc):
        stop(self.process)
