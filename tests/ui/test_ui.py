"""The graph explorer as a person uses it: `navegador ui` on the fixture workspace, its JSON
API over HTTP, and its pages in Debian's Chromium (search, a symbol page and its graph,
files, endpoints, knowledge, impact, the Cypher console, keyboard navigation, labelled
controls), with screenshots at desktop and phone widths. Also `navegador mcp --ui` behind
a bearer token, Host and Origin checks."""

from __future__ import annotations

import json
import urllib.parse

import pytest
from conftest import Server, screenshot

WAIT = 15


def q(**kw) -> str:
    return urllib.parse.urlencode({k: v for k, v in kw.items() if v is not None})


# -- the JSON API ----------------------------------------------------------------------------


def test_api_search_is_the_search_tool(ui):
    status, r = ui.json("/ui/api/search?" + q(q="rename"))
    assert status == 200
    assert r["items"][0]["qualified_name"] == "app.models.User.rename"
    assert r["items"][0]["match"] == "exact"


def test_api_symbol_has_source_owners_and_relations(ui):
    status, r = ui.json("/ui/api/symbol?" + q(name="User.rename"))
    assert status == 200, r
    t = r["node"]["target"]
    assert t["file_path"] == "app/models.py" and t["type"] == "Method"
    assert "def rename" in r["node"]["source"]["text"]
    assert {o["name"] for o in r["owners"]["items"]} >= {"alice"}
    relations = {n["relation"] for n in r["node"]["nodes"]}
    assert "caller" in relations and "callee" in relations


def test_api_errors_name_the_fix(ui):
    status, r = ui.json("/ui/api/symbol?" + q(name="no_such_thing_anywhere"))
    assert status == 422 and "no_such_thing_anywhere" in r["error"]
    status, r = ui.json("/ui/api/symbol")
    assert status == 400 and "name" in r["error"]
    status, r = ui.json("/ui/api/nope")
    assert status == 404 and "search" in r["error"]


def test_api_cypher_is_read_only(ui):
    body = json.dumps({"cypher": "MATCH (c:Class) RETURN c.name AS name ORDER BY name"}).encode()
    status, r = ui.json("/ui/api/cypher", data=body, headers={"content-type": "application/json"})
    assert status == 200 and [x["name"] for x in r["items"]][:2] == ["Admin", "Base"]
    body = json.dumps({"cypher": "CREATE (:Concept {name: 'x'})"}).encode()
    status, r = ui.json("/ui/api/cypher", data=body, headers={"content-type": "application/json"})
    assert status == 422 and "read-only" in r["error"]


def test_api_tree_file_knowledge_impact(ui):
    status, r = ui.json("/ui/api/tree")
    assert status == 200 and r["status"] != "error"
    assert "app" in json.dumps(r["data"])
    status, r = ui.json("/ui/api/file?" + q(path="app/models.py"))
    assert status == 200 and any("class User" in line for line in r["outline"])
    status, r = ui.json("/ui/api/knowledge")
    assert status == 200 and {"kind": "Decision", "name": "Validate before save"}.items() <= r["items"][0].items()
    status, r = ui.json("/ui/api/impact?" + q(name="Base.save"))
    assert status == 200 and r["total"] >= 1


def test_api_tree_counts_indexed_files_per_folder(ui):
    status, r = ui.json("/ui/api/tree")
    assert status == 200
    assert r["counts"]["indexed_files"] == {"app": 6, "shapes": 1, "web": 2}, r["counts"]
    status, r = ui.json("/ui/api/tree?" + q(path="app"))
    assert status == 200 and r["counts"]["indexed_files"] == {}


