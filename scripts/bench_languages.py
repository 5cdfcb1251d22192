#!/usr/bin/env python3
"""Per-language figures on real corpora, a benchmark (not a test). For each language asked,
one `navegador ingest` of a real tree and one `ctags -R` of the same tree give:

  - definition recall against Universal Ctags: the share of ctags' named functions,
    methods, classes, interfaces, structs, enums (traits, unions, ...: the row's kinds) that the
    graph has as a Class/Function/Method node of that name, in that file, whose line range
    holds ctags' line; the misses are counted by ctags kind;
  - files with a syntax error (the ingest's diagnostics), as a share of the files;
  - files per CPU second (user + sys of the ingest: parse, resolve, write), and ctags'
    files per CPU second on the same tree, measured in the same run;
  - call sites by status: resolved (exact + inferred), ambiguous, external (a builtin or
    an outside module), unresolved.

Usage: python3 scripts/bench_languages.py [LANG[=TREE] ...] [--bin NAVEGADOR]
  LANG is a row of LANGS below (all rows when none is given); TREE overrides its corpus.
  A new language adds its row: (default tree, ctags --languages name, ctags kinds that are
  definitions, file extensions). Needs ctags (Universal Ctags, JSON output) and a release
  build (default target/release/navegador). NAVEGADOR_CORPUS=DIR (default
  ~/.cache/navegador-corpus); no corpus has Rust: its tree is a crate of the local cargo registry.
A TREE written ROOT:SUB,SUB,... is a sample: those subtrees of ROOT, hard-linked into one
temporary tree (paths stay relative to ROOT).
Prints a markdown table for docs/languages.md and docs/BENCHMARKS.md.
"""
import collections, glob, json, os, re, resource, sqlite3, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.environ.get("NAVEGADOR_CORPUS", os.path.expanduser("~/.cache/navegador-corpus"))
REGISTRY = (glob.glob(os.path.expanduser("~/.cargo/registry/src/*/")) or [""])[0]

