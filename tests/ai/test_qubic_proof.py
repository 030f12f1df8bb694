"""Qubic's stored proof: the symmetries, the checker on small parts of the shipped proof
and catching broken strategies, the player reading a strategy, and (slow) the shipped
strategy re-proved. The builder's tests: tests/tools/qubic_proof/test_qubic_build.py."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from noughts import parse_spec
from noughts.ai import Kind, qubic_proof
from noughts.ai.compiled import KernelAlphaBetaPlayer
from noughts.ai.qubic_proof import PN, THREATS, Budget, ProofError, Strategy, check, key_of
from noughts.core import Player
from noughts.games.geometry import line_masks
from noughts.kernels import symmetry, threats
from noughts.kernels.cube import signed

LINES = set(line_masks((4, 4, 4), 4))


def marks(cells: tuple[int, ...]) -> int:
    return sum(1 << c for c in cells)


def image(mask: int, s: int) -> int:
    return sum(1 << int(symmetry.IMAGE[s, c]) for c in range(64) if mask >> c & 1)


def test_the_group_has_192_symmetries_each_mapping_lines_to_lines() -> None:
    assert symmetry.COUNT == 192
    assert len({tuple(row) for row in symmetry.IMAGE}) == 192
    for s in range(symmetry.COUNT):
        assert {image(line, s) for line in LINES} == LINES
        undo = int(symmetry.INVERSE[s])
        assert all(symmetry.IMAGE[undo, symmetry.IMAGE[s, c]] == c for c in range(64))


def test_cells_fall_into_the_two_known_classes() -> None:
    # The 8 corners and 8 centre cells lie on 7 lines each, the other 48 on 4.
    classes = {key_of(1 << c, 0)[0] for c in range(64)}
    assert len(classes) == 2


@settings(max_examples=50, deadline=None)
@given(st.integers(0, (1 << 64) - 1), st.integers(0, (1 << 64) - 1), st.integers(0, 191))
def test_canonical_is_the_same_for_every_image(x: int, o: int, s: int) -> None:
    o &= ~x
    key, t = key_of(x, o)
    assert key_of(image(x, s), image(o, s))[0] == key
    assert (image(x, t), image(o, t)) == key
    assert (int(symmetry.transform(signed(x), s, symmetry.BYTES)) & qubic_proof.MASK64) == image(x, s)


#: Two small parts of the shipped proof: x to move six plies in, each entry's whole
#: subtree (every kind of leaf in both), checked in a fraction of a second.
PARTS = [(0xB, 0x1000024), (0xB, 0x1020004)]


@pytest.fixture(scope="module")
def built() -> list[tuple[tuple[int, int], Strategy]]:
    strategy = qubic_proof.shipped()
    assert strategy is not None
    return [(root, qubic_proof.subtree(strategy, [root])) for root in PARTS]


def test_parts_of_the_shipped_proof_pass_the_check(built: list[tuple[tuple[int, int], Strategy]]) -> None:
    for root, strategy in built:
        report = check(strategy, root)
        assert report.moves >= 1 and report.leaves[THREATS] >= 1 and report.leaves[PN] + report.leaves[PN - 1] >= 1
        assert report.moves + sum(report.leaves.values()) == len(strategy.entries)
        # Most of o's replies are shown lost by replaying the null-move sequence.
        assert report.replayed > report.moves


def test_a_strategy_survives_the_file(built: list[tuple[tuple[int, int], Strategy]], tmp_path: Path) -> None:
    root, strategy = built[0]
    strategy.save(tmp_path / "proof.npz")
    again = Strategy.load(tmp_path / "proof.npz")
    assert again == strategy
    check(again, root)


def broken(strategy: Strategy, change: dict[tuple[int, int], int | None]) -> Strategy:
    entries = dict(strategy.entries)
    for key, code in change.items():
        if code is None:
            del entries[key]
        else:
            entries[key] = code
    return dataclasses.replace(strategy, entries=entries)


def test_the_checker_finds_a_missing_reply(built: list[tuple[tuple[int, int], Strategy]]) -> None:
    root, strategy = built[1]
    start, _ = key_of(*root)
    # Entries at random, and every stored move (each a whole subtree's root).
    keys = [key for key in strategy.entries if key != start]
    chosen = random.Random(3).sample(keys, 8) + [key for key in keys if strategy.entries[key] >= 0]
    for key in chosen:
        with pytest.raises(ProofError, match="not answered"):
            check(broken(strategy, {key: None}), root)


def test_the_checker_finds_an_illegal_or_losing_move(built: list[tuple[tuple[int, int], Strategy]]) -> None:
    root, strategy = built[0]
    start, _ = key_of(*root)
    taken = next(c for c in range(64) if (start[0] | start[1]) >> c & 1)
    with pytest.raises(ProofError, match="not legal"):
        check(broken(strategy, {start: taken}), root)
    # Any other first move leaves some reply unanswered (or is no win at all).
    right = strategy.entries[start]
    other = next(c for c in range(64) if c != right and not (start[0] | start[1]) >> c & 1)
    with pytest.raises(ProofError):
        check(broken(strategy, {start: other}), root)


def test_the_checker_proves_every_leaf_again(built: list[tuple[tuple[int, int], Strategy]]) -> None:
    root, strategy = built[0]
    start, _ = key_of(*root)
    # The root is no leaf for these searches: a strategy claiming it is fails.
    for code in (THREATS, PN):
        with pytest.raises(ProofError, match="not proven again"):
            check(broken(strategy, {start: code}), root)
    # A leaf the builder found by proof-number search is not one by threats alone, nor
    # one of the larger level by the smaller.
    for code, lower in ((PN, THREATS), (PN - 1, PN)):
        found = [key for key, stored in strategy.entries.items() if stored == code]
        if found:
            with pytest.raises(ProofError, match="not proven again"):
                check(broken(strategy, {found[0]: lower}), root)
    # Nor with a smaller budget than the one it was built with (which also finds fewer
    # null-move sequences, so replies shown lost by them go unanswered).
    weak = dataclasses.replace(strategy, budget=Budget(threat_nodes=1, threat_depth=0, expansions=(1, 1)))
    with pytest.raises(ProofError, match=r"not proven again|not answered"):
        check(weak, root)


def test_a_strategy_plays_x_to_a_win_in_any_frame(built: list[tuple[tuple[int, int], Strategy]]) -> None:
    game = parse_spec("qubic")
    rng = random.Random(7)
    for (x0, o0), strategy in built:
        for _ in range(4):
            s = rng.randrange(symmetry.COUNT)
            state = game.initial()
            # The root, seen through a symmetry, with x and o alternating.
            for a, b in zip(
                [int(symmetry.IMAGE[s, c]) for c in range(64) if x0 >> c & 1],
                [int(symmetry.IMAGE[s, c]) for c in range(64) if o0 >> c & 1],
                strict=True,
            ):
                state = state.play(a).play(b)
            while not state.is_over:
                if state.turn is Player.X:
                    move = strategy.move(state.x, state.o)
                    assert move is not None and move in state.legal_moves()
                else:
                    move = rng.choice(list(state.legal_moves()))
                state = state.play(move)
            assert state.outcome is not None and state.outcome.winner is Player.X


def test_max_plays_from_the_shipped_strategy(
    built: list[tuple[tuple[int, int], Strategy]], monkeypatch: pytest.MonkeyPatch
) -> None:
    (x, o), strategy = built[1]
    monkeypatch.setattr(qubic_proof, "shipped", lambda: strategy)
    state = parse_spec("qubic").initial()
    for a, b in zip([c for c in range(64) if x >> c & 1], [c for c in range(64) if o >> c & 1], strict=True):
        state = state.play(a).play(b)
    analysis = KernelAlphaBetaPlayer(depth=1).decide(state)
    assert analysis.moves[0].move == strategy.move(state.x, state.o)
    assert analysis.value.kind is Kind.WIN


#: The issue's game (issue 40): o's seventh reply leaves x at a leaf of the proof-number
#: search's second level, which searched in this frame finds no win.
ISSUE_LINE = "111 414 141 443 121 131 411 441 321 231 311 211 331 341"


def _walk_to_leaves(strategy: Strategy, per_kind: int, seed: int) -> list[list[int]]:
    """Games from the empty board through the strategy to a leaf each, `per_kind` for each
    kind of leaf: x plays the stored moves, o a reply picked at random among those the
    strategy answers (the others lose at once or to the null-move sequence). The cells
    played, x's first."""
    rng = random.Random(seed)
    wanted = {THREATS: per_kind, PN: per_kind, PN - 1: per_kind}
    found: list[list[int]] = []
    while any(wanted.values()):
        x = o = 0
        cells: list[int] = []
        while True:
            key, s = key_of(x, o)
            code = strategy.entries[key]
            if code < 0:
                if wanted[code]:
                    wanted[code] -= 1
                    found.append(cells)
                break
            move = int(symmetry.IMAGE[symmetry.INVERSE[s], code])
            cells.append(move)
            x |= 1 << move
            answered = [r for r in range(64) if not (x | o) >> r & 1 and key_of(x, o | 1 << r)[0] in strategy.entries]
            if not answered:
                break
            reply = rng.choice(answered)
            cells.append(reply)
            o |= 1 << reply
    return found


