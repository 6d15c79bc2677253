"""Key files and token introspection against a hostile local user or client (issue 11,
findings 8 and 9), through the release binary.

Where the issue leaves a detail open, these tests expect what a security reviewer would:
- "Never group/world readable at any moment": permissions are checked when a file is opened,
  so a descriptor opened during a moment of 0644 keeps reading whatever is written later. A
  watcher process (inotify, its own process so no interpreter lock delays it) looks at every
  regular file in the watched directories on each create, write, attribute change and rename,
  while servers start on fresh directories and `latchkey keys rotate` replaces the signing
  keys; no file may ever show a group or other permission bit. Watched: the data directory
  (which also holds the SQLite database: a file that will hold secrets must be private
  before its first byte too) and a separate 0755 directory for shared key files
  (LATCHKEY_SIGNING_KEYS_FILE / LATCHKEY_ADDRESS_KEY_FILE), where a world-readable moment is
  open to every local user.
- Introspection by a confidential client registered without `--introspect` is refused with
  403 `{"error": "unauthorized_client"}` and nothing about the token: its credentials are
  valid, so 401 `invalid_client` (RFC 6749 §5.2, RFC 7662 §2.3) would be untrue, and RFC 7662
  §4 asks that resource servers be specifically authorized — a refusal of authorization.
  Public clients and bad credentials stay 401 `invalid_client`.
- An `--introspect` client sees access tokens for the API audience and refresh tokens issued
  to itself; a refresh token of any other client, or of a first-party login, is always
  `{"active": false}` and nothing else, whatever the `token_type_hint`.
"""
import multiprocessing
import os
import stat

import requests
from inotify_simple import INotify, flags

from conftest import GOOD_PASSWORD
from oauth_support import EMAIL, OAuthWorld, register_client

WATCHED_EVENTS = flags.CREATE | flags.MODIFY | flags.ATTRIB | flags.CLOSE_WRITE | flags.MOVED_TO


def watch(directories, ready, stop, found):
    """Runs in its own process: on every event in `directories`, records each regular file
    there and those with a group or other permission bit; puts (seen, exposed) on `found`."""
    inotify = INotify()
    for directory in directories:
        inotify.add_watch(directory, WATCHED_EVENTS)
    ready.set()
    seen, exposed = set(), set()
    while not stop.is_set():
        for _ in inotify.read(timeout=50):
            for directory in directories:
                for entry in os.scandir(directory):
                    try:
                        mode = entry.stat(follow_symlinks=False).st_mode
                    except FileNotFoundError:
                        continue
                    if stat.S_ISREG(mode):
                        seen.add(entry.name)
                        if mode & 0o077:
                            exposed.add((entry.name, oct(stat.S_IMODE(mode))))
    found.put((sorted(seen), sorted(exposed)))


def test_key_files_are_never_readable_by_group_or_others(make_server, tmp_path):
    context = multiprocessing.get_context("fork")
    seen, exposed = set(), set()
    for index in range(6):
        data = tmp_path / f"data{index}"
        keys = tmp_path / f"keys{index}"
        data.mkdir(mode=0o700)
        keys.mkdir(mode=0o755)
        shared = {"LATCHKEY_SIGNING_KEYS_FILE": keys / "signing-keys.json"} if index % 2 else \
            {"LATCHKEY_ADDRESS_KEY_FILE": keys / "address-hash.key"}
        ready, stop, found = context.Event(), context.Event(), context.Queue()
        watcher = context.Process(target=watch, args=([str(data), str(keys)], ready, stop, found))
        watcher.start()
        try:
            assert ready.wait(10), "the watcher did not start"
            server = make_server(data_dir=data, **shared)
            server.cli("keys", "rotate")
            server.stop()
        finally:
            stop.set()
            seen_now, exposed_now = found.get(timeout=30)
            watcher.join(timeout=10)
        seen.update(seen_now)
        exposed.update(exposed_now)
    assert {"signing-keys.json", "address-hash.key"} <= seen, f"the watcher saw no key file: {sorted(seen)}"
    assert not exposed, f"{len(exposed)} files readable by group or others at some moment, e.g. {sorted(exposed)[:6]}"


def test_only_clients_registered_with_introspect_may_introspect(server):
    world = OAuthWorld(server)
    tokens = world.tokens()
    backend_secret = register_client(server, "backend.app", "https://backend.example.com/cb", first_party=False,
                                     confidential=True)
    for client_id, secret in [("web.app", world.web_secret), ("backend.app", backend_secret)]:
        for token in (tokens["access_token"], tokens["refresh_token"]):
            refused = world.introspect(token, auth=(client_id, secret))
            assert refused.status_code == 403, (client_id, refused.status_code, refused.text)
            assert refused.json().get("error") == "unauthorized_client"
            assert not {"active", "sub", "client_id", "scope"} & set(refused.json())

    api_secret = register_client(server, "api.server", "https://api.example.com/cb", first_party=False,
                                 confidential=True, introspect=True)
    allowed = world.introspect(tokens["access_token"], auth=("api.server", api_secret))
    assert allowed.status_code == 200 and allowed.json()["active"] is True
    # Still no way in without the right secret, or for a public client.
    assert world.introspect(tokens["access_token"], auth=("api.server", "wrong")).status_code == 401
    public = requests.post(server.base + "/oauth/introspect", data={"token": tokens["access_token"], "client_id": "ios.app"},
                           timeout=30)
    assert public.status_code == 401 and public.json()["error"] == "invalid_client"


def test_a_resource_server_never_sees_another_clients_refresh_token_as_active(server):
    world = OAuthWorld(server)
    api_secret = register_client(server, "api.server", confidential=True, introspect=True)
    api = ("api.server", api_secret)
    mobile = world.tokens()
    web = world.tokens("web.app", secret=world.web_secret)
    first_party = server.post("/auth/login", {"email": EMAIL, "password": GOOD_PASSWORD}).json()["data"]["refresh_token"]

    for token in (mobile["refresh_token"], web["refresh_token"], first_party):
        for hint in ({}, {"token_type_hint": "refresh_token"}, {"token_type_hint": "access_token"}):
            answer = world.introspect(token, auth=api, **hint)
            assert answer.status_code == 200 and answer.json() == {"active": False}, (hint, answer.text)

    # What it is for: the API's access tokens, and its own refresh tokens.
    assert world.introspect(mobile["access_token"], auth=api).json()["active"] is True
    own = world.tokens("api.server", secret=api_secret)
    described = world.introspect(own["refresh_token"], auth=api).json()
    assert described["active"] is True and described["client_id"] == "api.server"
    # Looking spent nothing: its own client still refreshes it.
    assert world.refresh(mobile["refresh_token"]).status_code == 200
