"""Two `latchkey serve` instances on one PostgreSQL database and one Redis, as behind a
load balancer: every guarantee of the embedded default must hold across instances."""
import concurrent.futures
import os
import signal
import subprocess
import threading
import time

import requests

from conftest import GOOD_PASSWORD, Server

NEW_PASSWORD = "violet tractor quietly juggles mountains"


def parallel(calls):
    """Runs the zero-argument `calls` at once; returns their results in order."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait()
        return call()

    with concurrent.futures.ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def request_reset(server, address):
    response = server.post("/auth/password/request", {"email": address})
    assert response.status_code == 200, response.text
    return response


def test_a_reset_requested_through_one_instance_is_completed_through_the_other(make_cluster):
    a, b = make_cluster()
    a.create_user("jane@example.com")
    request_reset(a, "jane@example.com")
    [mail] = a.wait_for_mails("jane@example.com", 1)
    token = Server.token_in(mail)

    assert b.post("/auth/password/validate", {"token": token}).status_code == 200
    assert b.post("/auth/password/reset", {"token": token, "password": NEW_PASSWORD}).status_code == 200
    assert a.post("/auth/password/reset", {"token": token, "password": NEW_PASSWORD}).status_code == 400
    assert a.password_matches("jane@example.com", NEW_PASSWORD)


def test_failed_logins_for_one_account_are_counted_across_instances(make_cluster):
    a, b = make_cluster()
    a.create_user("jane@example.com")
    statuses = []
    for index in range(10):
        server = a if index % 2 else b
        statuses.append(server.post("/auth/login", {"email": "jane@example.com", "password": f"wrong guess {index}"}).status_code)
    assert statuses == [401] * 10
    # The 11th attempt, on either instance and even with the right password, is held off.
    blocked = b.post("/auth/login", {"email": "jane@example.com", "password": GOOD_PASSWORD})
    assert blocked.status_code == 429
    assert int(blocked.headers["Retry-After"]) > 0


def test_one_reset_token_consumed_100_times_in_parallel_across_instances_succeeds_once(make_cluster):
    a, b = make_cluster(LATCHKEY_PER_IP_CONNECTIONS="256", LATCHKEY_RESET_IP_LIMIT="100000/600")
    a.create_user("jane@example.com")
    request_reset(b, "jane@example.com")
    token = Server.token_in(a.wait_for_mails("jane@example.com", 1)[0])

    def consume(server):
        return requests.post(server.base + "/auth/password/reset", json={"token": token, "password": NEW_PASSWORD},
                             timeout=60).status_code

    statuses = parallel([(lambda server=server: consume(server)) for server in [a, b] * 50])
    assert statuses.count(200) == 1, statuses
    assert set(statuses) == {200, 400}, statuses


def test_one_refresh_token_presented_100_times_in_parallel_rotates_once_and_reuse_ends_the_login(make_cluster):
    a, b = make_cluster(LATCHKEY_PER_IP_CONNECTIONS="256")
    a.create_user("jane@example.com")
    login = a.post("/auth/login", {"email": "jane@example.com", "password": GOOD_PASSWORD})
    refresh_token = login.json()["data"]["refresh_token"]

    def refresh(server):
        return requests.post(server.base + "/auth/refresh", json={"refresh_token": refresh_token}, timeout=60)

    answers = parallel([(lambda server=server: refresh(server)) for server in [a, b] * 50])
    winners = [answer for answer in answers if answer.status_code == 200]
    assert len(winners) == 1, [answer.status_code for answer in answers]
    assert {answer.status_code for answer in answers} == {200, 401}
    # The losers presented a spent token: reuse, so the whole login is revoked, the winner's successor too.
    successor = winners[0].json()["data"]["refresh_token"]
    assert b.post("/auth/refresh", {"refresh_token": successor}).status_code == 401


def test_each_mail_is_delivered_once_with_both_outbox_workers_running(make_cluster):
    a, b = make_cluster()
    addresses = [f"person{index}@example.com" for index in range(20)]
    for address in addresses:
        a.create_user(address)
    parallel([(lambda index=index, address=address: request_reset([a, b][index % 2], address))
              for index, address in enumerate(addresses)])
    deadline = time.time() + 30
    while len(a.mails()) < len(addresses) and time.time() < deadline:
        time.sleep(0.1)
    time.sleep(1.5)  # room for a duplicate to appear
    recipients = sorted(mail["To"] for mail in a.mails())
    assert recipients == sorted(addresses)
    assert count_rows(a, "SELECT COUNT(*) FROM outbox WHERE status = 'sent'") == len(addresses)


def test_killing_one_instance_under_load_loses_no_mail_and_consumes_no_token_twice(make_cluster):
    a, b = make_cluster(LATCHKEY_OUTBOX_LEASE_SECONDS="5", LATCHKEY_RESET_IP_LIMIT="100000/600")
    addresses = [f"person{index}@example.com" for index in range(40)]
    for address in addresses:
        a.create_user(address)
    a.create_user("jane@example.com")
    request_reset(a, "jane@example.com")
    token = Server.token_in(a.wait_for_mails("jane@example.com", 1)[0])

    b_failures = []
    consumed = []

    def load():
        # Reset requests alternate between the instances; after the kill, A's are refused.
        for index, address in enumerate(addresses):
            server = [a, b][index % 2]
            try:
                answer = server.post("/auth/password/request", {"email": address})
                if server is b and answer.status_code != 200:
                    b_failures.append(answer.status_code)
            except requests.ConnectionError:
                assert server is a
            for target in (a, b):
                try:
                    consumed.append(requests.post(target.base + "/auth/password/reset",
                                                  json={"token": token, "password": NEW_PASSWORD}, timeout=30).status_code)
                except requests.ConnectionError:
                    assert target is a

    loader = threading.Thread(target=load)
    loader.start()
    time.sleep(0.5)
    a.process.send_signal(signal.SIGKILL)
    a.process.wait()
    loader.join()

    assert b_failures == []
    assert consumed.count(200) == 1, consumed
    assert requests.get(b.base + "/readyz", timeout=10).status_code == 200
    # Every accepted request becomes mail, and every mail written to the outbox is delivered
    # exactly once: B takes over A's leases when they run out (5 s), and A's accepted requests
    # that it never released once they are 10 s old. So the wait is for both the reset inbox
    # and the outbox to empty (counting the outbox alone raced the inbox: rows still being
    # written after the count). It outlasts one failed delivery's retry (30 s), so only mail
    # that would never go out fails it; then the rows and B's mail log lines say why.
    outstanding = "SELECT (SELECT COUNT(*) FROM reset_requests) + (SELECT COUNT(*) FROM outbox WHERE status <> 'sent')"
    deadline = time.time() + 60
    while count_rows(b, outstanding) and time.time() < deadline:
        time.sleep(0.2)
    assert count_rows(b, "SELECT COUNT(*) FROM reset_requests") == 0, outbox_report(b)
    unsent = count_rows(b, "SELECT COUNT(*) FROM outbox WHERE status <> 'sent'")
    assert unsent == 0, outbox_report(b)
    written = count_rows(b, "SELECT COUNT(*) FROM outbox")
    files = b.mails()
    assert len(files) == written, delivery_report(b, files)
    assert len({mail["Message-ID"] for mail in files}) == written


def outbox_report(server):
    """The outbox rows that are not sent (status, attempts, times relative to now, last error)
    and the server's log lines about mail, for a failure message."""
    rows = psql(server, "SELECT status, attempts, next_attempt_at - (extract(epoch FROM now()) * 1000)::bigint, "
                        "lease_until - (extract(epoch FROM now()) * 1000)::bigint, last_error FROM outbox "
                        "WHERE status <> 'sent' ORDER BY created_at")
    return "unsent outbox rows (status|attempts|due in ms|lease ends in ms|last error):\n" + rows + \
        "\nthe server's log lines about mail:\n" + mail_log_lines(server, 40)


