"""tools/i18n: every catalogue holds exactly the texts of the code (none missing, none
left over from texts the code no longer has), each in the files that show it; and every
language offered is complete, its placeholders and links those of the English."""

from __future__ import annotations

import re
import warnings
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from noughts import i18n
from noughts.i18n.loading import PO_DIR

from support import load_file

TOOL = Path(__file__).resolve().parents[3] / "tools" / "i18n" / "catalogues.py"
PLACEHOLDER = re.compile(r"\{(\w*)\}")
LINK = re.compile(r"</?a>")


@cache
def template() -> Catalog:
    with warnings.catch_warnings():
        # Babel warns of each f-string it skips: the server's refusals that carry a value.
        warnings.simplefilter("ignore")
        extracted: Catalog = load_file("i18n_catalogues", TOOL).extract()
    return extracted


def texts(catalog: Catalog) -> dict[str | tuple[str, ...], set[str]]:
    """Each text (a plural's as its two forms) and the files it is written in."""
    return {
        (tuple(m.id) if isinstance(m.id, tuple | list) else m.id): {path for path, _ in m.locations}
        for m in catalog
        if m.id
    }


def read(language: str) -> Catalog:
    with (PO_DIR / f"{language}.po").open("rb") as file:
        return read_po(file, locale=language)


CATALOGUES = sorted(path.stem for path in PO_DIR.glob("*.po"))


def test_the_code_has_texts_and_every_offered_language_a_catalogue() -> None:
    assert len(template()) > 100
    assert i18n.DEFAULT == "en" and "en" in i18n.LANGUAGES
    assert sorted(set(i18n.LANGUAGES) - {"en"}) == [c for c in CATALOGUES if c in i18n.LANGUAGES]
    for language in i18n.LANGUAGES:
        assert language == "en" or (PO_DIR / f"{language}.po").exists(), language


@pytest.mark.parametrize("language", CATALOGUES)
def test_a_catalogue_holds_the_texts_of_the_code(language: str) -> None:
    wanted, held = texts(template()), texts(read(language))
    missing = sorted(map(str, wanted.keys() - held.keys()))
    stale = sorted(map(str, held.keys() - wanted.keys()))
    moved = sorted(str(text) for text in wanted.keys() & held.keys() if wanted[text] != held[text])
    fix = "run: .venv/bin/python tools/i18n/catalogues.py update"
    assert missing == [], f"{language}.po lacks texts of the code ({fix}): {missing[:10]}"
    assert stale == [], f"{language}.po holds texts the code no longer has ({fix}): {stale[:10]}"
    assert moved == [], f"{language}.po places texts in other files than the code ({fix}): {moved[:10]}"


def forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


@pytest.mark.parametrize("language", CATALOGUES)
def test_translations_keep_the_placeholders_and_links(language: str) -> None:
    wrong = []
    for message in read(language):
        if not message.id:
            continue
        english = [message.id] if isinstance(message.id, str) else list(message.id)
        names = set().union(*(PLACEHOLDER.findall(text) for text in english))
        links = LINK.findall(english[0])
        for form in forms(message):
            if not form:
                continue
            # A plural form may leave its count out ("one move" as a word), nothing else.
            got = set(PLACEHOLDER.findall(form))
            if not (got == names or (isinstance(message.id, tuple) and got == names - {"n"})):
                wrong.append(f"{english[0]!r}: {sorted(got)} for {sorted(names)}")
            if LINK.findall(form) != links:
                wrong.append(f"{english[0]!r}: links {LINK.findall(form)} for {links}")
    assert wrong == []


@pytest.mark.parametrize("language", [language for language in i18n.LANGUAGES if language != "en"])
def test_an_offered_language_is_complete(language: str) -> None:
    catalog = read(language)
    untranslated = [str(m.id) for m in catalog if m.id and not all(forms(m))]
    fuzzy = [str(m.id) for m in catalog if m.id and m.fuzzy]
    assert untranslated == [], f"{language}.po misses {len(untranslated)} translations: {untranslated[:10]}"
    assert fuzzy == [], f"{language}.po has guesses to check: {fuzzy[:10]}"
    assert all(len(forms(m)) == catalog.num_plurals for m in catalog if m.id and isinstance(m.id, tuple))


def test_the_tool_brings_a_catalogue_up_to_date(tmp_path: Path) -> None:
    """update: a text new in the code appears untranslated, one gone from it leaves, the
    translations kept stay; init makes a new language's catalogue."""
    tool = load_file("i18n_catalogues", TOOL)
    catalog = Catalog(locale="zh")
    catalog.add("a text the code never had", "从来没有的")
    catalog.add("Play", "开始")
    tool.PO_DIR = tmp_path
    tool.write(catalog, tmp_path / "zh.po")
    tool.update(template())
    tool.init(template(), "de")
    updated = {m.id: m.string for m in read_po((tmp_path / "zh.po").open("rb")) if m.id}
    assert "a text the code never had" not in updated
    assert updated["Play"] == "开始" and updated["Undo"] == ""
    assert texts(read_po((tmp_path / "de.po").open("rb"))) == texts(template())
    assert "POT-Creation-Date" not in (tmp_path / "zh.po").read_text()


# A call of the page's t, tn or tl on a literal text, as written in its modules.
CALL = re.compile(r"""\b(?:t|tn|tl)\(\s*"((?:[^"\\]|\\.)*)\"""")


def test_every_text_the_page_looks_up_is_extracted() -> None:
    """Babel's JavaScript extractor reads no call nested in another's arguments (a t() in
    a t()'s params is lost): every literal t("...") of the page must be in the template."""
    extracted = {m.id[0] if isinstance(m.id, tuple) else m.id for m in template() if m.id}
    web = Path(PO_DIR).parents[1] / "web" / "js"
    lost = sorted(
        f"{path.name}: {text}"
        for path in web.rglob("*.js")
        if path.name != "i18n.js"  # its comments show calls
        for text in CALL.findall(path.read_text(encoding="utf-8"))
        if text.encode().decode("unicode_escape") not in extracted and text not in extracted
    )
    assert lost == [], "looked up but not extracted (take the inner call out into a variable):" + "\n".join(lost)
