"""The wheel and the sdist: what they hold, and (slow) the wheel alone in a fresh venv,
where the library, the terminal game and the command work without any extra."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import bare_play

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "noughts"
DOCS = ROOT / "docs"

pytestmark = pytest.mark.integration
#: The tests of the built wheel and sdist: a build of both (seconds of a core) is for the
#: exhaustive checks (make test-slow); the checks of the sources stay in make test.
_BUILT = pytest.mark.slow


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and, built from it, the wheel (``python -m build``, as CI would)."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=280,
    )
    return out


def wheel(dist: Path) -> Path:
    (found,) = dist.glob("noughts-*.whl")
    return found


def data_files() -> list[str]:
    """The package's files that are not Python: the web app, the shipped weights, the
    migration template, py.typed."""
    return sorted(
        str(p.relative_to(PACKAGE.parent))
        for p in PACKAGE.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc", ".nbi", ".nbc") and "__pycache__" not in p.parts
    )


@_BUILT
def test_the_wheel_holds_the_web_app_the_weights_and_the_command(dist: Path) -> None:
    with zipfile.ZipFile(wheel(dist)) as archive:
        names = set(archive.namelist())
        entry_points = archive.read("noughts-0.1.0.dist-info/entry_points.txt").decode()
        metadata = Parser().parsestr(archive.read("noughts-0.1.0.dist-info/METADATA").decode())
    expected = data_files()
    assert "noughts/web/index.html" in expected and "noughts/py.typed" in expected
    assert [name for name in expected if name not in names] == []
    weights = [p.name for p in (PACKAGE / "ai" / "weights").glob("*.json")]
    assert all(f"noughts/ai/weights/{name}" in names for name in weights)
    assert "noughts = noughts.cli:main" in entry_points
    # No builder: the programs that build the shipped results stay in tools/ (the proof's
    # builder and frontier were in the package before).
    tools = {p.name for p in (ROOT / "tools").rglob("*.py")}
    assert {"qubic_build.py", "qubic_frontier.py"} <= tools
    assert [name for name in names if name.startswith("tools/") or Path(name).name in tools] == []
    # The core's requirements, the terminal's two, pure Python: rich draws, Babel speaks the
    # player's language; the rest only with an extra.
    requires = [Requirement(r) for r in metadata.get_all("Requires-Dist") or []]
    assert sorted(r.name for r in requires if r.marker is None) == ["babel", "rich"]
    # Ranges, not pins: noughts installs beside other versions of what it needs.
    assert [str(r) for r in requires if any(s.operator == "==" for s in r.specifier)] == []
    # The users' extras only: what developing Noughts takes is pyproject's dependency groups.
    extras = set(metadata.get_all("Provides-Extra") or [])
    assert extras == {"kernels", "server", "scale", "arena", "rl", "openspiel"}
    # The licence's notice ships with it, as its terms ask.
    assert metadata["License-Expression"] == "MIT" and metadata.get_all("License-File") == ["LICENSE"]
    assert "noughts-0.1.0.dist-info/licenses/LICENSE" in names
    urls = dict(url.split(", ", 1) for url in metadata.get_all("Project-URL") or [])
    assert set(urls) == {"Documentation", "Source", "Issues", "Changelog"}
    assert metadata["Author"] and metadata["Keywords"] and "Typing :: Typed" in metadata.get_all("Classifier")


#: What the sdist holds at its top: the package, its tests and docs, and what building,
#: setting up (Makefile, requirements.lock) and documenting them takes.
SDIST_TOP = {
    "src", "tests", "tools", "docs", "pyproject.toml", "hatch_build.py", "README.md", "PYPI.md", "LICENSE",
    "Makefile", "mkdocs.yml", "requirements.lock", "PKG-INFO",
}  # fmt: skip


@_BUILT
def test_the_sdist_builds_tests_and_documents(dist: Path) -> None:
    (sdist,) = dist.glob("noughts-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = [str(Path(*Path(name).parts[1:])) for name in archive.getnames() if len(Path(name).parts) > 1]
    assert {Path(name).parts[0] for name in names} == SDIST_TOP  # not bench/, data/ or .gitignore
    # The qubic proof's work data lives in the cache folder, never in the source.
    assert [name for name in names if "qubic-proof" in name] == []
    assert "src/noughts/py.typed" in names and "tests/conftest.py" in names and "docs/index.md" in names
    # The browser tests' vendored axe-core is the repository's (they skip without it).
    assert [name for name in names if name.startswith("tests/web/vendor")] == []


def test_every_path_the_build_names_exists() -> None:
    """A pattern in the build's configuration that matches nothing (the shipped weights
    once: src/noughts/ai/weights/*.json) says the package holds what it does not."""
    targets = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["hatch"]["build"]["targets"]
    named = [
        pattern
        for target in targets.values()
        for key in ("packages", "include", "only-include", "artifacts", "exclude")
        for pattern in target.get(key, [])
    ]
    assert named
    assert [p for p in named if not list(ROOT.glob(p.lstrip("/")))] == []


#: A link's target in Markdown (inline link or image, reference definition) or HTML.
LINK = re.compile(
    r"\]\(\s*<?([^)\s>]+)|^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)|(?:href|src)\s*=\s*[\"']([^\"']+)", re.M
)
CODE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$|`[^`\n]+`", re.M | re.S)


def links(markdown: str) -> list[str]:
    """The link targets of `markdown`, outside code.

    >>> links("[a](docs/RULES.md), ![b](https://x.org/b.png), `[c](d)`\\n\\n[e]: #top\\n<a href='f.md'>")
    ['docs/RULES.md', 'https://x.org/b.png', '#top', 'f.md']
    """
    return [next(g for g in m.groups() if g) for m in LINK.finditer(CODE.sub("", markdown))]


PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_description_links_only_pages_that_exist() -> None:
    """PYPI.md is the page on PyPI, where a relative link (docs/RULES.md, #a-section)
    leads nowhere: every link in it is an absolute address, and one into the
    documentation names a page of docs/ (as mkdocs publishes it: games.md at games/)."""
    body = (ROOT / PROJECT["readme"]).read_text(encoding="utf-8")
    found = links(body)
    assert [link for link in found if not re.match(r"[a-z][a-z0-9+.-]*:", link, re.I)] == []
    site = PROJECT["urls"]["Documentation"]
    pages = [link.removeprefix(site).split("#")[0] for link in found if link.startswith(site)]
    assert len(pages) >= 10
    assert [page for page in pages if page and not (DOCS / f"{page.rstrip('/')}.md").exists()] == []
    assert PROJECT["urls"]["Changelog"] == f"{site}changelog/" and (DOCS / "changelog.md").exists()
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert f"site_url: {site}\n" in mkdocs and f"repo_url: {PROJECT['urls']['Source']}\n" in mkdocs
    assert "make run" not in body and "clone" not in body  # the repository's business, README.md's


@_BUILT
def test_the_description_is_pypi_md(dist: Path) -> None:
    with zipfile.ZipFile(wheel(dist)) as archive:
        metadata = Parser().parsestr(archive.read("noughts-0.1.0.dist-info/METADATA").decode())
    assert metadata["Description-Content-Type"] == "text/markdown"
    body = metadata.get_payload()
    assert isinstance(body, str) and body.strip() == (ROOT / "PYPI.md").read_text(encoding="utf-8").strip()


#: The checkers of what is uploaded, installed for the test in a venv of its own: they are
#: no dependency of Noughts' development (twine brings keyring, cryptography...).
CHECKERS = ["twine==7.0.0", "check-wheel-contents==0.6.3"]


@pytest.mark.slow
@_BUILT
def test_twine_and_check_wheel_contents_find_nothing_to_say(dist: Path, tmp_path: Path) -> None:
    """What PyPI checks on upload (the metadata, the description rendered), and what the
    wheel holds (no stray files, no duplicates; pyproject says which check is off)."""
    venv = tmp_path / "checkers"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "--quiet", *CHECKERS], check=True, capture_output=True, timeout=280)
    built = sorted(str(p) for p in dist.iterdir())
    twine = subprocess.run(
        [python, "-m", "twine", "check", "--strict", *built], capture_output=True, text=True, timeout=120
    )
    assert twine.returncode == 0, twine.stdout + twine.stderr
    assert twine.stdout.count("PASSED") == 2
    contents = subprocess.run(
        [python, "-m", "check_wheel_contents", "-c", str(ROOT / "pyproject.toml"), str(wheel(dist))],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert contents.returncode == 0 and contents.stdout.strip().endswith(": OK"), contents.stdout + contents.stderr


def test_the_docs_group_brings_the_formatter_mkdocstrings_asks_for() -> None:
    """mkdocstrings-python formats separate signatures with Black or Ruff, and warns
    (an error under ``mkdocs build --strict``) when neither is installed."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    groups = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["dependency-groups"]
    docs = {Requirement(r).name for r in groups["docs"]}
    assert {"include-group": "docs"} in groups["dev"]
    assert "separate_signature: true" in config
    assert docs & {"ruff", "black"}


CHECK = """
import json, sys
import noughts
state = noughts.parse_spec("ultimate").initial().play_text("55")
player = noughts.level_player(state.game, "max", seed=1)
move = state.move_text(player.choose(state, noughts.Limits(time=0.2)))
try:
    noughts.make_player("kmcts")
    refused = ""
except noughts.NoughtsError as e:
    refused = str(e)
heavy = sorted({m.split(".")[0] for m in sys.modules} & {"numba", "numpy", "rich", "fastapi", "sqlalchemy"})
print(json.dumps({"move": move, "legal": state.legal_move_texts(), "refused": refused, "heavy": heavy}))
"""


@pytest.mark.slow
@pytest.mark.timeout(900)  # a build, a venv, an install, and a game of every level of every game
@_BUILT
def test_the_wheel_alone_in_a_fresh_venv(dist: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    bin_dir = venv / "bin"
    subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel(dist))],
        check=True,
        capture_output=True,
        timeout=280,
    )

    # The core and its requirements are pure Python: nothing compiled came with them.
    compiled = sorted(str(p.relative_to(venv)) for p in (venv / "lib").rglob("*") if p.suffix in (".so", ".pyd"))
    assert compiled == []

    # Only what the venv holds: not the sources a PYTHONPATH may point at (a worktree's).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"NOUGHTS_CACHE_DIR": str(tmp_path / "cache")}

    def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, capture_output=True, text=True, timeout=timeout, cwd=tmp_path, env=env)

    overview = run(str(bin_dir / "noughts"), "--help")
    assert overview.returncode == 0 and "play" in overview.stdout and "serve" in overview.stdout
    play_help = run(str(bin_dir / "noughts"), "play", "--help")
    assert play_help.returncode == 0 and "--level" in play_help.stdout
    checked = run(str(bin_dir / "python"), "-c", CHECK)
    assert checked.returncode == 0, checked.stderr
    found = json.loads(checked.stdout)
    assert found["move"] in found["legal"]
    assert "noughts[kernels]" in found["refused"]
    assert found["heavy"] == []  # import noughts loads no extra, nor the terminal's rich
    # The terminal game, one move and out; gobblet's medium once asked for numpy.
    for game, level, move in (("classic", "easy", "5"), ("gobblet", "medium", "S5")):
        played = subprocess.run(
            [str(bin_dir / "noughts"), "play", game, "--level", level, "--seed", "1"],
            input=f"{move}\nquit\n",
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
            env=env,
        )
        assert played.returncode == 0, played.stderr
        assert played.stdout.count("your move") == 2 and "the computer (O) plays" in played.stdout
    # Every game at every level, to the end of a game of each level against itself.
    every = run(str(bin_dir / "python"), bare_play.__file__, "1000", "0.05", timeout=600)
    assert every.returncode == 0, every.stderr
    bare_play.check(json.loads(every.stdout), plies=1000)
    served = run(str(bin_dir / "noughts"), "serve", "--port", "0")
    assert served.returncode == 2 and "pip install 'noughts[server]'" in served.stderr
