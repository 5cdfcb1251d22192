"""`navegador export` read by the tools people use: DOT rendered by Graphviz (`dot -Tsvg`),
GraphML parsed by networkx (typed attributes), Mermaid checked by a parser of the flowchart
syntax we write, JSON Lines line by line, and the CLI's errors for bad input. The exports
are of the fixture repository (the `workspace` fixture); their exact text is checked by the
golden files of crates/navegador-analysis/tests/export.rs. Under CI=true a missing consumer
fails the test (scripts/test.sh installs Graphviz)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest


def export(binary: str, root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([binary, "export", *args], cwd=root, capture_output=True, text=True, check=check)


def counts(binary: str, root: Path, *args: str) -> tuple[int, int]:
    lines = [json.loads(l) for l in export(binary, root, "--format", "jsonl", *args).stdout.splitlines()]
    return sum(l["type"] == "node" for l in lines), sum(l["type"] == "edge" for l in lines)


def need(tool: str) -> None:
    if shutil.which(tool) is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{tool} is missing: scripts/test.sh installs it (apt-get install graphviz)")
        pytest.skip(f"{tool} is not installed")


def test_jsonl_has_one_node_or_edge_per_line_with_a_stable_schema(binary, workspace):
    out = export(binary, workspace, "--format", "jsonl").stdout
    nodes = set()
    for line in out.splitlines():
        v = json.loads(line)
        if v["type"] == "node":
            assert set(v) == {"type", "id", "labels", "properties"}, v
            nodes.add(v["id"])
        else:
            assert set(v) == {"type", "id", "label", "source", "target", "properties"}, v
            assert v["source"] in nodes and v["target"] in nodes, "edges come after both their ends"
    assert len(nodes) > 20


def test_dot_renders_with_graphviz(binary, workspace, tmp_path):
    need("dot")
    for args in ([], ["--scope", "app", "--depth", "2"]):
        dot = export(binary, workspace, "--format", "dot", *args).stdout
        r = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True)
        assert r.returncode == 0 and not r.stderr.strip(), r.stderr
        n, _ = counts(binary, workspace, *args)
        assert r.stdout.count('class="node"') == n


def test_graphml_parses_with_networkx_typed(binary, workspace, tmp_path):
    networkx = pytest.importorskip("networkx") if os.environ.get("CI") != "true" else __import__("networkx")
    out = tmp_path / "g.graphml"
    export(binary, workspace, "--format", "graphml", "--out", str(out))
    g = networkx.read_graphml(out)
    n, e = counts(binary, workspace)
    assert (g.number_of_nodes(), g.number_of_edges()) == (n, e)
    functions = [d for _, d in g.nodes(data=True) if d["labels"] == "Function"]
    assert functions and all(isinstance(d["line_start"], int) for d in functions)
    assert all(isinstance(d.get("label"), str) for _, d in g.nodes(data=True))
    assert {d["label"] for _, _, d in g.edges(data=True)} >= {"CALLS", "CONTAINS"}


# The Mermaid we write, line by line: the header, node declarations, edges and comments.
MERMAID = [
    re.compile(r"^flowchart LR$"),
    re.compile(r'^  (?P<node>n\w+|cut)\["(?P<label>[^"]*)"\]$'),
    re.compile(r"^  (?P<a>n\w+) (-->|-\.->)\|\w+\| (?P<b>n\w+)$"),
    re.compile(r"^  %% .*$"),
]


def parse_mermaid(text: str) -> tuple[set[str], list[tuple[str, str]]]:
    lines = text.splitlines()
    assert lines and lines[0] == "flowchart LR"
    nodes, edges = set(), []
    for line in lines[1:]:
        m = next((m for p in MERMAID[1:] if (m := p.match(line))), None)
        assert m, f"not Mermaid flowchart syntax we know: {line!r}"
        if m.re is MERMAID[1]:
            assert "<" not in m["label"] and ">" not in m["label"], line
            nodes.add(m["node"])
        elif m.re is MERMAID[2]:
            edges.append((m["a"], m["b"]))
    assert all(a in nodes and b in nodes for a, b in edges), "every edge joins declared nodes"
    return nodes, edges


def test_mermaid_parses_and_is_cut_with_a_note(binary, workspace):
    r = export(binary, workspace, "--format", "mermaid", "--scope", "app/models.py", "--depth", "1")
    nodes, edges = parse_mermaid(r.stdout)
    assert nodes and edges
    r = export(binary, workspace, "--format", "mermaid", "--max-nodes", "5")
    nodes, edges = parse_mermaid(r.stdout)
    assert len(nodes - {"cut"}) == 5 and "cut" in nodes and len(edges) <= 10
    assert "note: the Mermaid diagram was cut to 5 nodes" in r.stderr


def test_cypher_is_one_statement_per_line(binary, workspace):
    out = export(binary, workspace, "--format", "cypher").stdout
    statements = [l for l in out.splitlines() if l and not l.startswith("//")]
    assert statements and all(l.startswith("UNWIND [") and l.endswith(";") for l in statements)


def test_bad_input_gets_a_clear_error(binary, workspace, tmp_path):
    cases = [
        (["--format", "svg"], "unknown export format `svg`; pass --format with one of graphml, dot, mermaid, jsonl, cypher"),
        (["--format", "dot", "--scope", "NoSuchThing"], "scope `NoSuchThing` is neither an indexed file or folder nor a symbol's name"),
        (["--format", "dot", "--labels", "Func"], "no node has the label `Func`; the graph's labels are"),
        (["--format", "dot", "--out", str(tmp_path / "missing" / "g.dot")], "cannot write"),
    ]
    for args, message in cases:
        r = export(binary, workspace, *args, check=False)
        assert r.returncode == 2 and message in r.stderr, (args, r.stderr)
        assert r.stdout == ""
    assert not (tmp_path / "missing").exists()
