"""The contract every registered game keeps, checked on seeded random playouts."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from noughts import GAMES, IllegalMoveError, InvalidMoveError, NoughtsError, Player, parse_position, parse_spec
from noughts.core import State
from noughts.records import GameRecord

from support import SPECS, playout


def test_every_registered_game_is_covered() -> None:
    assert {spec.split(":")[0] for spec in SPECS} == set(GAMES)


@pytest.mark.parametrize("spec", SPECS)
def test_game_identity(spec: str) -> None:
    game = parse_spec(spec)
    assert game.spec == spec
    assert parse_spec(game.spec) == game
    assert hash(parse_spec(spec)) == hash(game)
    assert game.key == spec.split(":")[0]
    assert eval(repr(game), vars(__import__(type(game).__module__, fromlist=["*"]))) == game


#: Seeded playouts of each game: four in `make test`, eight more in `make test-slow`.
SEEDS = [*range(4), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(4, 12))]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playouts_keep_the_contract(spec: str, seed: int) -> None:
    steps = playout(spec, seed)
    game = parse_spec(spec)
    for ply, (state, move) in enumerate(steps):
        # the position text round-trips and names an equal, equally hashed state
        text = state.to_text()
        again = game.parse_position(text)
        assert again == state and hash(again) == hash(state), text
        assert again.to_text() == text
        assert again.turn is state.turn
        assert again.legal_moves() == state.legal_moves()
        assert eval(repr(state), {"parse_position": parse_position}) == state
        assert isinstance(state.diagram(), str)
        assert state.diagram()
        if move is None:
            break
        legal = state.legal_moves()
        assert legal, "a game with no legal move must be over"
        assert len(set(legal)) == len(legal)
        for m in legal:
            assert game.parse_move(game.move_text(m)) == m
        assert state.outcome is None
        assert state.status == "ongoing"
        before = text
        after = state.play(move)
        assert state.to_text() == before, "play() must not change the state it is called on"
        assert after.turn is state.turn.other or after.is_over, f"ply {ply}"
    final = steps[-1][0]
    if final.is_over:
        assert final.legal_moves() == []
        assert final.status in ("x-wins", "o-wins", "draw")
        with pytest.raises(IllegalMoveError, match="game is over"):
            final.play(steps[-2][1])


@pytest.mark.parametrize("spec", SPECS)
def test_states_are_immutable_values(spec: str) -> None:
    state = parse_spec(spec).initial()
    with pytest.raises(AttributeError):
        state.turn = Player.O
    with pytest.raises(AttributeError):
        del state.turn
    assert copy.copy(state) == state
    assert pickle.loads(pickle.dumps(state)) == state
    child = state.play(state.legal_moves()[0])
    assert child != state
    assert len({state, child, parse_spec(spec).initial()}) == 2


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("seed", range(4))
def test_records_round_trip(spec: str, seed: int) -> None:
    steps = playout(spec, seed)
    states = [s for s, _ in steps]
    moves = [m for _, m in steps[:-1]]
    record = GameRecord.from_states(states, moves, x="ann", o='bob "the builder"', date="2026-11-22")
    for again in (GameRecord.from_text(record.to_text()), GameRecord.from_json(record.to_json_text())):
        assert again == record
        assert again.replay()[-1] == states[-1]


@pytest.mark.parametrize("spec", SPECS)
@given(text=st.text(max_size=12))
@settings(max_examples=60, deadline=None)
def test_arbitrary_text_is_a_move_or_a_clear_error(spec: str, text: str) -> None:
    game = parse_spec(spec)
    state = game.initial()
    try:
        move = game.parse_move(text)
    except InvalidMoveError as e:
        assert str(e)
        return
    try:
        state.play(move)
    except IllegalMoveError as e:
        assert str(e)


@pytest.mark.parametrize("spec", SPECS)
@given(text=st.text(alphabet="xo.XO-/|,; =0123456789sSmMlL", max_size=100))
@settings(max_examples=60, deadline=None)
def test_arbitrary_position_text_parses_or_fails_clearly(spec: str, text: str) -> None:
    game = parse_spec(spec)
    try:
        state = game.parse_position(text)
    except NoughtsError as e:
        assert str(e)
        return
    assert isinstance(state, State)
    assert game.parse_position(state.to_text()) == state


#: Long texts of every shape: a number past the 4,300 digits Python's int() reads, a
#: word, a move or a position's piece repeated.
LONG_TEXTS = st.builds(
    lambda piece, times, tail: piece * times + tail,
    st.one_of(st.sampled_from(["9", "-9", "a1", "55", "L5", "x", "xo./", ".,", "S", "5 ", "/"]), st.text(min_size=1)),
    st.sampled_from([50, 4301]),
    st.sampled_from(["", " x", " o", "1"]),
)


@pytest.mark.parametrize("spec", SPECS)
@given(text=LONG_TEXTS)
@settings(max_examples=20, deadline=None)
def test_a_long_text_is_refused_in_a_short_message(spec: str, text: str) -> None:
    """A move, a position, a spec and an option, each refused with a message that quotes
    at most the start of a long text (`noughts.core.shown`: 40 characters, each written
    as repr writes it): a refusal repeated it whole, 5,000 characters of a move in the
    engine's answer, the API's and the terminal's."""
    game = parse_spec(spec)
    key = spec.split(":")[0]
    for read in (
        game.parse_move,
        game.parse_position,
        lambda t: parse_spec(f"{spec} {t}"),
        lambda t: parse_spec(f"{key} {t}=1"),
        lambda t: parse_spec(t),
        Player.from_text,
    ):
        try:
            read(text)
        except NoughtsError as e:
            assert len(str(e)) < 1000, (read, str(e)[:300])
    for option in GAMES[key].option_names():
        with pytest.raises(NoughtsError) as refused:
            parse_spec(f"{key} {option}={text.replace(' ', '')}")
        assert len(str(refused.value)) < 1000, str(refused.value)[:300]


@pytest.mark.parametrize("spec", SPECS)
def test_wrong_move_values_are_invalid_not_crashes(spec: str) -> None:
    state = parse_spec(spec).initial()
    for bad in (-1, 10_000, "5", None, 2.5, True):
        with pytest.raises((InvalidMoveError, IllegalMoveError)):
            state.play(bad)


@pytest.mark.parametrize("spec", SPECS)
def test_a_won_game_shows_the_winners_line(spec: str) -> None:
    # Boards draw it (the browser, the terminal): every won game has one, made of the
    # winner's marks on the cells, k long; ultimate's is of won local boards instead.
    from noughts.games.gobblet import GobbletState
    from noughts.games.ultimate import ULTIMATE, UltimateState

    won = 0
    for seed in range(30):
        final = playout(spec, seed)[-1][0]
        line = final.winning_line()
        if final.outcome is None or final.outcome.winner is None:
            assert line is None
            continue
        won += 1
        winner = final.outcome.winner
        if isinstance(final, UltimateState) and final.game.rule == ULTIMATE:
            boards = final.winning_boards()
            assert line is None
            if boards is not None:  # None: won on the tie-break by boards
                assert len(boards) == 3
                assert all((outcome := final.board_outcome(b)) and outcome.winner is winner for b in boards)
            continue
        assert line is not None and len(line) == getattr(final.game, "k", len(line)) and len(set(line)) == len(line)
        if isinstance(final, GobbletState):
            assert all((top := final.top(cell)) and top[0] is winner for cell in line)
        else:
            assert all(final.cell(cell) is winner for cell in line)
        assert list(line) == sorted(line) or list(line) == sorted(line, reverse=True) or "qubic" in spec
    assert won > 0
