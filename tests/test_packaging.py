"""The wheel and the sdist: what they hold, and (slow) the wheel alone in a fresh venv,
where the library, the terminal game and the command work without any extra."""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "noughts"

pytestmark = pytest.mark.integration


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
    # The core's requirements: nothing compiled; the rest only with an extra.
    requires = metadata.get_all("Requires-Dist") or []
    assert [r for r in requires if "extra ==" not in r] == ["rich==15.0.0"]
    extras = set(metadata.get_all("Provides-Extra") or [])
    assert {"kernels", "server", "arena", "rl", "openspiel", "docs", "dev"} <= extras


def test_the_sdist_builds_tests_and_documents(dist: Path) -> None:
    (sdist,) = dist.glob("noughts-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    top = {Path(name).parts[1] for name in names if len(Path(name).parts) > 1}
    assert {"src", "tests", "tools", "docs", "pyproject.toml", "README.md", "mkdocs.yml"} <= top
    assert "bench" not in top
    # The qubic proof's work data lives in the cache folder, never in the source.
    assert [name for name in names if "qubic-proof" in name] == []


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

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=tmp_path)

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
    # The terminal game, one move and out.
    game = subprocess.run(
        [str(bin_dir / "noughts"), "play", "classic", "--level", "easy", "--seed", "1"],
        input="5\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert "your move" in game.stdout
    served = run(str(bin_dir / "noughts"), "serve", "--port", "0")
    assert served.returncode == 2 and "pip install 'noughts[server]'" in served.stderr
