"""Factories of OpenSpiel bots and policies for the arena's tests (``--openspiel
bot:openspiel_bots:first_legal``): what a user's own module would hold."""

from __future__ import annotations

from typing import Any

import pytest

# Collected for doctests too: without open-spiel the module is skipped, not an error.
pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python import policy  # type: ignore[import-untyped]  # noqa: E402


class FirstLegal(pyspiel.Bot):  # type: ignore[misc, name-defined]
    """Plays the lowest legal action, and keeps the actions it was told of."""

    def __init__(self, player: int, offset: int) -> None:
        pyspiel.Bot.__init__(self)
        self.player, self.offset = player, offset
        self.told: list[int] = []

    def restart_at(self, state: Any) -> None:
        self.told = []

    def restart(self) -> None:
        self.told = []

    def inform_action(self, state: Any, player: int, action: int) -> None:
        self.told.append(action)

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        return int(legal[min(self.offset, len(legal) - 1)])


def first_legal(game: Any, player: int, seed: int, offset: int = 0) -> FirstLegal:
    return FirstLegal(player, offset)


def uniform(game: Any) -> policy.Policy:
    return policy.UniformRandomPolicy(game)


def not_a_bot(game: Any, player: int, seed: int) -> int:
    return 42