def _threats_win(x: int, o: int, budget: Budget) -> bool:
    """o to move, x having just moved: whether x wins by threats whatever o does (x has a
    line, or o has no line to complete and after every reply x completes one at once or
    the threat search, with `budget`, finds the win)."""
    if qubic_proof.completes(x):
        return True
    if qubic_proof.threat_cells(o, x):
        return False
    mine = qubic_proof.threat_cells(x, o)
    for reply in range(64):
        bit = 1 << reply
        if (x | o) & bit or mine & ~bit:
            continue
        if qubic_proof.leaf_proven(x, o | bit, budget, levels=0) != THREATS:
            return False
    return True


def _proven_moves(x: int, o: int, code: int, budget: Budget) -> set[int]:
    """x's moves whose subtree the proof-number search of the leaf's level proves (the
    proof the checker finds), in the canonical frame."""
    from noughts.kernels.proof import FIRST, NULL_SETTLE_DEPTH, ProofTree

    expansions = budget.expansions[PN - code]
    tree = ProofTree(64 * (expansions + 1))
    tree.prove(signed(x), signed(o), 0.0, expansions, NULL_SETTLE_DEPTH)
    assert tree.numbers[0, 0] == 0
    first = int(tree.links[0, FIRST])
    return {int(tree.links[c, 3]) for c in range(first, first + int(tree.links[0, 2])) if tree.numbers[c, 0] == 0}