# language -> (tree, ctags language, ctags kinds that are definitions, our extensions)
LANGS = {
    "python": (f"{CORPUS}/django/django", "Python", {"class", "function", "member"}, ("py",)),
    "typescript": (f"{CORPUS}/effect/src", "TypeScript", {"class", "function", "interface", "enum", "method"}, ("ts",)),
    "javascript": (f"{CORPUS}/rxjs/dist/esm", "JavaScript", {"class", "function", "method", "getter", "setter", "generator"}, ("js",)),
    # Flow-typed JavaScript (`@flow`: the flow pack)
    "javascript-flow": (f"{CORPUS}/react-native/Libraries", "JavaScript", {"class", "function", "method", "getter", "setter", "generator"}, ("js",)),
    "java": (f"{CORPUS}/jdk/java.base", "Java", {"class", "interface", "enum", "method", "annotation"}, ("java",)),
    "go": (f"{CORPUS}/go/net", "Go", {"func", "struct", "interface", "methodSpec"}, ("go",)),
    "rust": (f"{REGISTRY}tokio-1.54.1/src", "Rust", {"function", "method", "struct", "enum", "interface"}, ("rs",)),
    "c": (f"{CORPUS}/go/runtime/cgo", "C", {"function", "struct", "union", "enum"}, ("c",)),
    # macro-heavy C: a fixed sample of Linux 6.1 (../shared/corpus/fetch.sh linux), the
    # subtrees after `:` linked into one tree; and tree-sitter's own runtime (cargo registry)
    "c-linux": (f"{CORPUS}/linux:kernel,mm,lib,block,fs/ext4,net/ipv4,drivers/base,drivers/char,drivers/gpio,drivers/i2c,drivers/tty,drivers/net/ethernet/intel",
                "C", {"function", "struct", "union", "enum"}, ("c", "h")),
    "c-tree-sitter": (f"{REGISTRY}tree-sitter-0.27.1/src", "C", {"function", "struct", "union", "enum"}, ("c", "h")),
    "kotlin": (f"{CORPUS}/react-native", "Kotlin", {"class", "interface", "method", "object"}, ("kt", "kts")),
    "kotlin-expo": (f"{CORPUS}/expo", "Kotlin", {"class", "interface", "method", "object"}, ("kt", "kts")),
    # Universal Ctags 5.9 has no Swift parser: a regex one, scripts/ctags/swift.ctags
    "swift": (f"{CORPUS}/expo", "Swift", {"class", "struct", "enum", "interface", "function"}, ("swift",)),
    # (ctags reads .h as C++; we decide a header by content, so a C header counts for C's pack)
    "cpp": (f"{CORPUS}/react-native/ReactCommon", "C++", {"function", "class", "struct", "union", "enum"}, ("cpp", "h", "hpp", "cc")),
    "csharp": (f"{CORPUS}/pythonnet/src", "C#", {"class", "interface", "struct", "enum", "method"}, ("cs",)),
    # ctags' PHP `function` kind covers methods too
    "php": (f"{CORPUS}/laravel/Illuminate", "PHP", {"class", "interface", "trait", "function", "enum"}, ("php",)),
    "ruby": (f"{CORPUS}/rails", "Ruby", {"class", "module", "method", "singletonMethod"}, ("rb",)),
    # issue 19's corpora: scripts/corpus_langs.sh lays them out (Penlight: ../shared/corpus/fetch.sh)
    "bash": (f"{CORPUS}/bash-completion", "Sh", {"function"}, ("sh", "bash")),
    "lua": (f"{CORPUS}/penlight", "Lua", {"function"}, ("lua",)),
    "lua-luarocks": (f"{CORPUS}/luarocks", "Lua", {"function"}, ("lua",)),
    # corpora of scripts/corpus_langs.sh
    "erlang": (f"{CORPUS}/otp", "Erlang", {"function", "record", "type"}, ("erl", "hrl")),
    "ocaml": (f"{CORPUS}/ocaml", "OCaml", {"function", "module", "class", "method", "type", "val"}, ("ml",)),
    # (ctags' operator, callback, exception, record and test kinds are not definitions here)
    "elixir": (f"{CORPUS}/elixir", "Elixir", {"function", "module", "macro", "delegate", "guard", "protocol", "implementation", "type"}, ("ex", "exs")),
    # Objective-C: React Native's iOS sources (ctags' `class` kind is a class method `+ m`);
    # `.mm` (Objective-C++) is its own row: the grammar reads no C++
    "objc": (f"{CORPUS}/react-native", "ObjectiveC", {"interface", "implementation", "protocol", "method", "class", "function"}, ("m",)),
    "objc-mm": (f"{CORPUS}/react-native", "ObjectiveC", {"interface", "implementation", "protocol", "method", "class", "function"}, ("mm",)),
    "objc-expo": (f"{CORPUS}/expo", "ObjectiveC", {"interface", "implementation", "protocol", "method", "class", "function"}, ("m",)),
    # ctags' R parser: functions, S4 classes, generics and methods
    "r": (f"{CORPUS}/r-debian", "R", {"function", "class", "generic", "method"}, ("R", "r")),
    "julia": (f"{CORPUS}/julia-pypi", "Julia", {"function", "macro", "module", "struct", "type"}, ("jl",)),
    # Protobuf: messages, enums, services, rpcs (ctags' fields, enum constants and oneofs are
    # Variables here, not compared)
    "proto": (f"{CORPUS}/protos", "Protobuf", {"message", "enum", "service", "rpc"}, ("proto",)),
    # Haskell: types (data, newtype, type, class), constructors, functions (ctags' `module`
    # tags name a header's first segment, `Data` of `module Data.Aeson`: not compared)
    "haskell": (f"{CORPUS}/haskell", "Haskell", {"type", "constructor", "function"}, ("hs",)),
    # Perl: Debian's core modules (perl-modules-5.36) and the libwww stack; ctags' packages and
    # subroutines (its constants, formats, labels and heredocs are not definitions here)
    "perl": (f"{CORPUS}/perl-modules", "Perl", {"package", "subroutine"}, ("pm", "pl")),
    # single-file components: ctags reads neither, so it reads their `<script>` blocks, cut out
    # in place (the rest blanked, lines kept) as `.js` / `.ts` files (see script_blocks)
    "svelte": (f"{CORPUS}/svelte-npm", "Svelte", {"class", "function", "interface", "enum", "method", "getter", "setter", "generator"}, ("svelte",)),
    "vue": (f"{CORPUS}/vue-npm", "Vue", {"class", "function", "interface", "enum", "method", "getter", "setter", "generator"}, ("vue",)),
}
# the host languages whose definitions ctags reads from the `<script>` blocks
EMBEDDED = {"Svelte", "Vue"}
SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
OPTLIB = os.path.join(ROOT, "scripts", "ctags")


