"""``noughts play`` without arguments: a few short questions, each with a default."""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console

from noughts.ai.levels import DEFAULT_LEVEL, LEVELS
from noughts.core import Player
from noughts.i18n import gettext
from noughts.registry import GAMES
from noughts.terminal.session import Reader

__all__ = ["Choice", "choose", "menu_games"]

#: Sizes and modes worth a line of their own, after their game's line (the m,n,k-game
#: has none of its own: at its defaults it is tic-tac-toe).
_PRESETS = {
    "classic": (("classic:forget", "tic-tac-toe where only your last three marks stay"),),
    "mnk": (("mnk:m=4:n=4:k=4", "4x4, four in a row"), ("mnk:m=15:n=15:k=5", "gomoku: 15x15, five in a row")),
    "ultimate": (("ultimate:forget", "Ultimate in Forget mode"),),
}


def menu_games() -> list[tuple[str, str]]:
    """The games the menu offers, as game specs with a word on each: every game of the
    registry as it describes itself, and the presets; every other size and option is one
    ``noughts play SPEC`` away."""
    games: list[tuple[str, str]] = []
    for key, entry in GAMES.items():
        if key != "mnk":
            games.append((key, f"{entry.name}: {entry.summary}"))
        games.extend(_PRESETS.get(key, ()))
    return games


@dataclass(frozen=True)
class Choice:
    spec: str
    two_humans: bool
    side: Player
    level: str


def _ask(console: Console, read: Reader, question: str, answers: dict[str, str], default: str) -> str:
    """Ask until one of `answers` (keys, lower case) is given; Enter takes `default`."""
    while True:
        entry = read(f"{question} [{default}]: ").strip().lower() or default
        if entry in answers:
            return answers[entry]
        choices = ", ".join(dict.fromkeys(answers.values()))
        console.print(gettext("{entry} is not one of: {choices}", entry=repr(entry), choices=choices), highlight=False)


def choose(console: Console, read: Reader) -> Choice:
    """Game, opponent, side and level. EOFError / KeyboardInterrupt pass through."""
    console.print(gettext("Noughts — what would you like to play?"))
    offered = menu_games()
    for number, (spec, summary) in enumerate(offered, 1):
        console.print(f"  {number:>2}  {spec:<18} {summary}", highlight=False)
    games = {str(n): spec for n, (spec, _) in enumerate(offered, 1)} | {spec: spec for spec, _ in offered}
    spec = _ask(console, read, gettext("game (number or name)"), games, "1")
    mode = _ask(
        console,
        read,
        gettext("play against (1) the computer or (2) a friend at this keyboard"),
        {"1": "computer", "computer": "computer", "2": "human", "friend": "human", "human": "human"},
        "1",
    )
    two_humans = mode == "human"
    side_question = gettext("player 1 plays (x moves first)") if two_humans else gettext("you play (x moves first)")
    side = Player.from_text(_ask(console, read, side_question, {"x": "x", "o": "o"}, "x"))
    level: str = DEFAULT_LEVEL
    if not two_humans:
        levels: dict[str, str] = {name: name for name in LEVELS} | {str(n): name for n, name in enumerate(LEVELS, 1)}
        level = _ask(console, read, gettext("level ({levels})", levels=", ".join(LEVELS)), levels, DEFAULT_LEVEL)
    return Choice(spec, two_humans, side, level)
