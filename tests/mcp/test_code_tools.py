"""The `code.*` tools through `navigation-mcp` (the original server's command line),
driven by the official Python SDK over stdio and streamable HTTP, on a copy of the
navigation fixture workspace (crates/navegador-nav/tests/fixtures/shop). The server indexes
the workspace on start and keeps the index fresh; the freshness test edits files and sees
the next answers change."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from conftest import HERE, REPO, HttpServer, navegador_bin, pg_database

FIXTURE = REPO / "crates" / "navegador-nav" / "tests" / "fixtures" / "shop"
GOLDEN = HERE / "code_tools.golden.json"
TOOLS = [
    "code.inspect_tree",
    "code.list_endpoints",
    "code.find_symbol",
    "code.search_text",
    "code.trace_symbol",
    "code.trace_callers",
    "code.detect_changes",
]
ENVELOPE = {"tool", "status", "summary", "data", "errors", "meta"}


def nav_bin() -> str:
    b = Path(navegador_bin()).with_name("navigation-mcp")
    if not b.exists():
        pytest.fail(f"{b} does not exist: build it with `cargo build --release -p navegador-cli`")
    return str(b)


def make_workspace(dest: Path, fixture: Path = FIXTURE) -> Path:
    root = dest / fixture.name
    shutil.copytree(fixture, root)
    # What git does not keep in the fixture: an ignored file and a dependency folder.
    (root / "ignored.txt").write_text("fetchOrder in an ignored file\n")
    (root / "node_modules" / "pkg").mkdir(parents=True)
    (root / "node_modules" / "pkg" / "index.js").write_text("export const fetchOrder = 1;\n")
    return root


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> Path:
    return make_workspace(tmp_path_factory.mktemp("nav"))


def stdio(root: Path, *extra: str, env: dict | None = None) -> StdioServerParameters:
    # The workspace comes from the environment variable, as with the original server.
    return StdioServerParameters(
        command=nav_bin(),
        args=["--transport", "stdio", *extra],
        cwd="/",
        env={**os.environ, "NAVIGATION_MCP_WORKSPACE_ROOT": str(root), **(env or {})},
    )


def start_http(root: Path, *extra: str) -> HttpServer:
    proc = subprocess.Popen(
        [nav_bin(), "--transport", "streamable-http", "--host", "127.0.0.1", "--port", "0", "--path", "/mcp",
         "--workspace-root", str(root), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        line = proc.stderr.readline()
        if not line and proc.poll() is not None:
            raise RuntimeError(f"navigation-mcp exited with {proc.returncode}")
        m = re.search(r"listening on (http://\S+)", line or "")
        if m:
            return HttpServer(proc, m.group(1))
    proc.kill()
    raise RuntimeError("navigation-mcp did not report its address")


def session(target, body):
    async def main():
        async with Client(target) as client:
            return await body(client)

    return asyncio.run(main())


async def call(c, tool: str, args: dict) -> dict:
    r = await c.call_tool(tool, args)
    env = r.structured_content
    assert env is not None, r
    assert json.loads(r.content[0].text) == env, "the text block carries the same JSON"
    assert set(env) == ENVELOPE
    want = "code." + tool[len("code_"):] if tool.startswith("code_") else tool
    assert env["tool"] == want
    assert env["status"] in ("ok", "partial", "error")
    return env


async def settled(c, tool: str, args: dict) -> dict:
    """Calls until the first index is complete: earlier answers must say they are partial."""
    deadline = time.time() + 60
    while True:
        env = await call(c, tool, args)
        incomplete = [e for e in env["errors"] if e["code"] == "INDEX_INCOMPLETE"]
        if not incomplete:
            return env
        assert env["status"] == "partial" and incomplete[0]["retryable"] is True
        assert time.time() < deadline, "the first index did not finish"
        await asyncio.sleep(0.1)


@pytest.fixture(scope="module")
def http_server(shop):
    server = start_http(shop)
    yield server
    assert server.stop() == 0


@pytest.fixture(scope="module")
def shop_pg(tmp_path_factory) -> tuple[Path, str]:
    """Another copy of the workspace, whose graph the server builds in PostgreSQL."""
    return make_workspace(tmp_path_factory.mktemp("navpg")), pg_database("nav")


@pytest.fixture(scope="module")
def http_server_pg(shop_pg):
    root, url = shop_pg
    server = start_http(root, "--db", url)
    yield server
    assert server.stop() == 0


# Over both transports, with the graph in the SQLite default and in PostgreSQL.
@pytest.fixture(params=["stdio", "http", "stdio-postgres", "http-postgres"])
def target(request, shop):
    if request.param == "stdio":
        return stdio(shop)
    if request.param == "http":
        return request.getfixturevalue("http_server").url
    if request.param == "stdio-postgres":
        root, url = request.getfixturevalue("shop_pg")
        return stdio(root, "--db", url)
    return request.getfixturevalue("http_server_pg").url


def test_tools_list_matches_golden(shop):
    async def body(c):
        return (await c.list_tools()).tools

    tools = session(stdio(shop), body)
    listed = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps({"tools": listed}, indent=2, sort_keys=True) + "\n")
    assert [t.name for t in tools] == TOOLS
    assert {"tools": listed} == json.loads(GOLDEN.read_text())
    for t in tools:
        assert t.output_schema and t.input_schema
        assert t.annotations.read_only_hint is True
    # The original's enums, widened to every language and framework we support.
    find = next(t for t in tools if t.name == "code.find_symbol")
    langs = find.input_schema["properties"]["language"]["enum"]
    assert {"typescript", "javascript", "java", "python", "go"} <= set(langs)
    frameworks = find.input_schema["properties"]["framework"]["enum"]
    assert {"react-router", "spring", "express", "nestjs", "fastapi", "flask", "django", "gin", "chi"} <= set(frameworks)


def test_underscore_tool_names(shop):
    async def body(c):
        names = [t.name for t in (await c.list_tools()).tools]
        assert names == [n.replace(".", "_") for n in TOOLS]
        env = await settled(c, "code_find_symbol", {"symbol": "find"})
        assert env["tool"] == "code.find_symbol" and env["data"]["totalMatched"] == 2

    session(stdio(shop, "--tool-names", "underscore"), body)


def test_every_tool(target):
    async def body(c):
        env = await settled(c, "code.find_symbol", {"symbol": "find"})
        assert env["status"] == "ok" and env["summary"] == "Found 2 symbol definitions for 'find'."
        assert [(i["path"], i["kind"]) for i in env["data"]["items"]] == [
            ("src/main/java/com/acme/shop/OrderService.java", "method"),
            ("src/main/java/com/acme/shop/OrderServiceImpl.java", "method"),
        ]

        env = await call(c, "code.inspect_tree", {"max_depth": 1})
        names = [i["path"] for i in env["data"]["items"]]
        assert names[:3] == ["py", "src", "web"], names  # directories first
        assert "node_modules" not in names and ".hidden.ts" not in names
        assert env["meta"]["resolvedPath"] == "."

        env = await call(c, "code.search_text", {"query": "fetchOrder(", "context": 0})
        paths = [i["path"] for i in env["data"]["items"]]
        assert paths == ["web/app/lib/api.ts", "web/app/routes/_index.tsx", "web/app/routes/orders.$id.tsx"], paths
        sub = env["data"]["items"][0]["matches"][0]["submatches"][0]
        assert sub["text"] == "fetchOrder("

        env = await call(c, "code.list_endpoints", {})
        assert env["status"] == "ok"
        rest = [(i["path"], i["name"]) for i in env["data"]["items"] if i["kind"] == "rest"]
        assert ("/orders/{id}", "get") in rest and ("/orders", "create") in rest, rest

        env = await call(c, "code.trace_symbol", {"path": "src/main/java/com/acme/shop/OrderController.java", "symbol": "create"})
        files = [i["path"] for i in env["data"]["items"]]
        assert files[0] == "src/main/java/com/acme/shop/OrderController.java"
        assert "src/main/java/com/acme/shop/OrderServiceImpl.java" in files, "dispatch into the implementation"
        assert all("resolution" in s for s in env["data"]["steps"])

        env = await call(
            c, "code.trace_callers", {"path": "src/main/java/com/acme/shop/OrderServiceImpl.java", "symbol": "load", "recursive": True}
        )
        rec = env["data"]["recursive"]
        assert rec["classifications"]["summary"]["directCallerCount"] == 1
        reasons = {r for e in rec["probableEntryPoints"] for r in e["reasons"]}
        assert "java.method_annotation:@GetMapping" in reasons
        assert rec["classifications"]["implementationInterfaceChain"], "the call through OrderService reaches the implementation"

    session(target, body)


def test_bad_input(target, shop):
    async def body(c):
        await settled(c, "code.find_symbol", {"symbol": "find"})
        env = await call(c, "code.find_symbol", {"symbol": "x", "path": "../missing"})
        assert env["status"] == "error" and env["errors"][0]["code"] == "PATH_OUTSIDE_WORKSPACE"
        assert env["summary"] == "Path validation failed."
        env = await call(c, "code.inspect_tree", {"path": "nope"})
        assert env["errors"][0]["code"] == "FILE_NOT_FOUND" and env["summary"] == "Path not found."
        env = await call(c, "code.search_text", {"query": "   "})
        assert env["errors"][0]["code"] == "INVALID_INPUT"
        assert env["errors"][0]["details"]["issues"][0]["field"] == "query"
        env = await call(c, "code.search_text", {"query": "(unclosed", "regex": True})
        assert env["status"] == "error" and "regular expression" in env["errors"][0]["message"]
        env = await call(c, "code.trace_callers", {"path": "py/app.py", "symbol": "helpr"})
        assert env["errors"][0]["code"] == "SYMBOL_NOT_FOUND"
        assert "helper" in env["errors"][0]["details"]["suggestions"]
        env = await call(c, "code.inspect_tree", {"extensions": ["."]})
        assert env["errors"][0]["code"] == "INVALID_INPUT"
        env = await call(c, "code.find_symbol", {"symbol": "x", "limit": 500})
        assert env["errors"][0]["code"] == "INVALID_INPUT"
        text = json.dumps(env)
        assert str(shop) not in text, "no absolute machine path in an answer"
        assert "127.0.0.1" not in text, "no database URL in an answer"

    session(target, body)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_answers_follow_file_edits(tmp_path, backend):
    root = make_workspace(tmp_path)
    db = ["--db", pg_database("navedit")] if backend == "postgres" else []
    api = root / "web" / "app" / "lib" / "api.ts"

    async def body(c):
        env = await settled(c, "code.find_symbol", {"symbol": "brandNew"})
        assert env["data"]["totalMatched"] == 0
        before = await call(c, "code.trace_callers", {"path": "web/app/lib/api.ts", "symbol": "request"})
        assert before["data"]["count"] == 1

        api.write_text(api.read_text() + "\nexport function brandNew() {\n  return request('/new');\n}\n")
        env = await call(c, "code.find_symbol", {"symbol": "brandNew"})
        assert env["data"]["totalMatched"] == 1, env
        after = await call(c, "code.trace_callers", {"path": "web/app/lib/api.ts", "symbol": "request"})
        assert sorted(i["caller"] for i in after["data"]["items"]) == ["brandNew", "fetchOrder"]

        # Saves right before each call, many times over: each answer sees its save.
        for i in range(8):
            api.write_text(api.read_text() + f"\nexport function rapid{i}() {{\n  return request('/r{i}');\n}}\n")
            env = await call(c, "code.find_symbol", {"symbol": f"rapid{i}"})
            assert env["data"]["totalMatched"] == 1, (i, env)

        (root / "py" / "app.py").unlink()
        env = await call(c, "code.find_symbol", {"symbol": "helper"})
        assert env["data"]["totalMatched"] == 0, env

    session(stdio(root, *db), body)


def test_stdout_carries_only_jsonrpc(shop):
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
    msgs = [
        init,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "code.search_text", "arguments": {"query": "find"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "code.find_symbol", "arguments": {"symbol": "find"}}},
    ]
    p = subprocess.run(
        [nav_bin(), "--transport", "stdio"],
        input="".join(json.dumps(m) + "\n" for m in msgs),
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "NAVIGATION_MCP_WORKSPACE_ROOT": str(shop), "NAVEGADOR_LOG": "debug"},
    )
    ids = set()
    for line in p.stdout.splitlines():
        m = json.loads(line)
        assert m.get("jsonrpc") == "2.0", line
        ids.add(m.get("id"))
    assert {1, 2, 3} <= ids
    assert p.stderr.strip(), "logs go to stderr"


CASES = REPO / "crates" / "navegador-nav" / "tests" / "cases.txt"
GOLDEN_DIR = CASES.parent / "golden"


def stabilize(v):
    if isinstance(v, dict):
        return {k: ("<mtime>" if k == "modifiedAt" and isinstance(x, str) else stabilize(x)) for k, x in v.items()}
    if isinstance(v, list):
        return [stabilize(x) for x in v]
    return v


@pytest.mark.parametrize("ws", ["shop", "answers"])
def test_fixture_cases_over_mcp(tmp_path, ws):
    """Every case of crates/navegador-nav/tests/cases.txt on a folder fixture, asked through
    the SDK: the same envelope as its golden file (and, by conftest, valid against the
    published output schema)."""
    cases = []
    for line in CASES.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and line.split(" ", 1)[0] == ws:
            _, name, tool, args = (line.split(" ", 3) + ["{}"])[:4]
            cases.append((name, tool, json.loads(args)))
    assert cases
    root = make_workspace(tmp_path, CASES.parent / "fixtures" / ws)

    async def body(c):
        await settled(c, "code.find_symbol", {"symbol": "x"})
        for name, tool, args in cases:
            env = await call(c, tool, args)
            want = json.loads((GOLDEN_DIR / f"{name}.json").read_text())
            assert stabilize(env) == want, f"case {name} differs from its golden file"

    session(stdio(root), body)
