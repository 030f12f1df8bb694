"""A griffe extension for the reference pages: a method or property that overrides a
documented one of a base class, without a docstring of its own, shows the base's (as
``inspect.getdoc`` and Sphinx's autodoc do). A hook's contract is written once, on the
base class, and every game's page still says what its ``initial`` or ``parse_move`` does."""

from __future__ import annotations

import contextlib
from typing import Any

import griffe


def inherit(cls: griffe.Class) -> None:
    try:
        bases = cls.mro()
    except Exception:  # a base outside what griffe loaded (pettingzoo, pyspiel): none to read
        return
    for name, member in cls.members.items():
        if member.is_alias or member.docstring is not None:
            continue
        for base in bases:
            inherited = None
            with contextlib.suppress(Exception):
                found = base.members.get(name)
                inherited = found.docstring if found is not None else None
            if inherited is not None:
                member.docstring = griffe.Docstring(inherited.value, parent=member)
                break


def classes(obj: griffe.Object) -> list[griffe.Class]:
    found: list[griffe.Class] = []
    for member in obj.members.values():
        if member.is_alias:
            continue
        if member.is_class:
            found.append(member)  # type: ignore[arg-type]
        if member.is_module or member.is_class:
            found += classes(member)  # type: ignore[arg-type]
    return found


class InheritedDocstrings(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for cls in classes(pkg):
            inherit(cls)
