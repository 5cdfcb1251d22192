#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what the tests need, then runs them.
# Usage: bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# Builds can be memory- and CPU-hungry on 2 cores; keep cargo's output readable in CI logs.
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
# A real PostgreSQL server on loopback for the PostgreSQL backend's tests (installed with
# apt-get when missing, our own throwaway cluster, stopped and removed on exit). The Rust
# tests make their databases on it (NAVEGADOR_TEST_PG), the MCP tests through pg.sh.
pgdir=$(mktemp -d /tmp/navegador-pg.XXXXXX)
trap 'bash scripts/pg.sh stop "$pgdir" >/dev/null 2>&1 || true; rm -rf "$pgdir"' EXIT
NAVEGADOR_TEST_PG=$(bash scripts/pg.sh start "$pgdir")
export NAVEGADOR_TEST_PG NAVEGADOR_TEST_PG_DIR="$pgdir"

# This also builds target/release/navegador (the CLI's integration tests run it).
cargo test --workspace --locked --release

# The MCP server through real clients: the official Python SDK, pinned in
# tests/mcp/requirements.txt, in a virtualenv that is rebuilt only when that file changes.
# The UI's browser tests' selenium (tests/ui/requirements.txt) lives in the same venv.
venv=.venv-test
reqs=(tests/mcp/requirements.txt tests/ui/requirements.txt)
want=$(cat "${reqs[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" != "$want" ]; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "${reqs[0]}" -r "${reqs[1]}"
    echo "$want" > "$venv/.requirements.sha256"
fi
# Graphviz renders the DOT exports in tests/mcp/test_export.py (installed with apt-get when
# missing, as PostgreSQL is; the test fails under CI=true without it).
if ! command -v dot >/dev/null; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q graphviz >&2 || echo "test.sh: could not install graphviz" >&2
    else
        echo "test.sh: graphviz (dot) is missing: sudo apt-get install -y graphviz" >&2
    fi
fi
NAVEGADOR_BIN="$PWD/target/release/navegador" "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/mcp

# The graph explorer in Debian's Chromium (installed by scripts/browser.sh with apt-get;
# under CI=true a missing browser fails the tests): pages, API, screenshots kept in
# target/ui-screenshots. Bounded: the whole module has 5 minutes.
bash scripts/browser.sh >/dev/null
NAVEGADOR_BIN="$PWD/target/release/navegador" timeout 300 "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/ui

# The official MCP conformance suite (server scenarios that apply to a tools-only server)
# and a load run: 50 concurrent HTTP sessions x 100 tool calls, zero errors allowed.
bash scripts/conformance.sh "$PWD/target/release/navegador"
"$venv/bin/python" tests/mcp/load.py "$PWD/target/release/navegador" 50 100
# The same load with the graph in PostgreSQL (one connection per server thread).
"$venv/bin/python" tests/mcp/load.py "$PWD/target/release/navegador" 50 100 \
    --db "$(bash scripts/pg.sh createdb "$pgdir" navegador_load)"
