#!/usr/bin/python3
"""The browser build's budgets (issue 32), measured: the WebAssembly and
its loader compressed (gzip -9: fray.wasm, fray.js, worker.js, transport.js;
budget 1.5 MB); the static page ready to answer, cold (a fresh browser
profile, python3 -m http.server on this machine; budget 1.5 s); every
procedure's exact odds (its catalogue example) in the browser against the
native library (`fray request`, Release), and Lochry's whole battle exact
(budget 3x native). Prints a Markdown table for docs/performance.md.
Usage: bench/wasm_bench.py NATIVE-FRAY(Release) SITE-DIR"""
import gzip
import json
import os
import platform
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "site"))
from site_test import ROOT, StaticServer, browser  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

LOCHRY = {"procedure": "adbg.battle", "mode": "odds", "trials": 20000,
          "inputs": {"scenario": "examples/adbg/lochry-1781.yaml", "budget": 10000000}}


def native_seconds(fray, req, runs=3):
    best = None
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([fray, "request", "-"], input=json.dumps(req), capture_output=True, text=True, cwd=ROOT,
                       check=True)
        best = min(best or 1e9, time.perf_counter() - t)
    return best


def browser_seconds(d, req, long=False, runs=3):
    """ask() in the page: the worker's time, the message passing included."""
    best = None
    for _ in range(runs):
        ms = d.execute_async_script("""
            const done = arguments[arguments.length - 1], t = performance.now();
            ask(arguments[0], arguments[1] ? {progress() {}} : undefined)
              .then(() => done(performance.now() - t), (e) => done(-1));""", req, long)
        if ms < 0:
            raise SystemExit("the page refused %s" % json.dumps(req))
        best = min(best or 1e9, ms / 1000)
    return best


def main():
    fray, site = sys.argv[1], sys.argv[2]
    files = ["fray.wasm", "fray.js", "worker.js", "transport.js"]
    raw = sum(os.path.getsize(os.path.join(site, f)) for f in files)
    packed = sum(len(gzip.compress(open(os.path.join(site, f), "rb").read(), 9)) for f in files)
    srv = StaticServer(site)
    d = browser()
    d.set_script_timeout(600)
    try:
        # cold: a fresh profile (no cache, no service worker) and the page's
        # own clock, from navigation to the catalogue read from the worker
        d.get(srv.url)
        WebDriverWait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "select[name=procedure] option"))
        ready = d.execute_script("return performance.now()") / 1000
        catalogue = json.loads(subprocess.run([fray, "procedures", "--json"], capture_output=True, text=True,
                                              check=True).stdout)["procedures"]
        rows = []
        for p in catalogue:
            if "odds" not in p["modes"] or p["name"] == "adbg.battle":
                continue
            req = {"procedure": p["name"], "mode": "odds", "inputs": p["example"]}
            rows.append((p["name"], native_seconds(fray, req), browser_seconds(d, req)))
        lochry = (native_seconds(fray, LOCHRY, 1), browser_seconds(d, LOCHRY, True, 1))
    finally:
        d.quit()
        srv.stop()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print("Machine: %s, %d cores, %s; Chromium headless, python3 -m http.server.\n" % (cpu, os.cpu_count(),
                                                                                      platform.platform()))
    print("| budget | measured | limit |\n|---|---|---|")
    print("| fray.wasm + fray.js + worker.js + transport.js, gzip -9 | %.2f MB (%.2f MB raw) | 1.5 MB |"
          % (packed / 1e6, raw / 1e6))
    print("| page ready, cold (navigation to the catalogue from the worker) | %.2f s | 1.5 s |" % ready)
    worst = max(rows, key=lambda r: r[2] / r[1])
    tot_n, tot_b = sum(r[1] for r in rows), sum(r[2] for r in rows)
    print("| every procedure's exact odds (%d), browser / native, in all | %.2f s / %.2f s = %.2fx | 3x |"
          % (len(rows), tot_b, tot_n, tot_b / tot_n))
    print("| the slowest ratio: %s | %.3f s / %.3f s = %.2fx | 3x |" % (worst[0], worst[2], worst[1], worst[2] / worst[1]))
    print("| Lochry's whole battle, exact (budget 10,000,000 paths) | %.1f s / %.1f s = %.2fx | 3x |"
          % (lochry[1], lochry[0], lochry[1] / lochry[0]))
    print("\n(native: the whole `fray request` process, best of 3, start-up included: a small procedure's ratio is"
          " mostly the worker's message and the process start.)")


if __name__ == "__main__":
    main()
