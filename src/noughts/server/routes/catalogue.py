"""What there is to play, at /api/games: the games with their options and rules, and the
computer's levels (what the home page offers); and /api/health.

Everything about a game is what it says of itself (`Game.variants`, `noughts.variant`):
its names, its rules in words (the rule book, docs/RULES.md, retold for players), its
notation, its options with their labels and ranges, its board and traits; the options'
defaults come from the game class.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter

from noughts import __version__
from noughts.ai.capabilities import capabilities
from noughts.ai.levels import DEFAULT_LEVEL, LEVEL_CARDS
from noughts.registry import GAMES, Entry, parse_spec
from noughts.server.models import Catalogue, GameAbilities, GameInfo, LevelInfo, OptionInfo
from noughts.variant import Variant


def _abilities(key: str) -> GameAbilities:
    found = capabilities(parse_spec(key))
    return GameAbilities(
        table=found.table,
        exact_search=found.exact_search,
        book=found.book,
        proof=found.proof,
        compiled=found.compiled,
        puzzles=found.prover is not None,
        text=found.claims(),
    )


def _option(variant: Variant, name: str, default: Any) -> OptionInfo | None:
    about = variant.option(name)
    if not about.offered:
        return None
    kind: Literal["bool", "int", "choice"] = (
        "bool" if isinstance(default, bool) else "int" if isinstance(default, int) else "choice"
    )
    # An option nobody described that takes words: its default is the one choice known.
    choices = list(about.choices) if about.choices else [str(default)] if kind == "choice" else None
    return OptionInfo(
        name=name,
        label=about.label,
        type=kind,
        default=default,
        minimum=about.minimum,
        maximum=about.maximum,
        choices=choices,
        help=about.help,
    )


def game_info(entry: Entry) -> GameInfo:
    """One game of the catalogue, as it describes itself."""
    variant = entry.variant
    options = [_option(variant, name, default) for name, default in entry.defaults().items()]
    return GameInfo(
        key=entry.key,
        title=variant.name,
        summary=variant.summary,
        options=[option for option in options if option is not None],
        rules=variant.all_rules(),
        notation=variant.notation(None),
        board=variant.board,
        traits=sorted(variant.traits),
        abilities=_abilities(entry.key),
    )


def catalogue() -> Catalogue:
    games = [game_info(entry) for entry in GAMES.values()]
    levels = [LevelInfo(name=card.name, description=card.description) for card in LEVEL_CARDS.values()]
    return Catalogue(games=games, levels=levels, default_level=DEFAULT_LEVEL)


router = APIRouter(prefix="/api", tags=["catalogue"])


@router.get("/games", response_model=Catalogue)
def games() -> Catalogue:
    """Every game with its options (defaults and ranges), its rules and notation, and the
    computer levels."""
    return catalogue()


@router.get("/health")
def health() -> dict[str, str]:
    """Answers when the server is up."""
    return {"status": "ok", "version": __version__}
