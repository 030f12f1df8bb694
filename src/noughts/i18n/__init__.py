"""The players' languages: one gettext catalogue a language (`po/LANG.po`), read
through Babel, for the terminal, the server's messages and, turned into JSON by the
server, the page.

A text is written in English where it is shown, with named placeholders, and looked up
in the language of the moment (a context variable: the terminal sets it once, the
server for each request):

>>> from noughts import i18n
>>> with i18n.speaking("zh"):
...     i18n.ngettext("{n} player", "{n} players", 3), i18n.gettext("Player {number}", number=2)
('3 位棋手', '玩家 2')
>>> i18n.gettext("Player {number}", number=2)
'Player 2'

An adapter's module, not the library's: the core's texts stay English, and nothing
below the adapters imports this package (pyproject.toml's import contracts).
"""

from __future__ import annotations

from noughts.i18n.languages import DEFAULT, LANGUAGES, PSEUDO, language_of_environment, negotiate
from noughts.i18n.loading import browser_catalogue, translations
from noughts.i18n.speaking import N_, current, gettext, ngettext, number, speaking, use

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "PSEUDO",
    "browser_catalogue",
    "current",
    "gettext",
    "language_of_environment",
    "negotiate",
    "ngettext",
    "number",
    "speaking",
    "translations",
    "use",
]
