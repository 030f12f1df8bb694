"""Writes the websocket protocol's frames as TypeScript types for the browser's JSDoc
(`src/noughts/web/js/online/protocol.d.ts`), from the JSON Schema the server publishes
(`noughts.server.online.protocol.schema()`): the page's socket code is type-checked
against the frames the server parses and sends (`tsc -p jsconfig.json`).

    .venv/bin/python tools/socket_types/build.py [--check]

--check says whether the shipped file is the one this writes (exit 1 if not).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "src" / "noughts" / "web" / "js" / "online" / "protocol.d.ts"


def _type(schema: dict[str, Any]) -> str:
    """`schema` (the subset the protocol's models give) as a TypeScript type."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[1]
    if "anyOf" in schema:
        return " | ".join(_type(option) for option in schema["anyOf"])
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(value) for value in schema["enum"])
    kind = schema.get("type")
    if kind in ("integer", "number"):
        return "number"
    if kind in ("string", "boolean", "null"):
        return str(kind)
    if kind == "array":
        return f"{_type(schema.get('items', {}))}[]"
    if kind == "object":
        if "properties" in schema:
            return _object(schema)
        values = schema.get("additionalProperties", True)
        value = "any" if values is True else _type(values)
        keys = schema.get("propertyNames", {}).get("enum")
        if keys:
            return f"Partial<Record<{' | '.join(json.dumps(k) for k in keys)}, {value}>>"
        return f"Record<string, {value}>"
    return "any"


def _object(schema: dict[str, Any], indent: str = "") -> str:
    required = set(schema.get("required", []))
    lines = ["{"]
    for name, field in schema["properties"].items():
        # A field with a default may be left out of a frame: optional for the sender.
        optional = "" if name in required or "default" not in field else "?"
        lines.append(f"{indent}  {name}{optional}: {_type(field)};")
    lines.append(f"{indent}}}")
    return "\n".join(lines)


def render() -> str:
    from noughts.server.online.protocol import schema

    published = schema()
    out = [
        "// The websocket protocol's frames, written by tools/socket_types/build.py from",
        "// the JSON Schema the server publishes (/api/online/socket-schema.json): not by hand.",
        "",
    ]
    for name, model in published["$defs"].items():
        doc = " ".join(str(model.get("description", "")).split())
        if doc:
            out.append(f"/** {doc} */")
        out.append(f"export interface {name} {_object(model)}")
        out.append("")
    for side, union in (("ClientFrame", published["client"]), ("ServerFrame", published["server"])):
        members = sorted({str(ref).rsplit("/", 1)[1] for ref in union["discriminator"]["mapping"].values()})
        out.append(f"/** Every frame {'a client sends' if side == 'ClientFrame' else 'the server sends'}. */")
        out.append(f"export type {side} = {' | '.join(members)};")
        out.append("")
    out.append("/** A client frame as the page hands it to its socket, which adds the id. */")
    # Distributed over the union: Omit of the union itself would keep only the fields all share.
    distributed = 'ClientFrame extends infer F ? (F extends unknown ? Omit<F, "id"> : never) : never'
    out.append(f"export type Outgoing = {distributed};")
    out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped file instead of writing it")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        same = OUT.exists() and OUT.read_text() == text
        print(f"{OUT.relative_to(ROOT)} is {'up to date' if same else 'out of date: run tools/socket_types/build.py'}")
        return 0 if same else 1
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
