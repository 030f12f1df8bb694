"""What ``help`` says at the prompt: the rules of the game being played, how to write a
move in it, and the commands."""

from __future__ import annotations

from typing import Any

from noughts.core import Game
from noughts.i18n import N_, gettext

__all__ = ["COMMANDS", "help_text", "notation", "rules"]

COMMANDS = N_("""\
commands:
  help       these rules and commands
  hint       what the computer would play here, and why
  undo       take back your last move (against the computer: and its answer)
  moves      the moves so far
  save FILE  write the game record to FILE (.json for JSON)
  quit       end the game (its record is saved)
  Ctrl-C or Ctrl-D also end the game and save its record.""")


def rules(game: Game[Any, Any]) -> str:
    """The rules of `game` with its options, in a few sentences (what the game says of
    itself: `Variant.rules`)."""
    return " ".join(game.variant.rules(game))


def notation(game: Game[Any, Any]) -> str:
    """How to write a move (`Variant.notation`)."""
    return game.variant.notation(game)


def help_text(game: Game[Any, Any]) -> str:
    """Everything ``help`` prints."""
    return f"{game.spec}: {rules(game)}\n\n{notation(game)}\n\n{gettext(COMMANDS)}"
