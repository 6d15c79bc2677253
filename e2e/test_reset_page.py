"""The web reset page in a real headless Chromium: fragment token, two fields, generic failure; at phone
width and in Arabic: one request per click, the token across a reload, rules and errors at their
fields, a next step, rate limits that say how long, `lang` kept in every link."""
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_support import (arabic_phone, assert_fits_a_phone, console_errors, described_by, phone,  # noqa: F401 (fixtures)
                             visible, wait_for_text)
from conftest import Server

NEW_PASSWORD = "violet tractor quietly juggles mountains"


def test_page_resets_the_password(server, browser):
    server.create_user("web@example.com")
    server.post("/auth/password/request", {"email": "web@example.com"})
    token = Server.token_in(server.wait_for_mails("web@example.com", 1)[0])

    browser.get(f"{server.base}/reset-password#token={token}")
    visible(browser, "reset-form")
    assert browser.find_element(By.ID, "email-hint").text == "w***@example.com"
    assert "token" not in browser.current_url  # removed from the address bar and history

    browser.find_element(By.ID, "password").send_keys(NEW_PASSWORD)
    browser.find_element(By.ID, "password-repeat").send_keys(NEW_PASSWORD + "x")
    browser.find_element(By.CSS_SELECTOR, "#reset-form button").click()
    WebDriverWait(browser, 15).until(lambda d: "not the same" in d.find_element(By.ID, "password-repeat-error").text)

    browser.find_element(By.ID, "password-repeat").clear()
    browser.find_element(By.ID, "password-repeat").send_keys(NEW_PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "#reset-form button").click()
    wait_for_text(browser, "status", "Your password has been changed")
    assert server.password_matches("web@example.com", NEW_PASSWORD)
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE" and "favicon.ico" not in entry["message"]]
    assert errors == []  # in particular, no CSP violation


def test_page_shows_the_generic_message_for_a_bad_link(server, browser):
    browser.get(f"{server.base}/reset-password#token=" + "A" * 43)
    text = wait_for_text(browser, "status", "no longer valid")
    assert text == "The link is no longer valid. Please request a new one."
    assert browser.find_element(By.ID, "request-new").is_displayed()
    assert not browser.find_element(By.ID, "reset-form").is_displayed()


def test_page_without_token_offers_to_send_a_link(server, browser):
    server.create_user("ask@example.com")
    browser.get(f"{server.base}/reset-password")
    visible(browser, "request-form")
    browser.find_element(By.ID, "email").send_keys("ask@example.com")
    browser.find_element(By.CSS_SELECTOR, "#request-form button").click()
    wait_for_text(browser, "status", "If an account exists")
    server.wait_for_mails("ask@example.com", 1)


def test_page_speaks_arabic_right_to_left(server, browser):
    browser.get(f"{server.base}/reset-password?lang=ar")
    html = browser.find_element(By.TAG_NAME, "html")
    assert html.get_attribute("dir") == "rtl" and html.get_attribute("lang") == "ar"
    assert "إعادة تعيين كلمة المرور" in browser.find_element(By.TAG_NAME, "h1").text


# --- What a person meets on a phone (issue 13) ----------------------------------------------


def mailed_token(server, address, **request):
    before = len(server.mails(address))
    server.post("/auth/password/request", {"email": address, **request})
    return Server.token_in(server.wait_for_mails(address, before + 1)[-1])


def fill_passwords(driver, password, repeat=None):
    for field, value in [("password", password), ("password-repeat", password if repeat is None else repeat)]:
        driver.find_element(By.ID, field).clear()
        driver.find_element(By.ID, field).send_keys(value)


def reset_calls(server):
    return server.log().count('"route":"password_reset"')


def test_double_click_on_save_sends_one_reset_and_ends_on_success(server, phone):
    server.create_user("double@example.com")
    phone.get(f"{server.base}/reset-password#token={mailed_token(server, 'double@example.com')}")
    visible(phone, "reset-form")
    fill_passwords(phone, NEW_PASSWORD)
    save = phone.find_element(By.CSS_SELECTOR, "#reset-form button")
    ActionChains(phone).double_click(save).perform()
    # Enter pressed once more while the first request is still on its way changes nothing either.
    phone.execute_script("var f = document.getElementById('reset-form'); f.requestSubmit(); f.requestSubmit();")
    wait_for_text(phone, "status", "Your password has been changed")
    time.sleep(1)  # a second request, had one been sent with the first, would have been answered by now
    assert phone.find_element(By.ID, "status").text == "Your password has been changed."
    assert not phone.find_element(By.ID, "request-new").is_displayed()
    assert reset_calls(server) == 1
    assert server.password_matches("double@example.com", NEW_PASSWORD)
    assert console_errors(phone) == []


