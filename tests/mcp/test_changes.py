"""The `changes` tool through the official Python SDK, on the fixture git repositories of
the CLI's tests (crates/navegador-cli/tests/changes: workspace.txt committed as `main` and
ingested, then each case's edits): every `run changes ...` step of a case is asked of the
MCP tool with the same arguments (a patch on stdin becomes `diff`), and the answers are
compared with tests/mcp/changes.golden.json (UPDATE_GOLDEN=1 rewrites). The conftest
validates each answer against the published outputSchema.

Both servers run with `--no-watch`, on the graph as the case's steps left it (as the CLI
reads it: `rule-fixed` lists the violation the change removes). The same calls go to
`code.detect_changes` on the `code.*` server (`navigation-mcp`, over stdio): its envelopes are
tests/mcp/detect_changes.golden.json, and their data must be the `changes` answer
camelCased (an error, the same message as an INVALID_INPUT naming the argument). Over
streamable HTTP with the live index on, the server re-indexes first: the graph holds the
new side."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from conftest import HERE, REPO

CASES = REPO / "crates" / "navegador-cli" / "tests" / "changes"
GOLDEN = HERE / "changes.golden.json"
CODE_GOLDEN = HERE / "detect_changes.golden.json"
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t.invalid", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"]


def git(root: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(root)}
    return subprocess.run([*GIT, *args], cwd=root, check=True, capture_output=True, text=True, env=env).stdout


def write_files(root: Path, text: str) -> None:
    path, content = None, []
    for line in text.splitlines():
        if line.startswith("//- "):
            if path:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("".join(content))
            path, content = root / line[4:].strip(), []
        else:
            content.append(line + "\n")
    if path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(content))


def arguments(argv: list[str], stdin: str) -> dict:
    """The tool's arguments for a `changes` command line."""
    args: dict = {}
    it = iter(argv[1:])
    for a in it:
        if a in ("--json", "--markdown"):
            continue
        if a == "--fail-on":
            next(it)  # the exit code is the CLI's; the tool answers the report
            continue
        if a == "--base":
            args["base"] = next(it)
        elif a == "--staged":
            args["staged"] = True
        elif a == "-":
            args["diff"] = stdin
        else:
            args["range"] = a
    return args


def scrub(v):
    if isinstance(v, dict):
        return {k: scrub(x) for k, x in v.items() if k != "id"}
    if isinstance(v, list):
        return [scrub(x) for x in v]
    if isinstance(v, str):
        return re.sub(r"\b[0-9a-f]{40}\b", "<commit>", v)
    return v


async def ask(binary: str, root: Path, calls: list[dict]) -> list:
    # `--no-watch`: the graph as the case's steps left it, as the CLI reads it. A server
    # that indexes on start re-ingests the working tree first, so its graph holds the new
    # side and the violations a change removes cannot be seen (the answer's note says so;
    # the live index is test_detect_changes_over_http_with_the_live_index).
    params = StdioServerParameters(command=binary, args=["mcp", "--workspace-root", str(root), "--no-watch"], cwd=str(root))
    out = []
    async with Client(params) as c:
        for args in calls:
            r = await c.call_tool("changes", args)
            out.append({"arguments": {k: v for k, v in args.items() if k != "diff"}, "error": r.content[0].text} if r.is_error else scrub(r.structured_content))
    return out


def nav_bin(binary: str) -> str:
    b = Path(binary).with_name("navigation-mcp")
    if not b.exists():
        pytest.fail(f"{b} does not exist: build it with `cargo build --release -p navegador-cli`")
    return str(b)


async def ask_code(binary: str, root: Path, calls: list[dict]) -> list:
    params = StdioServerParameters(command=nav_bin(binary), args=["--workspace-root", str(root), "--no-watch"], cwd=str(root))
    out = []
    async with Client(params) as c:
        for args in calls:
            r = await c.call_tool("code.detect_changes", args)
            assert not r.is_error and json.loads(r.content[0].text) == r.structured_content
            out.append(scrub(r.structured_content))
    return out


def camel(v, keep=False):
    """The `changes` answer as code.detect_changes' data: keys camelCased, but byChange's."""
    if isinstance(v, dict):
        def key(k):
            head, *rest = k.split("_")
            return head + "".join(w.title() for w in rest)
        return {(k if keep else key(k)): camel(x, not keep and key(k) == "byChange") for k, x in v.items()}
    if isinstance(v, list):
        return [camel(x) for x in v]
    return v