def delivery_report(server, files):
    """Every outbox row (id, status, attempts, when created and sent, last error), the files in
    the outbox folder and the server's log lines about mail, for a failure message when rows
    and files disagree."""
    rows = psql(server, "SELECT id, status, attempts, created_at, sent_at, last_error FROM outbox ORDER BY created_at")
    names = sorted(path.name for path in server.outbox.iterdir()) if server.outbox.exists() else []
    return (f"{len(files)} mail files for the outbox rows (id|status|attempts|created|sent|last error):\n" + rows +
            "\nfiles in the outbox folder:\n" + "\n".join(names) +
            "\nthe server's log lines about mail:\n" + mail_log_lines(server, 60))


def mail_log_lines(server, last):
    """The server's last `last` log lines about mail, the outbox or reset requests, one per line."""
    lines = [line for line in server.log().splitlines() if "mail" in line or "outbox" in line or "reset_request" in line]
    return "\n".join(lines[-last:])


def psql(server, sql):
    """The output of `sql` run against the instances' database, one row per line."""
    url = server.env["LATCHKEY_DATABASE_URL"]
    result = subprocess.run(["psql", "-q", "-X", "-t", "-A", "-d", url, "-c", sql], check=True, capture_output=True, text=True)
    return result.stdout


def count_rows(server, sql):
    """Runs a COUNT(*) against the instances' database."""
    return int(psql(server, sql).strip())