def test_api_rule_checks_on_knowledge_and_impact(ui):
    status, r = ui.json("/ui/api/rules")
    assert status == 200
    checks = {c["rule"]: c for c in r["items"]}
    assert checks["Views log through models"]["status"] == "violated" and checks["Views log through models"]["violations"] == 1
    assert "app.views.make" in checks["Views log through models"]["names"]
    assert checks["Models never call views"]["status"] == "pass" and checks["Models never call views"]["violations"] == 0
    assert r["checked_at"].endswith("Z")
    status, r = ui.json("/ui/api/knowledge")
    assert status == 200 and {c["rule"] for c in r["checks"]["items"]} == set(checks)
    status, r = ui.json("/ui/api/impact?" + q(name="app.util.log"))
    assert status == 200
    by = {c["rule"]: c for c in r["rules"]["items"]}
    # make (a caller of log) is a dependent the violated rule names; the passing rule names none.
    assert by["Views log through models"]["touches"] is True and by["Models never call views"]["touches"] is False


def test_api_endpoints_list_their_consumers(ui):
    status, r = ui.json("/ui/api/endpoints")
    assert status == 200
    users = [e for e in r["data"]["items"] if e.get("path") == "/users"]
    assert users and users[0]["consumers"]["count"] == 1
    assert users[0]["consumers"]["items"][0]["file"] == "web/client.py"


def test_assets_are_embedded_and_pinned(ui):
    status, headers, body = ui.get("/ui/")
    assert status == 200 and "app.js" in body and "default-src 'self'" in headers["content-security-policy"]
    for name in ("vendor/cytoscape.min.js", "vendor/highlight.min.js", "vendor/cytoscape.LICENSE", "vendor/highlight.LICENSE"):
        status, _, body = ui.get("/ui/" + name)
        assert status == 200 and len(body) > 500, name
    assert "//" not in "".join(ui.get("/ui/")[2].split("http://www.w3.org")), "no page loads from another site"
    status, headers, _ = ui.get("/")
    assert status == 303 and headers["location"] == "/ui/"


# -- the same pages on the MCP server, behind its checks ------------------------------------


@pytest.fixture(scope="module")
def guarded(workspace):
    s = Server(["mcp", "--transport", "streamable-http", "--port", "0", "--ui", "--read-only", "--auth-token", "s3cret", "--workspace-root", str(workspace)], workspace)
    yield s
    s.stop()


def test_mcp_ui_requires_the_token(guarded):
    status, _, body = guarded.get("/ui/api/info")
    assert status == 401 and "token" in body
    status, r = guarded.json("/ui/api/info", headers={"Authorization": "Bearer s3cret"})
    assert status == 200 and r["read_only"] is True
    # A browser trades ?token= for a cookie scoped to the pages.
    status, headers, _ = guarded.get("/ui/?token=s3cret")
    assert status == 303 and headers["location"] == "/ui/"
    cookie = headers["set-cookie"].split(";")[0]
    assert "HttpOnly" in headers["set-cookie"] and "SameSite=Strict" in headers["set-cookie"]
    status, _, _ = guarded.get("/ui/api/info", headers={"Cookie": cookie})
    assert status == 200
    # The cookie opens the pages only, not the MCP endpoint.
    status, _, _ = guarded.get("/mcp", headers={"Cookie": cookie, "Accept": "text/event-stream"})
    assert status == 401


def test_mcp_ui_checks_host_and_origin(guarded):
    auth = {"Authorization": "Bearer s3cret"}
    status, _, body = guarded.get("/ui/api/info", headers={**auth, "Host": "evil.example"})
    assert status == 403 and "--allowed-host" in body
    status, _, body = guarded.get("/ui/api/info", headers={**auth, "Origin": "http://evil.example"})
    assert status == 403 and "--allowed-origin" in body
    port = guarded.base.rsplit(":", 1)[1]
    status, _, _ = guarded.get("/ui/api/info", headers={**auth, "Origin": f"http://127.0.0.1:{port}"})
    assert status == 200


def test_ui_flag_needs_http(workspace):
    import subprocess
    from conftest import navegador_bin

    r = subprocess.run([navegador_bin(), "mcp", "--ui", "--workspace-root", str(workspace)], capture_output=True, text=True, timeout=30)
    assert r.returncode != 0 and "--transport streamable-http" in r.stderr


# -- in the browser --------------------------------------------------------------------------


def wait_for(driver, css: str, timeout: float = WAIT):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(EC.presence_of_element_located((By.CSS_SELECTOR, css)))


