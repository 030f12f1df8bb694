"""Qubic's proof builder (tools/qubic_proof/qubic_build.py) on small problems: positions
four plies in, whose proofs take a second, each built and its strategy checked by the
library's checker (`noughts.ai.qubic_proof.check`); a build goes on from its
checkpoint, takes the proofs of earlier builds as lemmas, deepens its searches lazily,
and orders x's moves as it is told."""

from __future__ import annotations

from pathlib import Path

import pytest

from noughts.ai import qubic_proof
from noughts.ai.qubic_proof import PN, THREATS, Budget, ProofError, Strategy, check, key_of
from qubic_build import FORCED_COST, INF, LEMMA, SHALLOW, Builder

#: x's and o's cells after four plies, x to move, where x wins with a small proof.
SMALL = [((48, 22), (8, 16)), ((63, 22), (16, 23))]
BUDGET = Budget(expansions=(100, 400))


def marks(cells: tuple[int, ...]) -> int:
    return sum(1 << c for c in cells)


@pytest.fixture(scope="module")
def built() -> list[tuple[tuple[int, int], Strategy]]:
    found = []
    for xs, os in SMALL:
        root = (marks(xs), marks(os))
        builder = Builder(root, BUDGET)
        builder.run(120, report=None)
        assert builder.nodes[builder.root].pn == 0
        found.append((root, builder.strategy()))
    return found


def test_built_strategies_pass_the_check(built: list[tuple[tuple[int, int], Strategy]]) -> None:
    for root, strategy in built:
        report = check(strategy, root)
        assert report.moves >= 1 and report.leaves[THREATS] >= 1 and report.leaves[PN] + report.leaves[PN - 1] >= 1
        assert report.moves + sum(report.leaves.values()) == len(strategy.entries)
        # Most of o's replies are shown lost by replaying the null-move sequence.
        assert report.replayed > report.moves


def test_a_build_goes_on_from_its_checkpoint(tmp_path: Path) -> None:
    xs, os = SMALL[0]
    root = (marks(xs), marks(os))
    builder = Builder(root, BUDGET)
    for _ in range(3):
        builder.step()
    builder.save(tmp_path / "build.ckpt")
    again = Builder.load(tmp_path / "build.ckpt")
    assert again.expansions == 3 and len(again.nodes) == len(builder.nodes)
    again.run(120, report=None)
    assert again.solved() and again.expansions > 3
    check(again.strategy(), root)