def is_lambda_param(tree, path, t):
    """A ctags Kotlin `method` under a lambda that its line does not declare with `fun`."""
    line = open(os.path.join(tree, path), errors="replace").read().splitlines()[t["line"] - 1]
    return f"fun {t['name']}" not in line and not re.search(rf"fun\s+[\w.<>, ]*\.{re.escape(t['name'])}\b", line)


def js_not_a_definition(t):
    """A ctags JavaScript class or method tag that is a value, a keyword or a prototype
    assignment (see ctags_defs)."""
    name, kind, pattern = re.escape(t["name"]), t.get("kind"), t.get("pattern", "")
    if kind == "class":
        return bool(t["name"] in ("type", "export", "opaque", "declare")
                    or re.search(rf"{name}(\s*:\s*[^=(]*?)?\s*=\s*\(?\s*{{", pattern)
                    or re.search(rf"{name}\??\s*:\s*([$\w.]+<)?{{", pattern)
                    or re.search(rf"{name}\.prototype\s*=", pattern))
    return kind == "method" and bool(re.search(rf"\.prototype\.{name}\s*=\s*(?!function|async|\()", pattern))


def lua_defines(t):
    """Whether a ctags Lua tag's line defines its name as a function (see ctags_defs)."""
    name, pattern = re.escape(t["name"]), t.get("pattern", "")
    return bool(re.search(rf"function\s+{name}\s*\(|{name}\s*=\s*function\b", pattern))


def sh_defines(t):
    """Whether a ctags Sh function tag's line defines its name (see ctags_defs)."""
    name, pattern = re.escape(t["name"]), t.get("pattern", "")
    return bool(re.fullmatch(r"[\w.:-]+", t["name"]) and re.search(rf"(function\s+{name}\b|(^|[\s;&|(]){name}\s*\(\s*\))", pattern.removeprefix("/^")))


DEFINES = {}


def in_define(tree, path, line):
    """Whether a 1-based line of a C-family file is a `#define` line or its continuation."""
    if path not in DEFINES:
        inside, lines = False, set()
        for i, l in enumerate(open(os.path.join(tree, path), errors="replace").read().splitlines(), 1):
            if inside or l.lstrip().startswith("#define"):
                lines.add(i)
            inside = (inside or l.lstrip().startswith("#define")) and l.rstrip().endswith("\\")
        DEFINES[path] = lines
    return line in DEFINES[path]


HEREDOCS = {}


def in_heredoc(tree, path, line):
    """Whether a 1-based line is inside a triple-quoted heredoc (a doc) of an Elixir file."""
    if path not in HEREDOCS:
        inside, lines = None, set()
        for i, l in enumerate(open(os.path.join(tree, path), errors="replace").read().splitlines(), 1):
            for q in ('"""', "'''"):
                if inside is None and l.count(q) % 2 == 1:
                    inside = q
                    break
                if inside == q and l.strip().startswith(q):
                    inside = None
                    break
            else:
                if inside:
                    lines.add(i)
        HEREDOCS[path] = lines
    return line in HEREDOCS[path]


def ext_of(path, exts):
    return path.rsplit(".", 1)[-1] in exts


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


# How ctags spells a name we spell otherwise: C++ `operator ==` is our `operator==` (spaces
# are dropped), what has no name it calls `__anon…` (left out); a C# explicit interface
# implementation `IFoo.Bar` is our `Bar`.
def ctags_name(lang, name):
    if lang == "C#":
        name = name.rsplit(".", 1)[-1]
    # Lua's `function M.f` / `function T:m` are ctags' `M.f` / `T:m`, our `f` / `m`
    if lang == "Lua":
        name = re.split(r"[.:]", name)[-1]
    if lang == "C++" and name.startswith("__anon"):
        return None
    # R: `"f" <- function` / `` `f` <- function `` are ctags' `"f"`, our `f`; a function
    # passed as an argument (`setGeneric("g", function(x) …)`) is its `anonFunc…`
    if lang == "R":
        if name.startswith("anonFunc"):
            return None
        name = name.strip("\"'`")
    return name.replace(" ", "") if lang in ("C++", "C#") else name


