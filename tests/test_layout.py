"""tests/ mirrors the source: a folder of tests names the package it tests, so that the
tests of a module are found where the module is."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Folders of data and helpers, not of tests.
NOT_TESTS = {"data", "reference", "snapshots", "vendor", "__pycache__"}


def test_every_folder_of_tests_names_the_package_it_tests() -> None:
    folders = [
        path
        for path in (ROOT / "tests").rglob("*")
        if path.is_dir() and not NOT_TESTS.intersection(path.relative_to(ROOT / "tests").parts)
    ]
    assert folders, "no folders of tests found"
    strays = []
    for folder in folders:
        relative = folder.relative_to(ROOT / "tests")
        under_src = ROOT / "src" / "noughts" / relative
        under_tools = ROOT / relative if relative.parts[0] == "tools" else None
        if not (under_src.is_dir() or (under_tools is not None and under_tools.is_dir())):
            strays.append(str(relative))
    assert strays == [], f"these folders of tests name no package of src/noughts or tools/: {strays}"
