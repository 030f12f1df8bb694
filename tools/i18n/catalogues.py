"""The translators' tool: the texts extracted from the code (Python and the page's
JavaScript, by Babel), and every language's catalogue brought up to date with them.

    .venv/bin/python tools/i18n/catalogues.py update        # every po/LANG.po
    .venv/bin/python tools/i18n/catalogues.py init LANG     # a new language's catalogue
    .venv/bin/python tools/i18n/catalogues.py pot FILE      # the template, for a platform

A new text appears in each catalogue untranslated, a text gone from the code leaves it,
and a changed one is a new text (no fuzzy guesses: a guess shown to a child is worse
than English). Nothing is compiled: the package reads the .po files themselves.
"""

from __future__ import annotations

import argparse
import sys
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
PO_DIR = ROOT / "src" / "noughts" / "i18n" / "po"
# What Babel reads, by path from the repository's root: the page's modules with its
# JavaScript extractor, the rest of the package with its Python one.
METHOD_MAP = [
    ("src/noughts/web/js/**.js", "javascript"),
    ("src/noughts/**.py", "python"),
]
# The calls whose literal arguments are the texts (argument numbers, from 1): the page's
# t(text, params), tn(singular, plural, n, params) and tl(text with <a>links</a>, makers);
# Python's gettext/ngettext and N_, the mark of a text looked up later; and the server's
# refusals, whose message (the second argument, after the stable error word) the answer
# shows in the asker's language.
KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "t": None,
    "tl": None,
    "tn": (1, 2),
    "gettext": None,
    "ngettext": (1, 2),
    "N_": None,
    **dict.fromkeys(
        [
            "ActionError",
            "MissingError",
            "ForbiddenError",
            "InvalidError",
            "TooManyError",
            "TournamentError",
            "AccountError",
        ],
        (2,),
    ),
}
HEADER = "Noughts: the texts players read. Edit the msgstr lines; tools/i18n/README.md says how."


def extract() -> Catalog:
    """Every text of the code, with the files it is written in."""
    template = Catalog(project="Noughts", header_comment=f"# {HEADER}", fuzzy=False)
    found = extract_from_dir(
        str(ROOT),
        METHOD_MAP,
        options_map={"src/noughts/web/js/**.js": {"parse_template_string": "true"}},
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    )
    for filename, lineno, message, comments, context in found:
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def write(catalog: Catalog, path: Path) -> None:
    # No line numbers, no wrapping and no dates: a catalogue changes where its texts change
    # (the history is git's).
    written = BytesIO()
    write_po(written, catalog, width=0, include_lineno=False, ignore_obsolete=True, sort_by_file=False)
    lines = written.getvalue().decode("utf-8").splitlines(keepends=True)
    undated = [line for line in lines if not line.startswith(('"POT-Creation-Date:', '"PO-Revision-Date:'))]
    path.write_text("".join(undated), encoding="utf-8")


def update(template: Catalog) -> list[Path]:
    written = []
    for path in sorted(PO_DIR.glob("*.po")):
        with path.open("rb") as file:
            catalog = read_po(file, locale=path.stem)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=True)
        write(catalog, path)
        written.append(path)
    return written


def init(template: Catalog, language: str) -> Path:
    path = PO_DIR / f"{language}.po"
    if path.exists():
        raise SystemExit(f"{path} exists: run update")
    catalog = Catalog(locale=language, project="Noughts", header_comment=f"# {HEADER}", fuzzy=False)
    catalog.update(template, no_fuzzy_matching=True)
    write(catalog, path)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("update", help="bring every po/LANG.po up to date with the code")
    init_parser = commands.add_parser("init", help="a new language's catalogue")
    init_parser.add_argument("language", help="its code, as Babel knows it: de, pt_BR, zh")
    pot = commands.add_parser("pot", help="write the template")
    pot.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    template = extract()
    if args.command == "update":
        for path in update(template):
            print(f"{path.relative_to(ROOT)}: {len(template)} texts")
    elif args.command == "init":
        print(init(template, args.language).relative_to(ROOT))
    else:
        write(template, args.file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
