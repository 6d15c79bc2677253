"""`make dist`: the tarball's binary runs on a host without the Swift toolchain, its systemd unit
passes `systemd-analyze verify`, its package list names every library it loads, and the install
section of docs/deploy.md (configuration file, admin commands as the service user) works with it."""
import json
import os
import pathlib
import re
import shutil
import subprocess
import tarfile
import tempfile
import time
import zlib

import pytest
import requests

from conftest import GOOD_PASSWORD, ROOT, free_port

DOCS = ROOT / "docs" / "deploy.md"


def tarball():
    """The newest dist/latchkey-*.tar.gz; `make test` builds it (`make dist`) before the e2e suite."""
    found = sorted((ROOT / "dist").glob("latchkey-*-linux-*.tar.gz"), key=lambda p: p.stat().st_mtime)
    if not found:
        if os.environ.get("LATCHKEY_REQUIRE_CLUSTER"):
            pytest.fail("no dist/latchkey-*.tar.gz: `make dist` must run before the e2e suite")
        pytest.skip("no dist/latchkey-*.tar.gz: run `make dist` first")
    return found[-1]


@pytest.fixture
def unpacked(tmp_path):
    """The tarball extracted into a directory anyone may read (the admin test runs as nobody)."""
    target = tmp_path / "unpacked"
    with tarfile.open(tarball()) as archive:
        names = archive.getnames()
        archive.extractall(target)  # our own tarball
    [top] = {name.split("/")[0] for name in names}
    assert re.fullmatch(r"latchkey-\d+\.\d+\.\d+-linux-[a-z0-9]+", top)
    assert sorted(names) == sorted([top] + [f"{top}/{n}" for n in ("latchkey", "latchkey.debug", "latchkey.service",
                                                                      "debian-packages.txt")])
    return target / top


def clean_environment(home):
    """What a fresh login on a host without Swift has: no toolchain on PATH, no LD_LIBRARY_PATH."""
    return {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}


