#!/usr/bin/python3
"""fray serve --lan's addresses and QR code (issue 32, item 5), on loopback
addresses only: no request goes anywhere but 127.0.0.1 and ::1.

- the addresses printed are this machine's (`ip -o addr show up`, read here
  on its own: every non-loopback IPv4 and IPv6 address of an interface up,
  less link-local IPv6), each with the port and the token, the first an
  IPv4 address of the default route's interface (`ip route`);
- the QR code printed (--qr: no terminal here) turned into an image here,
  module by module, and decoded by zbarimg (zbar-tools) is the first URL
  printed, in half blocks (a UTF-8 locale) and in ASCII (LC_ALL=C), with
  the quiet zone of 4 modules the standard asks; without --qr and without
  a terminal no code is printed; --qr without --lan is refused (exit 2);
- GET api/v1/qr.svg (the page's "Pass it on"): its SVG drawn into an image
  here (rectangles of the path, the white square), decoded by zbarimg, is
  the same URL; 404 without --lan; the server answers on ::1 too (IPv6);
- on a terminal (a pty) the code comes without --qr, black on white;
- the page in headless Chromium: the "Pass it on" button on --lan (none
  without), its dialog screenshotted and decoded by zbarimg;
- an interface whose name holds an escape sequence (in a network
  namespace of the test's own, with an address from 198.51.100.0/24 no
  packet goes to: root only, else skipped) is printed escaped.
Usage: FRAY [SCREENSHOT-DIR]"""
import os
import pty
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from serve_util import Server, free_port

failures = []
TMP = tempfile.mkdtemp(prefix="fray-qr-")
# no proxy, whatever the environment says: every request goes to loopback itself
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
UTF8 = {" ": (0, 0), "\u2580": (1, 0), "\u2584": (0, 1), "\u2588": (1, 1)}   # (top, bottom) dark


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL " + msg, file=sys.stderr)
    return cond


def start(fray, args, env_extra=None, wrap=None):
    """fray serve ARGS; its stdout's lines up to 'Ctrl-C stops it'."""
    env = dict(os.environ, **(env_extra or {}))
    env.pop("NO_COLOR", None)
    cmd = [fray, "serve", *args]
    if wrap:
        cmd = wrap + cmd
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    lines = []
    while True:
        raw = proc.stdout.readline()
        if not raw:
            raise SystemExit("fray serve ended early: %r %s" % (lines, proc.stderr.read()))
        lines.append(raw.decode("utf-8").rstrip("\n"))
        if lines[-1] == "  Ctrl-C stops it":
            return proc, lines


def stop(proc):
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    check(proc.returncode == 0, "fray serve exited %d on Ctrl-C: %s" % (proc.returncode, err))