def test_a_build_takes_the_proofs_an_earlier_one_found_on_the_way() -> None:
    for xs, os in SMALL:
        root = key_of(marks(xs), marks(os))[0]
        whole = Builder(root, BUDGET, pn_from=6, width=8, lazy=True)
        whole.run(120, report=None)
        steps = whole.expansions
        # An earlier build that stopped halfway (its checkpoint lost with its machine).
        earlier = Builder(root, BUDGET, pn_from=6, width=8, lazy=True)
        for _ in range(steps // 2):
            earlier.step()
        assert not earlier.solved()
        lemmas = earlier.proven_inside()
        assert lemmas.entries and root not in lemmas.entries
        for key in lemmas.entries:  # every position it holds is proven, with its proof
            check(lemmas, key)
        later = Builder(root, BUDGET, pn_from=6, width=8, lazy=True, lemmas=lemmas)
        later.run(120, report=None)
        assert any(node.kind == LEMMA for node in later.nodes.values())
        assert later.expansions < steps and later.leaf_searches < whole.leaf_searches
        strategy = later.strategy()
        assert set(strategy.entries) & set(lemmas.entries)
        check(strategy, root)


def test_a_lemma_without_its_whole_proof_is_refused() -> None:
    xs, os = SMALL[0]
    root = key_of(marks(xs), marks(os))[0]
    earlier = Builder(root, BUDGET, pn_from=6, width=8, lazy=True)
    while len(earlier.proven_inside().entries) < 3:
        earlier.step()
    lemmas = earlier.proven_inside()
    move = next(k for k, code in lemmas.entries.items() if code >= 0)
    # The lemma's first move stays, the positions after o's replies to it are gone.
    cut = Strategy({move: lemmas.entries[move]}, BUDGET)
    with pytest.raises(ProofError, match="is not answered"):
        qubic_proof.subtree(cut, [move])
    # A build handed it takes the position as proven, and its proof cannot be drawn.
    later = Builder(root, BUDGET, pn_from=6, width=8, lazy=True, lemmas=cut)
    later.run(120, report=None)
    assert later.nodes[move].kind == LEMMA and later.nodes[root].pn == 0
    with pytest.raises(ProofError, match="is not answered"):
        later.strategy()


def test_a_lazy_build_proves_too_and_deepens_a_search_only_when_it_picks_the_position() -> None:
    for xs, os in SMALL:
        root = (marks(xs), marks(os))
        lazy_known: dict[tuple[int, int], tuple[int, int, int]] = {}
        lazy = Builder(root, BUDGET, lazy=True, known=lazy_known)
        for _ in range(3):  # the root deepened, then expanded, then an o position expanded
            lazy.step()
        # x's positions after o's replies have the inner search's first level only.
        shallow = {k for k, (_, _, kind) in lazy_known.items() if kind == SHALLOW}
        assert shallow and lazy.deepened == 1
        lazy.run(120, report=None)
        assert lazy.nodes[lazy.root].pn == 0 and lazy.deepened >= 1
        check(lazy.strategy(), root)
        eager_known: dict[tuple[int, int], tuple[int, int, int]] = {}
        eager = Builder(root, BUDGET, known=eager_known)
        eager.run(120, report=None)
        # A deepened search ends as the eager one: the same numbers, the same leaf code.
        deepened = [k for k, (_, _, kind) in lazy_known.items() if kind != SHALLOW and k in eager_known]
        assert deepened and all(lazy_known[k] == eager_known[k] for k in deepened)
        # An eager build handed shallow results deepens them as it reads them.
        first: dict[tuple[int, int], tuple[int, int, int]] = {}
        early = Builder(root, BUDGET, lazy=True, known=first)
        for _ in range(3):
            early.step()
        again = Builder(root, BUDGET, known=first)
        again.run(120, report=None)
        assert again.nodes[again.root].pn == 0 and again.deepened >= len(shallow)
        assert not any(node.kind == SHALLOW for node in again.nodes.values())


def _o_positions_hold_their_replies(builder: Builder) -> int:
    """Asserts that each expanded o position of `builder` holds every reply to search,
    or (`Builder.cutoff`, refuted) those up to its first refutation; how many of the
    second kind stopped short."""
    short = 0
    for (x, o), node in builder.nodes.items():
        if x.bit_count() == o.bit_count() or not node.children:
            continue
        replies = {key_of(x, o | 1 << c)[0] for c in range(64) if node.replies >> c & 1}
        refutations = [builder.nodes[c].dn == 0 for c in node.children]
        if node.dn != 0 or not builder.cutoff:
            assert set(node.children) == replies
        else:
            assert refutations.index(True) == len(refutations) - 1
            short += len(node.children) < len(replies)
    return short


@pytest.mark.slow  # 12 s of proof search; the build's other tests run in make test
def test_an_o_position_stops_at_the_first_reply_that_refutes_x_and_keeps_every_reply_elsewhere() -> None:
    for xs, os in SMALL:
        root = (marks(xs), marks(os))
        for cutoff in (True, False):
            builder = Builder(root, BUDGET, lazy=True)
            builder.cutoff = cutoff
            builder.run(120, report=None)
            assert builder.nodes[builder.root].pn == 0
            check(builder.strategy(), root)
            _o_positions_hold_their_replies(builder)
    # Four marks into the stored proof's book (a frontier position), where refutations
    # are many: searched for 120 rounds, not to the end.
    builder = Builder((0x2004000000, 0x48000), BUDGET, pn_from=6, width=8, lazy=True)
    for _ in range(120):
        builder.step()
    assert _o_positions_hold_their_replies(builder) > 0


def test_a_mixed_build_tries_quiet_moves_charges_threats_and_proves() -> None:
    """`Builder.mixed`: x's moves tried are the first half by the replies they leave and
    the first half by the lines evaluation, alternating; `forced_cost`: an o position
    with one reply to search costs that much more than the reply (never a proven one)."""
    # An open frontier position of the stored proof's book, where x has threats to make.
    root = (0x2004200080, 0x40002008010)
    ways = {}
    for way in ("replies", "lines", "mixed"):
        builder = Builder(root, BUDGET, pn_from=6, width=8, lazy=True, by_replies=way != "lines", mixed=way == "mixed")
        builder.step()  # the root's inner search deepened
        builder.step()  # its moves
        ways[way] = builder.nodes[builder.root].children or []
    mixed = ways["mixed"]
    assert len(mixed) == 8 and set(mixed) >= set(ways["replies"][:4]) | set(ways["lines"][:4])
    quiet = [builder.nodes[k].replies.bit_count() for k in set(mixed) - set(ways["replies"])]
    assert quiet and max(quiet) > 1  # a move leaving o more than one reply, which by replies had not
    for xs, os in SMALL:
        small = (marks(xs), marks(os))
        builder = Builder(small, BUDGET, lazy=True, mixed=True)
        assert builder.forced_cost == FORCED_COST
        builder.run(120, report=None)
        assert builder.nodes[builder.root].pn == 0
        check(builder.strategy(), small)
    charged = 0
    for key, node in builder.nodes.items():
        if key[0].bit_count() == key[1].bit_count() or not node.children or node.replies.bit_count() != 1:
            continue
        builder._refresh(key, node)
        (kid,) = (builder.nodes[k] for k in node.children)
        assert node.pn == (kid.pn + FORCED_COST if 0 < kid.pn < INF else kid.pn)
        charged += 0 < kid.pn < INF
    assert charged > 0
