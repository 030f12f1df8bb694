"""The quickest forced win on an m,n,k board, counted exactly, and the line that shows it.

The race provers (`noughts.games.mnk.threats`) find *a* forced win, the first their forcing
searches meet, and its plies bound the win: another move on the way may win sooner,
with a quiet move a threat search never tries. A puzzle's line should be the winner's
quickest win and the defender's longest resistance, so this search counts them: every
move of both sides within a number of plies, with the rules that lose nothing (take a
win at once; block the opponent's only four, or lose to two; after the attacker's
move, a defender with a four of its own to play wins, a defender facing two fours
loses). Deepening by the attacker's moves (1, 3, 5 plies...), the first depth that wins
is the shortest win. It is exact within its plies and affordable late in a game on a
small board, where puzzles are: the 319 shipped 5x5 k=4 puzzles in 9 s of one core, the
slowest (13 plies) in 4 s, on 2026-12-02; `nodes` stops it on a position too open for
it.

>>> from noughts import parse_position
>>> state = parse_position("mnk:m=5:n=5:k=4", "...x./..xx./o..../o..../..... o")
>>> shortest_win(state, 9)
3
"""

from __future__ import annotations

from collections.abc import Callable

from noughts.core import Player
from noughts.games.geometry import bits
from noughts.games.mnk.rules import Mnk, MnkState

__all__ = ["DEFAULT_NODES", "TooOpenError", "line", "shortest_win", "wins_within"]

#: The node cap of one search given no other, so that a call always ends.
DEFAULT_NODES = 2_000_000


class TooOpenError(Exception):
    """The search met its node cap before it could tell."""


def shortest_win(state: MnkState, most: int, nodes: int = DEFAULT_NODES) -> int | None:
    """The plies of the mover's quickest forced win, if it wins within `most` plies, else
    None; TooOpenError if `nodes` run out first."""
    return _Search(state.game, nodes).shortest(*_sides(state), most)


def line(
    state: MnkState, most: int, score: Callable[[MnkState], float] | None = None, nodes: int = DEFAULT_NODES
) -> list[int] | None:
    """A line of the mover's quickest forced win within `most` plies: at the winner's
    turns a move that wins soonest, at the defender's a reply that holds out longest;
    among replies that hold out as long, the one `score` (the winner's view of the
    position after the reply) likes least, else the first in cell order. None if the
    mover does not win within `most`."""
    search = _Search(state.game, nodes)
    a, d = _sides(state)
    plies = search.shortest(a, d, most)
    if plies is None:
        return None
    moves: list[int] = []
    while True:
        move = next(c for c in search.candidates(a, d) if search.wins_with(a, d, c, plies))
        moves.append(move)
        state = state.play(move)
        a |= 1 << move
        if state.is_over:
            return moves
        lasting: dict[int, int] = {}
        for reply in search.replies(a, d):
            after = search.shortest(a, d | 1 << reply, plies - 2)
            assert after is not None  # the attacker wins within the count after every reply
            lasting[reply] = after
        longest = max(lasting.values())
        tied = [r for r, after in lasting.items() if after == longest]
        reply = tied[0] if score is None else min(tied, key=lambda r: score(state.play(r)))
        moves.append(reply)
        state = state.play(reply)
        d |= 1 << reply
        plies = longest


def wins_within(state: MnkState, move: int, plies: int, nodes: int = DEFAULT_NODES) -> bool:
    """Whether `move` wins for the mover within `plies` (the move's own included), against
    every defence; TooOpenError if `nodes` run out first."""
    a, d = _sides(state)
    return _Search(state.game, nodes).wins_with(a, d, move, plies)


def _sides(state: MnkState) -> tuple[int, int]:
    if state.game.forget:
        raise ValueError("the quickest-win search counts marks that stay: not Forget mode")
    if state.is_over:
        raise ValueError("the game is over: no move wins")
    return (state.x, state.o) if state.turn is Player.X else (state.o, state.x)


class _Search:
    def __init__(self, game: Mnk, nodes: int) -> None:
        self.k = game.k
        self.lines = game.lines
        self.through = game.through
        self.full = game.full
        self.nodes = nodes
        #: (attacker, defender) -> (the most plies known not to win, the fewest known to win).
        self.known: dict[tuple[int, int], tuple[int, int]] = {}

    def fours(self, owner: int, other: int) -> int:
        """The empty cells that would complete a line of `owner`."""
        cells = 0
        for mask in self.lines:
            if not mask & other and (owner & mask).bit_count() == self.k - 1:
                cells |= mask & ~owner
        return cells

    def completes(self, marks: int, move: int) -> bool:
        return any(marks & m == m for m in self.through[move])

    def candidates(self, a: int, d: int) -> list[int]:
        """The attacker's moves worth trying: a win at once, else the block of the
        defender's only four, else every empty cell (none against two fours)."""
        mine = self.fours(a, d)
        if mine:
            return [mine.bit_length() - 1]
        theirs = self.fours(d, a)
        if theirs:
            return [] if theirs & (theirs - 1) else [theirs.bit_length() - 1]
        return bits(self.full & ~(a | d))

    def replies(self, a: int, d: int) -> list[int]:
        """The defender's replies after the attacker's move (`a` holds it): its own win
        at once is not among them (the attacker checks for it first), a single four of
        the attacker's must be blocked."""
        threats = self.fours(a, d)
        if threats and not threats & (threats - 1):
            return [threats.bit_length() - 1]
        return bits(self.full & ~(a | d))

    def shortest(self, a: int, d: int, most: int) -> int | None:
        for plies in range(1, most + 1, 2):
            if self.wins(a, d, plies):
                return plies
        return None

    def wins(self, a: int, d: int, plies: int) -> bool:
        """Whether the attacker, to move, wins within `plies`."""
        lost, won = self.known.get((a, d), (0, 1 << 30))
        if plies <= lost:
            return False
        if plies >= won:
            return True
        self.nodes -= 1
        if self.nodes < 0:
            raise TooOpenError("the quickest-win search ran out of nodes")
        result = any(self.wins_with(a, d, c, plies) for c in self.candidates(a, d))
        lost, won = self.known.get((a, d), (0, 1 << 30))
        self.known[a, d] = (lost, min(won, plies)) if result else (max(lost, plies), won)
        return result

    def wins_with(self, a: int, d: int, move: int, plies: int) -> bool:
        a2 = a | 1 << move
        if self.completes(a2, move):
            return True
        if plies < 3 or a2 | d == self.full or self.fours(d, a2):
            return False  # no time left, a draw, or the defender wins at once
        threats = self.fours(a2, d)
        if threats & (threats - 1):
            return True  # two fours: one reply blocks one, the other wins
        if not threats and plies < 5:
            return False  # nothing to win with on the next move
        return all(self.wins(a2, d | 1 << r, plies - 2) for r in self.replies(a2, d))
