"""A griffe extension for the reference pages: the doctest examples of our docstrings
(``>>>`` lines and the output under them, ended by a blank line, as doctest reads them)
are shown as Python console blocks instead of running into the prose as Markdown."""

from __future__ import annotations

from typing import Any

import griffe


def fence(text: str) -> str:
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        starts = line.lstrip().startswith(">>>")
        if starts and not inside:
            out += ["", "```pycon"]
            inside = True
        elif inside and not line.strip():
            out += ["```", ""]
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence(obj.docstring.value)
