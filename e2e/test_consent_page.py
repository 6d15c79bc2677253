"""The sign-in and consent pages in headless Chromium at phone width, in English and Arabic: the
client's name and what each scope allows instead of ids, lists that follow the page's direction,
"Not you?", errors tied to their fields, English details isolated, rate limits that say how long."""
import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_support import (arabic_phone, assert_fits_a_phone, console_errors, described_by, phone,  # noqa: F401 (fixtures)
                             start_browser, visible, wait_for_text, wait_until)
from conftest import GOOD_PASSWORD
from oauth_support import EMAIL, LOOPBACK_REDIRECT, Browser, Page, authorize_params, authorize_url, pkce_pair

SCOPES = "openid email notes.read"
ENGLISH_SCOPES = ["Know who you are (your account’s identifier)", "See your email address", "Read your notes"]


@pytest.fixture
def notes(server):
    """A server with one account and a third-party client registered with a name and a scope description."""
    server.create_user(EMAIL)
    server.cli("clients", "create", "notes.app", "--redirect-uri", LOOPBACK_REDIRECT, "--scope", "notes.read",
               "--name", "Acme Notes", "--scope-description", "notes.read=Read your notes")
    return server


def notes_url(server, **extra):
    _, challenge = pkce_pair()
    return authorize_url(server, authorize_params("notes.app", challenge, scope=SCOPES, **extra))


def sign_in(driver, password=GOOD_PASSWORD):
    visible(driver, "email").clear()
    driver.find_element(By.ID, "email").send_keys(EMAIL)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()


def scope_items(driver):
    return driver.find_elements(By.CSS_SELECTOR, "ul.scopes li")


def test_consent_names_the_client_and_says_what_each_scope_allows(notes, phone):
    phone.get(notes_url(notes))
    assert "Sign in to continue to Acme Notes" in phone.find_element(By.TAG_NAME, "main").text
    assert phone.find_element(By.CSS_SELECTOR, ".brand").text == "Latchkey"
    assert_fits_a_phone(phone)
    sign_in(phone)
    wait_for_text(phone, "consent-intro", "Acme Notes")
    assert phone.find_element(By.ID, "consent-intro").text == "Acme Notes wants to access your Latchkey account."
    assert [item.text for item in scope_items(phone)] == ENGLISH_SCOPES
    shown = phone.find_element(By.TAG_NAME, "main").text
    assert "notes.app" not in shown and "notes.read" not in shown and "openid" not in shown
    assert_fits_a_phone(phone, has_inputs=False)
    assert console_errors(phone) == []
    phone.find_element(By.CSS_SELECTOR, "button[value=allow]").click()
    WebDriverWait(phone, 15).until(lambda d: d.current_url.startswith(LOOPBACK_REDIRECT + "?code="))


def test_the_arabic_consent_page_lists_scopes_right_to_left(notes, arabic_phone):
    arabic_phone.get(notes_url(notes))
    assert arabic_phone.find_element(By.TAG_NAME, "html").get_attribute("dir") == "rtl"
    assert_fits_a_phone(arabic_phone)
    sign_in(arabic_phone)
    wait_for_text(arabic_phone, "consent-intro", "Acme Notes")
    assert arabic_phone.find_element(By.ID, "consent-intro").text == "Acme Notes يريد الوصول إلى حسابك في \u2068Latchkey\u2069."
    items = scope_items(arabic_phone)
    assert [item.text for item in items] == ["معرفة هويتك (معرّف حسابك)", "رؤية عنوان بريدك الإلكتروني", "Read your notes"]
    # Bullets on the right: the list is indented on its right (start) side, each item runs right
    # to left and its text hugs the right edge, the English description too.
    padding = arabic_phone.execute_script(
        "var style = getComputedStyle(document.querySelector('ul.scopes')); return [style.paddingLeft, style.paddingRight];")
    assert padding[0] == "0px" and padding[1] != "0px", padding
    for item in items:
        direction, left_gap, right_gap = arabic_phone.execute_script(
            "var item = arguments[0], range = document.createRange(); range.selectNodeContents(item);"
            "var text = range.getBoundingClientRect(), box = item.getBoundingClientRect();"
            "return [getComputedStyle(item).direction, text.left - box.left, box.right - text.right];", item)
        assert direction == "rtl" and right_gap < 1 and left_gap > 50, (item.text, direction, left_gap, right_gap)
    english = items[2].find_element(By.TAG_NAME, "bdi")
    assert arabic_phone.execute_script("return getComputedStyle(arguments[0]).direction", english) == "ltr"
    assert_fits_a_phone(arabic_phone, has_inputs=False)


