"""The `changes` tool through the official Python SDK, on the fixture git repositories of
the CLI's tests (crates/navegador-cli/tests/changes: workspace.txt committed as `main` and
ingested, then each case's edits): every `run changes ...` step of a case is asked of the
MCP tool with the same arguments (a patch on stdin becomes `diff`), and the answers are
compared with tests/mcp/changes.golden.json (UPDATE_GOLDEN=1 rewrites). The conftest
validates each answer against the published outputSchema."""

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
    params = StdioServerParameters(command=binary, args=["mcp", "--workspace-root", str(root)], cwd=str(root))
    out = []
    async with Client(params) as c:
        for args in calls:
            r = await c.call_tool("changes", args)
            out.append({"arguments": {k: v for k, v in args.items() if k != "diff"}, "error": r.content[0].text} if r.is_error else scrub(r.structured_content))
    return out


def run_case(binary: str, tmp: Path, name: str) -> list:
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
            answers.extend(asyncio.run(ask(binary, root, [arguments(shlex.split(rest), stdin)])))
        else:
            raise AssertionError(f"{name}.txt: unknown directive {verb}")
    return answers


CASE_NAMES = sorted(p.stem for p in CASES.glob("*.txt") if p.stem != "workspace")


@pytest.mark.parametrize("name", CASE_NAMES)
def test_changes_cases_match_golden(name, binary, tmp_path):
    got = run_case(binary, tmp_path, name)
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if os.environ.get("UPDATE_GOLDEN"):
        golden[name] = got
        GOLDEN.write_text(json.dumps(dict(sorted(golden.items())), indent=1, sort_keys=True) + "\n")
        return
    assert name in golden, f"no golden for {name}: run with UPDATE_GOLDEN=1"
    assert got == golden[name], f"{name}: the `changes` answers changed (UPDATE_GOLDEN=1 to accept)"