def test_a_reload_keeps_the_link_working_without_putting_the_token_in_the_url_or_a_cookie(server, phone):
    server.create_user("reload@example.com")
    token = mailed_token(server, "reload@example.com")
    phone.get(f"{server.base}/reset-password?lang=en#token={token}")
    visible(phone, "reset-form")
    assert phone.current_url == f"{server.base}/reset-password?lang=en"
    phone.refresh()
    visible(phone, "reset-form")
    assert phone.find_element(By.ID, "email-hint").text == "r***@example.com"
    assert token not in phone.current_url
    assert phone.execute_script("return document.cookie") == ""
    assert phone.get_cookies() == []
    assert phone.execute_script("return window.localStorage.length") == 0
    fill_passwords(phone, NEW_PASSWORD)
    phone.find_element(By.CSS_SELECTOR, "#reset-form button").click()
    wait_for_text(phone, "status", "Your password has been changed")
    # Used up, the token is forgotten: a reload offers to send a new link.
    assert phone.execute_script("return window.sessionStorage.length") == 0
    phone.refresh()
    visible(phone, "request-form")


def test_the_password_rules_show_before_the_first_failure(server, phone):
    server.create_user("rules@example.com")
    phone.get(f"{server.base}/reset-password#token={mailed_token(server, 'rules@example.com')}")
    password = visible(phone, "password")
    rules = phone.find_element(By.ID, "password-rules")
    assert rules.is_displayed() and "8 to 128 characters" in rules.text
    assert described_by(phone, password) == [rules.text]
    assert_fits_a_phone(phone)


def test_errors_are_shown_and_announced_at_their_field(server, phone):
    server.create_user("fields@example.com")
    phone.get(f"{server.base}/reset-password#token={mailed_token(server, 'fields@example.com')}")
    visible(phone, "reset-form")
    password, repeat = phone.find_element(By.ID, "password"), phone.find_element(By.ID, "password-repeat")

    fill_passwords(phone, NEW_PASSWORD, NEW_PASSWORD + "x")
    phone.find_element(By.CSS_SELECTOR, "#reset-form button").click()
    wait_for_text(phone, "password-repeat-error", "The two passwords are not the same.")
    assert repeat.get_attribute("aria-invalid") == "true"
    assert "The two passwords are not the same." in described_by(phone, repeat)
    assert phone.switch_to.active_element == repeat
    assert password.get_attribute("aria-invalid") is None

    fill_passwords(phone, "fields@example.com 1")  # the server refuses it: it holds the address
    phone.find_element(By.CSS_SELECTOR, "#reset-form button").click()
    wait_for_text(phone, "password-error", "Do not use your email address")
    assert password.get_attribute("aria-invalid") == "true"
    assert repeat.get_attribute("aria-invalid") is None and not phone.find_element(By.ID, "password-repeat-error").is_displayed()
    descriptions = described_by(phone, password)
    assert descriptions[0].startswith("Use 8 to 128 characters") and "Do not use your email address" in descriptions[1]
    assert phone.find_element(By.ID, "status").text == ""
    # The refused password left the link usable.
    fill_passwords(phone, NEW_PASSWORD)
    phone.find_element(By.CSS_SELECTOR, "#reset-form button").click()
    wait_for_text(phone, "status", "Your password has been changed")
    assert password.get_attribute("aria-invalid") is None


def test_the_page_ends_on_a_next_step(make_server, phone):
    plain = make_server()
    plain.create_user("next@example.com")
    phone.get(f"{plain.base}/reset-password#token={mailed_token(plain, 'next@example.com')}")
    visible(phone, "reset-form")
    fill_passwords(phone, NEW_PASSWORD)
    phone.find_element(By.CSS_SELECTOR, "#reset-form button").click()
    assert visible(phone, "next-step").text == "You can now sign in to Latchkey with your new password."

    branded = make_server(LATCHKEY_PRODUCT_NAME="Acme Notes", LATCHKEY_APP_URL="https://notes.example.com/open")
    branded.create_user("next@example.com")
    phone.get(f"{branded.base}/reset-password#token={mailed_token(branded, 'next@example.com')}")
    assert phone.find_element(By.CSS_SELECTOR, ".brand").text == "Acme Notes"
    assert phone.title == "Reset your password · Acme Notes"
    visible(phone, "reset-form")
    fill_passwords(phone, NEW_PASSWORD)
    phone.find_element(By.CSS_SELECTOR, "#reset-form button").click()
    button = visible(phone, "next-step").find_element(By.TAG_NAME, "a")
    assert button.text == "Continue to Acme Notes"
    assert button.get_attribute("href") == "https://notes.example.com/open"


def test_every_link_the_page_makes_keeps_its_language(server, phone):
    server.create_user("lang@example.com")
    phone.get(f"{server.base}/reset-password?lang=pt#token=" + "A" * 43)
    wait_for_text(phone, "status", "Este link já não é válido")
    link = phone.find_element(By.CSS_SELECTOR, "#request-new a")
    assert link.text == "Pedir um novo link"
    assert link.get_attribute("href") == f"{server.base}/reset-password?lang=pt"
    link.click()
    visible(phone, "request-form")
    assert phone.find_element(By.TAG_NAME, "html").get_attribute("lang") == "pt"
    assert phone.current_url == f"{server.base}/reset-password?lang=pt"
    # The link asked for from the Portuguese page comes in Portuguese, to the browser in English.
    phone.find_element(By.ID, "email").send_keys("lang@example.com")
    phone.find_element(By.CSS_SELECTOR, "#request-form button").click()
    wait_for_text(phone, "status", "Se existir uma conta")
    [mail] = server.wait_for_mails("lang@example.com", 1)
    assert mail["Content-Language"] == "pt"


