"""Every package the code imports is one that installing it brings: a module of the web
server needs only what ``noughts[server]`` installs, the kernels what
``noughts[kernels]`` installs, and so on. (``noughts bot`` once imported httpx, which
only the developers' extra installed: a user's ``pip install 'noughts[server]'`` got a
command that could not start.) Read from the sources and the installed packages'
metadata, so it needs no fresh environment."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from functools import cache
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "noughts"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

#: Which extra a part of the package belongs to (the first prefix that matches); the
#: rest is the library, which may use any extra a user installs for it (each such
#: import is made where the feature is used, and says which extra it needs).
EXTRA_OF = {
    "thinking/queue.py": "scale",
    "thinking/worker.py": "scale",
    "server/": "server",
    "bridge/": "server",
    "kernels/": "kernels",
    "ai/compiled.py": "kernels",
    "rl.py": "rl",
    "spiel.py": "openspiel",
    "arena/openspiel.py": "openspiel",
    "arena/": "arena",
}
#: What users install: every extra (the developers' packages are pyproject's dependency groups).
USERS = ("kernels", "server", "scale", "arena", "rl", "openspiel")


def imported(path: Path) -> set[str]:
    """The top-level names of the packages a module imports, wherever in it."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n not in ("noughts", "__future__")}


@cache
def brought(requirement: str) -> frozenset[str]:
    """The distributions installing `requirement` brings: itself, and what it requires
    (with the extras asked for), as installed here."""
    req = Requirement(requirement)
    name = canonicalize_name(req.name)
    found = {name}
    for extra in (*req.extras, ""):
        for text in metadata.requires(req.name) or []:
            needed = Requirement(text)
            if needed.marker is None or needed.marker.evaluate({"extra": extra}):
                found |= brought(str(needed).split(";")[0])
    return frozenset(found)


def installs(extras: tuple[str, ...]) -> set[str]:
    """The distributions ``pip install noughts[extras]`` brings."""
    found: set[str] = set()
    for requirement in [*PROJECT["dependencies"], *(r for e in extras for r in PROJECT["optional-dependencies"][e])]:
        found |= brought(requirement)
    return found


def test_every_import_comes_with_the_extra_its_part_needs() -> None:
    providers = {top: {canonicalize_name(d) for d in dists} for top, dists in metadata.packages_distributions().items()}
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        part = str(path.relative_to(PACKAGE))
        extra = next((e for prefix, e in EXTRA_OF.items() if part.startswith(prefix)), None)
        allowed = installs((extra,) if extra else USERS)
        for name in sorted(imported(path)):
            if not providers.get(name, set()) & allowed:
                missing.append(f"{part} imports {name}, which noughts[{extra or ','.join(USERS)}] does not install")
    assert missing == []


def test_the_check_sees_a_package_only_the_developers_get() -> None:
    """pytest is in the dev group alone: a server module importing it would be reported."""
    providers = metadata.packages_distributions()["pytest"]
    assert not {canonicalize_name(d) for d in providers} & installs(("server",))
    assert {canonicalize_name(d) for d in metadata.packages_distributions()["httpx2"]} <= installs(("server",))


GROUPS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["dependency-groups"]


def requirements() -> list[Requirement]:
    """pyproject's requirements: of the library, every extra and every dependency group
    (each group's own: an ``include-group`` is the other group's)."""
    texts = [
        *PROJECT["dependencies"],
        *(r for reqs in PROJECT["optional-dependencies"].values() for r in reqs),
        *(r for reqs in GROUPS.values() for r in reqs if isinstance(r, str)),
    ]
    return [Requirement(t) for t in texts if canonicalize_name(Requirement(t).name) != "noughts"]


def locked() -> dict[str, list[Version]]:
    """requirements.lock: each package's versions for this Python and platform (a
    package may have one per environment marker)."""
    found: dict[str, list[Version]] = {}
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate():
                (pinned,) = req.specifier
                found.setdefault(canonicalize_name(req.name), []).append(Version(pinned.version))
    return found


def test_the_library_declares_ranges_not_pins() -> None:
    """A pin (``numpy==2.4.6``) makes noughts uninstallable beside any other version;
    the set-up's exact versions are requirements.lock's."""
    pinned = [str(r) for r in requirements() if any(s.operator in ("==", "===") for s in r.specifier)]
    assert pinned == []
    assert all(r.specifier for r in requirements()), "each range has its lowest verified version"


def test_the_lock_file_holds_every_requirement_within_its_range() -> None:
    """requirements.lock (``make`` installs with it as constraints) is regenerated when
    pyproject's requirements change: else a new requirement would install unlocked, or
    a raised lower bound would conflict with the lock."""
    lock = locked()
    wrong = []
    for req in requirements():
        versions = lock.get(canonicalize_name(req.name), [])
        if len(versions) != 1 or versions[0] not in req.specifier:
            wrong.append(f"{req}: locked {[str(v) for v in versions]}")
    assert wrong == []


def test_every_extra_is_a_users_and_the_set_up_installs_them_all() -> None:
    """The developers' packages are dependency groups, never a published extra; make's
    set-up installs every extra beside the dev group (an extra it missed would go
    untested)."""
    assert set(PROJECT["optional-dependencies"]) == set(USERS)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    (installed,) = re.findall(r"-e '\.\[([a-z,]+)\]' --group dev", makefile)
    assert sorted(installed.split(",")) == sorted(USERS)
    assert {"dev", "docs"} <= set(GROUPS)
