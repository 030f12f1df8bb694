"""Qubic's threat-space search (`noughts.kernels.threats`) against a plain reading of
its definition: every threat found by scanning all 76 lines, a depth-first search by
recursion. The kernel keeps line counts and updates them move by move; this is the
check that it searches exactly the same nodes, in the same order, to the same answer
(the stored proof's leaves are re-proved by it with a node budget, so the count
matters, not only the result)."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from noughts.games.geometry import line_masks
from noughts.kernels import threats
from noughts.kernels.cube import signed

LINES = line_masks((4, 4, 4), 4)
CLOCK_EVERY = 2048


def completing(mine: int, theirs: int) -> int:
    """The empty cells that complete a line of `mine`."""
    found = 0
    for line in LINES:
        rest = line & ~mine
        if not theirs & line and rest.bit_count() == 1:
            found |= rest
    return found


class Reference:
    """The threat search as first written: iterative deepening over a recursive
    depth-first search, the threats rescanned at every node."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.nodes = 0
        self.aborted = False
        self.plies = 0

    def arrive(self, mine: int, theirs: int, depth: int) -> tuple[str, int]:
        self.nodes += 1
        if self.nodes % CLOCK_EVERY == 0 and self.nodes >= self.limit:
            self.aborted = True
        if self.aborted:
            return "stuck", 0
        if completing(mine, theirs):
            return "wins", 0
        if depth == 0:
            return "stuck", 0
        against = completing(theirs, mine)
        if against.bit_count() >= 2:
            return "stuck", 0
        if against:
            return "go", against
        candidates = 0
        for line in LINES:
            if not theirs & line and (mine & line).bit_count() == 2:
                candidates |= line & ~mine
        return "go", candidates

    def attack(self, mine: int, theirs: int, depth: int, level: int, status: str, options: int) -> list[int] | None:
        """The attacker's moves of a winning sequence from here, or None."""
        for cell in range(64):
            if self.aborted:
                return None
            if not options >> cell & 1:
                continue
            after = mine | 1 << cell
            made = completing(after, theirs)
            if not made:
                continue
            if made & (made - 1):
                self.plies = 3 + 2 * level
                return [cell]
            status, below = self.arrive(after, theirs | made, depth - level - 1)
            if status == "wins":
                self.plies = 3 + 2 * level
                return [cell]
            if status == "go":
                rest = self.attack(after, theirs | made, depth, level + 1, status, below)
                if rest is not None:
                    return [cell, *rest]
        return None

    def line(self, mine: int, theirs: int, max_depth: int) -> list[int] | None:
        for depth in range(max_depth + 1):
            status, options = self.arrive(mine, theirs, depth)
            if status == "wins":
                self.plies = 1
                return []
            if status == "go":
                found = self.attack(mine, theirs, depth, 0, status, options)
                if found is not None or self.aborted:
                    return found
            elif self.aborted:
                return None
        return None


def replays(mine: int, theirs: int, line: list[int]) -> bool:
    """`threats.replays` as first written: the threats rescanned at every step."""
    for move in [*line, -1]:
        if completing(mine, theirs):
            return True
        if move < 0:
            return False
        bit = 1 << move
        if (mine | theirs) & bit:
            return False
        against = completing(theirs, mine)
        if against and against != bit:
            return False
        mine |= bit
        made = completing(mine, theirs)
        if not made:
            return False
        if made & (made - 1):
            return True
        theirs |= made
    return False


def random_position(seed: int) -> tuple[int, int]:
    """A position of random play (8-30 marks, the player to move first), stopped
    before anyone completes a line."""
    rng = random.Random(seed)
    marks = [0, 0]
    for ply in range(rng.randrange(8, 31)):
        empty = [c for c in range(64) if not (marks[0] | marks[1]) >> c & 1]
        cell = rng.choice(empty)
        side = ply % 2
        if completing(marks[side], marks[1 - side]) >> cell & 1:
            break
        marks[side] |= 1 << cell
    return (marks[0], marks[1]) if bin(marks[0] | marks[1]).count("1") % 2 == 0 else (marks[1], marks[0])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([3, 8, 16]), st.sampled_from([400, 5_000]))
def test_the_threat_search_visits_the_same_nodes_to_the_same_line(seed: int, depth: int, limit: int) -> None:
    for mine, theirs in (random_position(seed), random_position(seed)[::-1]):
        reference = Reference(limit)
        expected = reference.line(mine, theirs, depth)
        stats = np.zeros(3)
        line = np.empty(depth + 1, dtype=np.int64)
        move = threats.forced_line(signed(mine), signed(theirs), depth, stats, 0.0, float(limit), line)
        assert stats[threats.NODES] == reference.nodes
        assert bool(stats[2]) == reference.aborted
        if expected is None:
            assert move == -1
            continue
        found = [int(c) for c in line if c >= 0]
        assert found == expected
        won_now = completing(mine, theirs)
        assert move == (expected[0] if expected else (won_now & -won_now).bit_length() - 1)
        assert stats[threats.PLIES] == reference.plies


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9))
def test_every_reply_is_judged_as_by_replaying_the_line_after_it(seed: int) -> None:
    attacker, defender = random_position(seed)
    # The defender to move: find the attacker's sequence were the defender to pass.
    line = np.full(17, -1, dtype=np.int64)
    if threats.forced_line(signed(attacker), signed(defender), 16, np.zeros(3), 0.0, 1e6, line) < 0:
        line[:3] = random.Random(seed).sample(range(64), 3)  # any line: the judging is what is checked
    moves = [int(c) for c in line if c >= 0]
    empty = [c for c in range(64) if not (attacker | defender) >> c & 1]
    expected = sum(1 << c for c in empty if not replays(attacker, defender | 1 << c, moves))
    assert int(threats.unanswered(signed(attacker), signed(defender), line)) & (2**64 - 1) == expected
    for c in empty[:8]:
        assert threats.replays(signed(attacker), signed(defender | 1 << c), line) == replays(
            attacker, defender | 1 << c, moves
        )
