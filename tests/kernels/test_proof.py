"""Qubic's proof-number search: every proof it returns is walked with the readable
rules, node by node, so a wrong proof (a defence left out, a position that does not
follow from its parent, a leaf that is no win) fails here."""

from __future__ import annotations

import numpy as np
import pytest

from noughts import parse_position
from noughts.ai import Kind
from noughts.ai.compiled import KernelAlphaBetaPlayer
from noughts.core import Player
from noughts.games.qubic import QubicState
from noughts.kernels import proof, threats
from noughts.kernels.cube import signed
from noughts.kernels.proof import COUNT, DEPTH, FIRST, MOVE, ProofTree

# Positions without a win by threats alone (the threat search finds none) where the
# proof-number search proves one, found on random positions; its move, and the plies
# its proof takes at most.
PROVEN = [
    (".x../..../..o./...x|..../oxox/x.../o.x.|..x./xo../.xo./o...|..../.o../...x/...o o", "442"),
    (".o../..x./.o.x/....|o.../...o/..../....|..../..../..../..xx|..../..../..../.... x", "342"),
    ("..../x.x./..../..o.|..o./..../..../.o.x|..../..../...o/...x|..../..../..../.... x", "122"),
]


def marks(state: QubicState) -> tuple[int, int]:
    """(the marks of the player to move, the other's)."""
    return (state.x, state.o) if state.turn is Player.X else (state.o, state.x)


def completing(state: QubicState, owner: int, other: int) -> set[int]:
    """The empty cells that would complete a line of `owner`."""
    cells = set()
    for line in state.game.lines:
        if not line & other and (owner & line).bit_count() == 3:
            cells.add((line & ~owner).bit_length() - 1)
    return cells


def wins_now(state: QubicState) -> bool:
    return bool(completing(state, *marks(state)))


def beaten(state: QubicState, attacker_marks: int) -> bool:
    """The attacker (to move) wins: at once, or by the threat search with a large budget."""
    mine, theirs = marks(state)
    assert mine == attacker_marks
    return wins_now(state) or threats.forced_win(signed(mine), signed(theirs), 16, np.zeros(3), 0.0, 1e7) >= 0


def walk(tree: ProofTree, node: int, state: QubicState, attacker: Player) -> int:
    """Check that `node` is a proven win for `attacker` in `state` by the rules; the
    number of nodes checked."""
    numbers, links = tree.numbers, tree.links
    assert numbers[node, 0] == 0  # proof number 0: proven
    mine, theirs = marks(state)
    ours = state.turn is attacker
    assert ours == (links[node, DEPTH] % 2 == 0)
    att, dfn = (mine, theirs) if ours else (theirs, mine)
    assert (tree.marks[node, 0], tree.marks[node, 1]) == (signed(att), signed(dfn))
    children = range(int(links[node, FIRST]), int(links[node, FIRST] + links[node, COUNT]))
    if links[node, FIRST] < 0:  # settled when it was made
        if ours:
            stats = np.zeros(3)
            assert wins_now(state) or threats.forced_win(signed(att), signed(dfn), 16, stats, 0.0, 1e7) >= 0
        else:
            # Two threats, or a win by threats after every reply (the null move).
            assert not wins_now(state)
            if len(completing(state, att, dfn)) < 2:
                assert all(beaten(state.play(move), att) for move in state.legal_moves())
        return 1
    if ours:
        child = next(c for c in children if numbers[c, 0] == 0)
        move = int(links[child, MOVE])
        assert move in state.legal_moves()
        return 1 + walk(tree, child, state.play(move), attacker)
    assert state.outcome is None and not wins_now(state)
    moves = {int(links[c, MOVE]) for c in children}
    threat = completing(state, att, dfn)
    # Every defence is in the tree, or, against a single threat, its block: any other
    # move lets the attacker complete the line; or the defences the null-move sequence
    # does not beat, and after every other the threat search finds the attacker's win.
    if len(threat) == 1:
        assert moves == threat
    else:
        assert moves <= set(state.legal_moves())
        assert all(beaten(state.play(move), att) for move in set(state.legal_moves()) - moves)
    return 1 + sum(walk(tree, c, state.play(int(links[c, MOVE])), attacker) for c in children)


