"""A small web origin for browser tests: it serves fixed pages and, when given an upstream,
forwards `/auth/...` to it unchanged (the way a reverse proxy puts Latchkey's routes on an
app's own origin). Cookies, `Origin` and `Sec-Fetch-*` pass through both ways."""
import http.client
import http.server
import threading
import urllib.parse

from conftest import free_port

FORWARDED_REQUEST_HEADERS = ["Content-Type", "Cookie", "Origin", "Sec-Fetch-Site", "Sec-Fetch-Mode", "User-Agent"]
FORWARDED_RESPONSE_HEADERS = ["Content-Type", "Set-Cookie", "Retry-After", "Cache-Control"]


class WebOrigin:
    """Serves `pages` ({path: html}) on 127.0.0.1 (named `host` in its URLs) and, after
    ``forward_to``, forwards `/auth/` there."""

    def __init__(self, pages, host="127.0.0.1"):
        self.pages = pages
        self.upstream = None
        self.port = free_port()
        self.base = f"http://{host}:{self.port}"
        self.forwarded = []  # (path, status, request headers) of every forwarded request
        origin = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                page = origin.pages.get(urllib.parse.urlsplit(self.path).path)
                if page is None:
                    self.send_error(404)
                    return
                body = page.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                if origin.upstream is None or not self.path.startswith("/auth/"):
                    self.send_error(404)
                    return
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                connection = http.client.HTTPConnection(origin.upstream.hostname, origin.upstream.port, timeout=30)
                headers = {name: self.headers[name] for name in FORWARDED_REQUEST_HEADERS if self.headers[name] is not None}
                connection.request("POST", self.path, body=body, headers=headers)
                answer = connection.getresponse()
                payload = answer.read()
                origin.forwarded.append((self.path, answer.status, headers))
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() in {header.lower() for header in FORWARDED_RESPONSE_HEADERS}:
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                connection.close()

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def forward_to(self, base):
        """Sends `/auth/...` requests on to the server at `base` from now on."""
        self.upstream = urllib.parse.urlsplit(base)

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