def wait_js(driver, script: str, timeout: float = WAIT):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(lambda d: d.execute_script(script))


def test_search_as_you_type_and_keyboard(ui, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.set_window_size(1280, 900)
    browser.get(ui.url("/ui/"))
    wait_for(browser, "main h1")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("/")  # the shortcut focuses the search box
    box = browser.switch_to.active_element
    assert box.get_attribute("id") == "q"
    box.send_keys("User")
    wait_for(browser, "#results [role=option]")
    groups = [g.get_attribute("textContent") for g in browser.find_elements(By.CSS_SELECTOR, "#results .group")]
    assert "Class" in groups and "Method" in groups, groups
    assert box.get_attribute("aria-expanded") == "true"
    first = box.get_attribute("aria-activedescendant")
    box.send_keys(Keys.ARROW_DOWN)
    second = box.get_attribute("aria-activedescendant")
    assert first != second
    box.send_keys(Keys.ARROW_UP)
    assert box.get_attribute("aria-activedescendant") == first
    chosen = browser.find_element(By.ID, first).find_element(By.TAG_NAME, "span").text
    screenshot(browser, "search-desktop")
    box.send_keys(Keys.ENTER)
    wait_js(browser, "return location.hash.startsWith('#/symbol')")
    h1 = wait_for(browser, "main h1")
    wait_js(browser, "return document.querySelector('main h1').textContent.length > 0 && !document.querySelector('main').textContent.includes('loading')")
    assert chosen in browser.find_element(By.CSS_SELECTOR, "main h1").text


def test_symbol_page_and_graph_expands(ui, browser):
    from selenium.webdriver.common.by import By

    browser.set_window_size(1280, 900)
    browser.get(ui.url("/ui/#/symbol?" + q(name="User.rename", file="app/models.py")))
    wait_js(browser, "return window.navegadorGraph && window.navegadorGraph.nodes().length > 1")
    main = browser.find_element(By.TAG_NAME, "main").text
    assert "User.rename" in main and "alice" in main and "Owners" in main
    # source: highlighted, with line numbers that start at the symbol's first line
    code = browser.find_element(By.CSS_SELECTOR, "pre.source code")
    assert "def rename" in code.text and code.find_elements(By.CSS_SELECTOR, "span[class^=hljs-]")
    assert browser.find_element(By.CSS_SELECTOR, "pre.source .ln").text.split("\n")[0] == "11"
    before = browser.execute_script("return window.navegadorGraph.nodes().length")
    # expand a neighbour the way a click does (Cytoscape draws on a canvas)
    expanded = browser.execute_script(
        "const cy = window.navegadorGraph; const n = cy.nodes().filter(x => !x.hasClass('expanded') && x.data('file') && x.data('full') === 'app.models.Admin.promote')[0];"
        " if (!n) return null; n.emit('tap'); return n.id();"
    )
    assert expanded, "Admin.promote calls User.rename"
    wait_js(browser, f"return window.navegadorGraph.getElementById('{expanded}').hasClass('expanded') && window.navegadorGraph.nodes().length > {before}")
    # inferred edges are drawn dashed; the ambiguous toggle is labelled and off
    styles = browser.execute_script("return window.navegadorGraph.edges().map(e => [e.data('resolution'), e.style('line-style')])")
    assert all(style == "dashed" for res, style in styles if res == "inferred")
    assert not any(res == "ambiguous" for res, _ in styles)
    toggle = browser.find_element(By.ID, "show-ambiguous")
    assert not toggle.is_selected()
    timing = browser.execute_script("return window.navegadorTiming")
    assert timing["symbolPage"] > 0
    screenshot(browser, "symbol-desktop")
    browser.set_window_size(390, 844)
    browser.execute_script("window.scrollTo(0, 0)")
    screenshot(browser, "symbol-phone")
    browser.set_window_size(1280, 900)


def test_files_and_file_page(ui, browser):
    from selenium.webdriver.common.by import By

    browser.get(ui.url("/ui/#/files"))
    button = wait_for(browser, ".tree button.dir")
    assert button.get_attribute("aria-expanded") == "false"
    app = [b for b in browser.find_elements(By.CSS_SELECTOR, ".tree button.dir") if "app/" in b.text][0]
    app.click()
    counts = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".tree .count")]
    assert " 6 indexed files" in [" " + c.strip() for c in counts], counts
    screenshot(browser, "files-desktop")
    link = wait_for(browser, ".tree a[href*='models.py']")
    link.click()
    wait_js(browser, "return document.querySelector('main pre') !== null")
    assert "class User" in browser.find_element(By.TAG_NAME, "main").text


