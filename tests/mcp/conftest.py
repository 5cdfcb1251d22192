"""Shared setup of the MCP client tests: the built `navegador` binary, a copy of the
fixture repository as the workspace, and helpers to start the server over stdio or HTTP."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "tests"))
from harness import navegador_bin, stop, wait_for_address  # noqa: E402


# -- every answer against its tool's published output schema -------------------------------
#
# Each `tools/call` a test makes through the SDK is checked here with jsonschema (Draft
# 2020-12, the MCP default), independently of the SDK's own check: a test fails when an
# answer does not validate, whatever it asserts. Tool errors (`isError`) carry no
# structured answer to check. The tally is printed at the end of the run; under CI=true
# every tool the server lists must have had at least one validated answer.

from jsonschema import Draft202012Validator  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402

VALIDATED: dict[str, int] = {}
LISTED: set[str] = set()
_call_tool = ClientSession.call_tool


async def _validated_call_tool(self, name, *args, **kwargs):
    result = await _call_tool(self, name, *args, **kwargs)
    schemas = getattr(self, "_published_output_schemas", None)
    if schemas is None or name not in schemas:
        listed = await self.list_tools()
        schemas = {t.name: t.output_schema for t in listed.tools}
        self._published_output_schemas = schemas
        LISTED.update(schemas)
    schema = schemas.get(name)
    if schema is not None and not getattr(result, "is_error", True):
        errors = sorted(Draft202012Validator(schema).iter_errors(result.structured_content), key=lambda e: list(e.path))
        assert not errors, f"`{name}` answer fails its published outputSchema: {errors[0].message} at {list(errors[0].path)}"
        VALIDATED[name] = VALIDATED.get(name, 0) + 1
    return result


ClientSession.call_tool = _validated_call_tool


def pytest_terminal_summary(terminalreporter):
    if LISTED or VALIDATED:
        total = sum(VALIDATED.values())
        terminalreporter.write_line(f"schema check: {total} answers of {len(VALIDATED)} tools validated against their outputSchema")


def pytest_sessionfinish(session, exitstatus):
    # The whole suite must have exercised every listed tool (a -k subset need not).
    modules = {Path(str(i.fspath)).name for i in session.items}
    whole = {p.name for p in HERE.glob("test_*.py")} <= modules and not session.config.option.keyword
    if os.environ.get("CI") == "true" and exitstatus == 0 and whole:
        # A tool listed under its underscore name (`--tool-names underscore`) is the same tool.
        def canonical(names):
            return {("code." + n[5:]) if n.startswith("code_") else n for n in names}

        missing = sorted(canonical(LISTED) - canonical(VALIDATED))
        if missing:
            print(f"schema check: no validated answer for {missing}", file=sys.stderr)
            session.exitstatus = 1


@pytest.fixture(scope="session")
def binary() -> str:
    return navegador_bin()


@pytest.fixture(scope="session")
def workspace(tmp_path_factory: pytest.TempPathFactory, binary: str) -> Path:
    """The fixture repository, copied and indexed once (tests that ingest use their own)."""
    root = tmp_path_factory.mktemp("ws") / "repo"
    shutil.copytree(HERE / "fixture", root)
    subprocess.run([binary, "ingest", str(root)], check=True, capture_output=True)
    return root


def pg_database(name: str) -> str:
    """A new empty database on the PostgreSQL test server that `scripts/test.sh` starts with
    `scripts/pg.sh` (its folder in NAVEGADOR_TEST_PG_DIR); its URL. Skips the test when
    there is no test server."""
    pgdir = os.environ.get("NAVEGADOR_TEST_PG_DIR")
    if not pgdir:
        pytest.skip("no PostgreSQL test server (NAVEGADOR_TEST_PG_DIR); `bash scripts/test.sh` starts one")
    name = f"{name}_{os.getpid()}_{time.monotonic_ns()}"
    p = subprocess.run(
        ["bash", str(REPO / "scripts" / "pg.sh"), "createdb", pgdir, name], capture_output=True, text=True
    )
    assert p.returncode == 0, p.stderr
    return p.stdout.strip()


@pytest.fixture(scope="session")
def pg_workspace(tmp_path_factory: pytest.TempPathFactory, binary: str) -> tuple[Path, str]:
    """The fixture repository indexed into a PostgreSQL database: (workspace, URL)."""
    url = pg_database("mcp")
    root = tmp_path_factory.mktemp("pgws") / "repo"
    shutil.copytree(HERE / "fixture", root)
    subprocess.run([binary, "ingest", str(root), "--db", url], check=True, capture_output=True)
    return root, url


@pytest.fixture()
def fresh_workspace(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(HERE / "fixture", root)
    return root


class HttpServer:
    def __init__(self, proc: subprocess.Popen, url: str) -> None:
        self.proc = proc
        self.url = url

    def stop(self) -> int:
        stop(self.proc)
        if self.proc.returncode not in (0, None) and self.proc.stderr and not self.proc.stderr.closed:
            # A server that did not exit cleanly shows why (its panic message) in the report.
            tail = self.proc.stderr.read()[-4000:]
            print(f"server exited {self.proc.returncode}; the end of its stderr:\n{tail}")
        return self.proc.returncode


def start_http(
    binary: str, root: Path, *extra: str, env: dict | None = None, wrapper: list[str] | None = None
) -> HttpServer:
    """Starts `navegador mcp --transport streamable-http --port 0` and waits for its URL
    (`wrapper`: a command the server runs under, e.g. `prlimit --as=N`, which execs it)."""
    proc = subprocess.Popen(
        [*(wrapper or []), binary, "mcp", "--transport", "streamable-http", "--port", "0", "--workspace-root", str(root), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    return HttpServer(proc, wait_for_address(proc, r"listening on (http://\S+)"))
