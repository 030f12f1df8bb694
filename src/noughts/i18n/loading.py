"""The catalogues: each language's .po file, read when first asked for (no compiled .mo
or .json is kept anywhere: Babel reads a .po in about ten milliseconds, and one file a
language is the one source translators edit), as gettext translations for Python and as
a JSON-ready mapping for the page."""

from __future__ import annotations

import gettext as stdlib_gettext
import re
from functools import cache
from io import BytesIO
from pathlib import Path

from babel.core import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from noughts.i18n.languages import DEFAULT, LANGUAGES, PSEUDO

PO_DIR = Path(__file__).parent / "po"
# The messages the page shows are those written in the web app's files.
_WEB = "src/noughts/web/"


def po_path(language: str) -> Path:
    return PO_DIR / f"{language}.po"


@cache
def catalogue(language: str) -> Catalog:
    """The language's catalogue as Babel reads it; the pseudo-language is made from the
    first offered language's (every catalogue holds the same messages)."""
    if language == PSEUDO:
        return _pseudo_catalogue()
    if language == DEFAULT or language not in LANGUAGES:
        raise LookupError(f"no catalogue for {language!r}")
    with po_path(language).open("rb") as file:
        return read_po(file, locale=language)


@cache
def translations(language: str) -> NullTranslations:
    """gettext translations for `language`; English (the texts as written) for English
    or a language not offered."""
    if language != PSEUDO and (language == DEFAULT or language not in LANGUAGES):
        return NullTranslations()
    compiled = BytesIO()
    write_mo(compiled, catalogue(language))
    compiled.seek(0)
    return Translations(compiled)


def _categories(language: str, catalog: Catalog) -> dict[str, int]:
    """Which gettext form (the .po's Plural-Forms index) each CLDR plural category of the
    language takes: the page asks Intl.PluralRules for a category, Babel's catalogues are
    indexed by gettext's formula. Read off the numbers 0 to 200 and a million, where every
    whole-number category shows; "other" (fractions, in some languages) takes the last form."""
    rule = Locale.parse(language.replace("-", "_")).plural_form
    formula = stdlib_gettext.c2py(catalog.plural_expr)
    forms: dict[str, int] = {}
    for n in [*range(201), 1_000_000]:
        forms.setdefault(rule(n), formula(n))
    forms.setdefault("other", catalog.num_plurals - 1)
    return forms


@cache
def browser_catalogue(language: str) -> dict[str, str | dict[str, str]]:
    """The page's messages in `language`: a text by its English, and a plural message by
    its English singular, as its forms by CLDR category ("one", "few", "other", ...).
    English has none: the page shows its texts as written."""
    if language != PSEUDO and (language == DEFAULT or language not in LANGUAGES):
        return {}
    catalog = catalogue(language)
    categories = _categories("en" if language == PSEUDO else language, catalog)
    shown: dict[str, str | dict[str, str]] = {}
    for message in catalog:
        if not message.id or not any(path.startswith(_WEB) for path, _ in message.locations):
            continue
        strings = [message.string] if isinstance(message.string, str) else list(message.string or ())
        if isinstance(message.id, str):
            if strings and strings[0]:
                shown[message.id] = strings[0]
        else:
            shown[message.id[0]] = {category: strings[index] or "" for category, index in categories.items()}
    return shown


_ACCENTED = dict(zip("aeiouyAEIOUYcnsCNS", "áéîöüýÅÉÎÖÜÝçñšÇÑŠ", strict=True))
_KEPT = re.compile(r"(\{[^}]*\}|</?a>)")


def pseudo(text: str) -> str:
    """`text` longer and accented, its {placeholders} kept: "Play {n}" -> "Ƿláày {n}"-like,
    a third or more longer, as German's and French's texts are; its <a>links</a> kept too."""
    parts = _KEPT.split(text)
    for i in range(0, len(parts), 2):
        parts[i] = "".join(_ACCENTED.get(c, c) + (c if c in "aeiouAEIOU" else "") for c in parts[i])
    return "".join(parts)


def _pseudo_catalogue() -> Catalog:
    reference = catalogue(next(language for language in LANGUAGES if language != DEFAULT))
    made = Catalog(locale="en")
    for message in reference:
        if not message.id:
            continue
        if isinstance(message.id, str):
            string: str | tuple[str, str] = pseudo(message.id)
        else:
            string = (pseudo(message.id[0]), pseudo(message.id[1]))
        made.add(message.id, string, locations=message.locations)
    return made
