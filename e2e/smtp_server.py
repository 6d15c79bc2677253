"""A real SMTP server for Latchkey's SMTP transport tests (aiosmtpd).

Started by the Swift test suite as a subprocess. It listens on 127.0.0.1 on a free port
and prints one line `READY <port>` on stdout once it accepts connections. Every message
it receives is written to `--outdir` as `<n>.json`, with the envelope, the authenticated
user, whether TLS was active, the raw message, and what Python's `email` parser reads from
it (subject, decoded text and HTML parts), so the test checks our MIME with an independent
parser.

Modes:
  starttls      STARTTLS offered and required before MAIL and AUTH (AUTH PLAIN/LOGIN required)
  implicit-tls  TLS from the first byte (smtps), AUTH required
  plain         no TLS and no AUTH at all (a local relay such as a dev catcher)

The self-signed certificate (for 127.0.0.1 and localhost) is generated at start with the
openssl CLI and written to `<outdir>/cert.pem`, which the test passes as the CA file.
The server runs until it is terminated or its standard input closes (so it never outlives
a test process that crashed).
"""

import argparse
import asyncio
import email
import email.policy
import json
import os
import signal
import ssl
import subprocess
import sys
import logging
import tempfile

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


def make_certificate(outdir):
    key = os.path.join(outdir, "key.pem")
    cert = os.path.join(outdir, "cert.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
         "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


class Recorder:
    def __init__(self, outdir):
        self.outdir = outdir
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        text = parsed.get_body(preferencelist=("plain",))
        html = parsed.get_body(preferencelist=("html",))
        transport_tls = server.transport is not None and \
            server.transport.get_extra_info("ssl_object") is not None
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "auth_user": session.auth_data if session.authenticated else None,
            "tls": session.ssl is not None or transport_tls,
            "raw": raw.decode("utf-8", errors="replace"),
            "subject": str(parsed["subject"]),
            "from": str(parsed["from"]),
            "to": str(parsed["to"]),
            "content_type": parsed.get_content_type(),
            "text": text.get_content() if text is not None else None,
            "html": html.get_content() if html is not None else None,
            "defects": [type(d).__name__ for d in parsed.defects]
            + [type(d).__name__ for part in parsed.walk() for d in part.defects],
        }
        self.count += 1
        final = os.path.join(self.outdir, f"{self.count}.json")
        with tempfile.NamedTemporaryFile("w", dir=self.outdir, delete=False, suffix=".tmp") as f:
            json.dump(record, f)
        os.rename(f.name, final)
        return "250 Message accepted for delivery"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--outdir", required=True)
    parser.add_argument("--mode", choices=["starttls", "implicit-tls", "plain"], default="starttls")
    parser.add_argument("--user", default="latchkey")
    parser.add_argument("--password", default="")
    args = parser.parse_args()
    # A child inherits its parent's blocked signals; the Swift test runner blocks SIGTERM.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    # aiosmtpd logs a deprecation warning on every successful AUTH; keep stderr for errors.
    logging.getLogger("mail.log").setLevel(logging.ERROR)

    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = (isinstance(auth_data, LoginPassword)
              and auth_data.login == args.user.encode()
              and auth_data.password == args.password.encode())
        return AuthResult(success=ok, handled=False,
                          auth_data=auth_data.login.decode() if ok else None)

    recorder = Recorder(args.outdir)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)

    if args.mode == "plain":
        def factory():
            return SMTP(recorder, hostname="localhost", loop=loop)
        server_ssl = None
    else:
        context = make_certificate(args.outdir)
        if args.mode == "starttls":
            def factory():
                return SMTP(recorder, hostname="localhost", loop=loop, tls_context=context,
                            require_starttls=True, auth_required=True, auth_require_tls=True,
                            authenticator=authenticate)
            server_ssl = None
        else:
            def factory():
                # auth_require_tls looks only at STARTTLS; the whole connection is TLS here.
                return SMTP(recorder, hostname="localhost", loop=loop, auth_required=True,
                            auth_require_tls=False, authenticator=authenticate)
            server_ssl = context

    server = loop.run_until_complete(
        loop.create_server(factory, host="127.0.0.1", port=0, ssl=server_ssl))
    port = server.sockets[0].getsockname()[1]
    def stop_when_stdin_closes():
        if not os.read(sys.stdin.fileno(), 4096):
            loop.stop()

    loop.add_reader(sys.stdin.fileno(), stop_when_stdin_closes)
    sys.stdout.write(f"READY {port}\n")
    sys.stdout.flush()
    try:
        loop.run_forever()
    finally:
        server.close()


if __name__ == "__main__":
    main()
