"""The language of the moment and the look-ups in it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from babel.numbers import format_decimal

from noughts.i18n.languages import DEFAULT, PSEUDO
from noughts.i18n.loading import translations

_language: ContextVar[str] = ContextVar("noughts_language", default=DEFAULT)


def use(language: str) -> None:
    """Speaks `language` from now on in this context (the terminal: for the whole run)."""
    _language.set(language)


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Speaks `language` inside the block (the server: one request's answer)."""
    token = _language.set(language)
    try:
        yield
    finally:
        _language.reset(token)


def current() -> str:
    return _language.get()


def number(value: float) -> str:
    """A number written as the language writes it (1,234.5; 1 234,5; ...)."""
    locale = "en" if _language.get() == PSEUDO else _language.get().replace("-", "_")
    return format_decimal(value, locale=locale)


def _filled(text: str, params: dict[str, object]) -> str:
    shown = {name: number(value) if isinstance(value, int | float) else value for name, value in params.items()}
    return text.format(**shown) if shown else text


def gettext(message: str, /, **params: object) -> str:
    """`message` in the language of the moment, its {placeholders} filled from `params`
    (numbers written in the language's way)."""
    return _filled(translations(_language.get()).gettext(message), params)


def ngettext(singular: str, plural: str, n: int, /, **params: object) -> str:
    """The form for `n` (the language's plural rules), with `n` among the placeholders."""
    return _filled(translations(_language.get()).ngettext(singular, plural, n), {"n": n, **params})


def N_(message: str) -> str:  # noqa: N802 - gettext's name for a text marked, looked up later
    """Marks a text for the catalogue where it is written, to be looked up where shown."""
    return message
