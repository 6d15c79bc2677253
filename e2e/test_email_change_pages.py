"""The pages an address change's mails link to, in headless Chromium on a phone: the token read
from the fragment and gone from the address bar, nothing done until the button is pressed, the
change made and undone, the undo's next step (a new password) in the page's language, a used
link refused, and Arabic right to left."""
import re

import requests
from selenium.webdriver.common.by import By

from browser_support import arabic_phone, assert_fits_a_phone, console_errors, phone, visible, wait_for_text  # noqa: F401 (fixtures)
from conftest import GOOD_PASSWORD, Server

EMAIL = "jane@example.com"
NEW_EMAIL = "jane.new@example.com"


def link(message, page):
    match = re.search(rf"(https?://\S+/{page}#token=[A-Za-z0-9_-]{{43}})", Server.text_of(message))
    assert match, f"no /{page} link in mail"
    return match.group(1)


def ask_for_new_address(server):
    server.create_user(EMAIL)
    tokens = server.post("/auth/login", {"email": EMAIL, "password": GOOD_PASSWORD}).json()["data"]
    asked = requests.patch(server.base + "/users/me", json={"email": NEW_EMAIL},
                           headers={"Authorization": f"Bearer {tokens['access_token']}"}, timeout=30)
    assert asked.status_code == 200, asked.text
    return tokens


def me(server, tokens):
    return requests.get(server.base + "/users/me", headers={"Authorization": f"Bearer {tokens['access_token']}"}, timeout=30)


def test_the_links_open_pages_that_confirm_and_undo_the_change(server, phone):
    tokens = ask_for_new_address(server)
    confirm = link(server.wait_for_mails(NEW_EMAIL, 1)[0], "confirm-email")

    phone.get(confirm)
    visible(phone, "link-form")
    assert "token" not in phone.current_url  # removed from the address bar and history
    assert me(server, tokens).json()["data"]["email"] == EMAIL  # opening the page changes nothing
    assert_fits_a_phone(phone, has_inputs=False)
    phone.find_element(By.CSS_SELECTOR, "#link-form button").click()
    wait_for_text(phone, "status", "Your email address has been changed")
    assert me(server, tokens).json()["data"]["email"] == NEW_EMAIL

    phone.get("about:blank")
    phone.get(confirm)  # the same link again: refused when pressed, the form gone
    visible(phone, "link-form")
    phone.find_element(By.CSS_SELECTOR, "#link-form button").click()
    wait_for_text(phone, "status", "This link is no longer valid")
    assert not phone.find_element(By.ID, "link-form").is_displayed()

    undo = link(server.wait_for_mails(EMAIL, 1)[0], "undo-email-change")
    phone.get(undo)
    visible(phone, "link-form")
    phone.find_element(By.CSS_SELECTOR, "#link-form button").click()
    wait_for_text(phone, "status", "previous email address again")
    next_step = visible(phone, "next-step")
    assert next_step.find_element(By.TAG_NAME, "a").get_attribute("href").endswith("/reset-password?lang=en")
    assert me(server, tokens).status_code == 401
    # In particular no CSP violation; the one error is the used link's 400.
    assert [error["message"] for error in console_errors(phone) if "/users/email/confirm" not in error["message"]] == []


def test_the_undo_page_speaks_arabic_right_to_left(server, arabic_phone):
    ask_for_new_address(server)
    confirmed = requests.post(server.base + "/users/email/confirm",
                              json={"token": link(server.wait_for_mails(NEW_EMAIL, 1)[0], "confirm-email").rsplit("=", 1)[1]},
                              timeout=30)
    assert confirmed.status_code == 204
    arabic_phone.get(link(server.wait_for_mails(EMAIL, 1)[0], "undo-email-change"))
    visible(arabic_phone, "link-form")
    assert arabic_phone.find_element(By.TAG_NAME, "html").get_attribute("dir") == "rtl"
    assert arabic_phone.find_element(By.TAG_NAME, "h1").text == "التراجع عن تغيير البريد الإلكتروني"
    arabic_phone.find_element(By.CSS_SELECTOR, "#link-form button").click()
    wait_for_text(arabic_phone, "status", "استعاد حسابك")
    link_to_reset = visible(arabic_phone, "next-step").find_element(By.TAG_NAME, "a")
    assert link_to_reset.get_attribute("href").endswith("/reset-password?lang=ar")
    assert console_errors(arabic_phone) == []


def test_a_page_without_a_token_says_the_link_does_not_work(server, phone):
    phone.get(server.base + "/confirm-email")
    wait_for_text(phone, "status", "This link is no longer valid")
    assert not phone.find_element(By.ID, "link-form").is_displayed()
