"""What ``import noughts`` offers: declared, documented, and in the reference; and every
module of the library declaring its public names (``__all__``)."""

from __future__ import annotations

import ast
import inspect
import re
import tomllib
from pathlib import Path

import griffe
import yaml

import noughts

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference"
SRC = ROOT / "src"


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


def library_modules() -> list[Path]:
    """The modules of the library's packages: those the import contract (pyproject.toml)
    forbids to import an adapter, so that the list cannot drift from the layers'."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["name"].startswith("The library ")]
    found = []
    for name in contract["source_modules"]:
        path = SRC.joinpath(*name.split("."))
        found += sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]
    return found


def top_level_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for target in targets for t in ast.walk(target) if isinstance(t, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return names


def declared(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return list(ast.literal_eval(node.value))
    return None


def test_every_library_module_declares_what_is_public() -> None:
    # A package's __init__ with nothing in it but its docstring has nothing to declare.
    modules = library_modules()
    assert len(modules) > 50 and SRC / "noughts" / "games" / "mnk" / "rules.py" in modules
    undeclared, unknown = [], []
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = declared(tree)
        if names is None:
            if top_level_names(tree) - {"annotations"}:
                undeclared.append(str(path.relative_to(SRC)))
            continue
        unknown += [f"{path.relative_to(SRC)}: {name}" for name in names if name not in top_level_names(tree)]
    assert undeclared == []
    assert unknown == []


def documented_objects() -> list[str]:
    """What the documentation site's pages render with mkdocstrings: every ``::: path``."""
    pages = "".join(page.read_text(encoding="utf-8") for page in sorted((ROOT / "docs").rglob("*.md")))
    return re.findall(r"^::: (\S+)$", pages, re.MULTILINE)


def test_every_member_the_reference_shows_has_a_docstring() -> None:
    # Loaded as mkdocstrings loads it (mkdocs.yml's paths, extensions and filters), so
    # that a member hidden for want of a docstring, or an override without the base's
    # contract, fails here rather than vanishing from the site.
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    (handler,) = [p["mkdocstrings"]["handlers"]["python"] for p in config["plugins"] if isinstance(p, dict)]
    options = handler["options"]
    hidden = [re.compile(f.removeprefix("!")) for f in options["filters"] if f.startswith("!")]
    loader = griffe.GriffeLoader(
        search_paths=[ROOT / path for path in handler["paths"]],
        extensions=griffe.load_extensions(*(str(ROOT / e) for e in options["extensions"])),
    )
    package = loader.load("noughts")
    loader.resolve_aliases(external=False, implicit=False)

    undocumented: list[str] = []

    def check(obj: griffe.Object | griffe.Alias, members: bool) -> None:
        if not (obj.docstring and obj.docstring.value.strip()):
            undocumented.append(obj.path)
        if members and obj.is_class:
            for name, member in obj.members.items():
                if not member.is_alias and not any(f.search(name) for f in hidden):
                    check(member, members=member.is_class)

    paths = documented_objects()
    assert len(paths) > 60 and "noughts.State" in paths
    for path in paths:
        target = package[path.removeprefix("noughts.")]
        check(target.final_target if target.is_alias else target, members=True)
    assert undocumented == []


def test_the_state_page_shows_no_private_hook() -> None:
    # The hooks a family implements are for the families (a comment on State), not for
    # the users the page is for.
    state_doc = noughts.State.__doc__ or ""
    assert not re.search(r"\b_(init|check|apply|key)\b", state_doc)


def test_the_glance_page_links_every_public_name() -> None:
    glance = (REFERENCE / "index.md").read_text(encoding="utf-8")
    assert [name for name in noughts.__all__ if f"][noughts.{name}]" not in glance] == []


def test_the_reference_links_names_drops_private_bases_and_tabulates_the_games() -> None:
    """What docs/_griffe/crossrefs.py makes of the docstrings (the site build, a slow
    test, checks the pages' links)."""
    extension = griffe.load_extensions(str(ROOT / "docs/_griffe/crossrefs.py:CrossRefs"))
    package = griffe.GriffeLoader(search_paths=[SRC], extensions=extension).load("noughts")
    record = package["records.GameRecord"].docstring.value
    assert '<autoref identifier="noughts.records.GameRecord.to_text" optional><code>to_text</code></autoref>' in record
    assert [str(base) for base in package["games.mnk.rules.Mnk"].bases] == ["Game"]  # not MarksGame['MnkState']
    assert [str(base) for base in package["core.State"].bases] == []  # not ABC, Generic[M]
    games = package["registry.GAMES"]
    assert games.value is None and all(f"| `{key}` |" in games.docstring.value for key in noughts.GAMES)
    assert package["records.TERMINATIONS"].docstring.value.startswith("How a game ended")  # its #: comment