def test_x_keeps_the_shipped_proof_in_every_orientation() -> None:
    """Walks of o's replies from the empty board through the shipped proof to leaves of
    each kind (the threat search's, the proof-number search's two levels), the issue's
    game among them, seen through each of the cube's 192 symmetries: at every x position
    on the way x plays the stored move, and at the leaf a move the leaf's proof holds
    (proof-number leaves: a move whose subtree the checker's search proves; threat
    leaves: after it x wins by threats against every reply)."""
    strategy = qubic_proof.shipped()
    if strategy is None:
        pytest.skip(f"no proof shipped at {qubic_proof.SHIPPED}")
    game = parse_spec("qubic")
    paths = _walk_to_leaves(strategy, 2, seed=11)
    paths.append([game.parse_move(text) for text in ISSUE_LINE.split()])
    kinds: dict[int, int] = {}
    kept: dict[tuple[tuple[int, int], tuple[int, int]], bool] = {}
    for cells in paths:
        for s in range(symmetry.COUNT):
            x = o = 0
            for ply, cell in enumerate([*[int(symmetry.IMAGE[s, c]) for c in cells], -1]):
                if ply % 2 == 0:  # x to move: the position is an entry of the proof
                    key, t = key_of(x, o)
                    code = strategy.entries[key]
                    move = strategy.move(x, o)
                    assert move is not None and not (x | o) >> move & 1, (cells, s, ply)
                    canonical = int(symmetry.IMAGE[t, move])
                    child = key_of(key[0] | 1 << canonical, key[1])[0]
                    if code >= 0:
                        assert child == key_of(key[0] | 1 << code, key[1])[0], (cells, s, ply)
                    else:
                        if (key, child) not in kept:
                            holds = code != THREATS and canonical in _proven_moves(*key, code, strategy.budget)
                            kept[key, child] = holds or _threats_win(key[0] | 1 << canonical, key[1], strategy.budget)
                        assert kept[key, child], (cells, s, ply)
                    kinds[code if code < 0 else 0] = kinds.get(code if code < 0 else 0, 0) + 1
                if cell < 0:
                    break
                if ply % 2 == 0:
                    x |= 1 << cell
                else:
                    o |= 1 << cell
    assert kinds[0] > 0 and all(kinds[k] >= 2 * symmetry.COUNT for k in (THREATS, PN, PN - 1))


