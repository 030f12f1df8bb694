"""Gobblet's shipped winning strategy for x: a winning move at every position x meets
when x follows it from the start, whatever o plays, so that `max` and the perfect player
win as x on a new installation, before ``noughts solve gobblet`` has built the table.

The opening book (`noughts.ai.gobblet_book`) gives x's first two moves; past it, the
strategy holds one entry per class of positions (up to the board's symmetries and the
colour swap, `noughts.ai.gobblet_table.Classes`) with x to move and no immediate win:
the class of the position x moves to, and the exact distance of x's win in plies. A
position is looked up by its class; x plays the legal move whose result has the stored
class (any such move is as good: the results are images of each other). Where x can
win at once the rules say so and no entry is needed.

Without the table the perfect player shows only the values these moves play to the end
(`kept`, `kept_value`, `analysis`): x's wins along the strategy, o's losses into them;
the rest unvalued, though the opening book knows more.

``tools/gobblet_book/build.py`` writes it from the solved table; `check` proves it again
from the rules alone: every o reply is answered, the distances shrink, the win is reached.
Reading and playing it needs no numpy (writing it, the tool's business, does).
"""

from __future__ import annotations

import array
import bisect
import functools
import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from noughts.ai.base import Analysis, Kind, MoveInfo, Value
from noughts.ai.exact import outcome_value, read_npz
from noughts.core import Player, State
from noughts.games.gobblet import Gobblet, GobbletMove, GobbletState

__all__ = [
    "STRATEGY",
    "Check",
    "Strategy",
    "analysis",
    "build",
    "check",
    "choice",
    "immediate_win",
    "kept",
    "kept_value",
    "load",
]

#: The shipped strategy.
STRATEGY = Path(__file__).resolve().parent / "books" / "gobblet_x.npz"


@dataclass(frozen=True)
class Strategy:
    """Sorted class keys of x-to-move positions, with the class x moves to and the plies
    to the win from each."""

    keys: array.array[int]
    targets: array.array[int]
    plies: array.array[int]

    @classmethod
    def from_entries(cls, entries: dict[int, tuple[int, int]]) -> Strategy:
        keys = sorted(entries)
        return cls(
            array.array("I", keys),
            array.array("I", (entries[k][0] for k in keys)),
            array.array("B", (entries[k][1] for k in keys)),
        )

    def write(self, path: Path) -> None:
        """As numpy's .npz (uint32 keys and targets, uint8 plies), which `read` reads
        without numpy."""
        import numpy as np

        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            np.savez_compressed(
                out,
                keys=np.array(self.keys, dtype=np.uint32),
                targets=np.array(self.targets, dtype=np.uint32),
                plies=np.array(self.plies, dtype=np.uint8),
            )

    @classmethod
    def read(cls, path: Path) -> Strategy:
        keys, targets, plies = read_npz(path, ("keys", "targets", "plies"))
        return cls(keys, targets, plies)

    def __len__(self) -> int:
        return len(self.keys)

    def entry(self, key: int) -> tuple[int, int] | None:
        """(the class to move to, the plies to the win) for class `key`, None if absent."""
        i = bisect.bisect_left(self.keys, key)
        if i < len(self.keys) and self.keys[i] == key:
            return self.targets[i], self.plies[i]
        return None


@functools.cache
def load(path: Path = STRATEGY) -> Strategy | None:
    """The strategy at `path`, None when there is none."""
    return Strategy.read(path) if path.exists() else None


@functools.cache
def _classes() -> Any:
    from noughts.ai.gobblet_table import Classes

    return Classes(Gobblet())


def immediate_win(state: GobbletState) -> GobbletMove | None:
    """A move that wins for the side to move at once (the first in legal order)."""
    for move in state.legal_moves():
        child = state.play(move)
        if child.outcome is not None and child.outcome.winner is state.turn:
            return move
    return None


def choice(state: State[Any], strategy: Strategy | None = None) -> tuple[GobbletMove, int] | None:
    """x's move in `state` (standard gobblet, x to move) by the strategy, with the plies
    to the win; None where the strategy has no answer."""
    if not isinstance(state, GobbletState) or state.game != Gobblet() or state.turn is not Player.X or state.is_over:
        return None
    win = immediate_win(state)
    if win is not None:
        return win, 1
    strategy = strategy if strategy is not None else load()
    if strategy is None:
        return None
    classes = _classes()
    found = strategy.entry(classes.index(state))
    if found is None:
        return None
    target, plies = found
    for move in state.legal_moves():
        child = state.play(move)
        if not child.is_over and classes.index(child) == target:
            return move, plies
    return None


