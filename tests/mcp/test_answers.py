"""Answers an agent can trust and afford (issue 12), through the official SDK over stdio
and streamable HTTP: ambiguous edges counted and listed only on request, every list paged
(`limit`, `offset`, `next_offset`, totals true to the whole answer), qualified names by
whole segments and overloads by line, decorators as uses, source on request (bounded, a
binary or vanished file a note), INDEX_INCOMPLETE while the first index builds, search
that ranks definitions and source first; bad input a clear error or a noted clamp."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from conftest import HERE, start_http
from test_mcp import err, ok, session, stdio

# Files added to the fixture repository for these answers.
EXTRA = {
    "pkg/__init__.py": "",
    "pkg/query.py": (
        "class Query:\n"
        "    def join(self, other):\n"
        "        return self.combine(other)\n\n"
        "    def combine(self, other):\n"
        "        return self.join(other)\n\n\n"
        "def build(parts, obj):\n"
        "    sep = \", \".join(parts)\n"
        "    return obj.join(sep)\n"
    ),
    "pkg/paths.py": "class Path:\n    def join(self, *parts):\n        return Path()\n",
    "pkg/fields.py": (
        "class Field:\n    def deconstruct(self):\n        return 1\n\n\n"
        "class CharField(Field):\n    def deconstruct(self):\n        return 2\n"
    ),
    "pkg/scaffold.py": (
        "def setupmethod(f):\n    return f\n\n\n"
        "class Scaffold:\n"
        "    @setupmethod\n    def route(self, rule):\n        return rule\n\n"
        "    @setupmethod\n    def add_url_rule(self, rule):\n        return rule\n"
    ),
    "pkg/blob.py": "def blob():\n    return 1\n",
    "util/Objects.java": (
        "package util;\n\npublic final class Objects {\n"
        "    public static <T> T requireNonNull(T obj) {\n        return obj;\n    }\n\n"
        "    public static <T> T requireNonNull(T obj, String message) {\n        return obj;\n    }\n}\n"
    ),
}


@pytest.fixture(scope="module")
def answers_ws(tmp_path_factory, binary) -> Path:
    root = tmp_path_factory.mktemp("answers") / "repo"
    shutil.copytree(HERE / "fixture", root)
    for rel, text in EXTRA.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    subprocess.run([binary, "ingest", str(root)], check=True, capture_output=True)
    return root


@pytest.fixture(scope="module", params=["stdio", "http"])
def answers(request, binary, answers_ws):
    if request.param == "stdio":
        yield stdio(binary, answers_ws, "--no-watch")
    else:
        server = start_http(binary, answers_ws, "--no-watch")
        yield server.url
        assert server.stop() == 0


def test_ambiguous_edges_are_counted_and_listed_on_request(answers):
    async def body(c):
        r = ok(await c.call_tool("function", {"name": "Query.join"}))
        callers = [n["qualified_name"] for n in r["nodes"] if n["relation"] == "caller"]
        assert callers == ["pkg.query.Query.combine"]
        m = r["metadata"]
        # `obj.join(sep)` (unknown receiver) is counted; `", ".join(parts)` is a str method (external)
        assert m["ambiguous_count"] == 1 and any("include_ambiguous" in n for n in m["notes"])
        r = ok(await c.call_tool("function", {"name": "Query.join", "include_ambiguous": True}))
        build = [n for n in r["nodes"] if n["qualified_name"] == "pkg.query.build"]
        assert build and build[0]["resolution"] == "ambiguous"
        assert any(e["resolution"] == "ambiguous" for e in r["edges"])
        r = ok(await c.call_tool("function", {"name": "Query.join", "min_resolution": "ambiguous"}))
        assert any(n["qualified_name"] == "pkg.query.build" for n in r["nodes"])
        r = ok(await c.call_tool("blast_radius", {"name": "Query.join"}))
        assert r["ambiguous_count"] >= 1 and all(i["name"] != "build" for i in r["items"])
        text = err(await c.call_tool("function", {"name": "Query.join", "min_resolution": "maybe"}))
        assert "`maybe`" in text and "`exact`, `inferred`, `ambiguous`" in text

    session(answers, body)


def test_addressing(answers):
    async def body(c):
        r = ok(await c.call_tool("function", {"name": "Field.deconstruct"}))
        assert r["target"]["qualified_name"] == "pkg.fields.Field.deconstruct"
        res = await c.call_tool("function", {"name": "Objects.requireNonNull"})
        text = err(res)
        cands = res.structured_content["candidates"]
        assert len(cands) == 2 and res.structured_content["candidate_count"] == 2
        assert all(c["select"]["line"] and c["select"]["file"] == "util/Objects.java" for c in cands)
        assert "line=" in text
        second = cands[1]["select"]
        r = ok(await c.call_tool("function", second))
        assert r["target"]["line_start"] == cands[1]["line_start"]
        r = ok(await c.call_tool("function", {"name": "requireNonNull", "file": f"util/Objects.java:{second['line']}"}))
        assert r["target"]["line_start"] == second["line"]

    session(answers, body)


def test_decorators_are_uses(answers):
    async def body(c):
        for tool in ("function", "explain"):
            r = ok(await c.call_tool(tool, {"name": "setupmethod"}))
            decorated = {n["name"] for n in r["nodes"] if n["relation"] == "decorated"}
            assert decorated == {"route", "add_url_rule"}, (tool, r["nodes"])
        r = ok(await c.call_tool("blast_radius", {"name": "setupmethod"}))
        assert {i["name"] for i in r["items"] if i["relation"] == "decorated"} == {"route", "add_url_rule"}

    session(answers, body)


def test_budgets(answers):
    async def body(c):
        r = ok(await c.call_tool("function", {"name": "setupmethod", "limit": 1}))
        m = r["metadata"]
        assert m["totals"]["decorated"] == 2 and m["limit"] == 1 and m["next_offset"] == 1
        assert len([n for n in r["nodes"] if n["relation"] == "decorated"]) == 1
        r2 = ok(await c.call_tool("function", {"name": "setupmethod", "limit": 1, "offset": 1, "relation": "decorated"}))
        assert [n["relation"] for n in r2["nodes"]] == ["decorated"] and r2["nodes"][0]["name"] != r["nodes"][0]["name"]
        # Bad input: clamped and said, never a protocol error nor a silent empty answer.
        r = ok(await c.call_tool("function", {"name": "setupmethod", "limit": 0, "offset": -4}))
        assert r["metadata"]["limit"] == 1 and r["metadata"]["offset"] == 0
        assert any("raised to 1" in n for n in r["metadata"]["notes"])
        r = ok(await c.call_tool("function", {"name": "setupmethod", "offset": 10**12}))
        assert r["nodes"] == [] and any("past the end" in n for n in r["metadata"]["notes"])
        r = ok(await c.call_tool("class", {"name": "User", "limit": 10**9}))
        assert r["metadata"]["limit"] == 200
        assert "unknown relation" in err(await c.call_tool("function", {"name": "setupmethod", "relation": "cousin"}))
        r = ok(await c.call_tool("search", {"query": "clean", "limit": 1, "offset": 1}))
        assert r["offset"] == 1 and r["items"][0]["rank"] == 2

    session(answers, body)


def test_source_on_request(answers, answers_ws):
    async def body(c):
        r = ok(await c.call_tool("function", {"name": "setupmethod", "include_source": True}))
        assert r["source"]["text"] == "def setupmethod(f):\n    return f\n" and r["source"]["truncated"] is False
        r = ok(await c.call_tool("class", {"name": "Scaffold", "include_source": True}))
        assert r["source"]["text"].startswith("class Scaffold:")
        assert "source" not in ok(await c.call_tool("function", {"name": "setupmethod"}))

    session(answers, body)


def test_source_of_a_binary_or_vanished_file_is_a_note(binary, answers_ws, tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(answers_ws, root)
    subprocess.run([binary, "ingest", str(root)], check=True, capture_output=True)
    (root / "pkg" / "blob.py").write_bytes(b"\x00\x01\x02binary")
    (root / "pkg" / "paths.py").unlink()

    async def body(c):
        r = ok(await c.call_tool("function", {"name": "blob", "include_source": True}))
        assert "binary" in r["source"]["unavailable"] and r["source"]["text"] == ""
        r = ok(await c.call_tool("class", {"name": "Path", "include_source": True}))
        assert "no longer exists" in r["source"]["unavailable"]

    session(stdio(binary, root, "--no-watch"), body)


def test_index_incomplete_while_the_first_index_builds(binary, tmp_path):
    """A workspace large enough that the first index takes a while: until it commits, every
    graph tool of the 11 says INDEX_INCOMPLETE (never "no function named"), then answers."""
    root = tmp_path / "big"
    for i in range(1500):
        d = root / f"m{i % 30}"
        d.mkdir(parents=True, exist_ok=True)
        body_ = "".join(f"def f{i}_{j}(x):\n    return g{i}_{j}(x) + h(x)\n\n" for j in range(40))
        (d / f"mod{i}.py").write_text(body_)
    (root / "target.py").write_text("def force_str(s):\n    return str(s)\n")

    async def body(c):
        seen = []
        deadline = time.time() + 120
        while True:
            res = await c.call_tool("function", {"name": "force_str"})
            if not res.is_error:
                break
            seen.append(res.structured_content)
            assert res.structured_content.get("code") == "INDEX_INCOMPLETE", res.content[0].text
            assert "still being built" in res.content[0].text
            for tool, args in [("search", {"query": "force"}), ("context", {"file": "target.py"}), ("query", {"cypher": "RETURN 1"})]:
                r = await c.call_tool(tool, args)
                assert (not r.is_error) or r.structured_content.get("code") == "INDEX_INCOMPLETE", (tool, r.content[0].text)
            assert time.time() < deadline, "the first index did not finish"
            await asyncio.sleep(0.05)
        assert seen, "the first call came before the first index committed"
        assert ok(res)["target"]["qualified_name"] == "target.force_str"

    session(stdio(binary, root), body)


def test_search_ranks_definitions_and_source_first(answers):
    async def body(c):
        r = ok(await c.call_tool("search", {"query": "deconstruct"}))
        assert r["items"][0]["type"] == "Method"
        r = ok(await c.call_tool("search", {"query": "requireNonNull"}))
        assert r["items"][0]["match"] == "exact"
        r = ok(await c.call_tool("search", {"query": "add url rule"}))
        assert r["items"][0]["name"] == "add_url_rule" and r["items"][0]["match"] == "words"

    session(answers, body)
