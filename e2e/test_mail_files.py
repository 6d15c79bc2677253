"""The development mail as the README uses it: `cat data/outbox/*.eml`, copy the link, paste it.
Also the "password changed" notice: its language, when it happened, what to do; and the product's name."""
import email
import email.policy
import email.utils
import json
import re

from conftest import Server

NEW_PASSWORD = "violet tractor quietly juggles mountains"
ARABIC_VALIDITY = "يبقى الرابط صالحًا لمدة 20 دقيقة."


def raw_files(server, address):
    """The `.eml` files holding mail to `address`, as `cat` prints them (UTF-8 text)."""
    server.wait_for_mails(address, 1)
    found = []
    for path in sorted(server.outbox.glob("*.eml"), key=lambda p: p.stat().st_mtime):
        text = path.read_bytes().decode("utf-8")
        if f"To: {address}\r\n" in text:
            found.append((path, text))
    return found


def test_cat_shows_a_link_that_can_be_pasted_as_it_is(server):
    server.create_user("paste@example.com")
    server.post("/auth/password/request", {"email": "paste@example.com"})
    [(_, text)] = raw_files(server, "paste@example.com")
    links = [line for line in text.split("\r\n") if line.startswith("http")]
    assert links, text
    link = links[0]
    # The whole link on one line: no quoted-printable soft break, no =3D.
    assert re.fullmatch(re.escape(server.base) + r"/reset-password#token=[A-Za-z0-9_-]{43}", link), link
    assert "=3D" not in text.split("Content-Type: text/html")[0]
    token = link.split("#token=")[1]
    assert server.post("/auth/password/validate", {"token": token}).status_code == 200
    assert server.post("/auth/password/reset", {"token": token, "password": NEW_PASSWORD}).status_code == 200
    assert all(len(line.encode()) <= 998 for line in text.split("\r\n"))


def test_an_arabic_mail_reads_as_arabic_in_the_file(server):
    server.create_user("arabic@example.com")
    server.post("/auth/password/request", {"email": "arabic@example.com", "locale": "ar"})
    [(_, text)] = raw_files(server, "arabic@example.com")
    assert "Content-Transfer-Encoding: 8bit" in text
    assert ARABIC_VALIDITY in text.split("\r\n")
    assert any(re.fullmatch(re.escape(server.base) + r"/reset-password#token=[A-Za-z0-9_-]{43}", line) for line in text.split("\r\n"))
    # A mail reader decodes it to the same text.
    message = email.message_from_bytes(text.encode(), policy=email.policy.default)
    assert ARABIC_VALIDITY in Server.text_of(message)


def test_each_file_written_is_logged_with_its_path(server):
    server.create_user("logged@example.com")
    server.post("/auth/password/request", {"email": "logged@example.com"})
    [(path, _)] = raw_files(server, "logged@example.com")
    events = [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]
    written = [event for event in events if event["event"] == "mail_written"]
    assert [event["path"] for event in written] == [str(path.resolve())]
    assert "token" not in json.dumps(written)


def reset_with(server, address, body, headers=None):
    before = len(server.mails(address))
    server.post("/auth/password/request", {"email": address})
    token = Server.token_in(server.wait_for_mails(address, before + 1)[-1])
    answer = server.post("/auth/password/reset", {"token": token, "password": NEW_PASSWORD, **body}, headers=headers)
    assert answer.status_code == 200, answer.text
    return server.wait_for_mails(address, before + 2)[-1]


def test_the_password_changed_mail_follows_the_reset_mails_language(make_server):
    server = make_server(LATCHKEY_RESET_IP_LIMIT="100/600")
    for address in ["es1@example.com", "es2@example.com"]:
        server.cli("users", "create", address, "--password-stdin", "--locale", "es", stdin="correct horse battery staple\n")
    server.create_user("any@example.com")
    # The request's locale wins over the account's and Accept-Language.
    notice = reset_with(server, "es1@example.com", {"locale": "pt"}, {"Accept-Language": "ar"})
    assert notice["Content-Language"] == "pt"
    assert "A senha da sua conta do Latchkey foi alterada em" in " ".join(Server.text_of(notice).split())
    # Without one, the account's locale, even when the browser asks for another.
    assert reset_with(server, "es2@example.com", {}, {"Accept-Language": "ar"})["Content-Language"] == "es"
    # Without either, the browser's Accept-Language.
    notice = reset_with(server, "any@example.com", {}, {"Accept-Language": "ar;q=0.9, fr"})
    assert notice["Content-Language"] == "ar"
    assert f"{server.base}/reset-password?lang=ar" in Server.text_of(notice).splitlines()


def test_the_password_changed_mail_says_when_and_what_to_do(server):
    server.create_user("when@example.com")
    notice = reset_with(server, "when@example.com", {})
    text = " ".join(Server.text_of(notice).split())
    assert notice["Subject"] == "Your Latchkey password was changed"
    changed_at = re.search(r"was changed on (\d{4}-\d{2}-\d{2}) at (\d{2}:\d{2}) UTC\.", text)
    assert changed_at, text
    sent = email.utils.parsedate_to_datetime(notice["Date"])
    assert changed_at.group(1) == sent.strftime("%Y-%m-%d")
    assert "If it wasn’t you, someone else may know your password. Reset it now" in text
    assert f"{server.base}/reset-password?lang=en" in Server.text_of(notice).splitlines()


def test_the_product_name_is_in_every_mail(make_server):
    server = make_server(LATCHKEY_PRODUCT_NAME="Acme Notes")
    server.create_user("brand@example.com")
    notice = reset_with(server, "brand@example.com", {})
    [reset] = server.mails("brand@example.com")[:1]
    assert reset["Subject"] == "Reset your Acme Notes password"
    assert notice["Subject"] == "Your Acme Notes password was changed"
    for message in (reset, notice):
        assert message["From"].addresses[0].display_name == "Acme Notes"
        assert "Acme Notes" in " ".join(Server.text_of(message).split())
        assert "Acme Notes</p>" in Server.html_of(message)
