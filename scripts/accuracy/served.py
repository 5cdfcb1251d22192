"""What an agent sees: `code.trace_callers` at default arguments, through the MCP server.

Run by run.py with the official MCP Python SDK's interpreter (`.venv-test`, pinned in
tests/mcp/requirements.txt):  .venv-test/bin/python scripts/accuracy/served.py IN.json OUT.json
IN: {"server": [argv of navigation-mcp], "queries": [{"path": …, "symbol": …}]}.
OUT: one answer per query: {"status", "errors" (codes), "totalMatched", "items" [{path, line, resolution, relation}]}.
The server answers from an existing graph (--db, --no-watch): nothing is indexed or written.
"""
import asyncio
import json
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters


async def run(spec):
    params = StdioServerParameters(command=spec["server"][0], args=spec["server"][1:], cwd="/")
    out = []
    async with Client(params) as c:
        for q in spec["queries"]:
            r = await c.call_tool("code.trace_callers", {"path": q["path"], "symbol": q["symbol"]})
            env = r.structured_content
            data = env.get("data") or {}
            out.append(dict(status=env["status"], errors=[e["code"] for e in env.get("errors", [])],
                            totalMatched=data.get("totalMatched"),
                            items=[dict(path=i["path"], line=i["line"], resolution=i.get("resolution"), relation=i.get("relation"))
                                   for i in data.get("items", [])]))
    return out


def main():
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    out = asyncio.run(asyncio.wait_for(run(spec), timeout=spec.get("timeout", 600)))
    with open(sys.argv[2], "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
