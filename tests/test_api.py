"""What ``import noughts`` offers: declared, documented, and in the reference."""

from __future__ import annotations

import inspect
from pathlib import Path

import noughts

REFERENCE = Path(__file__).resolve().parent.parent / "docs" / "reference"


def test_every_public_name_is_there() -> None:
    missing = [name for name in noughts.__all__ if not hasattr(noughts, name)]
    assert missing == []
    assert len(set(noughts.__all__)) == len(noughts.__all__)


def test_every_public_class_and_function_has_its_own_docstring() -> None:
    undocumented = []
    for name in noughts.__all__:
        value = getattr(noughts, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            own = value.__dict__.get("__doc__") if inspect.isclass(value) else value.__doc__
            if not (own or "").strip():
                undocumented.append(name)
    assert undocumented == []


def test_every_public_name_is_in_the_reference() -> None:
    pages = "".join(page.read_text(encoding="utf-8") for page in REFERENCE.glob("*.md"))
    assert [name for name in noughts.__all__ if f"::: noughts.{name}\n" not in pages] == []