def kept(state: GobbletState) -> int | None:
    """The plies to x's win from `state` (x to move) where what is shipped plays that win
    to the end against every reply of o: the opening book's move (`_move`), then the
    strategy's; None where it does not.

    The opening book holds the table's value of every position of its plies, but the
    strategy starts from the book's own moves: after another first move of x (``S5``) the
    book still knows x's win in 13, and nothing shipped can play it. A position past the
    book that the strategy answers is kept, for the strategy answers every o reply after
    its moves (`check` proves it); a position of the book is kept when every o reply
    after the book's move leads to one that is."""
    if state.turn is not Player.X or state.is_over:
        return None
    return _kept(state.to_text())


@functools.lru_cache(maxsize=1 << 16)
def _kept(text: str) -> int | None:
    state = Gobblet().parse_position(text)
    assert isinstance(state, GobbletState)
    strategy = load()
    if strategy is None:
        return None
    found = _move(state, strategy)
    if found is None:
        return None
    move, plies = found
    child = state.play(move)
    if child.is_over or _opening_move(state) is None:  # past the book: the strategy answers every reply
        return plies
    for reply in child.legal_moves():
        after = child.play(reply)
        if after.is_over:
            if after.outcome is None or after.outcome.winner is not Player.X:
                return None
        elif kept(after) is None:
            return None
    return plies


def kept_value(state: GobbletState) -> Value | None:
    """`state`'s value for the side to move where the shipped moves keep it (`kept`):
    x's win, or o's loss in the plies of its longest resistance when every o move leads
    to a kept win of x; None elsewhere. o's wins and draws are never kept: nothing
    shipped plays o."""
    if state.is_over:
        return outcome_value(state)
    if state.turn is Player.X:
        plies = kept(state)
        return None if plies is None else Value.win(plies)
    longest = 0
    for move in state.legal_moves():
        after = state.play(move)
        if after.is_over:
            if after.outcome is None or after.outcome.winner is not Player.X:
                return None
            plies = 0
        else:
            found = kept(after)
            if found is None:
                return None
            plies = found
        longest = max(longest, plies + 1)
    return Value.loss(longest)


def analysis(state: State[Any], name: str = "perfect") -> Analysis | None:
    """Standard gobblet without its table: every move whose value the shipped moves
    keep (`kept_value`) valued exactly, best first, the others unvalued; None in
    another game. The line follows x's shipped moves and o's longest resistance."""
    if not isinstance(state, GobbletState) or state.game != Gobblet():
        return None
    infos = []
    for move in state.legal_moves():
        value = kept_value(state.play(move))
        infos.append(MoveInfo(move, state.move_text(move), Value(Kind.UNKNOWN) if value is None else value.negated()))
    # sorted is stable: equal moves stay in legal order.
    infos.sort(key=lambda info: info.value.sort_key(), reverse=True)
    line = [infos[0].text, *_line(state.play(infos[0].move), _LINE_LIMIT - 1)] if infos[0].value.exact else []
    # The proven move carries its line too (an analysis board lists a move's line beside it).
    infos[0] = replace(infos[0], line=tuple(line or [infos[0].text]))
    return Analysis(name, infos, line or [infos[0].text])


_LINE_LIMIT = 24  # plies of a line, as the perfect player's (`noughts.ai.solve`)


def _line(state: GobbletState, limit: int) -> list[str]:
    """The kept line from `state`: x's shipped moves, o's longest resistance."""
    line: list[str] = []
    while not state.is_over and len(line) < limit:
        if state.turn is Player.X:
            strategy = load()
            found = None if strategy is None else _move(state, strategy)
            if found is None:
                break
            move = found[0]
        else:
            move = max(state.legal_moves(), key=lambda m: _resistance(state.play(m)))
        line.append(state.move_text(move))
        state = state.play(move)
    return line


def _resistance(after: GobbletState) -> int:
    """How long o lasts after its move to `after` (x to move), -1 where x is not kept."""
    if after.is_over:
        return 0 if after.outcome is not None and after.outcome.winner is Player.X else -1
    plies = kept(after)
    return -1 if plies is None else plies


@dataclass
class Check:
    """What `check` found: x positions verified, o replies tried, and what is wrong."""

    positions: int = 0
    replies: int = 0
    wrong: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.wrong and self.positions > 0


