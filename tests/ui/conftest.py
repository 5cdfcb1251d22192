"""Shared setup of the UI tests: the fixture workspace indexed by the built `navegador`,
`navegador ui` on a free port, and Debian's Chromium driven by selenium (headless)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "tests"))
from harness import navegador_bin, stop, wait_for_address  # noqa: E402
FIXTURE = REPO / "tests" / "mcp" / "fixture"
# Screenshots are test artifacts (CI keeps target/); UPDATE_SCREENSHOTS=1 also refreshes
# the ones docs/ui.md shows.
ARTIFACTS = REPO / "target" / "ui-screenshots"
DOCS_SHOTS = REPO / "docs" / "ui"


@pytest.fixture(scope="session")
def workspace(tmp_path_factory) -> Path:
    ws = tmp_path_factory.mktemp("ui") / "fixture"
    shutil.copytree(FIXTURE, ws)
    # The pages' own extras, in the UI's copy only (the MCP goldens keep the fixture as it is):
    # an endpoint with an HTTP client calling it (the endpoints table's consumers), and two
    # rules with constraints, one violated (the knowledge and impact pages' check results).
    for rel, text in EXTRAS.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text)
    subprocess.run([navegador_bin(), "ingest", str(ws)], check=True, capture_output=True, timeout=120)
    for name, constraint in RULES:
        subprocess.run([navegador_bin(), "add", "rule", name, "--severity", "warning", "--constraint", constraint], cwd=ws, check=True, capture_output=True, timeout=60)
    return ws


EXTRAS = {
    "web/api.py": 'from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.route("/users")\ndef list_users():\n    return []\n',
    "web/client.py": 'import requests\n\n\ndef load_users():\n    return requests.get("http://api.local/users").json()\n',
}
RULES = [
    ("Views log through models", "MATCH (a:Function)-[:CALLS]->(b:Function) WHERE a.file_path = 'app/views.py' AND b.file_path = 'app/util.py' RETURN a, b"),
    ("Models never call views", "MATCH (a)-[:CALLS]->(b) WHERE a.file_path = 'app/models.py' AND b.file_path = 'app/views.py' RETURN a, b"),
]


class Server:
    """A running `navegador` HTTP server and its base address."""

    def __init__(self, args: list[str], cwd: Path):
        self.proc = subprocess.Popen([navegador_bin(), *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.base = wait_for_address(self.proc, r"navegador ui: listening on (http://\S+?)/ui/")

    def url(self, path: str) -> str:
        return self.base + path

    def get(self, path: str, headers: dict | None = None, data: bytes | None = None):
        """(status, headers, body as text) of one request; no redirects followed."""

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *a, **k):
                return None

        req = urllib.request.Request(self.url(path), headers=headers or {}, data=data)
        opener = urllib.request.build_opener(NoRedirect)
        try:
            with opener.open(req, timeout=30) as r:
                return r.status, r.headers, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read().decode()

    def json(self, path: str, **kw):
        status, _, body = self.get(path, **kw)
        return status, json.loads(body)

    def stop(self):
        stop(self.proc)


@pytest.fixture(scope="session")
def ui(workspace):
    s = Server(["ui", "--port", "0", "--workspace-root", str(workspace)], workspace)
    yield s
    s.stop()


def chromium_paths() -> tuple[str, str] | None:
    browser = os.environ.get("CHROMIUM_BIN") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver = os.environ.get("CHROMEDRIVER_BIN") or shutil.which("chromedriver")
    if not driver and Path("/usr/lib/chromium/chromedriver").exists():
        driver = "/usr/lib/chromium/chromedriver"
    return (browser, driver) if browser and driver else None


@pytest.fixture(scope="session")
def browser():
    paths = chromium_paths()
    if paths is None:
        msg = "chromium and chromedriver not found: run `bash scripts/browser.sh` (installs Debian's chromium and chromium-driver)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    os.environ["SE_OFFLINE"] = "true"  # selenium must not look for a browser or driver to download
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = paths[0]
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,900", "--force-device-scale-factor=1"):
        opts.add_argument(a)
    driver = webdriver.Chrome(service=Service(executable_path=paths[1]), options=opts)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def screenshot(driver, name: str):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    if os.environ.get("UPDATE_SCREENSHOTS"):
        DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, DOCS_SHOTS / f"{name}.png")
    return path
