"""Starting and stopping `fray serve` for the tests: a free port, the URL it
prints, and a clean stop (SIGINT) that must exit 0."""
import json
import signal
import socket
import subprocess


def free_port():
    # free on every interface, as --lan binds it: a port free on 127.0.0.1
    # alone may still be held elsewhere (the load tests' clients on
    # 127.0.0.N leave thousands of them in TIME_WAIT)
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, fray, *args):
        self.port = free_port()
        self.proc = subprocess.Popen([fray, "serve", "--port", str(self.port), *args], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("fray serve: http://"):
            raise SystemExit("fray serve did not start: %r %s" % (line, self.proc.stderr.read()))
        self.url = line.split()[-1].replace("THIS-MACHINE", "127.0.0.1")

    def stop(self, timeout=20):
        self.proc.send_signal(signal.SIGINT)
        out, err = self.proc.communicate(timeout=timeout)
        if self.proc.returncode != 0:
            raise SystemExit("fray serve exited %d on Ctrl-C: %s" % (self.proc.returncode, err))


def waiter(d, timeout):
    """Selenium's WebDriverWait, polling every 100 ms: its default half
    second costs a quarter of a second on average at every wait that does
    not hold at once (about a hundred waits in page_test)."""
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(d, timeout, poll_frequency=0.1)


_answers = {}


def fray_request(fray, req, cwd):
    """What `fray request` prints for req (a dict), run in cwd; exit 0 or
    CalledProcessError. Asked once per request: fray's answer is a function
    of the request (a roll's seed is in it, odds take none), and the page
    tests compare the phone's page and the laptop's with the same answers
    (test time: battles simulated under ASan)."""
    key = (fray, cwd, json.dumps(req, sort_keys=True))
    if key not in _answers:
        _answers[key] = subprocess.run([fray, "request", "-"], input=json.dumps(req), capture_output=True,
                                       text=True, cwd=cwd, check=True).stdout
    return _answers[key]