def script_blocks(tree, exts, out):
    """Writes each component's `<script>` blocks under `out` at the component's path plus
    `.js` (`.ts` when a block says `lang="ts"`): everything else blanked, newlines kept, so
    ctags' lines are the component's."""
    for base, _, files in os.walk(tree):
        for f in files:
            if not ext_of(f, exts):
                continue
            path = os.path.join(base, f)
            src = open(path, errors="replace").read()
            keep, ts = [" " if c != "\n" else c for c in src], False
            for m in SCRIPT.finditer(src):
                ts |= bool(re.search(r"lang\s*=\s*[\"']?(ts|typescript)\b", m.group(1)))
                keep[m.start(2):m.end(2)] = src[m.start(2):m.end(2)]
            dst = os.path.join(out, os.path.relpath(path, tree)) + (".ts" if ts else ".js")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            open(dst, "w").write("".join(keep))


HASKELL_KEYWORDS = {"class", "pattern", "instance", "data", "newtype", "type", "where", "let", "module", "import", "deriving", "infixl", "infixr", "infix", "foreign", "default"}


def ctags_defs(tree, lang, kinds, exts):
    if lang in EMBEDDED:
        with tempfile.TemporaryDirectory() as tmp:
            script_blocks(tree, exts, tmp)
            defs, secs = ctags_defs(tmp, "JavaScript,TypeScript", kinds, ("js", "ts"))
        # a block file `a/B.svelte.ts` is the component `a/B.svelte`
        return [(p.rsplit(".", 1)[0], n, line, k) for p, n, line, k in defs], secs
    t0 = cpu()
    optlib = os.path.join(OPTLIB, f"{lang.lower()}.ctags")
    extra = [f"--options={optlib}"] if os.path.exists(optlib) else []
    out = subprocess.run(["ctags", *extra, "-R", f"--languages={lang}", "--output-format=json", "--fields=+nKEZl", "-f", "-", "."],
                         cwd=tree, capture_output=True, text=True, check=True).stdout
    secs = cpu() - t0
    defs, objects, in_docs = [], [0], [0]
    for line in out.splitlines():
        t = json.loads(line)
        path = t.get("path", "").removeprefix("./")
        # ctags' Kotlin parser tags every lambda (`<lambda>`) and destructured lambda
        # parameters (`{ (a, b) -> … }`, scoped under a lambda) as methods: not definitions
        if lang == "Kotlin" and (t["name"] == "<lambda>" or t.get("scope", "").endswith("<lambda>") and is_lambda_param(tree, path, t)):
            continue
        # the regex Swift parser reads `class func f` / `class var x` as a class
        if lang == "Swift" and t["name"] in ("func", "var", "let", "subscript"):
            continue
        # ctags' JavaScript parser calls an object literal a class (`const config = {…}`,
        # `e_1 = { error: e }`, `const s: T = {…}`, a property `topBlur: {…}`, an object type
        # `colorStops: $ReadOnlyArray<{…}>`): a value (ours is a Variable when module-level),
        # not counted; so is what it makes of Flow's `export type X = {…}` (a class named
        # `type` or `export`) and of `E.prototype = …` / `E.prototype.constructor = E` (the
        # class is the function E, counted where it is defined)
        if t.get("language", lang) == "JavaScript" and lang.startswith("JavaScript") and js_not_a_definition(t):
            objects[0] += 1
            continue
        # ctags' Erlang parser tags variables at a line's start in generated code
        # (`Bytes10 = …` in ASN.1 decoders) as functions; an Erlang function is an atom,
        # never capitalized, and its clause head is `name(` (ctags also tags atoms at a
        # line's start in expressions: `align,`)
        if lang == "Erlang" and (t["name"][:1].isupper() or t["kind"] == "function" and f"{t['name']}(" not in t.get("pattern", "")):
            continue
        # ctags' OCaml parser tags `let () = …` (binds no name) as a function named `()`, and
        # a packed module expression `(module M : S)` as a module M: not definitions
        if lang == "OCaml" and (t["name"] in ("()", "_") or t["kind"] == "module" and f"(module {t['name']}" in t.get("pattern", "")):
            continue
        # ctags' Elixir parser reads the examples in `@doc """…"""` heredocs (`defmodule
        # Counter do` in a doc) as definitions: text, not code
        if lang == "Elixir" and in_heredoc(tree, path, t["line"]):
            in_docs[0] += 1
            continue
        # ctags' Objective-C parser reads what a `#define` body declares (`- (void)setProp:`
        # in a macro defining methods) and a macro call (`RCT_WRAPPER_FOR_VIEW(V)`,
        # `__attribute__((…))`, `RCT_CUSTOM_VIEW_PROPERTY(color, T, V) {…}`) as a function or
        # method of the macro's name: an upper-case or `__` name is a macro, not counted
        if lang == "ObjectiveC" and (re.fullmatch(r"[A-Z][A-Z0-9_]{2,}|__\w+", t["name"]) or in_define(tree, path, t["line"])):
            continue
        # ctags' Sh parser reads an empty array assignment `COMPREPLY=()` as a function
        # `COMPREPLY=` and `compgen -A function -- …` as a function `--`: a tag counts when
        # its name is a word its line defines (`f() {`, `function f`)
        if lang == "Sh" and not sh_defines(t):
            continue
        # ctags' Lua parser tags a line `x = …function…` as a function x when the value is a
        # call that has `function` in it (`cmp = function_arg(3, cmp)`, `line =
        # line:gsub(p, function(s) … end)`, `local fstr = ('return function(%s) …')`): a tag
        # counts when its line defines the name as a function (`function x(`, `x = function`)
        if lang == "Lua" and not lua_defines(t):
            continue
        # ctags' Haskell parser tags a capitalized word starting a line inside an expression
        # or a data declaration's continuation (`| Empty`, `Double -> …`) as a function: a
        # Haskell function's name is never capitalized (a constructor's is; those it tags
        # as constructors are counted)
        # it also tags a line starting with a keyword (`class Foo a where`, `pattern P :: …`)
        # as a function named by the keyword: a keyword is never a name
        if lang == "Haskell" and t["kind"] == "function" and (t["name"][:1].isupper() or t["name"] in HASKELL_KEYWORDS):
            continue
        # ctags names anonymous functions (AnonymousFunction0d1a...): nothing to compare
        name = ctags_name(lang, t["name"])
        if name and t.get("kind") in kinds and ext_of(path, exts) and "anonymous" not in t.get("extras", ""):
            defs.append((path, name, t["line"], t["kind"]))
    if in_docs[0]:
        print(f"({lang}: {in_docs[0]} tags inside heredoc docs not counted)", file=sys.stderr)
    if objects[0]:
        print(f"({lang}: {objects[0]} object literals, Flow type aliases and prototype assignments ctags calls classes or methods not counted)", file=sys.stderr)
    return defs, secs


