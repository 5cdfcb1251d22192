"""Prints the README's worked examples: each implemented tool called on the fixture
through the Python SDK, answers abridged. Usage (after scripts/test.sh):
.venv-test/bin/python tests/mcp/make_examples.py"""

import asyncio
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from mcp import Client
from mcp.client.stdio import StdioServerParameters

HERE = Path(__file__).resolve().parent
BIN = str(HERE.parent.parent / "target" / "release" / "navegador")
# Ids stay: an edge names its ends by id (each node is named once, by its entry).
DROP = {"language", "line_end", "signature", "kind", "docstring"}


def abridge(v, depth=0):
    if isinstance(v, dict):
        return {k: abridge(x, depth + 1) for k, x in v.items() if k not in DROP}
    if isinstance(v, list):
        keep = [abridge(x, depth + 1) for x in v[:2]]
        return keep + (["…"] if len(v) > 2 else [])
    return v


def compact(v) -> str:
    return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))


def render(v: dict) -> str:
    """Top-level keys one per line, list items one per line, the rest compact."""
    lines = ["{"]
    for k, x in v.items():
        if isinstance(x, list) and x:
            lines.append(f'  "{k}": [')
            lines += [f"    {compact(i) if i != '…' else '…'}," for i in x]
            lines.append("  ],")
        elif isinstance(x, dict) and len(compact(x)) > 100:
            lines.append(f'  "{k}": {{')
            lines += [f'    "{kk}": {compact(xx)},' for kk, xx in x.items()]
            lines.append("  },")
        else:
            lines.append(f'  "{k}": {compact(x)},')
    return "\n".join(lines) + "\n}"


CALLS = [
    ("ingest", {"path": "."}),
    ("function", {"name": "User.rename"}),
    ("class", {"name": "User"}),
    ("context", {"file": "app/views.py", "format": "markdown"}),
    ("explain", {"name": "Shape"}),
    ("blast_radius", {"name": "Base.save", "depth": 3}),
    ("search", {"query": "clean"}),
    ("search_knowledge", {"query": "validate"}),
    ("get_rationale", {"name": "Base.save"}),
    ("find_owners", {"name": "User"}),
    ("query", {"cypher": "MATCH (s:Class)-[:INHERITS]->(b:Class) RETURN s.name AS sub, b.name AS base ORDER BY sub"}),
    ("query", {"cypher": "MATCH (n RETURN n"}),
    ("function", {"name": "clean"}),
]


async def main(root: Path):
    params = StdioServerParameters(command=BIN, args=["mcp", "--workspace-root", str(root), "--no-watch"], cwd=str(root))
    async with Client(params) as c:
        for name, args in CALLS:
            r = await c.call_tool(name, args)
            print(f"`{name}` `{json.dumps(args)}`" + (" (an error result: the model reads it and retries)" if r.is_error else "") + ":\n")
            if name == "context":
                print("```markdown\n" + r.content[0].text.strip() + "\n```\n")
            elif r.is_error:
                print("```\n" + r.content[0].text.strip() + "\n```\n")
            else:
                print("```json\n" + render(abridge(r.structured_content)) + "\n```\n")


with tempfile.TemporaryDirectory() as d:
    root = Path(d) / "repo"
    shutil.copytree(HERE / "fixture", root)
    asyncio.run(main(root))
