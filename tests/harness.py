"""What the Python suites (tests/mcp, tests/ui) share about the `navegador` process: where
the built binary is, waiting for a server to report its address on stderr, and stopping it."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def navegador_bin() -> str:
    """The release binary (or NAVEGADOR_BIN); fails the test naming the build command."""
    import pytest

    b = os.environ.get("NAVEGADOR_BIN") or str(REPO / "target" / "release" / "navegador")
    if not Path(b).exists():
        pytest.fail(f"{b} does not exist: build it with `cargo build --release -p navegador-cli` or set NAVEGADOR_BIN")
    return b


def wait_for_address(proc: subprocess.Popen, pattern: str, timeout: float = 30) -> str:
    """The first group of `pattern` in the server's stderr (its address); the lines read so
    far in the error when the server exits or stays silent."""
    deadline = time.time() + timeout
    lines: list[str] = []
    while time.time() < deadline:
        line = proc.stderr.readline()
        if not line:
            if proc.poll() is not None:
                break
            continue
        lines.append(line)
        m = re.search(pattern, line)
        if m:
            return m.group(1)
    stop(proc)
    raise RuntimeError(f"the server (exit {proc.returncode}) did not report its address:\n" + "".join(lines))


def stop(proc: subprocess.Popen) -> int | None:
    """Terminates the server, killing it after 10 s; its exit code."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode
