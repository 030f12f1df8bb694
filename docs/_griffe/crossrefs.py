"""A griffe extension for the reference pages, so that they link as python-chess's do.

* A name a docstring writes in single backticks (`` `Game` ``, `` `State.play` ``,
  `` `initial()` ``) links to its entry when it names an object of the package: resolved
  where the docstring is (its class, its module), then among ``noughts``'s own names. The
  link is an *optional* cross-reference, as mkdocstrings writes for signatures: a name
  with no entry on any page stays code, without a warning.
* A class's bases name what a reader can look up: a base that is no public name of
  ``noughts`` (``MarksGame``, a module's helper) is replaced by its nearest ancestor that
  is, and ``ABC`` and ``Generic[...]`` are left out.
* ``GAMES`` is shown as a table of the registry's games, built from the registry itself,
  rather than as the value its source assigns.
* An attribute without a docstring takes the ``#:`` comment lines right above it, as
  Sphinx's autodoc reads them: the source documents constants and fields that way.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import griffe

#: A name in single backticks (not inside a ``double-backtick`` literal): an identifier,
#: dotted, optionally called.
_NAME = re.compile(r"(?<![`\w])`([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(\(\))?`(?![`\w])")
_FENCE = re.compile(r"^\s*```")


def _resolve(obj: griffe.Object, package: griffe.Module, name: str) -> str | None:
    first, _, rest = name.partition(".")
    if name.startswith(f"{package.name}."):
        return name
    for scope in (obj, package):
        with contextlib.suppress(Exception):
            found = scope.resolve(first)
            return f"{found}.{rest}" if rest else found
    return None


def link_names(text: str, obj: griffe.Object, package: griffe.Module) -> str:
    out: list[str] = []
    inside = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            inside = not inside
        elif not inside and "`" in line:
            line = _NAME.sub(lambda match: _link(match, obj, package), line)
        out.append(line)
    return "\n".join(out)


def _link(match: re.Match[str], obj: griffe.Object, package: griffe.Module) -> str:
    target = _resolve(obj, package, match.group(1))
    if target is None:
        return match.group(0)
    shown = match.group(1) + (match.group(2) or "")
    return f'<autoref identifier="{target}" optional><code>{shown}</code></autoref>'


def _public(package: griffe.Module) -> set[str]:
    """The canonical paths of the names ``noughts`` exports."""
    paths = set()
    for member in package.members.values():
        with contextlib.suppress(Exception):
            paths.add(member.target_path if member.is_alias else member.path)  # type: ignore[attr-defined]
    return paths


def _shown_bases(cls: griffe.Class, public: set[str]) -> list[Any]:
    shown: list[Any] = []
    for base in cls.bases:
        text = str(base)
        if text == "ABC" or text.startswith("Generic["):
            continue
        head = base.left if isinstance(base, griffe.ExprSubscript) else base
        path = getattr(head, "canonical_path", None)
        if path is None or path in public or not path.startswith("noughts."):
            shown.append(base)
            continue
        # A base of the package that is not public: its own bases instead, by name alone
        # (their type parameters are the private base's, not this class's).
        with contextlib.suppress(Exception):
            target = cls.modules_collection[path]
            if isinstance(target, griffe.Class):
                for ancestor in _shown_bases(target, public):
                    ancestor = ancestor.left if isinstance(ancestor, griffe.ExprSubscript) else ancestor
                    if str(ancestor) not in map(str, shown):
                        shown.append(ancestor)
    return shown


def _comment_docstring(obj: griffe.Attribute) -> str | None:
    """The ``#:`` lines right above `obj`'s line in its source, without their marks."""
    if obj.lineno is None:
        return None
    try:
        lines = obj.lines_collection[obj.filepath]  # type: ignore[index]
    except Exception:
        return None
    found: list[str] = []
    number = obj.lineno - 2  # the line above, 0-based
    while number >= 0 and lines[number].strip().startswith("#:"):
        found.insert(0, lines[number].strip().removeprefix("#:").strip())
        number -= 1
    return " ".join(found) or None


def _games_table() -> str:
    from noughts.registry import GAMES

    rows = ["| key | game | class | summary |", "|---|---|---|---|"]
    for key, entry in GAMES.items():
        cls = entry.cls
        link = f'<autoref identifier="noughts.{cls.__name__}" optional><code>{cls.__name__}</code></autoref>'
        rows.append(f"| `{key}` | {entry.name} | {link} | {entry.summary} |")
    return "\n".join(rows)


def _objects(obj: griffe.Object) -> list[griffe.Object]:
    found: list[griffe.Object] = []
    for member in obj.members.values():
        if member.is_alias:
            continue
        found.append(member)  # type: ignore[arg-type]
        if member.is_module or member.is_class:
            found += _objects(member)  # type: ignore[arg-type]
    return found


class CrossRefs(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.name != "noughts":
            return
        public = _public(pkg)
        for obj in [pkg, *_objects(pkg)]:
            if isinstance(obj, griffe.Attribute) and obj.docstring is None:
                comment = _comment_docstring(obj)
                if comment is not None:
                    obj.docstring = griffe.Docstring(comment, parent=obj)
            if obj.docstring is not None and "`" in obj.docstring.value:
                obj.docstring.value = link_names(obj.docstring.value, obj, pkg)
            if isinstance(obj, griffe.Class):
                obj.bases = _shown_bases(obj, public)
        games = pkg.modules_collection["noughts.registry.GAMES"]
        if isinstance(games, griffe.Attribute) and games.docstring is not None:
            games.docstring.value += "\n\n" + _games_table()
            games.value = None
