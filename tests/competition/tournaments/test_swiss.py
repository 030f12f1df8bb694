"""Swiss pairings and standings (no database): a five-player, three-round example
worked out by hand against the rules in `swiss`'s docstring, and properties of any
tournament: no rematch, everyone paired once a round, a second bye only when no player
without one could take it, FIDE's colour rules kept whenever a pairing can keep them."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from noughts.competition.tournaments.matching import maximum_matching
from noughts.competition.tournaments.swiss import (
    BYE_POINTS,
    Entrant,
    NoPairingError,
    Round,
    SwissGame,
    entrants,
    pair_round,
    standings,
)

#: Five players; ids 1..5 rank 1..5 at the start (the higher rating first).
RATINGS = {1: 1600.0, 2: 1500.0, 3: 1400.0, 4: 1300.0, 5: 1200.0}


def _played(round_: int, r: Round, results: dict[tuple[int, int], str]) -> list[SwissGame]:
    """The games of `r` with `results` ("x", "o" or "draw" by (x, o)), its bye included."""
    points = {"x": (1.0, 0.0), "o": (0.0, 1.0), "draw": (0.5, 0.5)}
    games = [SwissGame(round_, x, o, *points[results[(x, o)]]) for x, o in r.pairs]
    if r.bye is not None:
        games.append(SwissGame(round_, r.bye, None, BYE_POINTS))
    return games


def test_three_rounds_worked_by_hand() -> None:
    games: list[SwissGame] = []
    # Round 1: one score group; S1 = 1, 2 meets S2 = 3, 4; the bye to 5, the lowest.
    # Colours: no history, so the higher player is x on board 1 and o on board 2.
    r1 = pair_round(entrants(RATINGS, games))
    assert r1 == Round(((1, 3), (4, 2)), 5)
    games += _played(1, r1, {(1, 3): "x", (4, 2): "draw"})
    # Scores 1: 1, 5: 1 (bye), 2: ½, 4: ½, 3: 0. The bye to 3 (lowest, none yet).
    # Groups {1, 5} and {2, 4}: 1-5 would leave 2-4, a rematch, so both of the top
    # group float into the next: S1 = 1, 5 meets S2 = 2, 4.
    # Colours: 1 (x) against 2 (o): 2 is x. 5 (none) against 4 (x): 5 is x.
    r2 = pair_round(entrants(RATINGS, games))
    assert r2 == Round(((2, 1), (5, 4)), 3)
    games += _played(2, r2, {(2, 1): "x", (5, 4): "draw"})
    # Scores 2: 1½, 5: 1½, 1: 1, 3: 1 (bye), 4: 1. The bye to 4: the lowest without one.
    # {2, 5} then {1, 3}: 1-3 is a rematch, so 2 and 5 float: S1 = 2, 5 against
    # S2 = 1, 3; 2-1 is a rematch, the next order gives 2-3 and 5-1.
    # Colours: 3 (o) has fewer x than 2 (o, x): 3 is x; 1 (x, o) fewer than 5 (x): 1 is x.
    r3 = pair_round(entrants(RATINGS, games))
    assert r3 == Round(((3, 2), (1, 5)), 4)
    games += _played(3, r3, {(3, 2): "x", (1, 5): "x"})
    # Final: 1, 3, 4 have 2; 2 and 5 have 1½.
    # Buchholz: 1: 3+2+5 = 2+1½+1½ = 5; 3: 1+2 = 3½; 4: 2+5 = 3; 2: 4+1+3 = 6; 5: 4+1 = 4.
    # Sonneborn-Berger: 1 beat 3 and 5: 3½; 3 beat 2: 1½; 4 drew 2 and 5: 1½; 2 drew 4,
    # beat 1: 1+2 = 3; 5 drew 4: 1.
    table = [(s.rank, s.id, s.score, s.buchholz, s.sonneborn_berger, s.games) for s in standings(RATINGS, games)]
    assert table == [
        (1, 1, 2.0, 5.0, 3.5, 3),
        (2, 3, 2.0, 3.5, 1.5, 2),
        (3, 4, 2.0, 3.0, 1.5, 2),
        (4, 2, 1.5, 6.0, 3.0, 3),
        (5, 5, 1.5, 4.0, 1.0, 2),
    ]


def test_games_being_played_count_for_nobody_yet() -> None:
    games = [SwissGame(1, 1, 2, None, None)]
    assert {s.id: s.score for s in standings({1: 1500.0, 2: 1500.0}, games)} == {1: 0.0, 2: 0.0}
    # ...but they are played: 1 and 2 never meet again.
    with pytest.raises(NoPairingError):
        pair_round(entrants({1: 1500.0, 2: 1500.0}, games))


def test_too_few_players_or_everyone_met_already() -> None:
    with pytest.raises(NoPairingError):
        pair_round([Entrant(1, 1500)])
    met = [Entrant(i, 1500, opponents=frozenset({1, 2, 3} - {i})) for i in (1, 2, 3)]
    with pytest.raises(NoPairingError):
        pair_round(met)


def test_colours_even_out() -> None:
    # Both played x twice and o once... but 2 had x last: 2 gets o.
    a, b = Entrant(1, 1600, colours="xox"), Entrant(2, 1500, colours="oxx")
    assert pair_round([a, b]).pairs == ((1, 2),)
    assert pair_round([Entrant(1, 1600, colours="xx"), Entrant(2, 1500, colours="o")]).pairs == ((2, 1),)


def test_colours_are_part_of_the_pairing() -> None:
    """Issue 41: colours were given after pairing, so two players both due x (here,
    each with o twice in a row) could meet, and one of them reach o three times in a
    row. Now the Dutch pairing of the score groups 1, 2 and 3, 4 gives way."""
    top = [Entrant(1, 1600, 2.0, colours="xoo"), Entrant(2, 1500, 2.0, colours="oxo")]
    bottom = [Entrant(3, 1400, 0.0, colours="xxo"), Entrant(4, 1300, 0.0, colours="oxx")]
    # 1 and 2 are both due x, but 2 may take o (o x o o): they still meet, 1 is x; 3
    # and 4 are both due o, and 3 had o when their colours last differed: 3 is x.
    assert pair_round(top + bottom).pairs == ((1, 2), (3, 4))
    top[1] = Entrant(2, 1500, 2.0, colours="xoo")  # o x x... o o: 2 must have x too
    bottom[1] = Entrant(4, 1300, 0.0, colours="oxx")
    r = pair_round(top + bottom)
    assert frozenset({1, 2}) not in {frozenset(p) for p in r.pairs}
    assert {x for x, _ in r.pairs} == {1, 2}
    # A difference of 2 is the most: x x o x (+2) plays o next, whatever its rank.
    ahead = [Entrant(1, 1600, 3.0, colours="xxox"), Entrant(2, 1500, 3.0, colours="oxxo")]
    assert pair_round(ahead).pairs == ((2, 1),)


def _breaks_colour_rules(colours: str) -> bool:
    """Three of one colour in a row, or a colour difference above 2, anywhere so far."""
    for end in range(1, len(colours) + 1):
        head = colours[:end]
        if abs(head.count("x") - head.count("o")) > 2 or head[-3:] in ("xxx", "ooo"):
            return True
    return False


def _can_pair_coloured(ids: Sequence[int], by_id: dict[int, Entrant]) -> bool:
    """Whether `ids` can all be paired without a rematch and with colours keeping the
    rules (brute force, independent of the module's search)."""
    if not ids:
        return True
    first, rest = by_id[ids[0]], ids[1:]
    for other_id in rest:
        other = by_id[other_id]
        if other_id in first.opponents:
            continue
        one_way = not _breaks_colour_rules(first.colours + "x") and not _breaks_colour_rules(other.colours + "o")
        other_way = not _breaks_colour_rules(first.colours + "o") and not _breaks_colour_rules(other.colours + "x")
        if (one_way or other_way) and _can_pair_coloured([r for r in rest if r != other_id], by_id):
            return True
    return False


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(2, 11),
    rounds=st.integers(1, 10),
    outcomes=st.lists(st.sampled_from(["x", "x", "o", "draw"]), min_size=60, max_size=60),
    ratings=st.lists(st.integers(1000, 2000), min_size=11, max_size=11),
)
def test_colours_keep_fides_rules_whenever_a_pairing_can(
    n: int, rounds: int, outcomes: list[str], ratings: list[int]
) -> None:
    """Over many rounds and player counts (x winning more often, as in most games of
    the family): nobody plays one colour three times in a row or has a colour
    difference above 2, unless no pairing of the round (with the bye where it went)
    could avoid it."""
    players = {i: float(ratings[i]) for i in range(n)}
    games: list[SwissGame] = []
    results = iter(outcomes)
    for number in range(1, rounds + 1):
        before = {e.id: e for e in entrants(players, games)}
        try:
            r = pair_round(list(before.values()))
        except NoPairingError:
            return
        games += _played(number, r, {pair: next(results) for pair in r.pairs})
        after = {e.id: e for e in entrants(players, games)}
        if any(
            _breaks_colour_rules(e.colours) and not _breaks_colour_rules(before[e.id].colours) for e in after.values()
        ):
            # Allowed only when no pairing keeping the rules exists with a bye of the
            # same count as the one given.
            ids = list(players)
            if r.bye is None:
                options = [ids]
            else:
                given_byes = before[r.bye].byes
                options = [[i for i in ids if i != b] for b in ids if before[b].byes == given_byes]
            assert not any(_can_pair_coloured(o, before) for o in options), (number, r, before)


