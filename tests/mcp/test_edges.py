"""The faults a hostile tree or client can cause, through real clients: file names that look
like paths (kept verbatim, never a way out of the workspace), out-of-root arguments (no
message shows the absolute root), and the protocol edges of both transports: invalid JSON,
oversize messages, array `params`, duplicate ids, slow and idle HTTP connections, an
oversize `Content-Length`, the connection cap. The official SDK sends what it can; raw
pipes and sockets send what it cannot."""

from __future__ import annotations

import asyncio
import json
import queue
import socket
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from conftest import start_http

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
JSON_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def stdio(binary: str, root: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(command=binary, args=["mcp", "--workspace-root", str(root), "--no-watch", *extra], cwd=str(root))


def session(target, body):
    async def main():
        async with Client(target) as client:
            return await body(client)

    return asyncio.run(main())


# -- file names that look like paths ---------------------------------------------------------

SNEAKY = "x\\..\\..\\outside\\secret.py"
FILES = {SNEAKY, "sub\\mod.py", "sub/mod.py"}


@pytest.fixture(scope="module")
def tricky(tmp_path_factory, binary) -> Path:
    """A workspace whose file names hold backslashes, beside a real `outside/secret.py`
    that a name split at `\\` would point at."""
    top = tmp_path_factory.mktemp("tricky")
    root = top / "ws"
    (root / "sub").mkdir(parents=True)
    (top / "outside").mkdir()
    (top / "outside" / "secret.py").write_text('def leak():\n    return "TOP SECRET"\n')
    (root / SNEAKY).write_text("def leak():\n    return shared()\n\n\ndef shared():\n    return 1\n")
    (root / "sub\\mod.py").write_text("def back():\n    return shared()\n")
    (root / "sub" / "mod.py").write_text("def fwd():\n    return back()\n")
    subprocess.run([binary, "ingest", str(root)], check=True, capture_output=True)
    return root


def file_paths(v, key=None):
    """Every string under a key that names a file, anywhere in an answer."""
    if isinstance(v, dict):
        for k, x in v.items():
            yield from file_paths(x, k)
    elif isinstance(v, list):
        for x in v:
            yield from file_paths(x, key)
    elif isinstance(v, str) and key in {"file_path", "path", "file"}:
        yield v


def test_file_names_that_look_like_paths_stay_inside(binary, tricky):
    calls = [
        ("code.find_symbol", {"symbol": "leak"}),
        ("code.find_symbol", {"symbol": "back"}),
        ("code.trace_callers", {"path": SNEAKY, "symbol": "shared"}),
        ("context", {"file": SNEAKY}),
        ("context", {"file": "sub\\mod.py"}),
        ("function", {"name": "leak"}),
        ("function", {"name": "shared"}),
        ("blast_radius", {"name": "shared"}),
    ]

    async def body(c):
        return [(t, a, await c.call_tool(t, a)) for t, a in calls]

    answers = session(stdio(binary, tricky), body)
    for tool, args, r in answers:
        text = r.content[0].text
        assert not r.is_error, (tool, args, text)
        assert "TOP SECRET" not in text, (tool, args)
        named = set(file_paths(r.structured_content))
        assert named, (tool, args, text)
        assert named <= FILES | {"."}, (tool, args, named)
    by = {(t, json.dumps(a)): r.structured_content for t, a, r in answers}
    # Two files whose names differ only by `\` and `/` are two files.
    back = by[("context", json.dumps({"file": "sub\\mod.py"}))]
    assert back["target"]["file_path"] == "sub\\mod.py"
    outline = "\n".join(back["outline"])  # one line per symbol the file defines
    assert "def back" in outline and "fwd" not in outline, outline
    found = by[("code.find_symbol", json.dumps({"symbol": "back"}))]
    assert [i["path"] for i in found["data"]["items"]] == ["sub\\mod.py"]
    callers = by[("code.trace_callers", json.dumps({"path": SNEAKY, "symbol": "shared"}))]
    assert {i["path"] for i in callers["data"]["items"]} <= FILES


def test_no_message_shows_the_workspace_root(binary, tricky):
    root = str(tricky.resolve())
    outside = [
        "..",
        "../..",
        "/",
        "/etc",
        "../outside",
        "missing",
        "../missing",
        root + "/../outside",
        root + "/missing",
    ]
    calls = [("ingest", {"path": p}) for p in outside]
    calls += [("context", {"file": p}) for p in ["../x.py", "/etc/passwd", "../outside/secret.py", root + "/../outside/secret.py", "missing.py"]]
    calls += [("function", {"name": "leak", "file": p}) for p in ["../x.py", "/etc/passwd", "missing.py", "../../outside/secret.py"]]
    calls += [(t, {"name": "leak", "file": "../../x"}) for t in ["class", "explain", "blast_radius", "get_rationale", "find_owners"]]
    calls += [
        ("code.find_symbol", {"symbol": "leak", "path": "../missing"}),
        ("code.inspect_tree", {"path": "/etc"}),
        ("code.search_text", {"query": "leak", "path": "../.."}),
        ("code.trace_callers", {"path": "../outside/secret.py", "symbol": "leak"}),
    ]

    async def body(c):
        return [(t, a, await c.call_tool(t, a)) for t, a in calls]

    # A graph, and a server whose graph does not exist yet (under the root).
    for extra in [(), ("--db", str(tricky / "nope" / "graph.db"))]:
        answers = session(stdio(binary, tricky, *extra), body)
        errors = 0
        for tool, args, r in answers:
            text = r.content[0].text + json.dumps(r.structured_content)
            assert root not in text, (extra, tool, args, text)
            errors += r.is_error or '"status": "error"' in text
        assert errors >= len(calls) - 2, "the out-of-root calls are refused"


# -- a damaged graph -------------------------------------------------------------------------


def test_ingest_tool_refuses_a_damaged_graph_then_rebuilds_it(binary, fresh_workspace):
    subprocess.run([binary, "ingest", str(fresh_workspace)], check=True, capture_output=True)
    db = fresh_workspace / ".navegador" / "graph.db"
    data = bytearray(db.read_bytes())
    mid = len(data) // 2 // 4096 * 4096
    data[mid : mid + 4 * 4096] = b"\xa5" * (4 * 4096)
    db.write_bytes(bytes(data))
    (fresh_workspace / "app" / "extra.py").write_text("def extra():\n    pass\n")

    async def body(c):
        refused = await c.call_tool("ingest", {"path": "."})
        rebuilt = await c.call_tool("ingest", {"path": ".", "clear": True})
        after = await c.call_tool("function", {"name": "extra"})
        return refused, rebuilt, after

    refused, rebuilt, after = session(stdio(binary, fresh_workspace), body)
    text = refused.content[0].text
    assert refused.is_error and "is damaged" in text and "clear=true" in text, text
    assert str(fresh_workspace.resolve()) not in text
    assert not rebuilt.is_error, rebuilt.content[0].text
    assert not after.is_error, after.content[0].text
    kept = [p for p in db.parent.iterdir() if p.name.startswith("graph.db.damaged-") and not p.name.endswith(("-wal", "-shm"))]
    assert len(kept) == 1 and kept[0].read_bytes() == bytes(data), kept


# -- stdio -----------------------------------------------------------------------------------


class RawStdio:
    """A server on pipes spoken to by hand, its stdout collected by a thread."""

    def __init__(self, binary: str, root: Path) -> None:
        self.proc = subprocess.Popen(
            [binary, "mcp", "--workspace-root", str(root), "--no-watch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=root,
        )
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[dict] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(json.loads(line))

    def send(self, raw: bytes) -> None:
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()

    def wait_for(self, pred, n: int = 1, timeout: float = 60) -> list[dict]:
        deadline = time.time() + timeout
        while True:
            got = [m for m in self.seen if pred(m)]
            if len(got) >= n:
                return got
            try:
                self.seen.append(self.lines.get(timeout=max(0.01, deadline - time.time())))
            except queue.Empty:
                raise AssertionError(f"no answer within {timeout} s; seen: {str(self.seen)[-2000:]}") from None


def has_id(i):
    return lambda m: m.get("id") == i


def test_stdio_answers_every_request(binary, workspace):
    s = RawStdio(binary, workspace)
    try:
        s.send(json.dumps(INIT).encode())
        s.wait_for(has_id(1))
        s.send(json.dumps(INITIALIZED).encode())
        s.send(b"{not json")
        (e,) = s.wait_for(lambda m: m.get("error", {}).get("code") == -32700)
        assert e.get("id") is None and "parse error" in e["error"]["message"]
        s.send(b'[{"jsonrpc":"2.0","id":2,"method":"ping"}]')
        (e,) = s.wait_for(lambda m: "batch" in m.get("error", {}).get("message", ""))
        assert e["error"]["code"] == -32600 and e.get("id") is None
        s.send(b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[1,2]}')
        (e,) = s.wait_for(has_id(3))
        assert e["error"]["code"] == -32602 and "`params` must be an object" in e["error"]["message"], e
        # Over 16 MiB: refused with its id, then the next line is read as usual.
        big = b'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"function","arguments":{"name":"'
        s.send(big + b"a" * (17 << 20) + b'"}}}')
        (e,) = s.wait_for(has_id(4))
        assert e["error"]["code"] == -32600 and "too large" in e["error"]["message"], e
        s.send(b'{"jsonrpc":"2.0","id":5,"method":"tools/list"}')
        (r,) = s.wait_for(has_id(5))
        assert len(r["result"]["tools"]) == 19
        # The same id three times at once: each is answered, or refused while another with
        # that id is in flight.
        call = {"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "function", "arguments": {"name": "log"}}}
        for _ in range(3):
            s.send(json.dumps(call).encode())
        got = s.wait_for(has_id(6), n=3)
        assert any("result" in m for m in got), got
        for m in got:
            assert "result" in m or (m["error"]["code"] == -32600 and "already in use" in m["error"]["message"]), m
        s.send(json.dumps({**call, "id": 7}).encode())
        assert "result" in s.wait_for(has_id(7))[0]
        s.proc.stdin.close()
        assert s.proc.wait(timeout=30) == 0
    finally:
        if s.proc.poll() is None:
            s.proc.kill()
            s.proc.wait()


def test_stdio_oversize_request_through_the_sdk(binary, workspace):
    async def body(c):
        with pytest.raises(MCPError) as e:
            await c.call_tool("function", {"name": "a" * (17 * 1024 * 1024)})
        assert "too large" in str(e.value)
        return await c.call_tool("function", {"name": "log"})

    r = session(stdio(binary, workspace), body)
    assert not r.is_error and r.structured_content["target"]["name"] == "log"


# -- streamable HTTP -------------------------------------------------------------------------


def address(url: str) -> tuple[str, int]:
    host, port = url.split("/")[2].rsplit(":", 1)
    return host, int(port)


def read_until_closed(sock: socket.socket, within: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection; fails past `within`."""
    sock.settimeout(within)
    start, data = time.time(), b""
    while True:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, BrokenPipeError):
            break
        except socket.timeout:
            raise AssertionError(f"still open after {within} s: {data[:200]!r}") from None
        if not chunk:
            break
        data += chunk
    return data, time.time() - start


def status_of(data: bytes) -> int:
    return int(data.split(b"\r\n", 1)[0].split()[1]) if data else 0


def sse_messages(text: str) -> list[dict]:
    return [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:") and line[5:].strip()]


@pytest.fixture(scope="module")
def tight_server(binary, workspace):
    server = start_http(binary, workspace, "--no-watch", "--header-timeout-ms", "700", "--body-timeout-ms", "700")
    yield server
    assert server.stop() == 0


def test_http_slow_and_idle_connections_are_closed(tight_server):
    host, port = address(tight_server.url)
    # Connected, nothing sent.
    with socket.create_connection((host, port)) as s:
        data, took = read_until_closed(s, 5)
        assert took < 3, took
    # A header that never ends.
    with socket.create_connection((host, port)) as s:
        s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        data, took = read_until_closed(s, 5)
        assert took < 3, took
    # A body that never comes: 408.
    with socket.create_connection((host, port)) as s:
        head = f"POST /mcp HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        head += "Accept: application/json, text/event-stream\r\nContent-Length: 400\r\n\r\n"
        s.sendall(head.encode() + b'{"jsonrpc": "2.0",')
        data, took = read_until_closed(s, 5)
        assert status_of(data) == 408 and took < 3, (data[:200], took)
    # Kept alive after an answer, then idle: closed too.
    with socket.create_connection((host, port)) as s:
        body = json.dumps(INIT).encode()
        head = f"POST /mcp HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        head += f"Accept: application/json, text/event-stream\r\nContent-Length: {len(body)}\r\n\r\n"
        s.sendall(head.encode() + body)
        data, took = read_until_closed(s, 5)
        assert status_of(data) == 200 and b'"protocolVersion"' in data and took < 3, (data[:300], took)
    # An oversize Content-Length is refused before any body is read.
    with socket.create_connection((host, port)) as s:
        head = f"POST /mcp HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        head += "Accept: application/json, text/event-stream\r\nContent-Length: 99999999999\r\n\r\n"
        s.sendall(head.encode())
        data, took = read_until_closed(s, 5)
        assert status_of(data) == 413 and took < 1, (data[:200], took)


def test_http_connection_cap(binary, workspace):
    server = start_http(binary, workspace, "--no-watch", "--max-connections", "6", "--header-timeout-ms", "1500")
    try:
        host, port = address(server.url)
        idle = [socket.create_connection((host, port)) for _ in range(6)]
        time.sleep(0.2)
        with socket.create_connection((host, port)) as s:
            data, _ = read_until_closed(s, 3)
            assert status_of(data) == 503 and b"--max-connections" in data, data
        for s in idle:
            s.close()
        time.sleep(0.3)
        with httpx2.Client(timeout=30) as http:
            assert http.post(server.url, headers=JSON_HEADERS, content=json.dumps(INIT)).status_code == 200
    finally:
        assert server.stop() == 0


def test_http_refusals_are_json_rpc_errors_with_their_id(tight_server):
    with httpx2.Client(timeout=30) as http:
        r = http.post(tight_server.url, headers=JSON_HEADERS, content=b"{not json")
        assert r.status_code == 400 and r.json()["error"]["code"] == -32700, r.text
        bad = {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": [1, 2]}
        r = http.post(tight_server.url, headers=JSON_HEADERS, content=json.dumps(bad))
        assert r.status_code == 400 and r.json()["id"] == 9 and r.json()["error"]["code"] == -32602, r.text


def test_http_duplicate_ids_are_answered_or_refused(binary, fresh_workspace):
    server = start_http(binary, fresh_workspace, "--no-watch")
    try:
        with httpx2.Client(timeout=30) as http:
            r = http.post(server.url, headers=JSON_HEADERS, content=json.dumps(INIT))
            version = sse_messages(r.text)[0]["result"]["protocolVersion"]
            headers = {**JSON_HEADERS, "mcp-session-id": r.headers["mcp-session-id"], "mcp-protocol-version": version}
            assert http.post(server.url, headers=headers, content=json.dumps(INITIALIZED)).status_code == 202
        call = {"jsonrpc": "2.0", "id": 42, "method": "tools/call", "params": {"name": "ingest", "arguments": {"path": "."}}}

        def one(_):
            with httpx2.Client(timeout=60) as http:
                r = http.post(server.url, headers=headers, content=json.dumps(call))
                return r.status_code, r.text

        with ThreadPoolExecutor(3) as pool:
            results = list(pool.map(one, range(3)))
        answered = 0
        for status, text in results:
            if status == 409:
                body = json.loads(text)
                assert body["id"] == 42 and body["error"]["code"] == -32600 and "already in use" in body["error"]["message"]
            else:
                assert status == 200, (status, text)
                assert any(m.get("id") == 42 and "result" in m for m in sse_messages(text)), text
                answered += 1
        assert answered >= 1, results
        # The id is free again once answered, and the session goes on.
        call["params"] = {"name": "function", "arguments": {"name": "log"}}
        status, text = one(0)
        assert status == 200 and any(m.get("id") == 42 and "result" in m for m in sse_messages(text)), text
    finally:
        assert server.stop() == 0