def test_knowledge_endpoints_impact_pages(ui, browser):
    from selenium.webdriver.common.by import By

    browser.get(ui.url("/ui/#/knowledge"))
    wait_js(browser, "return document.querySelector('main table') !== null")
    text = browser.find_element(By.TAG_NAME, "main").text
    assert "Validate before save" in text
    assert "violated: 1 violation" in text and "pass" in text and "rules checked at" in text
    screenshot(browser, "knowledge-desktop")
    browser.get(ui.url("/ui/#/endpoints"))
    wait_js(browser, "return document.querySelector('main h1') && !document.querySelector('main').textContent.includes('loading')")
    text = browser.find_element(By.TAG_NAME, "main").text
    assert "Endpoints" in text and "/users" in text
    consumer = browser.find_element(By.CSS_SELECTOR, ".consumers a")
    assert consumer.text == "web.client.load_users"
    screenshot(browser, "endpoints-desktop")
    browser.get(ui.url("/ui/#/impact"))
    field = wait_for(browser, "#impact-name")
    field.send_keys("Base.save")
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_js(browser, "return document.querySelector('main table') !== null")
    text = browser.find_element(By.TAG_NAME, "main").text
    assert "Distance 1" in text and "dependents" in text
    assert "Rules (2)" in text and "checked at" in text
    screenshot(browser, "impact-desktop")


def test_cypher_console_table_and_graph(ui, browser):
    from selenium.webdriver.common.by import By

    browser.get(ui.url("/ui/#/cypher"))
    ta = wait_for(browser, "#cypher")
    ta.clear()
    ta.send_keys("MATCH (c:Class) RETURN c.name AS name ORDER BY name")
    browser.find_element(By.ID, "run-cypher").click()
    wait_js(browser, "return document.querySelector('#cypher-out table') !== null")
    cells = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "#cypher-out td")]
    assert cells[:2] == ["Admin", "Base"]
    ta.clear()
    ta.send_keys("MATCH (a:Method)-[r:CALLS]->(b) RETURN a, r, b LIMIT 20")
    browser.find_element(By.ID, "as-graph").click()
    browser.find_element(By.ID, "run-cypher").click()
    wait_js(browser, "return window.navegadorGraph && window.navegadorGraph.edges().length > 0")
    screenshot(browser, "cypher-desktop")
    ta.clear()
    ta.send_keys("MATCH (n RETURN n")
    browser.find_element(By.ID, "run-cypher").click()
    alert = wait_for(browser, "#cypher-out [role=alert]")
    assert "line 1" in alert.text.lower() or "syntax" in alert.text.lower()


def test_every_control_is_labelled(ui, browser):
    unlabelled_js = """
      const bad = [];
      for (const e of document.querySelectorAll('input, textarea, select, button, [role=combobox], [role=listbox]')) {
        const id = e.id && document.querySelector(`label[for="${e.id}"]`);
        const name = e.getAttribute('aria-label') || e.getAttribute('aria-labelledby') || (id && id.textContent.trim()) || (e.closest('label') && e.closest('label').textContent.trim()) || (e.tagName === 'BUTTON' && e.textContent.trim());
        if (!name) bad.push(e.outerHTML.slice(0, 80));
      }
      return bad;"""
    for page in ("", "#/symbol?name=User.rename", "#/files", "#/impact", "#/cypher"):
        browser.get(ui.url("/ui/" + page))
        wait_js(browser, "return document.querySelector('main h1') && !document.querySelector('main').textContent.includes('loading')")
        assert browser.execute_script(unlabelled_js) == [], page
    screenshot(browser, "home-desktop")