def _can_pair(ids: Sequence[int], met: dict[int, set[int]]) -> bool:
    """Whether `ids` can all be paired without a rematch (brute force, independent of
    the module's search)."""
    if not ids:
        return True
    first, rest = ids[0], ids[1:]
    return any(other not in met[first] and _can_pair([r for r in rest if r != other], met) for other in rest)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 9),
    rounds=st.integers(1, 8),
    outcomes=st.lists(st.sampled_from(["x", "o", "draw"]), min_size=40, max_size=40),
    ratings=st.lists(st.integers(1000, 2000), min_size=9, max_size=9),
)
def test_any_swiss(n: int, rounds: int, outcomes: list[str], ratings: list[int]) -> None:
    players = {i: float(ratings[i]) for i in range(n)}
    games: list[SwissGame] = []
    met: dict[int, set[int]] = {i: set() for i in players}
    byes = dict.fromkeys(players, 0)
    results = iter(outcomes)
    for number in range(1, rounds + 1):
        try:
            r = pair_round(entrants(players, games))
        except NoPairingError:
            # Only when no bye (if one is needed) leaves a pairing of the rest.
            ids = list(players)
            options = [ids] if n % 2 == 0 else [[i for i in ids if i != b] for b in ids]
            assert not any(_can_pair(o, met) for o in options)
            return
        seen = [i for pair in r.pairs for i in pair] + ([r.bye] if r.bye is not None else [])
        assert sorted(seen) == sorted(players)  # everyone, once
        assert (r.bye is not None) == (n % 2 == 1)
        for x, o in r.pairs:
            assert o not in met[x]  # no rematch
            met[x].add(o)
            met[o].add(x)
        if r.bye is not None and byes[r.bye] > min(byes.values()):
            # A second bye: no player with fewer could have taken it.
            for other in players:
                if byes[other] < byes[r.bye]:
                    before = {i: met[i] - ({o for x, o in r.pairs if x == i} | {x for x, o in r.pairs if o == i})
                              for i in players}  # fmt: skip
                    assert not _can_pair([i for i in players if i != other], before)
        if r.bye is not None:
            byes[r.bye] += 1
        games += _played(number, r, {pair: next(results) for pair in r.pairs})
    assert all(len(met[i]) + byes[i] == rounds for i in players)


