#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what the tests need, then runs them.
# Usage: bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# Builds can be memory- and CPU-hungry on 2 cores; keep cargo's output readable in CI logs.
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
cargo test --workspace --locked --release
