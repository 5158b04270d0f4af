"""Starting and stopping `fray serve` for the tests: a free port, the URL it
prints, and a clean stop (SIGINT) that must exit 0."""
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
    """Selenium's WebDriverWait, polling every 50 ms: its default half
    second costs a quarter of a second on average at every wait that does
    not hold at once, a minute or more over the browser tests."""
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(d, timeout, poll_frequency=0.05)