def _most_pairs(free: list[int], adjacent: list[set[int]]) -> int:
    """The size of a maximum matching, by trying everything."""
    if not free:
        return 0
    first, rest = free[0], free[1:]
    best = _most_pairs(rest, adjacent)
    for other in rest:
        if other in adjacent[first]:
            best = max(best, 1 + _most_pairs([v for v in rest if v != other], adjacent))
    return best


@settings(max_examples=150, deadline=None)
@given(n=st.integers(1, 10), edges=st.sets(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=30))
def test_the_blossom_matching_is_maximum(n: int, edges: set[tuple[int, int]]) -> None:
    adjacent: list[set[int]] = [set() for _ in range(n)]
    for a, b in edges:
        if a < n and b < n and a != b:
            adjacent[a].add(b)
            adjacent[b].add(a)
    partner = maximum_matching(n, adjacent)
    for v, u in enumerate(partner):
        assert u == -1 or (partner[u] == v and u in adjacent[v])
    assert sum(u != -1 for u in partner) // 2 == _most_pairs(list(range(n)), adjacent)


def test_a_swiss_as_long_as_a_round_robin_pairs_every_round_it_can() -> None:
    # Late rounds of a long Swiss are knots of earlier games where the searches give up
    # and the maximum matching pairs the players; the Swiss ends only when no pairing
    # without a rematch is left.
    players = {i: 1500.0 + i for i in range(20)}
    games: list[SwissGame] = []
    met: list[set[int]] = [set() for _ in players]
    for number in range(1, 20):
        try:
            r = pair_round(entrants(players, games))
        except NoPairingError:
            unmet = [{j for j in players if j != i and j not in met[i]} for i in players]
            assert -1 in maximum_matching(len(players), unmet)
            break
        assert sorted(i for pair in r.pairs for i in pair) == sorted(players)
        for x, o in r.pairs:
            assert o not in met[x]
            met[x].add(o)
            met[o].add(x)
        games += _played(number, r, {pair: "xo"[(pair[0] + pair[1] + number) % 2] for pair in r.pairs})
    assert number >= 15, number  # how far it got: the round that could not be paired, or 19
