"""A server that answers every request with the status, `Retry-After` and body its path
names, for the SDK's tests of what Latchkey itself never sends: a `Retry-After` date, a
lower-case field name, an error body over the SDK's reply limit.

The path starts `/<status>/<retry-after>/<body>/`, the rest is ignored:
- `<retry-after>`: `none`, a number of seconds, or `date-N` for an IMF-fixdate N seconds ahead;
- `<body>`: `directus` (a Directus error body) or `huge` (2 MiB of JSON).

Prints `READY <port>` once it listens on 127.0.0.1; stops when its standard input closes."""
import email.utils
import json
import time

from helper_server import QuietHandler, serve_until_stdin_closes


class Answer(QuietHandler):
    def answer(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        status, retry_after, kind = self.path.strip("/").split("/")[:3]
        if kind == "huge":
            body = b'{"padding":"' + b"x" * (2 << 20) + b'"}'
        else:
            body = json.dumps({"errors": [{"message": "Try later.", "extensions": {"code": "SERVICE_UNAVAILABLE"}}]}).encode()
        self.send_response(int(status))
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if retry_after.startswith("date-"):
            self.send_header("retry-after", email.utils.formatdate(time.time() + int(retry_after[5:]), usegmt=True))
        elif retry_after != "none":
            self.send_header("retry-after", retry_after)
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = answer


serve_until_stdin_closes(Answer)
