"""Headless Chromium as a person on a phone sees a page: 390 px wide, in a chosen language,
with helpers for what a reviewer checks by eye (contrast, margins, direction)."""
import shutil

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

PHONE_WIDTH = 390


def start_browser(language="en-US", width=PHONE_WIDTH, height=844):
    """Chromium with `language` as the browser's language (Accept-Language) and a viewport
    `width` CSS pixels wide, as on a phone."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--lang={language}"]:
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
    return driver


@pytest.fixture
def phone():
    """A 390 px wide browser in English."""
    driver = start_browser()
    yield driver
    driver.quit()


@pytest.fixture
def arabic_phone():
    """A 390 px wide browser whose language is Arabic."""
    driver = start_browser("ar")
    yield driver
    driver.quit()


def visible(driver, element_id, timeout=15):
    return wait_until(driver, EC.visibility_of_element_located((By.ID, element_id)), timeout)


def wait_until(driver, condition, timeout=15):
    """Waits until `condition(driver)` is true while pages may be replacing each other: an
    element of the page being replaced (stale, or in Chromium's words one that "does not
    belong to the document") counts as not yet; any other error is a failure."""
    def holds(d):
        try:
            return condition(d)
        except WebDriverException as error:
            if "does not belong to the document" in (error.msg or ""):
                return False
            raise
    return WebDriverWait(driver, timeout, ignored_exceptions=[StaleElementReferenceException]).until(holds)


def wait_for_text(driver, element_id, expected, timeout=15):
    """Waits until the element's text contains `expected` (on whichever page is loaded by
    then: an element of a page being replaced is looked up again); returns its text."""
    wait_until(driver, lambda d: expected in d.find_element(By.ID, element_id).text, timeout)
    return driver.find_element(By.ID, element_id).text


def console_errors(driver):
    """Severe console messages (a CSP violation is one), the missing favicon aside."""
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE" and "favicon.ico" not in entry["message"]]


CONTRAST_SCRIPT = """
function luminance(color) {
  var parts = color.match(/[\\d.]+/g).slice(0, 3).map(Number).map(function (value) {
    value /= 255;
    return value <= 0.03928 ? value / 12.92 : Math.pow((value + 0.055) / 1.055, 2.4);
  });
  return 0.2126 * parts[0] + 0.7152 * parts[1] + 0.0722 * parts[2];
}
var element = arguments[0];
var background = getComputedStyle(element.closest("main")).backgroundColor;
var border = getComputedStyle(element).borderTopColor;
var a = luminance(border), b = luminance(background);
return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
"""


def border_contrast(driver, element):
    """The WCAG contrast ratio of the element's border against the card's background."""
    return driver.execute_script(CONTRAST_SCRIPT, element)


def card_gaps(driver):
    """How far the card (`main`) stays from the left and right edges of the viewport, in px."""
    return driver.execute_script(
        "var box = document.querySelector('main').getBoundingClientRect();"
        "return [box.left, document.documentElement.clientWidth - box.right];")


def assert_fits_a_phone(driver, has_inputs=True):
    """The card keeps a margin from both screen edges, nothing scrolls sideways, and every
    input's border stands out from the card (WCAG 1.4.11: at least 3:1)."""
    left, right = card_gaps(driver)
    assert left >= 8 and right >= 8, (left, right)
    assert driver.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    inputs = [field for field in driver.find_elements(By.CSS_SELECTOR, "input:not([type=hidden])") if field.is_displayed()]
    assert bool(inputs) == has_inputs, [field.get_attribute("id") for field in inputs]
    for field in inputs:
        assert border_contrast(driver, field) >= 3, field.get_attribute("id")


def described_by(driver, element):
    """The texts that describe `element` for a screen reader (its aria-describedby targets)."""
    ids = (element.get_attribute("aria-describedby") or "").split()
    return [driver.find_element(By.ID, identifier).text for identifier in ids]
