"""Sign-up against the release binary: POST /users/register answers every address alike, a new
address is mailed a confirmation link that a mail scanner cannot spend, a known address is told
it has an account, and the account exists (and signs in) only once its link is used — on SQLite
and across two instances sharing PostgreSQL."""
import re
import threading

import requests
from selenium.webdriver.common.by import By

from browser_support import console_errors, visible, wait_for_text
from conftest import GOOD_PASSWORD, Server

NEW = "newcomer@example.com"
KNOWN = "member@example.com"
CHOSEN = "violet tractor quietly juggles mountains"


def link_in(message):
    match = re.search(r"(\S+/verify-email#token=([A-Za-z0-9_-]{43}))", Server.text_of(message))
    assert match, "no confirmation link in mail"
    return match.group(1), match.group(2)


def login(server, email, password):
    return server.post("/auth/login", {"email": email, "password": password})


def register(server, email, password=CHOSEN, **extra):
    return server.post("/users/register", {"email": email, "password": password, **extra})


def assert_same_answer(first, second):
    assert first.status_code == second.status_code == 204
    assert first.content == second.content == b""
    ignored = {"date"}
    assert {k.lower(): v for k, v in first.headers.items() if k.lower() not in ignored} == \
        {k.lower(): v for k, v in second.headers.items() if k.lower() not in ignored}


def test_sign_up_answers_alike_and_the_link_creates_the_account(make_server):
    server = make_server(LATCHKEY_REGISTRATION="open")
    server.create_user(KNOWN)
    assert_same_answer(register(server, NEW), register(server, KNOWN))

    [confirmation] = server.wait_for_mails(NEW, 1)
    [exists] = server.wait_for_mails(KNOWN, 1)
    assert "You already have" in exists["Subject"] and "#token=" not in Server.text_of(exists)
    assert "/reset-password" in Server.text_of(exists)
    link, token = link_in(confirmation)

    # Before the link is used there is no account: the answer a wrong password gets.
    refused = login(server, NEW, CHOSEN)
    assert refused.status_code == 401 and refused.json()["errors"][0]["extensions"]["code"] == "INVALID_CREDENTIALS"

    # A mail scanner fetching the link gets the page and spends nothing (the token is in the fragment).
    scanned = requests.get(link, timeout=30)
    assert scanned.status_code == 200 and "text/html" in scanned.headers["Content-Type"]
    assert token not in scanned.text

    assert server.post("/users/register/verify-email", {"token": token}).status_code == 204
    signed_in = login(server, NEW, CHOSEN)
    assert signed_in.status_code == 200
    userinfo = requests.get(server.base + "/userinfo", headers={"Authorization": "Bearer " + signed_in.json()["data"]["access_token"]},
                            timeout=30)
    assert userinfo.status_code == 200
    assert userinfo.json() == {"sub": userinfo.json()["sub"], "email": NEW, "email_verified": True}

    again = server.post("/users/register/verify-email", {"token": token})
    assert again.status_code == 400 and again.json()["error"]["code"] == "invalid_token"
    assert again.json()["errors"][0]["extensions"]["code"] == "INVALID_TOKEN"
    # The known account kept its password.
    assert login(server, KNOWN, GOOD_PASSWORD).status_code == 200
    assert NEW not in server.log() and KNOWN not in server.log() and CHOSEN not in server.log()


def test_the_page_confirms_in_a_browser(make_server, browser):
    server = make_server(LATCHKEY_REGISTRATION="open")
    assert register(server, NEW).status_code == 204
    link, _ = link_in(server.wait_for_mails(NEW, 1)[0])
    browser.get(link)
    assert "token" not in browser.current_url
    # Opening the page spends nothing, even with its script run: a person presses the button.
    visible(browser, "link-form")
    assert login(server, NEW, CHOSEN).status_code == 401
    browser.find_element(By.CSS_SELECTOR, "#link-form button").click()
    wait_for_text(browser, "status", "Your email address is confirmed")
    assert console_errors(browser) == []
    assert login(server, NEW, CHOSEN).status_code == 200
    browser.get("about:blank")
    browser.get(link)  # a second visit: the link is spent
    browser.find_element(By.CSS_SELECTOR, "#link-form button").click()
    wait_for_text(browser, "status", "no longer valid")


def test_directus_clients_confirm_with_a_get(make_server):
    server = make_server(LATCHKEY_REGISTRATION="open")
    register(server, NEW)
    _, token = link_in(server.wait_for_mails(NEW, 1)[0])
    assert requests.get(server.base + "/users/register/verify-email", params={"token": token}, timeout=30).status_code == 204
    assert login(server, NEW, CHOSEN).status_code == 200


def test_sign_up_is_closed_unless_opened(server):
    closed = register(server, NEW)
    assert closed.status_code == 403 and closed.json()["errors"][0]["extensions"]["code"] == "FORBIDDEN"


def test_refusals_say_why_before_anything_is_looked_up(make_server):
    server = make_server(LATCHKEY_REGISTRATION="open")
    weak = register(server, NEW, password="password")
    assert weak.status_code == 400 and weak.json()["error"]["code"] == "weak_password"
    assert weak.json()["errors"][0]["extensions"] == {"code": "FAILED_VALIDATION", "field": "password"}
    unlisted = register(server, NEW, verification_url="https://evil.example.com/verify")
    assert unlisted.status_code == 400
    assert register(server, NEW + "\u0000").status_code == 400
    assert server.mails(NEW) == []


def test_two_instances_confirm_once_on_postgresql(make_cluster):
    first, second = make_cluster(LATCHKEY_REGISTRATION="open")
    first.create_user(KNOWN)
    assert_same_answer(register(first, NEW), register(second, KNOWN))
    _, token = link_in(first.wait_for_mails(NEW, 1)[0])
    first.wait_for_mails(KNOWN, 1)

    answers = []
    start = threading.Barrier(8)

    def confirm(server):
        start.wait()
        answers.append(server.post("/users/register/verify-email", {"token": token}).status_code)

    threads = [threading.Thread(target=confirm, args=(server,)) for server in [first, second] * 4]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [204] + [400] * 7
    assert login(second, NEW, CHOSEN).status_code == 200
    assert len(first.mails(NEW)) == 1 and len(first.mails(KNOWN)) == 1