def _opening_move(state: GobbletState) -> tuple[GobbletMove, int] | None:
    """x's move from the opening book where it has the position (the first plies)."""
    from noughts.ai import gobblet_book

    found = gobblet_book.analysis(state)
    if found is None or found.moves[0].value.kind is not Kind.WIN or found.moves[0].value.plies is None:
        return None
    return found.moves[0].move, found.moves[0].value.plies


def _move(state: GobbletState, strategy: Strategy) -> tuple[GobbletMove, int] | None:
    """x's move as `max` plays it on a new installation: the opening book, then the strategy."""
    return _opening_move(state) or choice(state, strategy)


def _verify_node(state: GobbletState, strategy: Strategy, result: Check) -> list[GobbletState]:
    """Checks x's move at `state` by the rules: it wins at once, or every o reply ends in
    x's win or reaches a position the strategy answers with a shorter win. The positions
    to check next."""
    text = state.to_text()
    found = _move(state, strategy)
    result.positions += 1
    if found is None:
        result.wrong.append(f"{text}: no move for x")
        return []
    move, plies = found
    child = state.play(move)
    if child.is_over:
        if child.outcome is None or child.outcome.winner is not Player.X:
            result.wrong.append(f"{text}: x's move {state.move_text(move)} does not win")
        return []
    following = []
    for reply in child.legal_moves():
        result.replies += 1
        after = child.play(reply)
        if after.is_over:
            if after.outcome is None or after.outcome.winner is not Player.X:
                result.wrong.append(f"{text} {state.move_text(move)}: o's {child.move_text(reply)} escapes")
            continue
        answer = _move(after, strategy)
        if answer is None:
            result.wrong.append(f"{after.to_text()}: no move for x")
        elif answer[1] > plies - 2:
            result.wrong.append(f"{after.to_text()}: win in {answer[1]}, not within {plies - 2}")
        else:
            following.append(after)
    return following


def check(strategy: Strategy | None = None, samples: int | None = None, seed: int = 0) -> Check:
    """Proves the strategy from the start by the rules alone: every position x meets
    when following it (the opening book's first moves, then the strategy), whatever o
    plays. With `samples`, only that many random games of o are followed (o avoiding
    x's immediate wins where it can), each position on the way checked against every o
    reply."""
    strategy = strategy if strategy is not None else load()
    result = Check()
    if strategy is None:
        result.wrong.append("no strategy file")
        return result
    start = Gobblet().initial()
    if samples is not None:
        rng = random.Random(seed)
        for _ in range(samples):
            state: GobbletState | None = start
            while state is not None:
                following = _verify_node(state, strategy, result)
                # o's replies that leave x no win at once go deepest into the strategy.
                stubborn = [after for after in following if immediate_win(after) is None]
                state = rng.choice(stubborn or following) if following else None
        return result
    seen: set[int | str] = set()
    stack = [start]
    while stack:
        for after in _verify_node(stack.pop(), strategy, result):
            key = _check_key(after)
            if key not in seen:
                seen.add(key)
                stack.append(after)
    return result


def _check_key(state: GobbletState) -> int | str:
    """What one check covers: a class past the opening book (its positions are images of
    each other, answered alike), a single position in it (its book is by position)."""
    from noughts.ai import gobblet_book

    return state.to_text() if gobblet_book.analysis(state) is not None else _classes().index(state)


def build(table: Any) -> Strategy:
    """The strategy from the solved `table` (`noughts.ai.gobblet_table.GobbletTable`):
    past the opening book, at each position x meets, the move to the quickest win (the
    first in legal order among equals). Used by ``tools/gobblet_book/build.py``."""
    entries: dict[int, tuple[int, int]] = {}
    seen: set[int | str] = set()
    stack = [Gobblet().initial()]
    classes = _classes()
    while stack:
        state = stack.pop()
        if immediate_win(state) is not None:
            continue
        found = _opening_move(state)
        if found is None:
            key = classes.index(state)
            best: tuple[int, GobbletMove] | None = None
            for move in state.legal_moves():
                child = state.play(move)
                if child.is_over:
                    continue
                code = table.code(child)  # o to move: -(d + 1) for o's loss in d plies
                if code < 0 and (best is None or -code < best[0]):
                    best = (-code, move)
            if best is None:
                raise ValueError(f"{state.to_text()}: not a win for x in the table")
            move, plies = best[1], best[0]
            entries[key] = (classes.index(state.play(move)), plies)
        else:
            move, plies = found
        child = state.play(move)
        for reply in child.legal_moves():
            after = child.play(reply)
            if after.is_over:
                continue
            key2 = _check_key(after)
            if key2 not in seen:
                seen.add(key2)
                stack.append(after)
    return Strategy.from_entries(entries)