def ingest(nav, tree, exts):
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "g.db")
        t0 = cpu()
        out = subprocess.run([nav, "ingest", tree, "--db", db, "--json"], check=True, capture_output=True, text=True).stdout
        secs = cpu() - t0
        report = json.loads(out)
        con = sqlite3.connect(db)
        defs = collections.defaultdict(list)
        for fp, name, a, b in con.execute("SELECT file_path, name, line_start, line_end FROM nodes "
                                          "WHERE label IN ('Class', 'Function', 'Method') AND line_start IS NOT NULL"):
            if ext_of(fp, exts):
                defs[(fp, name)].append((a, b or a))
        languages = dict(con.execute("SELECT path, language FROM files"))
        paths = set(languages)
        # a file that is a module (OCaml's `shop_cart.ml` is `Shop_cart`) defines it: ctags
        # tags it at line 1
        for fp, module in con.execute("SELECT path, module FROM files WHERE module IS NOT NULL"):
            if ext_of(fp, exts):
                defs[(fp, module)].append((1, 1))
        files = sum(ext_of(fp, exts) for fp in paths)
        status = collections.Counter(s for fp, s in con.execute("SELECT file_path, status FROM refs WHERE kind = 'call'")
                                     if ext_of(fp, exts))
        con.close()
    broken = {d["path"] for d in report.get("diagnostics", []) if "syntax error" in d["message"] and ext_of(d["path"], exts)}
    # the bar is per language: a `.h` the registry reads as Objective-C counts for it
    by_lang = collections.Counter(languages[p] for p in paths if ext_of(p, exts))
    bad_lang = collections.Counter(languages.get(p, "?") for p in broken)
    print("(files with a syntax error by the language that read them: "
          + ", ".join(f"{l} {bad_lang[l]} of {n} ({bad_lang[l] / n:.1%})" for l, n in by_lang.most_common()) + ")", file=sys.stderr)
    return defs, files, len(broken), secs, status, paths


