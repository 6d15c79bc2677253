"""Reset pages on the app's own origin, in headless Chromium: a page written for Directus reads
`?token=` and so misses Latchkey's `#token=`; the one-line change in docs/oauth.md, or
including /assets/latchkey-reset-token.js, reads the token either way and clears it from the URL."""
import re

import pytest

from conftest import Server
from web_support import WebOrigin

EMAIL = "jane@example.com"
NEW_PASSWORD = "violet tractor quietly juggles mountains"

DIRECTUS_PAGE = """<!doctype html><title>reset</title><script>
window.resetToken = new URLSearchParams(window.location.search).get("token");
</script>"""
CHANGED_PAGE = """<!doctype html><title>reset</title><script>
window.resetToken = new URLSearchParams(window.location.hash.slice(1)).get("token");
</script>"""
SCRIPT_PAGE = """<!doctype html><title>reset</title>
<script src="%s/assets/latchkey-reset-token.js"></script>
<script>window.resetToken = LatchkeyResetToken.read();</script>"""


@pytest.fixture
def reset_pages(make_server):
    """An app origin with the three reset pages, and a server whose mails may link to them."""
    pages = WebOrigin({})
    server = make_server(LATCHKEY_RESET_URL_ALLOW_LIST=",".join(
        pages.base + path for path in ["/directus.html", "/changed.html", "/script.html"]))
    pages.pages.update({"/directus.html": DIRECTUS_PAGE, "/changed.html": CHANGED_PAGE,
                        "/script.html": SCRIPT_PAGE % server.base})
    server.create_user(EMAIL)
    yield pages, server
    pages.stop()


def mailed_link(server, reset_url, count):
    """Asks for a reset mail linking to `reset_url`; returns the link in the `count`th mail."""
    assert server.post("/auth/password/request", {"email": EMAIL, "reset_url": reset_url}).status_code == 200
    text = Server.text_of(server.wait_for_mails(EMAIL, count)[-1])
    return re.search(re.escape(reset_url) + r"#token=[A-Za-z0-9_-]{43}", text).group(0)


def test_a_directus_page_needs_its_one_line_change_or_the_script(reset_pages, browser):
    pages, server = reset_pages
    link = mailed_link(server, pages.base + "/directus.html", 1)
    token = link.split("#token=")[1]
    browser.get(link)
    assert browser.execute_script("return window.resetToken") is None  # reads ?token=, the link has #token=

    browser.get(link.replace("/directus.html", "/changed.html"))
    assert browser.execute_script("return window.resetToken") == token

    browser.get(link.replace("/directus.html", "/script.html"))
    assert browser.execute_script("return window.resetToken") == token
    assert "token" not in browser.current_url  # gone from the address bar and history
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE" and "favicon.ico" not in entry["message"]]
    assert errors == []  # in particular, the cross-origin script was not blocked


def test_the_script_reads_a_query_token_too_and_the_page_completes_the_reset(reset_pages, browser):
    pages, server = reset_pages
    link = mailed_link(server, pages.base + "/script.html", 1)
    token = link.split("#token=")[1]
    # A link in Directus's form, with another parameter and a fragment the page keeps.
    browser.get(f"{pages.base}/script.html?lang=pt&token={token}#section")
    assert browser.execute_script("return window.resetToken") == token
    assert browser.current_url == f"{pages.base}/script.html?lang=pt#section"
    assert browser.execute_script("return LatchkeyResetToken.read()") == token
    assert browser.execute_script("return Object.isFrozen(LatchkeyResetToken)") is True

    # What the page then sends: the token it read sets the new password.
    reset = server.post("/auth/password/reset", {"token": browser.execute_script("return window.resetToken"),
                                                 "password": NEW_PASSWORD})
    assert reset.status_code == 200
    assert server.password_matches(EMAIL, NEW_PASSWORD)

    browser.get(pages.base + "/script.html")
    assert browser.execute_script("return window.resetToken") is None
