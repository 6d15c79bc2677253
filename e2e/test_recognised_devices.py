"""Recognised devices, the account-wide cap and the new-device mail (issue 35), through the
release binary on both stores.

- 101 failures on one account from 101 distinct addresses (loopback sources 127.0.1.x and
  127.0.2.x) meet a `429 REQUESTS_EXCEEDED` with `Retry-After` once the account has drawn 20,
  while the owner's recognised device (the `device_token` an earlier login handed back) signs
  in with the right password during the attack; an address without an account is capped by the
  same rule with the same body.
- While capped, the owner's retries from a new device are told a wait that never grows.
- Exactly one new-device mail: none for the account's first sign-in, none for the same device
  again, one for a new device (naming the browser and the truncated address), none for a third
  device within the hour.
"""
import time

import pytest

from conftest import GOOD_PASSWORD

pytestmark = pytest.mark.new_device_mail

FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"


def login(server, email, password, ip, device_token=None, user_agent=None):
    body = {"email": email, "password": password}
    if device_token:
        body["device_token"] = device_token
    headers = {"User-Agent": user_agent} if user_agent else None
    return server.post("/auth/login", body, headers=headers, ip=ip)


def attacker_ip(index):
    return f"127.0.{1 + index // 200}.{1 + index % 200}"


def test_101_failures_from_distinct_addresses_meet_a_throttle_while_the_owners_device_gets_in(store_server):
    server = store_server
    owner = "ana@example.com"
    server.create_user(owner)
    first = login(server, owner, GOOD_PASSWORD, ip="127.0.0.5")
    assert first.status_code == 200, first.text
    device_token = first.json()["data"]["device_token"]
    assert len(device_token) == 43

    statuses = []
    owner_during_attack = []
    for index in range(101):
        response = login(server, owner, f"guess number {index}", ip=attacker_ip(index))
        statuses.append(response.status_code)
        if response.status_code == 429:
            assert response.json()["errors"][0]["extensions"]["code"] == "REQUESTS_EXCEEDED"
            assert 1 <= int(response.headers["Retry-After"]) <= 900
        if index in (30, 70):
            # The owner, from an address of their own, during the attack: in at once.
            during = login(server, owner, GOOD_PASSWORD, ip="127.0.0.5", device_token=device_token)
            owner_during_attack.append(during.status_code)
    assert statuses[:20] == [401] * 20, statuses
    assert set(statuses[20:]) == {429}, statuses
    assert owner_during_attack == [200, 200]

    # The right password from a device the account does not know is capped too …
    assert login(server, owner, GOOD_PASSWORD, ip="127.0.3.1").status_code == 429
    # … and so is a made-up device token.
    assert login(server, owner, GOOD_PASSWORD, ip="127.0.3.1", device_token="A" * 43).status_code == 429

    # An address without an account: the same failures, the same answer.
    nobody = [login(server, "nobody@example.com", "guess", ip=f"127.0.4.{index + 1}") for index in range(21)]
    assert [r.status_code for r in nobody] == [401] * 20 + [429]
    assert nobody[-1].json() == login(server, owner, "guess", ip="127.0.3.2").json()


def test_the_owners_retries_while_capped_never_lengthen_the_wait(store_server):
    server = store_server
    owner = "bea@example.com"
    server.create_user(owner)
    for index in range(20):
        assert login(server, owner, "guess", ip=attacker_ip(index)).status_code == 401
    waits = []
    for _ in range(4):
        response = login(server, owner, GOOD_PASSWORD, ip="127.0.5.5")
        assert response.status_code == 429, response.text
        waits.append(int(response.headers["Retry-After"]))
        # Past the account's throttle (one attempt per address every 2 s), so each retry
        # meets the cap itself.
        time.sleep(2.1)
    assert waits == sorted(waits, reverse=True), waits
    assert waits[-1] < waits[0] <= 900, waits


def test_exactly_one_new_device_mail(store_server):
    server = store_server
    owner = "cai@example.com"
    server.create_user(owner)

    first = login(server, owner, GOOD_PASSWORD, ip="127.0.0.6", user_agent=FIREFOX)
    assert first.status_code == 200
    token = first.json()["data"]["device_token"]
    again = login(server, owner, GOOD_PASSWORD, ip="127.0.0.6", device_token=token, user_agent=FIREFOX)
    assert again.status_code == 200
    assert again.json()["data"]["device_token"] == token

    new_device = login(server, owner, GOOD_PASSWORD, ip="127.0.9.77", user_agent=FIREFOX)
    assert new_device.status_code == 200
    [mail] = server.wait_for_mails(owner, 1)
    text = server.text_of(mail)
    assert "New sign-in" in mail["Subject"]
    assert "Firefox on Linux" in text
    assert "127.0.9.0" in text and "127.0.9.77" not in text
    assert "/reset-password?lang=en" in text

    third = login(server, owner, GOOD_PASSWORD, ip="127.0.10.10", user_agent="curl/8.0")
    assert third.status_code == 200
    time.sleep(2)
    assert len(server.mails(owner)) == 1, [m["Subject"] for m in server.mails(owner)]
