#!/usr/bin/env bash
# Fetches the UI's third-party front-end files from the npm registry at pinned versions,
# verifies each package tarball against its pinned sha512 integrity, and copies the files
# the UI embeds (with their licenses) into crates/navegador-ui/vendor/. The vendored files
# are committed, so a fresh clone builds offline; run this only to change a version (update
# the pin below, run it, commit the result). `--check` verifies that the committed files are
# exactly what the pinned tarballs hold.
#
# Usage: bash scripts/ui-assets.sh [--check]
set -euo pipefail
cd "$(dirname "$0")/.."
out=crates/navegador-ui/vendor

# package@version | sha512 integrity (npm's dist.integrity) | files to take (path in the tarball=name in vendor/)
PINS=(
"cytoscape@3.35.0|sha512-sMvBIXiGMnhkCaWz2R06FwF/27MNlS+Tqvi17foO9UhnUg3XGZccKjxsvEqQFAQYMSSZmN5SxYzUYlQ0DOJJ3g==|dist/cytoscape.min.js=cytoscape.min.js LICENSE=cytoscape.LICENSE"
"@highlightjs/cdn-assets@11.12.0|sha512-KvOKXODaiFmId9xaq3xc5xCL66wVLUuOngDbO9B/kewbFTqdGbn2nJxNhN3H5R1cgDTVj6R8vH0zgiNDEGjpDw==|highlight.min.js=highlight.min.js styles/github.min.css=highlight-github.min.css LICENSE=highlight.LICENSE"
)

check=0
[ "${1:-}" = "--check" ] && check=1
command -v npm >/dev/null || { echo "ui-assets.sh: error: npm not found. Fix: apt-get install -y npm" >&2; exit 1; }
work=$(mktemp -d /tmp/navegador-ui-assets.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
status=0
for pin in "${PINS[@]}"; do
    IFS='|' read -r pkg integrity files <<<"$pin"
    tgz=$(cd "$work" && npm pack --silent "$pkg" 2>/dev/null | tail -1)
    got="sha512-$(openssl dgst -sha512 -binary "$work/$tgz" | base64 -w0)"
    if [ "$got" != "$integrity" ]; then
        echo "ui-assets.sh: error: $pkg tarball integrity $got does not match the pinned $integrity; refusing it" >&2
        exit 1
    fi
    mkdir -p "$work/${tgz%.tgz}"
    tar -xzf "$work/$tgz" -C "$work/${tgz%.tgz}"
    for f in $files; do
        src=$work/${tgz%.tgz}/package/${f%%=*}
        dst=$out/${f#*=}
        if [ "$check" = 1 ]; then
            cmp -s "$src" "$dst" || { echo "ui-assets.sh: $dst differs from $pkg's ${f%%=*}" >&2; status=1; }
        else
            cp "$src" "$dst"
        fi
    done
    echo "ui-assets.sh: $pkg ok ($integrity)" >&2
done
if [ "$check" = 0 ]; then
    (cd "$out" && sha256sum -- *.js *.css *.LICENSE > SHA256SUMS)
fi
exit $status