def test_not_you_signs_the_browser_out_and_asks_who_is_signing_in(notes, phone):
    phone.get(notes_url(notes))
    sign_in(phone)
    wait_for_text(phone, "consent-intro", "Acme Notes")
    assert "Signed in as jane@example.com" in phone.find_element(By.TAG_NAME, "main").text
    session = {cookie["name"]: cookie["value"] for cookie in phone.get_cookies()}["latchkey_session"]
    button = phone.find_element(By.CSS_SELECTOR, "button[value=switch_account]")
    assert button.text == "Sign in with another account"
    assert phone.find_element(By.CSS_SELECTOR, ".not-you").text.startswith("Not you?")
    button.click()
    # The consent page's heading goes stale as the sign-in page replaces it: looked up again.
    wait_until(phone, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Sign in")
    assert phone.find_element(By.ID, "email").get_attribute("value") == ""
    assert "latchkey_session" not in {cookie["name"] for cookie in phone.get_cookies()}
    # The session ended on the server too: its old cookie no longer skips the sign-in.
    replay = requests.get(notes_url(notes), cookies={"latchkey_session": session}, timeout=10)
    assert "Allow access?" not in replay.text and 'name="password"' in replay.text
    phone.get(notes_url(notes))
    visible(phone, "password")


def test_not_you_needs_the_form_token(notes):
    browser = Browser(notes)
    consent = browser.sign_in(browser.get(notes_url(notes)))
    assert "Allow access?" in consent.text
    fields = [(name, "forged" if name == "csrf_token" else value) for name, value in Page.hidden_fields(Page(consent.text).form)]
    refused = browser.post_form(consent, fields + [("decision", "switch_account")])
    assert refused.status_code == 403
    # Still signed in: the next request goes straight to the consent page.
    assert "Allow access?" in browser.get(notes_url(notes)).text


def test_wrong_credentials_mark_both_fields(notes, phone):
    phone.get(notes_url(notes))
    sign_in(phone, password="not the password at all")
    problem = wait_for_text(phone, "problem", "not correct")
    for field in ("email", "password"):
        element = phone.find_element(By.ID, field)
        assert element.get_attribute("aria-invalid") == "true"
        assert described_by(phone, element) == [problem]
    assert_fits_a_phone(phone)


@pytest.mark.parametrize("language, expected", [
    ("en", "Too many attempts. Please try again in 1 minute."),
    ("ar", "محاولات كثيرة جدًا. يرجى المحاولة مرة أخرى بعد دقيقة واحدة."),
])
def test_too_many_sign_ins_say_how_long_to_wait(make_server, language, expected):
    server = make_server(LATCHKEY_LOGIN_IP_LIMIT="1/60")
    server.create_user(EMAIL)
    server.cli("clients", "create", "notes.app", "--redirect-uri", LOOPBACK_REDIRECT, "--scope", "notes.read")
    driver = start_browser(language)
    try:
        driver.get(notes_url(server))
        sign_in(driver, password="not the password at all")
        wait_for_text(driver, "problem", "")
        sign_in(driver)
        assert wait_for_text(driver, "problem", expected[:12]) == expected
        # Without a display name, the page names the client by its id.
        assert "notes.app" in driver.find_element(By.TAG_NAME, "main").text
    finally:
        driver.quit()


def test_an_english_detail_stays_apart_inside_an_arabic_error(notes, arabic_phone):
    _, challenge = pkce_pair()
    arabic_phone.get(authorize_url(notes, authorize_params("no.such.app", challenge)))
    problem = visible(arabic_phone, "problem")
    detail = problem.find_element(By.CSS_SELECTOR, "bdi[lang=en]")
    assert detail.text == "The client is not registered."
    assert arabic_phone.execute_script("return getComputedStyle(arguments[0]).direction", detail) == "ltr"
    assert arabic_phone.execute_script("return getComputedStyle(arguments[0]).direction", problem) == "rtl"
    assert problem.text.startswith("أرسل التطبيق طلب تسجيل دخول غير صالح.")
    assert_fits_a_phone(arabic_phone, has_inputs=False)


def test_clients_create_checks_the_name_and_descriptions(server):
    def create(*extra):
        return server.cli("clients", "create", "bad.app", "--redirect-uri", LOOPBACK_REDIRECT, "--scope", "notes.read", *extra,
                          check=False)
    missing_text = create("--scope-description", "notes.read")
    assert missing_text.returncode != 0 and "SCOPE=TEXT" in missing_text.stderr
    unknown_scope = create("--scope-description", "notes.write=Change your notes")
    assert unknown_scope.returncode != 0 and "notes.write" in unknown_scope.stderr
    turned_around = create("--name", "Acme\u202eNotes")
    assert turned_around.returncode != 0 and "display name" in turned_around.stderr
    assert "bad.app" not in server.cli("clients", "list").stdout
    assert "--scope-description" in server.cli("clients", "--help").stdout