def test_max_plays_the_proof_where_the_issue_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's game: x at a leaf of the proof-number search's second level, in a
    frame where that search finds nothing; max answers with the proof's win."""
    state = parse_spec("qubic").initial()
    for text in ISSUE_LINE.split():
        state = state.play_text(text)
    analysis = KernelAlphaBetaPlayer(depth=1).decide(state)
    assert analysis.value.kind is Kind.WIN
    strategy = qubic_proof.shipped()
    assert strategy is not None
    key, t = key_of(state.x, state.o)
    canonical = int(symmetry.IMAGE[t, analysis.moves[0].move])
    assert canonical in _proven_moves(*key, strategy.entries[key], strategy.budget)


def test_o_to_move_inside_the_proof_is_a_proven_loss_not_an_estimate() -> None:
    """After x's proof moves, in any of the cube's orientations, o's position is lost,
    proven: every reply a loss in at most the cells left (it read as an estimate of 55%
    for o after x's first move); where x has left the proof it stays an estimate."""
    strategy = qubic_proof.shipped()
    assert strategy is not None
    rng = random.Random(7)
    player = KernelAlphaBetaPlayer(depth=2)
    game = parse_spec("qubic")
    for s in rng.sample(range(symmetry.COUNT), 5):
        state, cells = game.initial(), []
        for _ in range(rng.randint(0, 2)):  # x's proof move and a random reply of o's
            move = strategy.move(state.x, state.o)
            assert move is not None
            reply = rng.choice(state.play(move).legal_moves())
            state = state.play(move).play(reply)
            cells += [move, reply]
        cells.append(strategy.move(state.x, state.o))
        if state.play(cells[-1]).is_over:  # x has won: no o position to look at
            continue
        state = game.initial()
        for cell in cells:  # the same game turned by the symmetry s
            state = state.play(int(symmetry.IMAGE[s, cell]))
        left = 64 - len(cells)
        analysis = player.decide(state)
        # Lost by the proof (at most the cells left) or, sooner, by x's threats.
        values = [info.value for info in analysis.moves]
        assert all(v.kind is Kind.LOSS and v.plies is not None and v.plies <= left for v in values), (s, cells)
    off = game.initial().play_text("111").play_text("222").play_text("333")
    assert not player.decide(off).value.exact


#: x to move, past a leaf of the shipped proof's proof-number search (found by
#: bench/qubic_past_leaves.py, o replying at random past the leaf), where the searches
#: run on the position itself, in its canonical frame, find no win.
PAST_LEAVES = [(0x8021040180008001, 0x400802004211004), (0xD000010000200001, 0x2000048200500000)]