@pytest.mark.parametrize(("text", "move"), PROVEN)
def test_proofs_hold_by_the_rules(text: str, move: str) -> None:
    state = parse_position("qubic", text)
    assert isinstance(state, QubicState)
    mine, theirs = marks(state)
    assert threats.forced_win(signed(mine), signed(theirs), 16, np.zeros(3), 0.0, 1e7) < 0
    tree = ProofTree(400_000)
    found = tree.prove(signed(mine), signed(theirs), 0.0, 100_000)
    assert state.move_text(found) == move
    assert walk(tree, 0, state, state.turn) > 10
    assert tree.stats[proof.PLIES] >= 7


@pytest.mark.parametrize("text", [PROVEN[0][0], PROVEN[2][0]])
def test_proofs_with_the_null_move_hold_by_the_rules(text: str) -> None:
    # With the null move (as the stored Qubic proof's leaves are searched) the tree
    # leaves out the defences the null-move sequence beats: `walk` checks each of
    # them by the threat search.
    state = parse_position("qubic", text)
    assert isinstance(state, QubicState)
    mine, theirs = marks(state)
    tree = ProofTree(400_000)
    assert tree.prove(signed(mine), signed(theirs), 0.0, 100_000, proof.NULL_SETTLE_DEPTH) >= 0
    assert walk(tree, 0, state, state.turn) > 10


def test_kalphabeta_plays_a_proven_win_the_threat_search_misses() -> None:
    text, move = PROVEN[0]
    state = parse_position("qubic", text)
    without = KernelAlphaBetaPlayer(depth=2, seed=1).analyze(state)
    assert without.value.kind is not Kind.WIN
    analysis = KernelAlphaBetaPlayer(depth=2, seed=1, proof=True).analyze(state)
    assert analysis.moves[0].text == move and analysis.value.kind is Kind.WIN


def test_no_proof_where_none_exists_yet() -> None:
    # After x's first move nothing can be proven within a small budget, and the search
    # says so, leaving the root unproven.
    state = parse_position("qubic", "x.../..../..../....|..../..../..../....|..../..../..../....|..../..../..../.... o")
    assert isinstance(state, QubicState)
    tree = ProofTree(50_000)
    mine, theirs = marks(state)
    assert tree.prove(signed(mine), signed(theirs), 0.0, 200) == -1
    assert tree.numbers[0, 0] != 0


def test_a_shared_memo_changes_no_search_only_what_it_costs() -> None:
    # Each search twice: on a tree whose memo has one slot (next to none), and on one
    # whose memo every search before has filled; the trees, numbers, moves and sizes
    # are the same, and the second costs fewer threat-search nodes.
    texts = [text for text, _ in PROVEN] + [
        "x.../..../..../....|..../..../..../....|..../..../..../....|..../..../..../.... o"
    ]
    shared = proof.Memo(16)
    for null_depth in (0, proof.NULL_SETTLE_DEPTH):
        for again, text in [(False, t) for t in texts] + [(True, t) for t in texts]:
            state = parse_position("qubic", text)
            assert isinstance(state, QubicState)
            mine, theirs = (signed(m) for m in marks(state))
            alone, warm = ProofTree(400_000, proof.Memo(0)), ProofTree(400_000, shared)
            move = alone.prove(mine, theirs, 0.0, 3_000, null_depth)
            assert warm.prove(mine, theirs, 0.0, 3_000, null_depth) == move
            size = int(alone.stats[proof.TREE])
            assert warm.stats[: proof.SEARCHED].tolist() == alone.stats[: proof.SEARCHED].tolist()
            assert np.array_equal(warm.numbers[:size], alone.numbers[:size])
            assert np.array_equal(warm.links[:size], alone.links[:size])
            assert np.array_equal(warm.marks[:size], alone.marks[:size])
            if again:  # the same search a second time: its positions all met before
                assert warm.stats[proof.SEARCHED] < alone.stats[proof.SEARCHED]
