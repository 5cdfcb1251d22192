#!/usr/bin/env bash
# Debian's Chromium and its WebDriver for the UI's browser tests (tests/ui): installed with
# apt-get when missing (never a browser download by a test tool). Prints the paths of the
# browser and the driver, one per line, on stdout; progress and errors go to stderr.
#
# Usage: bash scripts/browser.sh
# CHROMIUM_BIN / CHROMEDRIVER_BIN override the search.
set -euo pipefail

log() { printf 'browser.sh: %s\n' "$*" >&2; }
die() { printf 'browser.sh: error: %s\n' "$*" >&2; exit 1; }

find_bins() {
    BROWSER=${CHROMIUM_BIN:-$(command -v chromium || command -v chromium-browser || true)}
    DRIVER=${CHROMEDRIVER_BIN:-$(command -v chromedriver || true)}
    [ -n "$DRIVER" ] || { [ -x /usr/lib/chromium/chromedriver ] && DRIVER=/usr/lib/chromium/chromedriver; } || true
}

find_bins
if [ -z "$BROWSER" ] || [ -z "$DRIVER" ]; then
    [ "$(id -u)" -eq 0 ] || die "chromium or chromedriver not found and we are not root to install them.
  Fix: sudo apt-get install -y chromium chromium-driver   (or set CHROMIUM_BIN and CHROMEDRIVER_BIN)"
    command -v apt-get >/dev/null || die "chromium not found and apt-get is not available.
  Fix: install Chromium and its driver, then set CHROMIUM_BIN and CHROMEDRIVER_BIN"
    export DEBIAN_FRONTEND=noninteractive
    apt=(apt-get install -y --no-install-recommends chromium chromium-driver fonts-dejavu-core)
    log "chromium not found; installing Debian's chromium and chromium-driver with apt-get (a minute or two)..."
    if ! "${apt[@]}" >&2; then
        log "install failed; refreshing the package lists (apt-get update) and retrying..."
        apt-get update >&2 || log "apt-get update failed; trying anyway"
        "${apt[@]}" >&2 || die "could not install chromium with apt-get (see the output above).
  Fix: apt-get update && apt-get install -y chromium chromium-driver"
    fi
    find_bins
fi
[ -n "$BROWSER" ] && [ -x "$BROWSER" ] || die "chromium is still not found after installing it"
[ -n "$DRIVER" ] && [ -x "$DRIVER" ] || die "chromedriver is still not found after installing chromium-driver"
echo "$BROWSER"
echo "$DRIVER"
