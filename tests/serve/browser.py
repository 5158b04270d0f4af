"""The browser tests' one Chromium and the helpers they share (tests/serve
and tests/site): the start (headless, a fresh profile, nothing fetched in
the background), a wait polled every 50 ms, and the page's controls and
answers read or filled in one WebDriver call each (a call costs 10-30 ms of
two busy processes: page_test made 3,100 of them)."""
import time
from urllib import request
from urllib.error import URLError

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


class _Service(Service):
    """chromedriver, its start and its shutdown polled every 20 ms
    (Selenium's own sleep 0.5 s before it looks again, and 1 s after
    asking it to shut down: 1.5 s of each browser's wall time)."""

    def start(self):
        self._start_process(self.path)
        for _ in range(1500):
            self.assert_process_still_running()
            if self.is_connectable():
                return
            time.sleep(0.02)
        raise RuntimeError("chromedriver did not listen within 30 s")

    def send_remote_shutdown_command(self):
        try:
            request.urlopen(self.service_url + "/shutdown")
        except URLError:
            return
        for _ in range(1500):
            if not self.is_connectable():
                return
            time.sleep(0.02)


PHONE = (412, 915)
LAPTOP = (1280, 800)


def chromium(size=LAPTOP, mobile=False, log=False):
    """Headless Chromium at size (width, height): a phone's by device
    emulation when mobile; log keeps the network and console logs (read
    with d.get_log). Its profile is a fresh one chromedriver makes and
    removes (a --user-data-dir of ours would open Chromium's new-tab page
    first: 80 more requests)."""
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
              "--no-first-run", "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--window-size=%d,%d" % size):
        o.add_argument(a)
    if mobile:
        o.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": size[0], "height": size[1],
                                                                        "pixelRatio": 1}})
    if log:
        o.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    return webdriver.Chrome(service=_Service("/usr/bin/chromedriver"), options=o)


def phone(**kw):
    return chromium(PHONE, mobile=True, **kw)


def waiter(d, timeout):
    """Selenium's WebDriverWait polling every 50 ms (its default half
    second costs a quarter of a second at every wait that does not hold at
    once)."""
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(d, timeout, poll_frequency=0.05)


# the form's controls set as a player's taps and typing leave them: a folded
# "more" opened, a select's option chosen (one the picker does not list, a
# link's, added when asked), a checkbox clicked when it differs, a text or
# number typed over; each fires the input and change events typing and
# picking fire. Answers the names that are not on the page.
_FILL = """
const inputs = arguments[0], addMissing = arguments[1], missing = [];
for (const [name, value] of Object.entries(inputs)) {
  const e = document.getElementsByName(name)[0];
  if (!e) { missing.push(name); continue; }
  const m = e.closest('details'); if (m) m.open = true;
  const v = String(value);
  if (e.tagName === 'SELECT') {
    if (![...e.options].some((o) => o.value === v)) {
      if (!addMissing) { missing.push(name + '=' + v); continue; }
      e.append(new Option(v, v));
    }
    if (e.value === v) continue;
    e.focus(); e.value = v;
  } else if (e.type === 'checkbox') {
    if (e.checked !== Boolean(value)) e.click();
    continue;
  } else {
    e.focus(); e.value = v;
  }
  e.dispatchEvent(new Event('input', {bubbles: true}));
  e.dispatchEvent(new Event('change', {bubbles: true}));
}
return missing;"""


def fill(d, inputs, add_missing=False):
    """Sets the named controls in one call; raises on a name (or a select's
    value) the page does not have, as find_element and Select would."""
    missing = d.execute_script(_FILL, inputs, add_missing)
    if missing:
        raise AssertionError("not on the page: %s" % ", ".join(missing))


def rows(d, css, key, value):
    """{the key attribute: float(the value attribute)} of every element css
    selects, in one call."""
    return {k: float(v) for k, v in d.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => "
        "[e.getAttribute(arguments[1]), e.getAttribute(arguments[2])])", css, key, value)}


def press(d, css):
    """Clicks the button css selects, as a tap would, in one call: it must
    be there, shown and enabled (a hidden or disabled one raises)."""
    why = d.execute_script("""
        const b = document.querySelector(arguments[0]);
        if (!b) return 'no ' + arguments[0];
        const r = b.getBoundingClientRect();
        if (b.disabled || !r.width || !r.height || getComputedStyle(b).visibility === 'hidden')
          return arguments[0] + ' is not shown or not enabled';
        b.click();
        return null;""", css)
    if why:
        raise AssertionError(why)


def select(d, name, value):
    """Picks value in the select named name, as a tap on its option would
    (its change event): it must be one of the options."""
    fill(d, {name: value})


def answered(d, timeout, result="#result"):
    """Waits for the whole answer in result (its heading, no longer busy)
    or an error shown: one call a poll."""
    waiter(d, timeout).until(lambda d: d.execute_script("""
        const e = document.getElementById('error');
        return !!document.querySelector(arguments[0] + ':not([aria-busy]) h2') ||
               (!!e && e.checkVisibility() && e.innerText.trim() !== '')""", result))


def button(d, text, or_best=False):
    """The shown button whose text is text (or_best: or "text · best", as
    an action's button reads once the unit's advice has come,
    game_advice.js)."""
    from selenium.common.exceptions import NoSuchElementException
    from selenium.webdriver.common.by import By
    said = '"%s"' % text if '"' not in text else "'%s'" % text
    best = said[:-1] + " \u00b7 best" + said[-1]
    xpath = "//button[normalize-space(.)=%s%s]" % (said, " or normalize-space(.)=%s" % best if or_best else "")
    for b in d.find_elements(By.XPATH, xpath):
        if b.is_displayed():
            return b
    raise NoSuchElementException(text)


def unit(d, name):
    """The game screen's button of the unit named name."""
    from selenium.webdriver.common.by import By
    return d.find_element(By.XPATH, "//button[contains(@class,'unit')][.//span[normalize-space(.)=%s]]"
                          % ('"%s"' % name if '"' not in name else "'%s'" % name))


def control(d, label):
    """The input a shown label's text names (its first words), found in one
    call."""
    from selenium.common.exceptions import NoSuchElementException
    e = d.execute_script("""
        for (const lab of document.querySelectorAll('label')) {
          const r = lab.getBoundingClientRect();
          if (r.width > 0 && r.height > 0 && lab.checkVisibility({opacityProperty: true, visibilityProperty: true}) &&
              lab.innerText.trim().startsWith(arguments[0]))
            return document.getElementById(lab.htmlFor);
        }
        return null;""", label)
    if e is None:
        raise NoSuchElementException(label)
    return e