def system_addresses():
    """{address: interface} of every interface up, read from `ip`, and the
    default route's interface (None when there is none)."""
    addrs = {}
    out = subprocess.run(["ip", "-o", "addr", "show", "up"], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        f = line.split()
        iface, family, addr = f[1], f[2], f[3].split("/")[0]
        if family == "inet" and not addr.startswith("127."):
            addrs[addr] = iface
        elif family == "inet6" and addr != "::1" and not re.match(r"fe[89ab]", addr):
            addrs[addr] = iface
    route = subprocess.run(["ip", "-4", "route", "show", "default"], capture_output=True, text=True).stdout.split()
    return addrs, route[route.index("dev") + 1] if "dev" in route else None


def parse(lines):
    """The loopback URL, the [(interface, URL)] on the network, the URL the
    code is said to be, and the code's lines."""
    first = lines[0]
    check(first.startswith("fray serve: http://127.0.0.1:"), "first line: %r" % first)
    loop = first.split()[-1]
    net, said, code = [], None, []
    for line in lines[1:-1]:
        m = re.match(r"  on the network \((.*)\): (\S+)$", line)
        s = re.match(r"  a phone's camera opens (\S+) from this code:$", line)
        if m and said is None:
            net.append((m.group(1), m.group(2)))
        elif s:
            said = s.group(1)
        elif said is not None:
            code.append(line)
    return loop, net, said, code


def modules_of(code, utf8):
    """The code's lines as rows of modules (1 dark), every character
    accounted for: half blocks two rows a line, '##' / two spaces one
    module."""
    width = max(len(line) for line in code)
    rows = []
    for line in code:
        line = line.ljust(width)
        if utf8:
            if not check(set(line) <= set(UTF8), "a character that is no half block: %r" % line):
                return []
            rows.append([UTF8[c][0] for c in line])
            rows.append([UTF8[c][1] for c in line])
        else:
            pairs = [line[i:i + 2] for i in range(0, len(line), 2)]
            if not check(set(pairs) <= {"##", "  "}, "an ASCII module that is neither '##' nor '  ': %r" % line):
                return []
            rows.append([1 if p == "##" else 0 for p in pairs])
    return rows


def quiet_zone(rows, what):
    """4 light modules on every side (the last half-block line may hold one
    row of light more)."""
    dark = [(x, y) for y, r in enumerate(rows) for x, v in enumerate(r) if v]
    xs, ys = [x for x, _ in dark], [y for _, y in dark]
    side = max(xs) - min(xs) + 1
    check(max(ys) - min(ys) + 1 == side and (side - 17) % 4 == 0 and side >= 21,
          "%s: the dark modules span %dx%d, no QR code's size" % (what, side, max(ys) - min(ys) + 1))
    check(min(xs) == 4 and min(ys) == 4 and len(rows[0]) - 1 - max(xs) == 4 and len(rows) - 1 - max(ys) in (4, 5),
          "%s: the quiet zone is not 4 modules: left %d top %d right %d bottom %d" % (
              what, min(xs), min(ys), len(rows[0]) - 1 - max(xs), len(rows) - 1 - max(ys)))


def decode(rows, name, scale=4):
    """zbarimg's reading of the modules drawn as a PBM, scale pixels a module."""
    path = os.path.join(TMP, name + ".pbm")
    with open(path, "w") as f:
        f.write("P1\n%d %d\n" % (len(rows[0]) * scale, len(rows) * scale))
        for r in rows:
            line = " ".join(str(v) for v in r for _ in range(scale))
            for _ in range(scale):
                f.write(line + "\n")
    return zbar(path)


def zbar(path):
    r = subprocess.run(["zbarimg", "--nodbus", "--raw", "-q", path], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def addresses_case(net, loop, port, token):
    addrs, default_iface = system_addresses()
    has6 = socket.has_ipv6
    want = {a: i for a, i in addrs.items() if has6 or ":" not in a}
    got = {}
    for iface, url in net:
        m = re.match(r"http://(\[([0-9a-f:]+)\]|([0-9.]+)):(\d+)(/t/[0-9a-f]{32}/)$", url)
        if check(m, "a URL that is no address, port and token: %r" % url):
            got[m.group(2) or m.group(3)] = iface
            check(int(m.group(4)) == port and m.group(5) == token, "%s: another port or token than %s" % (url, loop))
    check(got == want, "the addresses printed %s, the system's %s" % (got, want))
    v4_default = [a for a, i in want.items() if i == default_iface and ":" not in a]
    if v4_default and net:
        first = re.match(r"http://([0-9.]+):", net[0][1])
        check(first and first.group(1) in v4_default,
              "the first URL %s is not an IPv4 address of %s, the default route's" % (net[0][1], default_iface))


def terminal_case(fray):
    for locale, utf8 in (("C.UTF-8", True), ("C", False)):
        port = free_port()
        proc, lines = start(fray, ["--lan", "--qr", "--port", str(port)], {"LC_ALL": locale})
        try:
            loop, net, said, code = parse(lines)
            token = loop.split(str(port), 1)[1]
            share = net[0][1] if net else loop
            if utf8:
                addresses_case(net, loop, port, token)
                # the loopback URL works, on IPv6's loopback too when there is IPv6
                with OPENER.open(loop, timeout=10) as r:
                    check(r.status == 200, "GET %s: %d" % (loop, r.status))
                if socket.has_ipv6:
                    url6 = "http://[::1]:%d%s" % (port, token)
                    with OPENER.open(url6, timeout=10) as r:
                        check(r.status == 200, "GET %s (IPv6): %d" % (url6, r.status))
                svg_case(port, token, share)
            check(said == share, "the code is said to be %r, the first URL printed is %r" % (said, share))
            check(code, "%s: no QR code printed with --qr" % locale)
            if not code:
                continue
            rows = modules_of(code, utf8)
            if rows:
                quiet_zone(rows, "the terminal's code (%s)" % locale)
                got = decode(rows, "terminal-" + locale)
                check(got == share, "the terminal's code (%s) decodes to %r, not %r" % (locale, got, share))
        finally:
            stop(proc)
    # no terminal, no --qr: the addresses only
    proc, lines = start(fray, ["--lan", "--port", str(free_port())])
    stop(proc)
    check(not any("from this code" in line for line in lines) and len(lines) <= 2 + SERVE_URLS_MAX,
          "a code printed without a terminal and without --qr: %r" % lines)
    r = subprocess.run([fray, "serve", "--qr", "--port", "0"], capture_output=True, text=True, timeout=20)
    check(r.returncode == 2 and "--qr" in r.stderr and "--lan" in r.stderr,
          "--qr without --lan: exit %d %r" % (r.returncode, r.stderr))


SERVE_URLS_MAX = 16


def svg_modules(svg):
    """The SVG's modules: its viewBox square, a white square under it all,
    and every 'M x y h n v 1 h -n z' of the path a run of dark modules."""
    box = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    if not check(box and box.group(1) == box.group(2), "the SVG's viewBox is no square: %r" % svg[:200]):
        return []
    side = int(box.group(1))
    check('<rect width="%d" height="%d" fill="#fff"/>' % (side, side) in svg, "no white square under the code")
    path = re.search(r'<path fill="#000" d="([^"]*)"', svg)
    if not check(path, "no black path in the SVG"):
        return []
    runs = re.findall(r"M(\d+) (\d+)h(\d+)v1h-(\d+)z", path.group(1))
    check("".join("M%s %sh%sv1h-%sz" % r for r in runs) == path.group(1), "a path that is not runs alone")
    rows = [[0] * side for _ in range(side)]
    for x, y, n, back in runs:
        x, y, n = int(x), int(y), int(n)
        check(int(back) == n and x + n <= side and y < side, "a run out of the square: %s" % ((x, y, n),))
        for i in range(x, min(x + n, side)):
            rows[min(y, side - 1)][i] = 1
    return rows


def get(url, host=None):
    req = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with OPENER.open(req, timeout=10) as r:
            return r.status, r.headers.get("Content-Type"), r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read().decode("utf-8")


def svg_case(port, token, share):
    status, ctype, svg = get("http://127.0.0.1:%d%sapi/v1/qr.svg" % (port, token))
    check(status == 200 and ctype == "image/svg+xml", "GET api/v1/qr.svg: %d %s" % (status, ctype))
    check("<title>%s</title>" % share in svg, "the SVG's title is not %s" % share)
    rows = svg_modules(svg)
    if rows:
        quiet_zone(rows, "the SVG's code")
        got = decode(rows, "svg")
        check(got == share, "the SVG decodes to %r, not %r" % (got, share))
    status, _, _ = get("http://127.0.0.1:%d/api/v1/qr.svg" % port)
    check(status == 403, "api/v1/qr.svg without the token: %d" % status)
    local = Server(FRAY)
    try:
        status, _, body = get(local.url + "api/v1/qr.svg")
        check(status == 404 and "--lan" in body, "api/v1/qr.svg without --lan: %d %r" % (status, body))
    finally:
        local.stop()


def page_case(shots):
    """The page's "Pass it on": the dialog's code, screenshotted by
    Chromium, decodes to the server's URL; no button without --lan."""
    try:
        from selenium.webdriver.common.by import By

        import browser as chrome
        from browser import waiter as WebDriverWait
    except ImportError:
        check(False, "python3-selenium is missing (scripts/deps.sh --test)")
        return
    d = chrome.chromium(chrome.PHONE)
    lan, local = Server(FRAY, "--lan"), Server(FRAY)
    try:
        status, _, svg = get(lan.url + "api/v1/qr.svg")
        share = re.search(r"<title>(.*)</title>", svg).group(1)
        d.get(lan.url)
        WebDriverWait(d, 60).until(lambda d: d.find_elements(By.ID, "share-qr-open"))
        d.find_element(By.ID, "share-qr-open").click()
        dialog = d.find_element(By.ID, "share-qr")
        WebDriverWait(d, 10).until(lambda d: dialog.is_displayed())
        check(d.find_element(By.ID, "share-qr-url").text == share, "the dialog's URL is not %s" % share)
        png = os.path.join(shots, "serve-share-qr-412.png")
        d.save_screenshot(png)
        got = zbar(png)
        check(got == share, "the page's dialog decodes to %r, not %r" % (got, share))
        d.find_element(By.ID, "share-qr-close").click()
        check(not dialog.is_displayed(), "Close leaves the dialog open")
        d.get(local.url)
        WebDriverWait(d, 60).until(lambda d: d.execute_script("return document.getElementById('procedure').options.length"))
        time.sleep(1)   # the page's own fetch of api/v1/qr.svg, answered 404
        check(not d.find_elements(By.ID, "share-qr-open"), "a 'Pass it on' button without --lan")
    finally:
        d.quit()
        lan.stop()
        local.stop()


def tty_case(fray):
    """On a terminal (a pty here) the code comes without --qr, each line
    black on white (SGR 30;47, then reset), and decodes once the colours
    are taken out."""
    master, slave = pty.openpty()
    env = dict(os.environ, LC_ALL="C.UTF-8")
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([fray, "serve", "--lan", "--port", str(free_port())], stdout=slave,
                            stderr=subprocess.PIPE, env=env)
    os.close(slave)
    out, deadline = b"", time.time() + 30
    while b"Ctrl-C stops it" not in out and time.time() < deadline:
        if select.select([master], [], [], 1)[0]:
            try:
                out += os.read(master, 65536)
            except OSError:
                break
    stop(proc)
    os.close(master)
    lines = out.decode("utf-8").replace("\r\n", "\n").split("\n")
    loop, net, said, code = parse([line for line in lines if line])
    code = code[:-1] if code and code[-1] == "  Ctrl-C stops it" else code
    if not check(code, "no code on a terminal without --qr: %r" % lines):
        return
    check(all(line.startswith("\x1b[30;47m") and line.endswith("\x1b[0m") for line in code),
          "a code line on a terminal not black on white: %r" % code[0])
    rows = modules_of([re.sub(r"\x1b\[[0-9;]*m", "", line) for line in code], True)
    if rows:
        got = decode(rows, "tty")
        check(got == said == (net[0][1] if net else loop), "the terminal's coloured code decodes to %r" % got)


def escaped_name_case(fray):
    """An interface named with ESC ] (a terminal's title sequence), up, with
    an address of TEST-NET-2, in a network namespace of this test alone
    (its veth peer down: no packet is sent anywhere)."""
    if os.geteuid() != 0 or subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode != 0:
        print("escaped interface name: skipped (needs root and unshare -n)")
        return
    name = "q\x1b]0;x"
    setup = ('ip link add "$N" type veth peer name qpeer && ip link set "$N" up && '
             'ip addr add 198.51.100.7/24 dev "$N" && exec "$0" "$@"')
    try:
        proc, lines = start(fray, ["--lan", "--port", "0"], {"N": name},
                            wrap=["unshare", "-n", "sh", "-c", setup])
    except SystemExit as e:
        print("escaped interface name: skipped (%s)" % e)
        return
    stop(proc)
    text = "\n".join(lines)
    check("\x1b" not in text, "an escape character reached the terminal: %r" % text)
    check("  on the network (q\\x1b]0;x): http://198.51.100.7:" in text, "the interface's name not escaped: %r" % text)
    check(sum("on the network" in line for line in lines) == 1, "a link-local IPv6 address printed: %r" % lines)


def main():
    global FRAY
    FRAY = sys.argv[1]
    shots = sys.argv[2] if len(sys.argv) > 2 else TMP
    os.makedirs(shots, exist_ok=True)
    terminal_case(FRAY)
    tty_case(FRAY)
    escaped_name_case(FRAY)
    page_case(shots)
    print("qr: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
