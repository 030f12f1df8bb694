"""noughts.i18n: the look-ups in the language of the moment, the plural categories the
page reads, the pseudo-language, the negotiation of a browser's and a terminal's."""

from __future__ import annotations

import pytest

from noughts import i18n
from noughts.i18n.loading import pseudo


def test_a_text_follows_the_language_of_its_context_and_falls_back_to_english() -> None:
    with i18n.speaking("zh"):
        assert i18n.current() == "zh"
        assert i18n.gettext("Undo") == "悔棋"
        assert i18n.gettext("{option} must be from {min} to {max}", option="k", min=3, max=15) == "k必须在 3 到 15 之间"
        assert i18n.gettext("a text no catalogue has") == "a text no catalogue has"
        with i18n.speaking("en"):
            assert i18n.gettext("Undo") == "Undo"
        assert i18n.ngettext("{n} player", "{n} players", 1) == "1 位棋手"
    assert i18n.current() == "en"
    assert i18n.ngettext("{n} player", "{n} players", 1) == "1 player"
    assert i18n.ngettext("{n} player", "{n} players", 1234) == "1,234 players"


def test_the_page_gets_each_plural_by_cldr_category() -> None:
    zh = i18n.browser_catalogue("zh")
    assert zh["{n} player"] == {"other": "{n} 位棋手"}
    assert zh["Undo"] == "悔棋"
    # Only the page's texts: a server's refusal is the server's to translate.
    assert "the game is over" not in zh
    assert i18n.browser_catalogue("en") == {}
    made = i18n.browser_catalogue(i18n.PSEUDO)
    assert set(made["{n} player"]) == {"one", "other"} and made.keys() == zh.keys()


def test_the_pseudo_language_is_longer_accented_and_keeps_placeholders() -> None:
    text = "Reviewing after move {n}"
    made = pseudo(text)
    assert "{n}" in made and len(made) >= 1.3 * len(text) and made.isascii() is False
    assert pseudo("<a>create one</a>").startswith("<a>")


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh"),
        ("en-GB,zh;q=0.5", "en"),
        ("ko;q=0.9, zh-Hans;q=0.8", "zh"),
        ("fr-CH, fr;q=0.9, zh;q=0.8", "fr"),
        ("de-AT, *;q=0.1", "de"),
        ("ko, *;q=0.1", "en"),
        (None, "en"),
        ("zh;q=0, en", "en"),
        ("zh;q=nonsense,,;", "en"),
    ],
)
def test_a_browsers_accept_language_is_negotiated(header: str | None, language: str) -> None:
    assert i18n.negotiate(header) == language


def test_the_terminal_reads_lc_all_then_lang() -> None:
    assert i18n.language_of_environment({"LANG": "zh_CN.UTF-8"}) == "zh"
    assert i18n.language_of_environment({"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}) == "en"
    assert i18n.language_of_environment({}) == "en"


def test_numbers_are_written_in_the_languages_way() -> None:
    with i18n.speaking("zh"):
        assert i18n.number(12345) == "12,345"
    assert i18n.number(0.5) == "0.5"
