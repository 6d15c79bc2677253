"""Nobody can spend the owner's reset requests (issue 35, finding 10), through the release binary.

Each client is a loopback source address: the attackers are 127.0.0.x (one /24), the owner is
127.9.9.9, a network of its own. Reset requests for one address are limited per requesting
network (one a minute, five an hour), and the address's inbox takes three a minute and ten an
hour from everyone together; past that cap, each wider network (IPv4 /24, IPv6 /48) still gets
one an hour. So the attackers get three mails plus their /24's one, and the owner's request,
made after them, still yields a mail. Every answer is the same `200` bytes.
"""
import time

from conftest import GOOD_PASSWORD, Server

VICTIM = "victim@example.com"
OWNER_IP = "127.9.9.9"


def test_requests_from_many_addresses_leave_the_owner_a_mail(make_server):
    server = make_server(LATCHKEY_RESET_IP_LIMIT="100/600")
    server.create_user(VICTIM, GOOD_PASSWORD)

    answers = [server.post("/auth/password/request", {"email": VICTIM}, ip=f"127.0.0.{host}") for host in range(2, 26)]
    # The attack's share: three mails within the minute, then one more for its /24.
    server.wait_for_mails(VICTIM, 4)
    time.sleep(2)  # the reset job runs every second or so: nothing more is on its way
    assert len(server.mails(VICTIM)) == 4

    owner = server.post("/auth/password/request", {"email": VICTIM}, ip=OWNER_IP)
    mails = server.wait_for_mails(VICTIM, 5)
    assert len(mails) == 5
    assert len({Server.token_in(mail) for mail in mails}) == 5

    # The same answer for every request, mailed, capped or dropped.
    assert {(answer.status_code, answer.content) for answer in answers + [owner]} == {(owner.status_code, owner.content)}
    assert owner.status_code == 200