def test_the_binary_runs_without_the_swift_toolchain(unpacked, tmp_path):
    binary = unpacked / "latchkey"
    env = clean_environment(tmp_path)
    assert "LD_LIBRARY_PATH" not in env and "swift" not in env["PATH"]
    libraries = subprocess.run(["ldd", str(binary)], env=env, capture_output=True, text=True, check=True).stdout
    assert "not found" not in libraries and "libswift" not in libraries and "/opt/swift" not in libraries, libraries

    # Every library it links comes from a package the list names (apt brings what those need),
    # and each listed package exists here.
    listed = set((unpacked / "debian-packages.txt").read_text().split())
    dynamic = subprocess.run(["readelf", "-d", str(binary)], capture_output=True, text=True, check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(\S+)\]", dynamic)
    assert "libsqlite3.so.0" in needed and not any("swift" in name or "Foundation" in name for name in needed), needed
    for name in needed:
        path = re.search(rf"^\s*(?:{re.escape(name)} => )?(/\S*{re.escape(name)})", libraries, re.M).group(1)
        owners = set()
        for candidate in {path, os.path.realpath(path), path.removeprefix("/usr"), "/usr" + path}:
            result = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
            owners |= {line.split(":")[0] for line in result.stdout.splitlines()}
        assert owners & listed, (name, path, owners, listed)
    installed = subprocess.run(["dpkg-query", "-W", "-f", "${Package}\n", *sorted(listed)], capture_output=True, text=True)
    assert installed.returncode == 0 and set(installed.stdout.split()) == listed

    def run(*args, stdin=None):
        return subprocess.run([str(binary), *args], env=env, input=stdin, capture_output=True, text=True, timeout=60)

    assert re.fullmatch(r"latchkey \d+\.\d+\.\d+\n", run("--version").stdout)
    data = tmp_path / "data"
    assert run("migrate", "--data-dir", str(data)).returncode == 0
    assert run("users", "create", "pat@example.com", "--password-stdin", "--data-dir", str(data), stdin=GOOD_PASSWORD).returncode == 0

    port = free_port()
    server = subprocess.Popen([str(binary), "serve", "--data-dir", str(data)], env={**env, "LATCHKEY_LISTEN": f"127.0.0.1:{port}"},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.time() + 30
        while True:
            try:
                if requests.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except (requests.ConnectionError, requests.Timeout):
                assert server.poll() is None and time.time() < deadline, "the server did not start"
                time.sleep(0.05)
        # HTTPS client code (FoundationNetworking) and Argon2 work as well: a first-party sign-in.
        login = requests.post(base + "/auth/login", json={"email": "pat@example.com", "password": GOOD_PASSWORD}, timeout=30)
        assert login.status_code == 200
        state = {**env, "XDG_STATE_HOME": str(tmp_path / "state"), "LATCHKEY_ISSUER": base}
        signed_in = subprocess.run([str(binary), "login", "--email", "pat@example.com", "--password-stdin"], env=state,
                                   input=GOOD_PASSWORD, capture_output=True, text=True, timeout=60)
        assert signed_in.returncode == 0, signed_in.stderr
        assert subprocess.run([str(binary), "token"], env=state, capture_output=True, text=True, timeout=60).stdout.count(".") == 2
    finally:
        server.terminate()
        server.wait(timeout=30)


def sections(path):
    """The names of the ELF sections of the file at `path` (that hold something)."""
    listing = subprocess.run(["readelf", "-S", "-W", str(path)], capture_output=True, text=True, check=True).stdout
    return {match.group(1) for match in re.finditer(r"\]\s+(\S+)\s+(?!NOBITS)\S+", listing)}


def build_id(path):
    notes = subprocess.run(["readelf", "-n", str(path)], capture_output=True, text=True, check=True).stdout
    return re.search(r"Build ID: ([0-9a-f]+)", notes).group(1)


def test_the_binary_is_stripped_and_its_debug_information_is_beside_it(unpacked):
    binary, debug = unpacked / "latchkey", unpacked / "latchkey.debug"
    shipped = sections(binary)
    assert ".symtab" not in shipped and not any(name.startswith(".debug") for name in shipped), shipped
    assert ".gnu_debuglink" in shipped
    kept = sections(debug)
    assert {".symtab", ".debug_info", ".debug_line"} <= kept, kept
    # The link names the file beside it and carries its CRC-32, as gdb checks it.
    link = subprocess.run(["objcopy", "--dump-section", ".gnu_debuglink=/dev/stdout", str(binary)],
                          capture_output=True, check=True).stdout
    name, _, rest = link.partition(b"\0")
    crc = int.from_bytes(link[(len(name) + 4) // 4 * 4:][:4], "little")
    assert name == b"latchkey.debug" and crc == zlib.crc32(debug.read_bytes())
    assert build_id(binary) == build_id(debug)
    assert binary.stat().st_size < debug.stat().st_size * 4 and binary.stat().st_mode & 0o777 == 0o755
    assert debug.stat().st_mode & 0o777 == 0o644
    # It still says who it is, and every symbol the debug file holds has a name.
    assert subprocess.run([str(binary), "--version"], capture_output=True, text=True).stdout.startswith("latchkey ")
    symbols = subprocess.run(["readelf", "-s", "-W", str(debug)], capture_output=True, text=True, check=True).stdout
    assert "14LatchkeyServer" in symbols and "14LatchkeyCrypto" in symbols


def test_the_systemd_unit_passes_systemd_analyze_verify(unpacked, tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        if os.environ.get("LATCHKEY_REQUIRE_CLUSTER"):
            pytest.fail("systemd-analyze is missing (scripts/bootstrap.sh --test installs systemd)")
        pytest.skip("systemd-analyze is missing")
    unit = (unpacked / "latchkey.service").read_text()
    assert unit == (ROOT / "dist" / "latchkey.service").read_text()

    # A root holding what the unit names: systemd's own units, the unit, the binary at its ExecStart path.
    root = tmp_path / "root"
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(unpacked / "latchkey.service", root / "etc/systemd/system/latchkey.service")

    def verify():
        return subprocess.run([analyze, "verify", f"--root={root}", "/etc/systemd/system/latchkey.service"],
                              capture_output=True, text=True, timeout=60)

    missing = verify()
    assert "/usr/local/bin/latchkey is not executable" in missing.stdout + missing.stderr
    (root / "usr/local/bin").mkdir(parents=True)
    shutil.copy(unpacked / "latchkey", root / "usr/local/bin/latchkey")
    checked = verify()
    assert checked.returncode == 0 and checked.stdout + checked.stderr == "", checked.stdout + checked.stderr

    # The unit and the install section agree on the binary, the user and the configuration file.
    assert "ExecStart=/usr/local/bin/latchkey serve" in unit and "User=latchkey" in unit
    assert "Environment=LATCHKEY_CONFIG_FILE=/etc/latchkey/latchkey.json" in unit
    install = DOCS.read_text().split("## Install on Debian 12", 1)[1].split("\n## ", 1)[0]
    assert "install -m 0644 latchkey.service /etc/systemd/system/latchkey.service" in install
    assert "install -m 0755 latchkey /usr/local/bin/latchkey" in install
    assert "useradd --system" in install and " latchkey\n" in install
    assert "LATCHKEY_CONFIG_FILE=/etc/latchkey/latchkey.json latchkey" in install


def test_admin_commands_run_as_the_service_user_with_the_documented_configuration(unpacked, tmp_path, request):
    """The install section's configuration file and `runuser -u latchkey -- env LATCHKEY_CONFIG_FILE=… latchkey`,
    with `nobody` (a system user with no login shell, as the install creates) in its place."""
    if os.geteuid() != 0:
        pytest.skip("runuser needs root")
    install = DOCS.read_text().split("## Install on Debian 12", 1)[1].split("\n## ", 1)[0]
    configuration = json.loads(re.search(r"<<'JSON'\n(.*?)\nJSON\n", install, re.S).group(1))
    admin = re.search(r"alias latchkey-admin='(.*)'", install).group(1).split()
    assert admin == ["runuser", "-u", "latchkey", "--", "env", "LATCHKEY_CONFIG_FILE=/etc/latchkey/latchkey.json", "latchkey"]

    # Outside pytest's directory, which only root may enter.
    shared = pathlib.Path(tempfile.mkdtemp(prefix="latchkey-host-", dir="/tmp"))
    os.chmod(shared, 0o755)
    request.addfinalizer(lambda: shutil.rmtree(shared))
    binary = shared / "latchkey"
    shutil.copy(unpacked / "latchkey", binary)
    data = shared / "var-lib-latchkey"
    data.mkdir(mode=0o700)
    os.chown(data, 65534, 65534)
    configuration["LATCHKEY_DATA_DIR"] = str(data)
    config_file = shared / "latchkey.json"
    config_file.write_text(json.dumps(configuration))
    os.chmod(config_file, 0o644)
    command = ["runuser", "-u", "nobody", "--", "env", f"LATCHKEY_CONFIG_FILE={config_file}", str(binary)]
    env = clean_environment(tmp_path)

    def admin_command(*args, stdin=None):
        return subprocess.run([*command, *args], env=env, input=stdin, capture_output=True, text=True, timeout=60)

    # The documented configuration is valid; before the service's first start there is no database yet.
    before = admin_command("users", "list")
    assert before.returncode == 1 and f"no Latchkey database at {data}/latchkey.sqlite3" in before.stderr, before.stderr
    assert admin_command("migrate").returncode == 0
    created = admin_command("users", "create", "you@example.com", "--password-stdin", stdin=GOOD_PASSWORD + "\n")
    assert created.returncode == 0, created.stderr
    assert "you@example.com\tactive" in admin_command("users", "list").stdout
    owners = {path.name: path.stat().st_uid for path in data.iterdir()}
    assert owners and set(owners.values()) == {65534}, owners
