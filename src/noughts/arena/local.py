"""A round-robin between player objects, in this process: the arena for a player you
wrote in your own code (``noughts arena`` builds its players by name in worker
processes, so it only knows the registered ones).

>>> from noughts import make_player, parse_spec
>>> players = {"random": make_player("random", seed=1), "rules": make_player("rules", seed=1)}
>>> standings = round_robin(parse_spec("classic"), players, games=4, seed=1)
>>> [(rating.player, rating.games) for rating in standings.ratings]
[('random', 4), ('rules', 4)]
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from noughts.ai import AIPlayer, Limits
from noughts.arena.ratings import Pairing, Rating, elo_ratings
from noughts.core import Game, InvalidOptionError
from noughts.match import play_game, random_opening
from noughts.records import GameRecord

__all__ = ["Standings", "round_robin"]


@dataclass
class Standings:
    """The games of a round-robin and the ratings they give (in the players' order)."""

    records: list[GameRecord]
    """Every game played, in the order played."""
    pairings: list[Pairing]
    """The results of each pair of players."""
    ratings: list[Rating]
    """Each player's rating, in the players' order."""

    def table(self) -> str:
        """The ratings as a small text table, best first."""
        rows = sorted(self.ratings, key=lambda r: -(r.elo if r.elo is not None else float("-inf")))
        width = max(len(r.player) for r in rows)
        lines = [f"{'player':<{width}}  {'elo':>6}  {'points':>6}  games"]
        for r in rows:
            elo = f"{r.elo:+6.0f}" if r.elo is not None else f"{'-':>6}"
            lines.append(f"{r.player:<{width}}  {elo}  {r.points:>6g}  {r.games}")
        return "\n".join(lines)


def round_robin(
    game: Game[Any, Any],
    players: Mapping[str, AIPlayer],
    games: int = 2,
    seed: int = 0,
    limits: Limits = Limits(),
    opening_plies: int = 1,
) -> Standings:
    """Every pair of `players` plays `games` games, each opening (`opening_plies` random
    moves, from `seed`) once with each colour, within `limits` a move. The ratings are
    `elo_ratings` of the results, with a virtual draw per pairing."""
    if len(players) < 2:
        raise InvalidOptionError("a round-robin needs at least two players")
    if games < 1:
        raise InvalidOptionError("games must be at least 1")
    rng = random.Random(seed)
    openings = [random_opening(game, opening_plies, rng) for _ in range((games + 1) // 2)]
    records: list[GameRecord] = []
    pairings: list[Pairing] = []
    for a, b in itertools.combinations(players, 2):
        wins = draws = losses = 0
        for i in range(games):
            x, o = (a, b) if i % 2 == 0 else (b, a)
            record = play_game(game, players[x], players[o], limits, openings[i // 2], (x, o))
            records.append(record)
            if record.result == "draw":
                draws += 1
            elif (record.result == "x-wins") == (x == a):
                wins += 1
            else:
                losses += 1
        pairings.append(Pairing(a, b, wins, draws, losses))
    return Standings(records, pairings, elo_ratings(list(players), pairings))