def test_an_address_that_is_not_one_is_marked_at_its_field(server, phone):
    phone.get(f"{server.base}/reset-password")
    email = visible(phone, "email")
    email.send_keys("not-an-address")
    phone.find_element(By.CSS_SELECTOR, "#request-form button").click()
    wait_for_text(phone, "email-error", "Enter an email address such as name@example.com.")
    assert email.get_attribute("aria-invalid") == "true"
    assert described_by(phone, email) == ["Enter an email address such as name@example.com."]
    assert_fits_a_phone(phone)


@pytest.mark.parametrize("language, expected", [
    # A second attempt while blocked is told what remains of the same wait, never more.
    ("en", "Too many attempts. Please try again in 10 minutes."),
    ("ar", "محاولات كثيرة جدًا. يرجى المحاولة مرة أخرى بعد 10 دقائق."),
])
def test_a_rate_limit_says_how_long_to_wait(make_server, phone, language, expected):
    server = make_server(LATCHKEY_RESET_IP_LIMIT="2/600")
    for _ in range(2):
        assert server.post("/auth/password/request", {"email": "someone@example.com"}).status_code == 200
    answer = server.post("/auth/password/request", {"email": "someone@example.com"})
    assert answer.status_code == 429 and answer.headers["Retry-After"] == "600"
    assert answer.json()["error"]["message"] == "Too many attempts. Please try again in 10 minutes."

    phone.get(f"{server.base}/reset-password?lang={language}")
    visible(phone, "email").send_keys("someone@example.com")
    phone.find_element(By.CSS_SELECTOR, "#request-form button").click()
    assert wait_for_text(phone, "status", expected[:10]) == expected
    # The form is usable again for when the wait is over.
    assert phone.find_element(By.CSS_SELECTOR, "#request-form button").is_enabled()


def test_opening_a_link_again_and_again_does_not_lock_the_person_out(server, phone):
    server.create_user("again@example.com")
    token = mailed_token(server, "again@example.com")
    for _ in range(30):  # more than the 20 requests and resets a client may make in 10 minutes
        assert server.post("/auth/password/validate", {"token": token}).status_code == 200
    phone.get(f"{server.base}/reset-password#token={token}")
    visible(phone, "reset-form")
    fill_passwords(phone, NEW_PASSWORD)
    phone.find_element(By.CSS_SELECTOR, "#reset-form button").click()
    wait_for_text(phone, "status", "Your password has been changed")


def test_the_arabic_page_on_a_phone_reads_right_to_left(server, arabic_phone):
    server.create_user("rtl@example.com")
    arabic_phone.get(f"{server.base}/reset-password#token={mailed_token(server, 'rtl@example.com')}")
    visible(arabic_phone, "reset-form")
    html = arabic_phone.find_element(By.TAG_NAME, "html")
    assert html.get_attribute("lang") == "ar" and html.get_attribute("dir") == "rtl"
    assert_fits_a_phone(arabic_phone)
    rules = arabic_phone.find_element(By.ID, "password-rules")
    assert rules.text.startswith("استخدم من 8 إلى 128 حرفًا")
    assert arabic_phone.execute_script("return getComputedStyle(arguments[0]).direction", rules) == "rtl"
    # The masked address stays left to right inside the Arabic sentence.
    assert arabic_phone.execute_script("return getComputedStyle(document.getElementById('email-hint')).direction") == "ltr"
    fill_passwords(arabic_phone, NEW_PASSWORD, NEW_PASSWORD + "x")
    arabic_phone.find_element(By.CSS_SELECTOR, "#reset-form button").click()
    wait_for_text(arabic_phone, "password-repeat-error", "كلمتا المرور غير متطابقتين.")
    fill_passwords(arabic_phone, NEW_PASSWORD)
    arabic_phone.find_element(By.CSS_SELECTOR, "#reset-form button").click()
    wait_for_text(arabic_phone, "status", "تم تغيير كلمة المرور.")
    assert visible(arabic_phone, "next-step").text == "يمكنك الآن تسجيل الدخول إلى \u2068Latchkey\u2069 بكلمة المرور الجديدة."
    assert console_errors(arabic_phone) == []


def test_a_language_chosen_in_the_address_is_the_language_of_the_password_changed_mail(server, phone):
    server.create_user("es-page@example.com")
    phone.get(f"{server.base}/reset-password?lang=es#token={mailed_token(server, 'es-page@example.com')}")
    visible(phone, "reset-form")
    fill_passwords(phone, NEW_PASSWORD)
    phone.find_element(By.CSS_SELECTOR, "#reset-form button").click()
    wait_for_text(phone, "status", "Tu contraseña ha cambiado.")
    notice = server.wait_for_mails("es-page@example.com", 2)[-1]
    assert notice["Content-Language"] == "es"  # the browser asked for English
    assert notice["Subject"] == "Tu contraseña de Latchkey ha cambiado"
