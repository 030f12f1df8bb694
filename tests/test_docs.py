"""The documentation site: every example in it runs (each page's ``pycon`` blocks are one
doctest, in order), and the site builds with warnings as errors."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
# A fence closes an example's expected output, as a blank line does in a docstring.
_FENCE = re.compile(r"^\s*```.*$", re.MULTILINE)


def examples(page: Path) -> doctest.DocTest:
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    return doctest.DocTestParser().get_doctest(text, {"__name__": page.stem}, str(page.relative_to(ROOT)), str(page), 0)


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_every_example_runs(page: Path) -> None:
    test = examples(page)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {page.name} failed (above)"


def test_the_tutorial_has_examples() -> None:
    # A page whose fences are not recognised would pass the test above without running.
    assert len(examples(DOCS / "tutorial.md").examples) >= 20


@pytest.mark.integration
def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "reference" / "players" / "index.html").exists()