def test_past_a_leaf_x_follows_the_leafs_proof() -> None:
    strategy = qubic_proof.shipped()
    if strategy is None:
        pytest.skip(f"no proof shipped at {qubic_proof.SHIPPED}")
    larger = Budget(expansions=(*strategy.budget.expansions, 20_000))
    rng = random.Random(3)
    for x, o in PAST_LEAVES:
        key, _ = key_of(x, o)
        assert key not in strategy.entries and qubic_proof.leaf_move(*key, strategy.budget) is None
        children = set()
        for s in [0, *rng.sample(range(1, symmetry.COUNT), 2)]:
            sx, so = image(x, s), image(o, s)
            move = strategy.move(sx, so)
            assert move is not None and not (sx | so) >> move & 1
            children.add(key_of(sx | 1 << move, so)[0])
        assert len(children) == 1  # the same move in every frame
        # After it, every reply of o leaves x a line to complete at once, or a win the
        # searches prove with a larger budget than the shipped one (they are sound in
        # any frame, but succeed in some only: tried in the position's and the canonical).
        (x2, o2), t = key_of(x | 1 << (strategy.move(x, o) or 0), o)
        assert (x2, o2) in children and not qubic_proof.threat_cells(o2, x2)
        mine = qubic_proof.threat_cells(x2, o2)
        undo = int(symmetry.INVERSE[t])
        for reply in range(64):
            bit = 1 << reply
            if (x2 | o2) & bit or mine & ~bit:
                continue
            proven = (
                qubic_proof.leaf_proven(image(x2, undo), image(o2 | bit, undo), larger) is not None
                or qubic_proof.leaf_proven(x2, o2 | bit, larger) is not None
            )
            assert proven, (hex(x), hex(o), reply)


@pytest.mark.slow
@pytest.mark.timeout(1800)  # about 2 min of one idle core (tools/qubic_proof/README.md), more under load
def test_the_shipped_proof_holds() -> None:
    """The issue's checker over the whole shipped tree, every leaf proven again."""
    strategy = qubic_proof.shipped()
    if strategy is None:
        pytest.skip(f"no proof shipped yet at {qubic_proof.SHIPPED} (the build is not finished)")
    report = check(strategy)
    assert report.moves > 0
    np.testing.assert_equal(report.deepest % 2, 0)


def test_replies_the_null_move_sequence_beats_are_wins_for_x() -> None:
    # o to move in positions of random games: where x, were o to pass, wins by threats,
    # every reply `open_replies` leaves out is one after which the threat search (on
    # its own, with a larger budget) also finds x's win; the replies it keeps include
    # the cells of x's sequence.
    rng = random.Random(5)
    budget = Budget()
    checked = 0
    for _ in range(300):
        cells = rng.sample(range(64), 2 * rng.randrange(3, 8) + 1)
        x, o = marks(tuple(cells[0::2])), marks(tuple(cells[1::2]))
        lines = list(LINES)
        if any(x & line == line or o & line == line for line in lines) or threats_of(x, o) or threats_of(o, x):
            continue
        line = np.full(budget.threat_depth + 1, -1, dtype=np.int64)
        stats = np.zeros(3)
        if threats.forced_line(signed(x), signed(o), budget.threat_depth, stats, 0.0, 20_000.0, line) < 0:
            continue
        left = qubic_proof.open_replies(x, o, budget)
        assert all(left >> int(m) & 1 for m in line if m >= 0)
        for cell in range(64):
            if (x | o | left) >> cell & 1:
                continue
            stats = np.zeros(3)
            assert threats.forced_win(signed(x), signed(o | 1 << cell), 20, stats, 0.0, 1e6) >= 0
            checked += 1
    assert checked > 100


def threats_of(mine: int, theirs: int) -> int:
    return sum(1 for line in LINES if not line & theirs and (mine & line).bit_count() == 3)