def main():
    argv = sys.argv[1:]
    nav = os.path.join(ROOT, "target", "release", "navegador")
    if "--bin" in argv:
        i = argv.index("--bin")
        nav = os.path.abspath(argv[i + 1])
        del argv[i:i + 2]
    asked = [a.split("=", 1) for a in argv if not a.startswith("-")] or [[n] for n in LANGS]
    if not os.path.exists(nav):
        sys.exit(f"{nav} missing: cargo build --release --bin navegador (or --bin PATH)")
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; navegador: {nav}; "
          f"{subprocess.run(['ctags', '--version'], capture_output=True, text=True).stdout.splitlines()[0]}")
    print("| language | tree | files | ctags definitions | recall | misses by ctags kind | files with a syntax error "
          "| files / CPU s (ctags) | call sites: resolved / ambiguous / external / unresolved |")
    print("|---|---|---|---|---|---|---|---|---|")
    for a in asked:
        name = a[0]
        if name not in LANGS:
            sys.exit(f"unknown language {name}: add its row to LANGS in {__file__}")
        tree, lang, kinds, exts = LANGS[name]
        tree = os.path.abspath(os.path.expanduser(a[1])) if len(a) > 1 else tree
        sample, label = None, tree
        if ":" in tree and not os.path.isdir(tree):
            root, subs = tree.split(":", 1)
            if os.path.isdir(root):
                sample = tempfile.TemporaryDirectory(prefix="bench-sample-")
                for sub in subs.split(","):
                    os.makedirs(os.path.dirname(os.path.join(sample.name, sub)), exist_ok=True)
                    subprocess.run(["cp", "-al", os.path.join(root, sub), os.path.join(sample.name, sub)], check=True)
                label, tree = f"{root}:{subs}", sample.name
        if not os.path.isdir(tree):
            print(f"| {name} | {tree} missing | | | | | | | |")
            continue
        theirs, ctags_secs = ctags_defs(tree, lang, kinds, exts)
        ours, files, broken, secs, status, paths = ingest(nav, tree, exts)
        # files the walk leaves out by its default rules (`build/`, `vendor/`, …) are not read:
        # their definitions are not counted (how many: stderr)
        skipped = [t for t in theirs if t[0] not in paths]
        if skipped:
            print(f"({name}: {len(skipped)} ctags definitions in {len({t[0] for t in skipped})} files the walk skips, not counted)", file=sys.stderr)
            theirs = [t for t in theirs if t[0] in paths]
        missed = collections.Counter(k for p, n, line, k in theirs
                                     if not any(lo <= line <= hi for lo, hi in ours.get((p, n), [])))
        found = len(theirs) - sum(missed.values())
        # BENCH_MISSES=N prints N of the missed definitions (file:line kind name) to stderr
        for p, n, line, k in [t for t in theirs if not any(lo <= t[2] <= hi for lo, hi in ours.get((t[0], t[1]), []))][:int(os.environ.get("BENCH_MISSES", "0"))]:
            print(f"  miss {p}:{line} {k} {n}", file=sys.stderr)
        sites = sum(status.values()) or 1
        share = lambda *ks: f"{sum(status[k] for k in ks) / sites:.3f}"  # noqa: E731
        short = (label if sample else tree).replace(CORPUS + "/", "").replace(REGISTRY, "crates.io/")
        print(f"| {name} | {short} | {files} | {len(theirs)} | {found / max(len(theirs), 1):.3f} | "
              f"{', '.join(f'{k} {n}' for k, n in missed.most_common(4)) or '-'} | "
              f"{broken} ({broken / max(files, 1):.1%}) | {files / secs:.0f} ({files / max(ctags_secs, 1e-3):.0f}) | "
              f"{share('exact', 'inferred')} / {share('ambiguous')} / {share('external')} / {share('unresolved')} "
              f"of {sum(status.values())} |", flush=True)


if __name__ == "__main__":
    main()
