#!/usr/bin/python3
"""The requests libmicrohttpd answers itself, before fray serve's handler
sees them, as docs/serve.md ("What the HTTP layer answers itself") lists
them: libmicrohttpd 0.9.75 (Debian 12) has no hook to answer these with the
server's JSON error shape (its bodies are compile-time HTML, sent from
inside its parser), so the page documents them, and this test holds the
page to the server: each request gets the status documented, with the
connection closed, and the server answers a good request after them all.
The requests at the edge of the same limits that do reach the handler are
answered in JSON (an oversized body: 413; no Host: 421). Usage: FRAY"""
import json
import socket
import sys

from serve_util import Server

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL " + msg, file=sys.stderr)


def exchange(port, data):
    """data sent on a connection of its own; everything the server sent back
    until it closed the connection (b"" when it sent nothing)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    try:
        s.sendall(data)
        buf = b""
        while True:
            d = s.recv(65536)
            if not d:
                return buf
            buf += d
    except OSError:
        return buf
    finally:
        s.close()


def head_of(answer):
    """(status, headers lower-cased, body) of an answer, status None for none."""
    if not answer:
        return None, {}, b""
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        headers[name.strip().lower().decode()] = value.strip().decode()
    return int(lines[0].split()[1]), headers, body


MEMORY = 128 << 10  # src/serve/serve_http.c: MHD_OPTION_CONNECTION_MEMORY_LIMIT


def main():
    srv = Server(sys.argv[1])
    p = srv.port
    host = "Host: 127.0.0.1:%d\r\n" % p
    # (what, request, the status docs/serve.md gives; None: closed with no answer)
    theirs = [
        ("headers past the connection's memory", "GET / HTTP/1.1\r\n%sX-Big: %s\r\n\r\n" % (host, "a" * MEMORY),
         431),
        ("a request line past it", "GET /%s HTTP/1.1\r\n%s\r\n" % ("a" * MEMORY, host), 414),
        ("a version that is no HTTP/d.d", "GET / HTTX/1.1\r\n%s\r\n" % host, 400),
        ("HTTP/2.0 in a request line", "GET / HTTP/2.0\r\n%s\r\n" % host, 505),
        ("a header line without a colon", "GET / HTTP/1.1\r\n%sNoColon\r\n\r\n" % host, 400),
        ("a Content-Length that is no number",
         "POST /api/v1/run HTTP/1.1\r\n%sContent-Length: many\r\n\r\n" % host, 400),
        ("a chunked body that is no chunk",
         "POST /api/v1/run HTTP/1.1\r\n%sContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
         "ZZ\r\n" % host, 400),
        ("a request line without a space", "GARBAGE\r\n\r\n", None),
    ]
    for what, request, status in theirs:
        got, headers, body = head_of(exchange(p, request.encode()))
        check(got == status, "%s: %s, docs/serve.md says %s" % (what, got, status))
        if got is not None:
            check(headers.get("connection", "").lower() == "close", "%s: the connection kept: %r" % (what, headers))
            # the HTTP layer's own page: not the server's JSON (were it JSON,
            # the hook the page says is missing was found: say so there)
            check(not body.startswith(b"{"), "%s: a JSON body now: update docs/serve.md (%r)" % (what, body[:80]))
    # at the edge, the handler's own answers, in JSON
    ours = [
        ("a body past 64 KiB", "POST /api/v1/run HTTP/1.1\r\n%sContent-Type: application/json\r\n"
         "Content-Length: %d\r\nConnection: close\r\n\r\n" % (host, 70000), 413),
        ("an HTTP/1.1 request without Host", "GET / HTTP/1.1\r\nConnection: close\r\n\r\n", 421),
    ]
    for what, request, status in ours:
        got, headers, body = head_of(exchange(p, request.encode()))
        check(got == status, "%s: %s, expected %d" % (what, got, status))
        try:
            check("error" in json.loads(body), "%s: no error in %r" % (what, body[:80]))
        except ValueError:
            check(False, "%s: not JSON: %r" % (what, body[:80]))
    got, _, _ = head_of(exchange(p, ("GET /api/v1/procedures HTTP/1.1\r\n%sConnection: close\r\n\r\n" % host)
                                 .encode()))
    check(got == 200, "a good request after them: %s" % got)
    srv.stop()
    print("serve mhd_answers: %d requests libmicrohttpd answers, %d the handler does; %d failures"
          % (len(theirs), len(ours), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
