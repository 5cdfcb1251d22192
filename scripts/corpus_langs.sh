#!/usr/bin/env bash
# Lays out the corpora of the languages added in issue 19 (Lua, Bash, Erlang, OCaml, Elixir, Perl, ...) under
# ${NAVEGADOR_CORPUS:-~/.cache/navegador-corpus}, from Debian packages that ship sources
# (`apt-get download` + `dpkg -x`: no root, nothing installed) and npm tarballs (`npm pack`). Never committed; a
# benchmark reads them (scripts/bench_languages.py), no test does. Re-running is a no-op
# for a corpus already laid out. Usage: bash scripts/corpus_langs.sh [NAME ...]
set -euo pipefail
CORPUS=${NAVEGADOR_CORPUS:-$HOME/.cache/navegador-corpus}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# deb NAME PACKAGE...: extracts the packages into $WORK/NAME
deb() {
  local name=$1; shift
  mkdir -p "$WORK/$name"
  (cd "$WORK/$name" && apt-get download "$@" >/dev/null 2>&1)
  for f in "$WORK/$name"/*.deb; do dpkg -x "$f" "$WORK/$name/x"; done
}

# luarocks: the package manager, written in Lua (Penlight is laid out by ../shared/corpus/fetch.sh)
luarocks() {
  deb luarocks luarocks
  mkdir -p "$CORPUS/luarocks"
  cp -r "$WORK/luarocks/x/usr/share/lua/5.1/luarocks" "$CORPUS/luarocks/"
}

# bash-completion: ~900 Bash completion scripts, extensionless in the package: each is laid
# out as `<name>.bash` (symlinks, which repeat a script under another name, are left out)
bash_completion() {
  deb bash-completion bash-completion
  mkdir -p "$CORPUS/bash-completion/completions"
  local src="$WORK/bash-completion/x/usr/share/bash-completion"
  cp "$src/bash_completion" "$CORPUS/bash-completion/bash_completion.bash"
  find "$src/completions" -maxdepth 1 -type f | while read -r f; do
    cp "$f" "$CORPUS/bash-completion/completions/$(basename "$f").bash"
  done
}

# otp: Erlang/OTP 25's own sources (Debian erlang-src): stdlib, kernel, ssl, ... (.erl, .hrl)
otp() {
  deb otp erlang-src
  mkdir -p "$CORPUS/otp"
  cp -r "$WORK/otp/x/usr/lib/erlang/lib/." "$CORPUS/otp/"
}

# ocaml: the OCaml 4.13 compiler and stdlib (Debian ocaml-source's upstream tarball), testsuite left out
ocaml() {
  deb ocaml ocaml-source
  mkdir -p "$CORPUS/ocaml"
  tar -xf "$WORK"/ocaml/x/usr/src/ocaml-source-*.tar -C "$WORK/ocaml" --wildcards '*/ocaml_*.orig.tar.gz'
  tar -xzf "$WORK"/ocaml/ocaml-*/ocaml_*.orig.tar.gz -C "$CORPUS/ocaml" --strip-components=1 --exclude='*/testsuite'
}

