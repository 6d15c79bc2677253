"""The web reset page in a real headless Chromium: fragment token, two fields, generic failure."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from conftest import Server

NEW_PASSWORD = "violet tractor quietly juggles mountains"


def visible(driver, element_id):
    return WebDriverWait(driver, 15).until(EC.visibility_of_element_located((By.ID, element_id)))


def status_text(driver, expected):
    WebDriverWait(driver, 15).until(lambda d: expected in d.find_element(By.ID, "status").text)
    return driver.find_element(By.ID, "status").text


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
    status_text(browser, "not the same")

    browser.find_element(By.ID, "password-repeat").clear()
    browser.find_element(By.ID, "password-repeat").send_keys(NEW_PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "#reset-form button").click()
    status_text(browser, "Your password has been changed")
    assert server.password_matches("web@example.com", NEW_PASSWORD)
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE" and "favicon.ico" not in entry["message"]]
    assert errors == []  # in particular, no CSP violation


def test_page_shows_the_generic_message_for_a_bad_link(server, browser):
    browser.get(f"{server.base}/reset-password#token=" + "A" * 43)
    text = status_text(browser, "no longer valid")
    assert text == "The link is no longer valid. Please request a new one."
    assert browser.find_element(By.ID, "request-new").is_displayed()
    assert not browser.find_element(By.ID, "reset-form").is_displayed()


def test_page_without_token_offers_to_send_a_link(server, browser):
    server.create_user("ask@example.com")
    browser.get(f"{server.base}/reset-password")
    visible(browser, "request-form")
    browser.find_element(By.ID, "email").send_keys("ask@example.com")
    browser.find_element(By.CSS_SELECTOR, "#request-form button").click()
    status_text(browser, "If an account exists")
    server.wait_for_mails("ask@example.com", 1)


def test_page_speaks_arabic_right_to_left(server, browser):
    browser.get(f"{server.base}/reset-password?lang=ar")
    html = browser.find_element(By.TAG_NAME, "html")
    assert html.get_attribute("dir") == "rtl" and html.get_attribute("lang") == "ar"
    assert "إعادة تعيين كلمة المرور" in browser.find_element(By.TAG_NAME, "h1").text
