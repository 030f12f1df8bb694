"""Which languages are offered, and which one a visitor or a terminal gets."""

from __future__ import annotations

import os
from collections.abc import Mapping

from babel.core import negotiate_locale

DEFAULT = "en"
# The languages offered, by their catalogue's name (po/CODE.po), each named in itself
# for the menu. One list: a catalogue that is not complete is not named here, and
# tests/i18n/test_catalogues.py fails when a language named here misses a text.
LANGUAGES: Mapping[str, str] = {
    "en": "English",
    "zh": "中文（简体）",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "pt": "Português",
    "ru": "Русский",
    "ja": "日本語",
}
# A made-up language whose every text is longer and accented, to see layouts hold with
# long texts (tests/web/test_languages.py); never offered in the menu.
PSEUDO = "en-XA"


def negotiate(accept_language: str | None) -> str:
    """The offered language an Accept-Language header prefers, English without one.

    >>> negotiate("zh-CN,zh;q=0.9,en;q=0.8")
    'zh'
    >>> negotiate("ko-KR, ko;q=0.9")
    'en'
    """
    wanted = []
    for part in (accept_language or "").split(","):
        tag, _, weight = part.strip().partition(";q=")
        try:
            quality = float(weight) if weight else 1.0
        except ValueError:
            continue
        if tag and tag != "*" and quality > 0:
            wanted.append((quality, tag))
    # Highest quality first; sorted() is stable, so equal qualities keep their order.
    preferred = [tag for _, tag in sorted(wanted, key=lambda item: -item[0])]
    return negotiate_locale(preferred, list(LANGUAGES), sep="-") or DEFAULT


def language_of_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from LC_ALL, LC_MESSAGES or LANG (in that order, as gettext
    reads them): "zh_CN.UTF-8" is zh; C, POSIX or a language not offered is English.

    >>> language_of_environment({"LANG": "zh_CN.UTF-8"})
    'zh'
    >>> language_of_environment({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"})
    'en'
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            tag = value.split(".")[0].split("@")[0].replace("_", "-")
            return negotiate(tag)
    return DEFAULT