# zig-std: Zig 0.14's standard library (lib/std/*.zig), from the `ziglang` wheel on PyPI
zig_std() {
  (cd "$WORK" && python3 -m pip download ziglang==0.14.0 --no-deps --only-binary :all: \
    --platform manylinux_2_12_x86_64 -d zig >/dev/null)
  mkdir -p "$CORPUS/zig-std"
  python3 - "$WORK"/zig/*.whl "$CORPUS/zig-std" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for n in z.namelist():
    if n.startswith("ziglang/lib/std/") and n.endswith(".zig"):
        z.extract(n, sys.argv[2])
PY
}

# dsc NAME SOURCE...: downloads Debian source packages (bookworm's Sources index, read into
# $WORK with a private apt configuration: the machine's apt lists and sources stay as they are)
dsc() {
  local name=$1; shift
  local apt="$WORK/apt"
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$WORK/$name"
  if [ ! -f "$apt/src.list" ]; then
    echo "deb-src http://deb.debian.org/debian bookworm main" >"$apt/src.list"
    apt-get -o Dir::Etc::SourceList="$apt/src.list" -o Dir::Etc::SourceParts=/nonexistent \
      -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" update >/dev/null 2>&1
  fi
  (cd "$WORK/$name" && apt-get -o Dir::Etc::SourceList="$apt/src.list" -o Dir::Etc::SourceParts=/nonexistent \
    -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" source --download-only "$@" >/dev/null 2>&1)
}

# elixir: Elixir 1.14's own libraries (elixir, mix, ex_unit, logger, iex, eex: lib/*/lib, .ex;
# Debian's elixir package ships only .beam files: its source package elixir-lang)
elixir() {
  dsc elixir elixir-lang
  mkdir -p "$WORK/elixir/src" "$CORPUS/elixir"
  tar -xJf "$WORK"/elixir/elixir-lang_*.orig.tar.xz -C "$WORK/elixir/src" --strip-components=1
  for l in "$WORK"/elixir/src/lib/*/lib; do
    cp -r "$l" "$CORPUS/elixir/$(basename "$(dirname "$l")")"
  done
}

# r-debian: the R sources Debian's R packages ship (they keep the packages' code in lazy-load
# databases; these are their tests, demos and vignette code, and R's own share/R scripts)
r_debian() {
  deb r-debian r-base-core r-cran-ggplot2 r-cran-testthat r-cran-dplyr r-cran-matrix r-cran-mass \
    r-cran-survival r-cran-rlang r-cran-vctrs r-cran-tibble r-cran-purrr r-cran-stringr r-cran-knitr
  mkdir -p "$CORPUS/r-debian"
  (cd "$WORK/r-debian/x" && find . -type f \( -name '*.R' -o -name '*.r' \) -exec cp --parents {} "$CORPUS/r-debian" \;)
}

# julia-pypi: the Julia sources PyPI's Julia bridges ship (pyjulia's sdist, juliacall's
# wheel): no registry here ships Julia's own base/ (Debian bookworm has no julia)
julia_pypi() {
  (cd "$WORK" && python3 -m pip download julia==0.6.2 --no-deps --no-binary :all: -d jl >/dev/null \
    && python3 -m pip download juliacall==0.9.37 --no-deps --only-binary :all: -d jl >/dev/null)
  mkdir -p "$CORPUS/julia-pypi"
  tar -xzf "$WORK"/jl/julia-0.6.2.tar.gz -C "$WORK/jl"
  python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])" "$WORK"/jl/juliacall-*.whl "$WORK/jl/whl"
  (cd "$WORK/jl" && find . -name '*.jl' -exec cp --parents {} "$CORPUS/julia-pypi" \;)
}

# protos: the .proto files PyPI's googleapis-common-protos (google/api, rpc, type, ...) and
# grpcio-tools (protobuf's own google/protobuf/*.proto) wheels ship
protos() {
  (cd "$WORK" && python3 -m pip download googleapis-common-protos==1.66.0 grpcio-tools==1.68.1 --no-deps \
    --only-binary :all: --platform manylinux2014_x86_64 --python-version 3.11 -d pb >/dev/null)
  mkdir -p "$CORPUS/protos"
  python3 - "$CORPUS/protos" "$WORK"/pb/*.whl <<'PY'
import sys, zipfile
for w in sys.argv[2:]:
    z = zipfile.ZipFile(w)
    for n in z.namelist():
        if n.endswith(".proto"):
            z.extract(n, sys.argv[1])
PY
}

# haskell: Haskell libraries from Debian source packages (hscolour, QuickCheck, aeson,
# pandoc-types; their upstream tarballs' .hs files)
haskell() {
  dsc haskell hscolour haskell-quickcheck haskell-aeson haskell-pandoc-types
  mkdir -p "$CORPUS/haskell"
  for t in "$WORK"/haskell/*.orig.tar.*; do
    local d="$WORK/haskell/src/$(basename "$t" | sed 's/\.orig\.tar\..*//')"
    mkdir -p "$d" && tar -xf "$t" -C "$d" --strip-components=1
  done
  (cd "$WORK/haskell/src" && find . -name '*.hs' -exec cp --parents {} "$CORPUS/haskell" \;)
}

# npm_packs NAME PKG@VERSION...: the packages' tarballs from the npm registry (`npm pack`:
# nothing installed, no scripts run), each unpacked whole into $CORPUS/NAME/<package>
npm_packs() {
  local name=$1; shift
  mkdir -p "$WORK/$name" "$CORPUS/$name"
  for p in "$@"; do
    (cd "$WORK/$name" && npm pack "$p" --silent >/dev/null 2>&1)
  done
  for t in "$WORK/$name"/*.tgz; do
    local d
    d=$(basename "$t" .tgz)
    mkdir -p "$CORPUS/$name/$d"
    tar -xzf "$t" -C "$CORPUS/$name/$d" --strip-components=1
  done
}

# svelte-npm: component libraries that ship their `.svelte` sources: Carbon (Svelte 4, JS),
# bits-ui (Svelte 5 runes, TypeScript), Flowbite
svelte_npm() {
  npm_packs svelte-npm carbon-components-svelte@0.112.1 bits-ui@2.21.0 flowbite-svelte@1.33.1
}

# vue-npm: component libraries that ship their `.vue` sources: PrimeVue 5 (`<script>` Options
# API), Element UI 2 and View Design 4 (Vue 2)
vue_npm() {
  npm_packs vue-npm primevue@5.0.2 element-ui@2.15.14 view-design@4.7.0
}

# perl-modules: the core Perl modules Debian ships as .pm sources (usr/share/perl/5.36:
# Pod::, CPAN::, Test::, TAP::, Module::, ExtUtils::, ...) and the Moose-free libwww stack
perl_modules() {
  deb perl-modules perl-modules-5.36 libwww-perl liburi-perl libhttp-message-perl
  mkdir -p "$CORPUS/perl-modules"
  (cd "$WORK/perl-modules/x/usr/share" && find . -type f -name '*.pm' -exec cp --parents {} "$CORPUS/perl-modules" \;)
}

ALL=(luarocks bash_completion otp ocaml zig_std elixir r_debian julia_pypi protos haskell svelte_npm vue_npm perl_modules)
for c in "${@:-${ALL[@]}}"; do
  dir=${c//_/-}
  if [ -d "$CORPUS/$dir" ]; then echo "$dir: laid out already"; continue; fi
  "$c"
  echo "$dir: $(find "$CORPUS/$dir" -type f | wc -l) files"
done