def run_case(binary: str, tmp: Path, name: str, code: list | None = None) -> list:
    root = tmp / "repo"
    root.mkdir()
    write_files(root, (CASES / "workspace.txt").read_text())
    (root / ".gitignore").write_text(".navegador/\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    subprocess.run([binary, "ingest", "."], cwd=root, check=True, capture_output=True)
    stdin, files, answers = "", [], []
    for line in (CASES / f"{name}.txt").read_text().splitlines():
        if line.startswith("#") and not files:
            continue
        if not line.startswith("//! "):
            files.append(line)
            continue
        write_files(root, "\n".join(files))
        files = []
        verb, _, rest = line[4:].partition(" ")
        if verb == "mv":
            git(root, "mv", *rest.split())
        elif verb == "commit":
            git(root, "checkout", "-q", "-b", "topic")
            git(root, "add", "-A")
            git(root, "commit", "-q", "-m", "change")
        elif verb == "ingest":
            subprocess.run([binary, "ingest", "."], cwd=root, check=True, capture_output=True)
        elif verb == "navegador":
            subprocess.run([binary, *shlex.split(rest)], cwd=root, check=True, capture_output=True)
        elif verb == "diff-to-stdin":
            stdin = git(root, "diff", "HEAD")
            git(root, "checkout", "-q", "--", ".")
        elif verb == "apply-stdin":
            (tmp / "p.diff").write_text(stdin)
            git(root, "apply", str(tmp / "p.diff"))
        elif verb == "stdin":
            stdin = rest.replace("\\n", "\n")
        elif verb == "run":
            call = arguments(shlex.split(rest), stdin)
            answers.extend(asyncio.run(ask(binary, root, [call])))
            if code is not None:
                code.extend(asyncio.run(ask_code(binary, root, [call])))
        else:
            raise AssertionError(f"{name}.txt: unknown directive {verb}")
    return answers


CASE_NAMES = sorted(p.stem for p in CASES.glob("*.txt") if p.stem != "workspace")


@pytest.mark.parametrize("name", CASE_NAMES)
def test_changes_cases_match_golden(name, binary, tmp_path):
    code: list = []
    got = run_case(binary, tmp_path, name, code)
    # code.detect_changes answers the same report, in the envelope.
    assert len(code) == len(got)
    for answer, env in zip(got, code):
        if "arguments" in answer:
            assert env["status"] == "error" and env["errors"][0]["code"] in ("INVALID_INPUT", "BACKEND_EXECUTION_FAILED"), env
            assert env["errors"][0]["message"].split(";")[0] == answer["error"].split(";")[0], (env, answer)
        else:
            assert env["status"] in ("ok", "partial") and env["data"] == camel(answer), name
    if name == "rule-fixed":
        # the change removes the violation: listed as fixed by both tools before the
        # re-ingest, as the CLI lists it (rule-fixed.expected)
        assert [r["fixed_total"] for r in got[0]["rules"]] == [1], got[0]["rules"]
        assert [r["fixedTotal"] for r in code[0]["data"]["rules"]] == [1], code[0]["data"]["rules"]
    for path, value in [(GOLDEN, got), (CODE_GOLDEN, code)]:
        golden = json.loads(path.read_text()) if path.exists() else {}
        if os.environ.get("UPDATE_GOLDEN"):
            golden[name] = value
            path.write_text(json.dumps(dict(sorted(golden.items())), indent=1, sort_keys=True) + "\n")
            continue
        assert name in golden, f"no golden for {name} in {path.name}: run with UPDATE_GOLDEN=1"
        assert value == golden[name], f"{name}: the answers changed against {path.name} (UPDATE_GOLDEN=1 to accept)"


def test_detect_changes_over_http_with_the_live_index(binary, tmp_path):
    """Over streamable HTTP, live index on: the server indexes the edit first, so the graph
    holds the new side; a bad argument is an INVALID_INPUT envelope, not a protocol error."""
    from conftest import HttpServer
    import time

    run_case(binary, tmp_path, "body")  # leaves the body change in the working tree
    root = tmp_path / "repo"
    proc = subprocess.Popen([nav_bin(binary), "--transport", "streamable-http", "--host", "127.0.0.1", "--port", "0",
                             "--path", "/mcp", "--workspace-root", str(root)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = None
    deadline = time.time() + 30
    while url is None and time.time() < deadline:
        m = re.search(r"listening on (http://\S+)", proc.stderr.readline() or "")
        url = m and m.group(1)
    server = HttpServer(proc, url)

    async def body():
        async with Client(url) as c:
            while True:
                r = await c.call_tool("code.detect_changes", {})
                env = r.structured_content
                if not any(e["code"] == "INDEX_INCOMPLETE" for e in env["errors"]):
                    break
                await asyncio.sleep(0.1)
            bad = (await c.call_tool("code.detect_changes", {"range": "main...HEAD", "staged": True})).structured_content
            ref = (await c.call_tool("code.detect_changes", {"base": "no-such-branch"})).structured_content
            return env, bad, ref

    try:
        env, bad, ref = asyncio.run(body())
    finally:
        assert server.stop() == 0
    assert env["tool"] == "code.detect_changes" and env["status"] == "ok", env
    assert env["summary"].startswith("Found 1 changed symbol in 1 file"), env["summary"]
    assert [(f["path"], f["graph"]) for f in env["data"]["files"]] == [("app/billing/pay.py", "new")]
    assert [(s["name"], s["change"]) for s in env["data"]["symbols"]] == [("app.billing.pay.charge", "modified")]
    assert env["meta"]["counts"]["symbolsTotal"] == 1
    assert bad["status"] == "error" and bad["errors"][0]["code"] == "INVALID_INPUT"
    assert [i["field"] for i in bad["errors"][0]["details"]["issues"]] == ["staged"]
    assert ref["status"] == "error" and ref["errors"][0]["code"] == "INVALID_INPUT" and ref["errors"][0]["target"] == "base"
    assert "unknown revision `no-such-branch`" in ref["errors"][0]["message"]
