#!/usr/bin/env python3
"""The graph explorer's speed on a real graph (docs/BENCHMARKS.md, `navegador ui`):

- search as you type: every prefix (2 characters and up) of a few names, one request each,
  against `/ui/api/search` (the `search` tool): p50 and p90 in ms;
- a hot symbol's page: `/ui/api/symbol` (explain with source, owners, rules), median of
  runs; and, when Chromium is installed (scripts/browser.sh), the whole page in a headless
  browser: from navigation to the neighbourhood graph laid out (`window.navegadorTiming`).

A peer measured in the same run gives the machine's speed at that moment: `rg` counting a
word over the same tree.

`--before BIN` also times search as you type with another navegador binary (the build
before a change) in the same run, alternating, so both see the same load.

Usage: python3 scripts/bench_ui.py --db GRAPH --root WORKSPACE [--symbol NAME ...] [--runs N] [--before BIN]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TYPED = ["String", "HashMap", "ArrayList", "toString", "Thread", "InputStream", "concurrent", "getClass"]


def start(nav: str, db: str, root: str):
    p = subprocess.Popen([nav, "ui", "--port", "0", "--db", db, "--workspace-root", root], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    while True:
        line = p.stderr.readline()
        if not line:
            sys.exit("navegador ui exited before listening")
        m = re.search(r"listening on (http://\S+?)/ui/", line)
        if m:
            return p, m.group(1)


def get(url: str) -> tuple[float, dict]:
    t0 = time.perf_counter()
    with urllib.request.urlopen(url, timeout=120) as r:
        body = r.read()
    return (time.perf_counter() - t0) * 1000, json.loads(body)


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--symbol", action="append", default=None, help="qualified name of a hot symbol (repeatable)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--nav", default=str(REPO / "target" / "release" / "navegador"))
    ap.add_argument("--before", help="another navegador binary whose search is timed in the same run")
    a = ap.parse_args()
    symbols = a.symbol or ["java.lang.String", "java.util.HashMap", "java.lang.Object.toString"]
    proc, base = start(a.nav, a.db, a.root)
    other = start(a.before, a.db, a.root) if a.before else None
    try:
        sides = [("", base)] + ([(f"before ({a.before})", other[1])] if other else [])
        times = {label: [] for label, _ in sides}
        slow = {label: [] for label, _ in sides}
        for _, b in sides:
            get(b + "/ui/api/search?q=warm")  # opens the connection of a server thread
        for word in TYPED:
            for i in range(2, len(word) + 1):
                for label, b in sides:
                    ms, r = get(b + "/ui/api/search?" + urllib.parse.urlencode({"q": word[:i], "limit": 30}))
                    times[label].append(ms)
                    slow[label].append((ms, word[:i]))
        for label, t in times.items():
            worst = ", ".join(f"{q} {ms:.0f}" for ms, q in sorted(slow[label])[-3:])
            print(f"search as you type{' ' + label if label else ''}: {len(t)} requests, p50 {statistics.median(t):.1f} ms, p90 {pct(t, 90):.1f} ms, max {max(t):.1f} ms (slowest: {worst})")
        for s in symbols:
            runs = []
            for _ in range(a.runs):
                ms, r = get(base + "/ui/api/symbol?" + urllib.parse.urlencode({"name": s}))
                runs.append(ms)
            n = r["node"]
            print(f"symbol data {s}: median {statistics.median(runs):.0f} ms (min {min(runs):.0f}, max {max(runs):.0f}), {len(n['nodes'])} neighbours listed of totals {n['metadata']['totals']}")
        browser(base, symbols, a.runs)
        if shutil.which("rg"):
            t0 = time.perf_counter()
            subprocess.run(["rg", "-c", "-w", "HashMap", a.root], stdout=subprocess.DEVNULL)
            print(f"peer: rg -c -w HashMap over the workspace: {(time.perf_counter() - t0) * 1000:.0f} ms")
    finally:
        for p in [proc] + ([other[0]] if other else []):
            p.terminate()
            p.wait()


def browser(base: str, symbols: list[str], runs: int):
    chromium = shutil.which("chromium")
    driver_path = shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        print("page in a browser: skipped (selenium not installed: pip install -r tests/ui/requirements.txt)")
        return
    if not chromium or not driver_path:
        print("page in a browser: skipped (no chromium: bash scripts/browser.sh)")
        return
    os.environ["SE_OFFLINE"] = "true"
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for x in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
        opts.add_argument(x)
    d = webdriver.Chrome(service=Service(executable_path=driver_path), options=opts)
    try:
        d.get(base + "/ui/")
        for s in symbols:
            page, layout = [], []
            for _ in range(runs):
                d.get("about:blank")
                d.get(base + "/ui/#/symbol?" + urllib.parse.urlencode({"name": s}))
                WebDriverWait(d, 60).until(lambda x: x.execute_script("return window.navegadorTiming && window.navegadorTiming.symbolPage"))
                t = d.execute_script("return window.navegadorTiming")
                page.append(t["symbolPage"])
                layout.append(t["layout"])
            nodes = d.execute_script("return window.navegadorGraph.nodes().length")
            print(f"symbol page {s} in chromium (data + render + layout): median {statistics.median(page):.0f} ms, layout {statistics.median(layout):.0f} ms, {nodes} nodes")
    finally:
        d.quit()


if __name__ == "__main__":
    main()
