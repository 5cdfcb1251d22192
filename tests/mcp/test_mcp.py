"""navegador's MCP server driven by the official Python SDK, over stdio and streamable HTTP,
on the fixture repository (tests/mcp/fixture). Each tool is called with asserted results;
read-only mode, bad input, path checks and the HTTP protections are exercised too."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
from pathlib import Path

import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from conftest import HERE, pg_database, start_http

GOLDEN = HERE / "tools.golden.json"
IMPLEMENTED = [
    "ingest",
    "context",
    "function",
    "class",
    "explain",
    "blast_radius",
    "changes",
    "search",
    "query",
    "get_rationale",
    "find_owners",
    "search_knowledge",
]
# The navigation tools served beside them (tests/mcp/test_code_tools.py covers them;
# code.detect_changes, tests/mcp/test_changes.py).
CODE_TOOLS = [
    "code.inspect_tree",
    "code.list_endpoints",
    "code.find_symbol",
    "code.search_text",
    "code.trace_symbol",
    "code.trace_callers",
    "code.detect_changes",
]
# Tools that may change the graph on a writable server (`query` runs CREATE/SET/DELETE).
WRITERS = {"ingest", "query"}


def stdio(binary: str, root: Path, *extra: str, env: dict | None = None) -> StdioServerParameters:
    return StdioServerParameters(
        command=binary, args=["mcp", "--workspace-root", str(root), *extra], cwd=str(root), env=env
    )


def session(target, body):
    """Runs `body(client)` in one MCP session with `target` (stdio params, URL or transport)."""

    async def main():
        async with Client(target) as client:
            return await body(client)

    return asyncio.run(main())


def ok(result) -> dict:
    assert not result.is_error, result.content[0].text
    s = result.structured_content
    # The text content is the same JSON (unless a tool renders markdown).
    assert json.loads(result.content[0].text) == s
    return s


def err(result) -> str:
    assert result.is_error, result
    return result.content[0].text


@pytest.fixture(scope="module")
def http_server(binary, workspace):
    server = start_http(binary, workspace)
    yield server
    assert server.stop() == 0, "graceful shutdown exits 0"


@pytest.fixture(scope="module")
def http_server_pg(binary, pg_workspace):
    root, url = pg_workspace
    server = start_http(binary, root, "--db", url)
    yield server
    assert server.stop() == 0, "graceful shutdown exits 0"


# Every tool test runs over both transports, on the SQLite default and on PostgreSQL (the
# same fixture indexed into a real server; the answers must be the same).
@pytest.fixture(params=["stdio", "http", "stdio-postgres", "http-postgres"])
def target(request, binary, workspace):
    if request.param == "stdio":
        return stdio(binary, workspace)
    if request.param == "http":
        return request.getfixturevalue("http_server").url
    if request.param == "stdio-postgres":
        root, url = request.getfixturevalue("pg_workspace")
        return stdio(binary, root, "--db", url)
    return request.getfixturevalue("http_server_pg").url


# -- the contract ---------------------------------------------------------------------------


def raw_stdio(binary: str, root: Path, messages: list[dict], env: dict | None = None) -> tuple[list[str], str]:
    """Speaks JSON-RPC by hand; returns stdout lines and stderr."""
    data = "".join(json.dumps(m) + "\n" for m in messages)
    p = subprocess.run(
        [binary, "mcp", "--workspace-root", str(root)],
        input=data,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
        cwd=root,
    )
    return p.stdout.splitlines(), p.stderr


INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}


def test_stdout_carries_only_jsonrpc_and_tools_list_matches_golden(binary, workspace):
    messages = [
        INIT,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "function", "arguments": {"name": "log"}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "function", "arguments": {"name": 7}}},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "ingest", "arguments": {"path": "."}}},
        {"jsonrpc": "2.0", "id": 6, "method": "ping"},
    ]
    lines, stderr = raw_stdio(binary, workspace, messages, env={"NAVEGADOR_LOG": "debug"})
    replies = {}
    for line in lines:
        m = json.loads(line)  # every stdout line is a JSON-RPC message, nothing else
        assert m.get("jsonrpc") == "2.0", line
        if "id" in m:
            replies[m["id"]] = m
    assert set(replies) == {1, 2, 3, 4, 5, 6}, replies.keys()
    assert stderr.strip(), "debug logs go to stderr"
    golden = json.loads(GOLDEN.read_text())
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps({"tools": replies[2]["result"]["tools"]}, indent=2, sort_keys=True) + "\n")
    assert replies[2]["result"] == golden
    assert [t["name"] for t in golden["tools"]] == IMPLEMENTED + CODE_TOOLS
    # Issue 12's budget: every session pays for tools/list (scripts/tools_list_size.py
    # prints it per tool).
    assert len(json.dumps(replies[2]["result"])) < 30_000
    assert replies[4]["result"]["isError"] is True
    assert replies[5]["result"].get("isError") is not True


def test_client_sees_schemas_and_annotations(target):
    async def body(c):
        return (await c.list_tools()).tools

    tools = session(target, body)
    golden = {t["name"]: t for t in json.loads(GOLDEN.read_text())["tools"]}
    assert [t.name for t in tools] == IMPLEMENTED + CODE_TOOLS
    for t in tools:
        assert t.input_schema == golden[t.name]["inputSchema"]
        assert t.output_schema == golden[t.name]["outputSchema"]
        assert t.annotations.read_only_hint is (t.name not in WRITERS)


# -- every tool ------------------------------------------------------------------------------


def ends(r: dict, e: dict) -> tuple[str, str]:
    """An edge's two ends by name: a listed node is named once, by its entry (the target or
    one of `nodes`); an edge names only the ends listed nowhere else."""
    named = {n["id"]: n.get("qualified_name", n["name"]) for n in [r["target"], *r["nodes"]]}
    return e.get("source_name", named.get(e["source"])), e.get("target_name", named.get(e["target"]))


def test_function(target):
    async def body(c):
        r = ok(await c.call_tool("function", {"name": "User.rename"}))
        assert r["target"]["qualified_name"] == "app.models.User.rename"
        assert r["target"]["signature"] == "def rename(self, name)"
        calls = [e for e in r["edges"] if e["type"] == "CALLS"]
        callees = {ends(r, e)[1] for e in calls if ends(r, e)[0] == "app.models.User.rename"}
        # Each node is named once: the edges between listed nodes carry ids only.
        assert all("source_name" not in e and "target_name" not in e for e in r["edges"])
        assert {"app.util.clean", "app.util.log", "app.base.Base.save"} <= callees
        assert all(e["line"] and e["resolution"] and e["file_path"] for e in calls)
        callers = [n for n in r["nodes"] if n["relation"] == "caller"]
        assert [n["qualified_name"] for n in callers] == ["app.models.Admin.promote"]
        # `super()` and `logging.info` are the language's and the stdlib's: external, not
        # unresolved.
        assert r["metadata"]["unresolved_count"] == 0

        # Depth: a caller's caller; a huge depth is clamped, and said.
        r = ok(await c.call_tool("function", {"name": "validate", "depth": 2}))
        assert any(n["name"] == "__init__" and n["distance"] == 2 for n in r["nodes"])
        r = ok(await c.call_tool("function", {"name": "log", "depth": 10**9}))
        assert r["metadata"]["depth"] == 10 and any("clamped" in n for n in r["metadata"]["notes"])
        assert r["target"]["docstring"] == "Log a message at info level."

        # Decorators.
        r = ok(await c.call_tool("function", {"name": "create"}))
        assert any(n["relation"] == "decorator" and n["name"] == "classmethod" for n in r["nodes"])

        # An ambiguous name lists the candidates and never picks one.
        text = err(await c.call_tool("function", {"name": "clean"}))
        assert "matches 2 nodes" in text and "app/util.py" in text and "app/text.py" in text
        r = ok(await c.call_tool("function", {"name": "clean", "file": "app/util.py"}))
        assert r["target"]["qualified_name"] == "app.util.clean"

        # Bad input is a tool error naming the fix; the server keeps serving.
        assert "must not be empty" in err(await c.call_tool("function", {"name": "  "}))
        assert "invalid arguments" in err(await c.call_tool("function", {"name": 5}))
        assert "no function or method named" in err(await c.call_tool("function", {"name": "nope_nothing"}))
        assert "unknown tool" in err(await c.call_tool("no_such_tool", {}))
        await c.list_tools()

    session(target, body)


def test_class(target):
    async def body(c):
        r = ok(await c.call_tool("class", {"name": "User"}))
        rel = {(n["relation"], n["name"]) for n in r["nodes"]}
        assert {("base", "Base"), ("subclass", "Admin"), ("member", "__init__"), ("member", "rename")} <= rel
        assert ("reference", "make") in rel  # User("a") in views.make
        r = ok(await c.call_tool("class", {"name": "Square"}))
        assert ("interface", "Shape") in {(n["relation"], n["name"]) for n in r["nodes"]}
        r = ok(await c.call_tool("class", {"name": "Shape"}))
        assert ("implementation", "Square") in {(n["relation"], n["name"]) for n in r["nodes"]}
        assert "no class named" in err(await c.call_tool("class", {"name": "log"}))

    session(target, body)


def test_context(target):
    async def body(c):
        r = ok(await c.call_tool("context", {"file": "app/models.py"}))
        assert r["target"]["type"] == "File"
        # The compact default: one outline line per symbol, with its signature.
        assert r["outline"][:3] == ["6-14 class User(Base)", "  7-9 def __init__(self, name)", "  11-14 def rename(self, name)"]
        assert r["metadata"]["totals"]["defined"] == 5
        full = ok(await c.call_tool("context", {"file": "app/models.py", "full": True}))
        defined = {n.get("qualified_name") for n in full["nodes"] if n["relation"] == "defined"}
        assert {"app.models.User", "app.models.Admin", "app.models.User.rename"} <= defined
        imports = {n["file_path"] for n in r["nodes"] if n["relation"] == "imports"}
        assert {"app/base.py", "app/util.py"} <= imports
        assert {n["file_path"] for n in r["nodes"] if n["relation"] == "imported_by"} >= {"app/views.py", "app/__init__.py"}

        md = await c.call_tool("context", {"file": "app/views.py", "format": "markdown"})
        assert not md.is_error
        text = md.content[0].text
        assert text.startswith("# File `app/views.py`") and "## Relationships" in text and "## Unresolved" in text
        assert md.structured_content["target"]["file_path"] == "app/views.py"

        assert "leaves the workspace root" in err(await c.call_tool("context", {"file": "../../etc/passwd"}))
        assert "outside the workspace root" in err(await c.call_tool("context", {"file": "/etc/passwd"}))
        assert "not in the graph" in err(await c.call_tool("context", {"file": "nothing/here.py"}))
        assert "invalid arguments" in err(await c.call_tool("context", {"file": "app/views.py", "format": "yaml"}))

    session(target, body)


def test_explain(target):
    async def body(c):
        r = ok(await c.call_tool("explain", {"name": "Base"}))
        assert r["target"]["qualified_name"] == "app.base.Base"
        assert any(e["type"] == "INHERITS" and ends(r, e)[0] == "app.models.User" for e in r["edges"])
        assert any(e["type"] == "CONTAINS" and ends(r, e)[1] == "app.base.Base.save" for e in r["edges"])
        r = ok(await c.call_tool("explain", {"name": "app/util.py"}))
        assert r["target"]["type"] == "File"
        r = ok(await c.call_tool("explain", {"name": "Shape"}))
        assert r["target"]["kind"] == "interface"

    session(target, body)


def test_blast_radius(target):
    async def body(c):
        r = ok(await c.call_tool("blast_radius", {"name": "Base.save"}))
        assert r["target"]["qualified_name"] == "app.base.Base.save"
        d = [i["distance"] for i in r["items"]]
        assert d == sorted(d) and d[0] == 1
        names = {i["qualified_name"]: i for i in r["items"]}
        assert {"app.models.User.__init__", "app.models.User.rename", "app.views.handler"} <= set(names)
        promote = names["app.models.Admin.promote"]
        assert promote["distance"] == 2 and promote["relation"] == "caller"
        assert promote["depends_on"]["name"] == "app.models.User.rename" and promote["depends_on"]["via"] == "CALLS"
        assert {o["name"] for o in r["owners"]} >= {"alice"}
        for key in ("total", "groups", "tests", "imports", "truncated", "depth", "unresolved_count", "unresolved"):
            assert key in r
        # Whole paths on request.
        r = ok(await c.call_tool("blast_radius", {"name": "Base.save", "paths": True}))
        promote = {i["qualified_name"]: i for i in r["items"]}["app.models.Admin.promote"]
        assert [h["name"] for h in promote["path"]] == ["app.base.Base.save", "app.models.User.rename", "app.models.Admin.promote"]

        r = ok(await c.call_tool("blast_radius", {"name": "log", "depth": 1}))
        assert {i["qualified_name"] for i in r["items"]} >= {"app.views.make", "app.models.User.rename"}
        assert all(i["distance"] == 1 for i in r["items"])
        # A name called where the graph could not resolve it is counted, not ignored.
        r = ok(await c.call_tool("blast_radius", {"name": "handler"}))
        assert r["items"] == [] and r["unresolved_count"] == 0
        r = ok(await c.call_tool("blast_radius", {"name": "promote"}))
        assert r["unresolved_count"] == 0 and any(i["name"] == "handler" for i in r["items"])

    session(target, body)


def test_search(target):
    async def body(c):
        # Ranked: the exact name matches first, each with its rank and why it matched.
        r = ok(await c.call_tool("search", {"query": "clean"}))
        assert r["query"] == "clean" and r["limit"] == 20 and r["truncated"] is False
        assert [i["rank"] for i in r["items"]] == list(range(1, r["count"] + 1))
        top = r["items"][:2]
        assert {i["qualified_name"] for i in top} == {"app.util.clean", "app.text.clean"}
        assert all(i["match"] == "exact" and i["type"] == "Function" and i["file_path"] for i in top)
        # Docstrings are searched too (text matches rank after name matches).
        r = ok(await c.call_tool("search", {"query": "info level"}))
        assert r["items"][0]["qualified_name"] == "app.util.log" and r["items"][0]["match"] == "text"
        # Code only by default; `all` reaches the knowledge layer.
        r = ok(await c.call_tool("search", {"query": "Validate before save"}))
        assert all(i["type"] != "Decision" for i in r["items"])
        r = ok(await c.call_tool("search", {"query": "Validate before save", "all": True}))
        assert r["items"][0]["type"] == "Decision" and r["items"][0]["match"] == "exact"
        # Limits: cut (and said), clamped (and said).
        r = ok(await c.call_tool("search", {"query": "clean", "limit": 1}))
        assert r["count"] == 1 and r["truncated"] is True
        r = ok(await c.call_tool("search", {"query": "clean", "limit": 10**9}))
        assert r["limit"] == 200 and any("clamped" in n for n in r["notes"])
        assert "must not be empty" in err(await c.call_tool("search", {"query": " "}))
        r = ok(await c.call_tool("search", {"query": "zzzz_no_such_thing"}))
        assert r["items"] == [] and r["count"] == 0

    session(target, body)


def test_search_knowledge(target):
    async def body(c):
        r = ok(await c.call_tool("search_knowledge", {"query": "validate"}))
        assert r["count"] >= 1 and all(i["file_path"] is None for i in r["items"] if "file_path" in i)
        d = r["items"][0]
        assert d["type"] == "Decision" and d["name"] == "Validate before save" and d["status"] == "accepted"
        # Knowledge only: code named `validate` is not listed.
        assert all(i["type"] not in ("Function", "Method", "Class", "File") for i in r["items"])
        r = ok(await c.call_tool("search_knowledge", {"query": "clean"}))
        assert r["items"] == []

    session(target, body)


def test_get_rationale(target):
    async def body(c):
        r = ok(await c.call_tool("get_rationale", {"name": "Base.save"}))
        assert r["subject"]["qualified_name"] == "app.base.Base.save" and r["complete"] is True
        d = r["items"][0]
        assert d["type"] == "Decision" and d["name"] == "Validate before save"
        assert d["relationship"] in ("GOVERNS", "DOCUMENTS") and d["via"] == "direct"
        assert d["date"] == "2026-01-15"
        assert "validate" in d["rationale"].lower()
        assert r["count"] == len(r["items"])
        # Nothing recorded: an empty, complete answer.
        r = ok(await c.call_tool("get_rationale", {"name": "log"}))
        assert r["items"] == [] and r["count"] == 0
        # Ambiguous and unknown names are tool errors naming the fix.
        text = err(await c.call_tool("get_rationale", {"name": "clean"}))
        assert "app/util.py" in text and "app/text.py" in text
        r = ok(await c.call_tool("get_rationale", {"name": "clean", "file": "app/text.py"}))
        assert r["subject"]["qualified_name"] == "app.text.clean"
        assert "nope_nothing" in err(await c.call_tool("get_rationale", {"name": "nope_nothing"}))

    session(target, body)


def test_find_owners(target):
    async def body(c):
        r = ok(await c.call_tool("find_owners", {"name": "User"}))
        assert r["subject"]["qualified_name"] == "app.models.User" and r["complete"] is True
        owners = {(i["type"], i["name"]): i for i in r["items"]}
        assert set(owners) == {("Person", "alice"), ("Person", "acme/models")}
        assert owners[("Person", "alice")]["source"] == "codeowners:app/models.py"
        assert owners[("Person", "alice")]["via"] == "file app/models.py"
        # The last matching CODEOWNERS line wins: util.py falls under `*`.
        r = ok(await c.call_tool("find_owners", {"name": "log"}))
        assert [(i["type"], i["name"], i["source"]) for i in r["items"]] == [("Person", "lead", "codeowners:*")]
        r = ok(await c.call_tool("find_owners", {"name": "app/models.py"}))
        assert {i["name"] for i in r["items"]} == {"alice", "acme/models"}
        assert "must not be empty" in err(await c.call_tool("find_owners", {"name": ""}))

    session(target, body)


def test_query(target):
    async def body(c):
        r = ok(
            await c.call_tool(
                "query",
                {
                    "cypher": "MATCH (c:Class) WHERE c.name = $name RETURN c.qualified_name AS q, c.file_path AS f",
                    "params": {"name": "User"},
                },
            )
        )
        assert r["columns"] == ["q", "f"]
        assert r["items"] == [{"q": "app.models.User", "f": "app/models.py"}]
        assert r["count"] == 1 and r["truncated"] is False and r["stats"]["nodes_created"] == 0
        r = ok(
            await c.call_tool(
                "query",
                {"cypher": "MATCH (s:Class)-[:INHERITS]->(b:Class {name: 'Base'}) RETURN s.name AS sub ORDER BY sub"},
            )
        )
        assert [row["sub"] for row in r["items"]] == ["User"]
        # Nodes come back as objects with their labels and properties.
        r = ok(await c.call_tool("query", {"cypher": "MATCH (d:Decision) RETURN d"}))
        node = r["items"][0]["d"]
        assert "Decision" in json.dumps(node) and "Validate before save" in json.dumps(node)
        # A syntax error names the line and column, also as structured content.
        res = await c.call_tool("query", {"cypher": "MATCH (n RETURN n"})
        text = err(res)
        assert "syntax error at line 1, column" in text
        assert res.structured_content["position"]["line"] == 1
        assert "must not be empty" in err(await c.call_tool("query", {"cypher": ""}))
        assert "invalid arguments" in err(await c.call_tool("query", {"cypher": "RETURN 1", "params": [1]}))
        # A name the graph lacks still runs (0 rows) and says what was probably meant.
        r = ok(await c.call_tool("query", {"cypher": "MATCH (f:Func)-[:CALL]->(g) RETURN f.path"}))
        assert r["count"] == 0
        got = {w["code"]: w["suggestions"] for w in r["warnings"]}
        assert got == {"UnknownLabelWarning": ["Function"], "UnknownRelationshipTypeWarning": ["CALLS"]}, r["warnings"]
        assert r["warnings"][0]["line"] == 1 and "did you mean `:Function`" in r["warnings"][0]["message"]
        r = ok(await c.call_tool("query", {"cypher": "MATCH (f:Function) RETURN f.path LIMIT 1"}))
        assert [w["suggestions"] for w in r["warnings"]] == [["file_path"]]
        assert "warnings" not in ok(await c.call_tool("query", {"cypher": "MATCH (f:Function) RETURN f.file_path LIMIT 1"}))
        # Read-only procedures, allowed by the read-only server.
        r = ok(await c.call_tool("query", {"cypher": "CALL db.labels() YIELD label RETURN label"}))
        labels = [row["label"] for row in r["items"]]
        assert "Function" in labels and "Class" in labels and labels == sorted(labels)
        r = ok(await c.call_tool("query", {"cypher": "CALL db.relationshipTypes()"}))
        assert "CALLS" in [row["relationshipType"] for row in r["items"]]
        r = ok(await c.call_tool("query", {"cypher": "CALL db.propertyKeys()"}))
        assert "file_path" in [row["propertyKey"] for row in r["items"]]

    session(target, body)


def test_query_writes_on_a_writable_server(binary, fresh_workspace):
    subprocess.run([binary, "ingest", str(fresh_workspace)], check=True, capture_output=True)

    async def body(c):
        r = ok(await c.call_tool("query", {"cypher": "CREATE (:Concept {name: 'Caching', description: 'Keep hot rows'})"}))
        assert r["stats"]["nodes_created"] == 1 and r["items"] == []
        r = ok(await c.call_tool("query", {"cypher": "MATCH (k:Concept {name: 'Caching'}) RETURN k.description AS d"}))
        assert r["items"] == [{"d": "Keep hot rows"}]
        tools = {t.name: t for t in (await c.list_tools()).tools}
        assert tools["query"].annotations.read_only_hint is False

    session(stdio(binary, fresh_workspace), body)


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_query_complexity_limit(binary, workspace, transport):
    async def body(c):
        text = err(await c.call_tool("query", {"cypher": "MATCH (a), (b), (c) RETURN count(*) AS n"}))
        assert "too complex" in text and "max-query-complexity" in text
        r = ok(await c.call_tool("query", {"cypher": "MATCH (c:Class {name: 'User'}) RETURN c.name AS n"}))
        assert r["items"] == [{"n": "User"}]

    args = ("--max-query-complexity", "1000")
    if transport == "stdio":
        session(stdio(binary, workspace, *args), body)
    else:
        server = start_http(binary, workspace, *args)
        try:
            session(server.url, body)
        finally:
            assert server.stop() == 0


# -- ingest, read-only, broken databases -----------------------------------------------------


def test_ingest_with_progress(binary, fresh_workspace):
    progress = []

    async def on_progress(p, total, message):
        progress.append((p, message))

    async def body(c):
        text = err(await c.call_tool("function", {"name": "log"}))
        assert "no graph at" in text and "ingest" in text
        r = ok(await c.call_tool("ingest", {"path": "."}, progress_callback=on_progress))
        assert r["files"] == 7 and r["parsed"] == 7
        assert r["symbols"]["Function"] >= 8 and r["relationships"] > 0
        assert r["call_sites"]["unresolved"] >= 1
        ok(await c.call_tool("function", {"name": "log"}))
        r = ok(await c.call_tool("ingest", {"path": ".", "clear": True}))
        assert r["parsed"] == 7
        r = ok(await c.call_tool("ingest", {"path": "."}))
        assert r["parsed"] == 0 and r["unchanged"] == 7
        assert "outside the workspace root" in err(await c.call_tool("ingest", {"path": ".."}))
        assert "is a file" in err(await c.call_tool("ingest", {"path": "app/util.py"}))

    # --no-watch: this server must not index the workspace by itself on start.
    session(stdio(binary, fresh_workspace, "--no-watch"), body)
    assert progress, "ingest sends progress notifications when asked"
    values = [p for p, _ in progress]
    assert values == sorted(values)
    assert any("parsing" in (m or "") for _, m in progress)


def test_ingest_and_writes_on_postgres(binary, fresh_workspace):
    """The `ingest` tool and Cypher writes into a PostgreSQL graph; a read-only server on
    the same database refuses both and still answers; nothing is written to the workspace."""
    url = pg_database("mcp_write")

    async def body(c):
        text = err(await c.call_tool("function", {"name": "log"}))
        assert "no navegador graph yet" in text and "ingest" in text, text
        assert "navegador:" not in text or "***" in text, "the password never shows"
        r = ok(await c.call_tool("ingest", {"path": "."}))
        assert r["files"] == 7 and r["parsed"] == 7 and r["relationships"] > 0
        r = ok(await c.call_tool("ingest", {"path": "."}))
        assert r["parsed"] == 0 and r["unchanged"] == 7
        f = ok(await c.call_tool("function", {"name": "log"}))
        assert f["target"]["file_path"] == "app/util.py"
        ok(await c.call_tool("query", {"cypher": "CREATE (:Concept {name: 'Caching'})"}))
        rows = ok(await c.call_tool("query", {"cypher": "MATCH (c:Concept {name: 'Caching'}) RETURN c.name AS n"}))
        assert rows["items"] == [{"n": "Caching"}], rows
        hits = ok(await c.call_tool("search_knowledge", {"query": "caching"}))
        assert any(h["name"] == "Caching" for h in hits["items"]), hits

    session(stdio(binary, fresh_workspace, "--no-watch", "--db", url), body)
    assert not (fresh_workspace / ".navegador").exists(), "a PostgreSQL graph leaves no file in the workspace"

    async def read_only(c):
        assert "read-only" in err(await c.call_tool("ingest", {"path": "."}))
        assert "read-only" in err(await c.call_tool("query", {"cypher": "CREATE (:X)"})).lower()
        ok(await c.call_tool("function", {"name": "log"}))

    session(stdio(binary, fresh_workspace, "--read-only", "--db", url), read_only)


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_read_only(binary, workspace, transport):
    async def body(c):
        text = err(await c.call_tool("ingest", {"path": "."}))
        assert "read-only" in text and "navegador ingest" in text
        ok(await c.call_tool("function", {"name": "log"}))
        # `query` accepts only reads, decided on the parsed query; the graph is unchanged.
        res = await c.call_tool("query", {"cypher": "CREATE (:Concept {name: 'Sneaky'}) RETURN 1"})
        text = err(res)
        assert "read-only" in text and "CREATE" in text
        assert res.structured_content["read_only"] is True
        r = ok(await c.call_tool("query", {"cypher": "MATCH (k:Concept {name: 'Sneaky'}) RETURN count(k) AS n"}))
        assert r["items"] == [{"n": 0}]
        tools = {t.name: t for t in (await c.list_tools()).tools}
        assert tools["query"].annotations.read_only_hint is True

    if transport == "stdio":
        session(stdio(binary, workspace, "--read-only"), body)
    else:
        server = start_http(binary, workspace, "--read-only")
        try:
            session(server.url, body)
        finally:
            assert server.stop() == 0


def test_broken_databases(binary, tmp_path, workspace):
    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"this is not sqlite at all" * 100)
    other = tmp_path / "other.db"
    import sqlite3

    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()

    for db, expect in [(corrupt, "delete it"), (other, "not a navegador graph"), (tmp_path / "missing.db", "no graph at")]:

        async def body(c, expect=expect):
            text = err(await c.call_tool("function", {"name": "log"}))
            assert expect in text, text
            await c.list_tools()
            assert expect in err(await c.call_tool("class", {"name": "User"}))

        session(stdio(binary, workspace, "--db", str(db), "--no-watch"), body)


# -- streamable HTTP for teams ---------------------------------------------------------------


def post_init(url: str, headers: dict | None = None, content: bytes | None = None) -> httpx2.Response:
    h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", **(headers or {})}
    with httpx2.Client(timeout=30) as http:
        return http.post(url, headers=h, content=content if content is not None else json.dumps(INIT).encode())


def test_http_rejects_rebinding_and_huge_bodies(http_server):
    assert post_init(http_server.url).status_code == 200
    host = http_server.url.split("/")[2]
    port = host.rsplit(":", 1)[1]
    assert post_init(http_server.url, {"Host": f"evil.example:{port}"}).status_code == 403
    assert post_init(http_server.url, {"Origin": "http://evil.example"}).status_code == 403
    assert post_init(http_server.url, {"Origin": f"http://localhost:{port}"}).status_code == 200
    assert post_init(http_server.url, content=b"{" + b" " * (5 * 1024 * 1024) + b"}").status_code == 413


def test_http_bearer_token(binary, workspace):
    server = start_http(binary, workspace, env={"NAVEGADOR_AUTH_TOKEN": "s3cret"})
    try:
        r = post_init(server.url)
        assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
        assert post_init(server.url, {"Authorization": "Bearer wrong"}).status_code == 401

        async def body(c):
            return ok(await c.call_tool("function", {"name": "log"}))

        transport = streamable_http_client(
            server.url, http_client=httpx2.AsyncClient(headers={"Authorization": "Bearer s3cret"}, timeout=30)
        )
        assert session(transport, body)["target"]["name"] == "log"
    finally:
        assert server.stop() == 0


def test_http_non_loopback_bind_needs_a_token(binary, workspace):
    p = subprocess.run(
        [binary, "mcp", "--transport", "streamable-http", "--host", "0.0.0.0", "--port", "0", "--workspace-root", str(workspace)],
        capture_output=True,
        text=True,
        timeout=30,
        env={k: v for k, v in os.environ.items() if k != "NAVEGADOR_AUTH_TOKEN"},
    )
    assert p.returncode != 0 and "auth-token" in p.stderr and p.stdout == ""


def test_http_concurrent_sessions(http_server):
    async def one(i: int):
        async with Client(http_server.url) as c:
            for _ in range(5):
                r = await c.call_tool("function", {"name": "log"})
                assert not r.is_error
            return i

    async def main():
        return await asyncio.gather(*(one(i) for i in range(12)))

    assert sorted(asyncio.run(main())) == list(range(12))


def test_http_graceful_shutdown(binary, workspace):
    server = start_http(binary, workspace)
    assert post_init(server.url).status_code == 200
    server.proc.send_signal(signal.SIGTERM)
    assert server.proc.wait(timeout=15) == 0
