"""Rules, notation and a differential check against tests/reference/gobblet_ref.py for
gobblet and matryoshka."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import pytest

from noughts.core import IllegalMoveError, InvalidMoveError, InvalidPositionError, Outcome, Player, Reason
from noughts.games.gobblet import Gobblet, GobbletMove, GobbletState, Place, Shift
from noughts.registry import make_game, parse_spec

from support import load_file


def _load_reference() -> ModuleType:
    return load_file("gobblet_ref", Path(__file__).resolve().parents[1] / "reference" / "gobblet_ref.py")


ref = _load_reference()

GOBBLET = Gobblet()
MATRYOSHKA = Gobblet(moves=False)
GAMES = {"gobblet": GOBBLET, "matryoshka": MATRYOSHKA}


def _after(game: Gobblet, position: str, moves: str) -> GobbletState:
    state = game.parse_position(position)
    for move in moves.split():
        state = state.play_text(move)
    return state


# -- the game and the registry ----------------------------------------------------


@pytest.mark.parametrize(("key", "game"), [("gobblet", GOBBLET), ("matryoshka", MATRYOSHKA)])
def test_registry_keys_and_specs(key: str, game: Gobblet) -> None:
    assert game.key == key
    assert game.spec == key
    assert make_game(key) == game
    assert parse_spec(key) == game


def test_moves_option_must_be_a_bool() -> None:
    with pytest.raises(ValueError, match="true or false"):
        Gobblet(moves="yes")  # type: ignore[arg-type]


# -- move notation ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("L5", Place(3, 4)),
        ("l5", Place(3, 4)),
        ("5L", Place(3, 4)),
        (" 5l ", Place(3, 4)),
        ("S1", Place(1, 0)),
        ("M9", Place(2, 8)),
        ("3-5", Shift(2, 4)),
        ("3>5", Shift(2, 4)),
        ("3 5", Shift(2, 4)),
        ("9-1", Shift(8, 0)),
        ("4-4", Shift(3, 3)),  # well formed; playing it is illegal
    ],
)
def test_parse_move(text: str, move: GobbletMove) -> None:
    assert GOBBLET.parse_move(text) == move
    assert MATRYOSHKA.parse_move(text) == move


@pytest.mark.parametrize(
    "text", ["", "5", "L", "L0", "L10", "X5", "LL5", "0-5", "3-0", "3-", "35", "3--5", "3->5", "1-10"]
)
def test_parse_move_rejects_non_moves(text: str) -> None:
    with pytest.raises(InvalidMoveError, match=r"place a figure like L5 .* or move one of yours like 3-5"):
        GOBBLET.parse_move(text)


def test_move_text_round_trips_every_move() -> None:
    moves: list[GobbletMove] = [Place(size, cell) for size in (1, 2, 3) for cell in range(9)]
    moves += [Shift(src, dst) for src in range(9) for dst in range(9) if src != dst]
    texts = [GOBBLET.move_text(m) for m in moves]
    assert len(set(texts)) == len(moves)
    assert [GOBBLET.parse_move(t) for t in texts] == moves
    assert GOBBLET.move_text(Place(3, 4)) == "L5"
    assert GOBBLET.move_text(Shift(2, 4)) == "3-5"


@pytest.mark.parametrize(
    "move", [Place(0, 4), Place(4, 4), Place(1, 9), Place(True, 0), Shift(-1, 3), Shift(0, 9), "L5", 5]
)
def test_values_that_are_no_moves(move: object) -> None:
    with pytest.raises(InvalidMoveError, match="is not a move"):
        GOBBLET.initial().play(move)  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError):
        GOBBLET.move_text(move)  # type: ignore[arg-type]


# -- rule cases -------------------------------------------------------------------

# An o small under an x large on 1, o medium and small on 2 and 3: lifting the large uncovers o's row.
UNCOVER = "sL,m,s/M,.,./.,.,. x"

LEGAL_CASES = [
    # (game, position, moves, expected position text afterwards, expected status)
    ("matryoshka", "s,.,./.,S,./.,.,. x", "M5", "s,.,./.,SM,./.,.,. o", "ongoing"),  # covers its own small
    ("matryoshka", "s,.,./.,S,./.,.,. x", "M1", "sM,.,./.,S,./.,.,. o", "ongoing"),  # covers o's small
    ("matryoshka", "sm,.,./.,S,./.,M,. x", "L1", "smL,.,./.,S,./.,M,. o", "ongoing"),  # three high
    ("matryoshka", "s,s,./M,M,./.,.,. x", "L6", "s,s,./M,M,L/.,.,. o", "x-wins"),
    ("matryoshka", "S,S,m/.,.,./.,l,. x", "L3", "S,S,mL/.,.,./.,l,. o", "x-wins"),  # covering completes the line
    ("gobblet", "sL,.,./.,.,./.,.,m x", "1-5", "s,.,./.,L,./.,.,m o", "ongoing"),  # a board move uncovers
    ("gobblet", "L,.,./.,.,./.,.,m x", "1-9", ".,.,./.,.,./.,.,mL o", "ongoing"),  # a board move covers
    ("gobblet", UNCOVER, "1-6", "s,m,s/M,.,L/.,.,. o", "o-wins"),  # uncovering o's line loses
    ("gobblet", "sL,m,s/M,M,./.,.,. x", "1-6", "s,m,s/M,M,L/.,.,. o", "o-wins"),  # both lines: the mover loses
    ("gobblet", "sL,m,s/.,.,./.,.,. x", "1-2", "s,mL,s/.,.,./.,.,. o", "ongoing"),  # covers what it uncovered
    ("gobblet", "sL,m,s/.,M,./.,S,. x", "1-2", "s,mL,s/.,M,./.,S,. o", "x-wins"),  # ...and makes a line
    ("gobblet", "SL,m,./.,.,./M,.,M x", "1-5", "S,m,./.,L,./M,.,M o", "x-wins"),  # uncovers its own line
]


@pytest.mark.parametrize(("key", "position", "moves", "after", "status"), LEGAL_CASES)
def test_rule_cases(key: str, position: str, moves: str, after: str, status: str) -> None:
    state = _after(GAMES[key], position, moves)
    assert state.to_text() == after
    assert state.status == status
    if status != "ongoing":
        assert state.outcome is not None
        assert state.outcome.reason is Reason.LINE
        assert state.legal_moves() == []


ILLEGAL_CASES = [
    # (game, position, move, message)
    ("matryoshka", "s,.,./.,S,./.,.,. x", "S5", "cell 5 holds a small figure: only a strictly larger one can cover it"),
    ("matryoshka", "s,.,./.,S,./.,.,. x", "S1", "cell 1 holds a small figure: only a strictly larger one can cover it"),
    (
        "matryoshka",
        "m,.,./.,S,./.,.,. x",
        "M1",
        "cell 1 holds a medium figure: only a strictly larger one can cover it",
    ),
    ("matryoshka", "l,.,./.,S,./.,.,. x", "L1", "cell 1 holds a large figure: nothing can cover it"),
    ("matryoshka", "L,.,./.,S,./.,.,s o", "L1", "cell 1 holds a large figure: nothing can cover it"),
    ("matryoshka", "L,L,./.,.,./.,l,l x", "L5", "you have no large figures left in hand"),
    ("gobblet", "S,S,./.,.,./s,.,s x", "S5", "you have no small figures left in hand"),
    ("matryoshka", "sL,.,./.,.,./.,M,m x", "1-5", "matryoshka has no board moves: place a figure from your hand"),
    ("gobblet", "sL,.,./.,.,./.,.,m x", "2-5", "cell 2 is empty"),
    ("gobblet", "sL,.,./.,.,./.,.,m x", "9-5", "the figure on cell 9 is o's, not yours"),
    ("gobblet", "Sm,.,./.,.,./.,.,m x", "1-5", "the figure on cell 1 is o's, not yours"),  # x's small is under it
    ("gobblet", "sL,.,./.,.,./.,.,m x", "1-1", "a figure cannot go back on the cell it came from"),
    ("gobblet", "S,.,./.,.,./.,.,m x", "1-9", "cell 9 holds a medium figure: only a strictly larger one can cover it"),
    ("gobblet", "M,.,./.,.,./.,.,m x", "1-9", "cell 9 holds a medium figure: only a strictly larger one can cover it"),
    ("gobblet", "L,.,./.,.,./.,.,l x", "1-9", "cell 9 holds a large figure: nothing can cover it"),
    ("gobblet", "s,m,s/L,L,./.,.,. x", "L9", "the game is over (o wins)"),
]


@pytest.mark.parametrize(("key", "position", "move", "message"), ILLEGAL_CASES)
def test_illegal_moves(key: str, position: str, move: str, message: str) -> None:
    state = GAMES[key].parse_position(position)
    with pytest.raises(IllegalMoveError) as info:
        state.play_text(move)
    assert str(info.value) == message
    assert move.upper() not in state.legal_move_texts()


# X to move holds only a small, which fits nowhere: every cell is taken, x's own small on 9.
STUCK = "sL,l,L/M,l,m/m,M,S x"


def test_matryoshka_stalemate_when_nothing_fits() -> None:
    state = MATRYOSHKA.parse_position(STUCK)
    assert state.hand(Player.X) == {1: 1, 2: 0, 3: 0}
    assert state.outcome == Outcome(None, Reason.STALEMATE)
    assert state.legal_moves() == []
    # The same position in gobblet goes on: x can move its larges.
    assert GOBBLET.parse_position(STUCK).legal_move_texts() == (
        ["1-4", "1-6", "1-7", "1-8", "1-9", "3-4", "3-6", "3-7", "3-8", "3-9", "4-9", "8-9"]
    )


def test_matryoshka_stalemate_reached_by_a_move() -> None:
    state = _after(MATRYOSHKA, "sL,l,L/M,.,m/m,M,S o", "L5")
    assert state.to_text() == STUCK
    assert state.outcome == Outcome(None, Reason.STALEMATE)


def test_matryoshka_stalemate_when_the_hand_is_empty() -> None:
    # o puts its last figure down; x has none left.
    before = MATRYOSHKA.parse_position("sL,Sl,L/sM,l,m/.,M,S o")
    assert before.hand(Player.X) == {1: 0, 2: 0, 3: 0}
    assert before.legal_move_texts() == ["M7", "M9"]
    for move in before.legal_move_texts():
        assert before.play_text(move).outcome == Outcome(None, Reason.STALEMATE)


SHUFFLE = "1-2 9-8 2-1 8-9"


def test_threefold_repetition_is_a_draw() -> None:
    start = _after(GOBBLET, ".,.,./.,.,./.,.,. x", "L1 L9")
    twice = _after(GOBBLET, start.to_text(), SHUFFLE)
    assert twice == start
    assert twice.status == "ongoing"
    state = start
    for move in (SHUFFLE + " " + SHUFFLE).split():
        assert state.status == "ongoing"
        state = state.play_text(move)
    assert state == start
    assert state.outcome == Outcome(None, Reason.REPETITION)


def test_a_placement_starts_the_repetition_count_afresh() -> None:
    state = _after(GOBBLET, ".,.,./.,.,./.,.,. x", f"L1 L9 {SHUFFLE} 1-2 9-8 2-1")
    assert state.play_text("8-9").outcome == Outcome(None, Reason.REPETITION)
    assert state.repetitions == 1
    state = state.play_text("S5")
    assert len(state.history) == 1
    assert state.repetitions == 0
    back = "1-2 8-9 2-1 9-8"
    again = _after(GOBBLET, state.to_text(), f"{back} {back[:11]}")
    assert again.status == "ongoing"
    assert again.play_text("9-8").outcome == Outcome(None, Reason.REPETITION)


# -- positions --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "position", "status", "reason"),
    [
        ("gobblet", ".,.,./.,.,./.,.,. x", "ongoing", None),
        ("gobblet", "S,M,S/.,.,./m,m,. o", "x-wins", Reason.LINE),  # the mover made a line
        ("gobblet", "s,m,s/.,L,./.,.,. o", "o-wins", Reason.LINE),  # x uncovered o's line
        ("gobblet", "s,m,s/L,M,L/.,.,. o", "o-wins", Reason.LINE),  # both: x moved last and loses
        ("matryoshka", "S,M,S/.,.,./m,m,. o", "x-wins", Reason.LINE),
        ("matryoshka", STUCK, "draw", Reason.STALEMATE),
    ],
)
def test_position_outcomes(key: str, position: str, status: str, reason: Reason | None) -> None:
    state = GAMES[key].parse_position(position)
    assert state.status == status
    assert (state.outcome and state.outcome.reason) == reason


@pytest.mark.parametrize(
    ("key", "position", "message"),
    [
        ("gobblet", "", "a gobblet position is 'ROWS TURN'"),
        ("gobblet", ".,.,./.,.,./.,.,.", "a gobblet position is 'ROWS TURN'"),
        ("gobblet", ".,.,./.,.,./.,.,. x extra", "a gobblet position is 'ROWS TURN'"),
        ("gobblet", ".,.,./.,.,. x", "3 rows of 3 cells"),
        ("gobblet", ".,.,./.,.,./.,. x", "3 rows of 3 cells"),
        ("gobblet", ".,.,.,./.,.,./.,. x", "3 rows of 3 cells"),
        ("gobblet", ".,.,./.,,./.,.,. x", "3 rows of 3 cells"),
        ("gobblet", "..,.,./.,.,./.,.,. x", "'.' is not a figure"),
        ("gobblet", "x,.,./.,.,./.,.,. x", "'x' is not a figure"),
        ("gobblet", ".,.,./.,.,./.,.,. z", "is not a player"),
        ("gobblet", "Ls,.,./.,.,./.,.,. x", "cell 1 reads 'Ls': a stack is written bottom to top"),
        ("gobblet", "Ss,.,./.,.,./.,.,. x", "cell 1 reads 'Ss'"),
        ("gobblet", "L,M,L/.,.,./.,.,. o", None),  # fine: x won
        ("gobblet", "L,L,./L,.,./.,.,. o", "x has more than 2 large figures"),
        ("gobblet", "s,s,./.,.,./.,.,s x", "o has more than 2 small figures"),
        ("matryoshka", "L,.,./.,.,./.,.,. x", "x has as many figures on the board as o (o to move: one more)"),
        ("matryoshka", "L,.,./.,.,./.,.,l o", "x has as many figures on the board as o"),
        ("matryoshka", "S,M,S/l,m,./.,.,l x", "the player to move cannot have a line"),
        ("matryoshka", "S,M,S/l,m,l/.,.,. x", "the player to move cannot have a line"),
    ],
)
def test_invalid_positions(key: str, position: str, message: str | None) -> None:
    if message is None:
        GAMES[key].parse_position(position)
        return
    with pytest.raises(InvalidPositionError) as info:
        GAMES[key].parse_position(position)
    assert message in str(info.value)


def test_helpers_and_diagram() -> None:
    state = GOBBLET.parse_position("sM,.,./.,smL,./.,.,. o")
    assert state.stack(0) == [(Player.O, 1), (Player.X, 2)]
    assert state.stack(4) == [(Player.O, 1), (Player.O, 2), (Player.X, 3)]
    assert state.stack(1) == []
    assert state.top(4) == (Player.X, 3)
    assert state.top(1) is None
    assert state.hand(Player.X) == {1: 2, 2: 1, 3: 1}
    assert state.hand(Player.O) == {1: 0, 2: 1, 3: 2}
    assert state.x_tops == 0b10001
    assert state.o_tops == 0
    assert state.diagram().splitlines() == [
        " XM+1 |  2   |  3",
        "------+------+------",
        "  4   | XL+2 |  6",
        "------+------+------",
        "  7   |  8   |  9",
        "x in hand: 1 large, 1 medium, 2 small",
        "o in hand: 2 large, 1 medium, 0 small",
    ]


def test_legal_moves_in_text_order() -> None:
    state = _after(GOBBLET, ".,.,./.,.,./.,.,. x", "L5 S1")
    texts = state.legal_move_texts()
    assert texts == sorted(texts)
    assert texts[:9] == ["5-1", "5-2", "5-3", "5-4", "5-6", "5-7", "5-8", "5-9", "L1"]


TABLE_POSITIONS = sorted(
    {(key, position) for key, position, *_ in LEGAL_CASES + ILLEGAL_CASES} | {("gobblet", STUCK), ("matryoshka", STUCK)}
)


@pytest.mark.parametrize(("key", "position"), TABLE_POSITIONS)
def test_table_positions_against_the_reference(key: str, position: str) -> None:
    state = GAMES[key].parse_position(position)
    mirror = ref.from_text(position, state.game.moves)
    assert sorted(state.legal_move_texts()) == sorted(mirror.legal())
    assert state.status == (mirror.result or "ongoing")
    for move in mirror.legal():
        assert state.play_text(move).status == (mirror.play(move).result or "ongoing"), move


# -- random playouts --------------------------------------------------------------


def _playout(game: Gobblet, seed: int, max_plies: int = 200) -> list[GobbletState]:
    rng = random.Random(seed)
    states = [game.initial()]
    while not states[-1].is_over and len(states) <= max_plies:
        states.append(states[-1].play(rng.choice(states[-1].legal_moves())))
    return states


@pytest.mark.parametrize("key", ["gobblet", "matryoshka"])
def test_text_round_trips_over_random_playouts(key: str) -> None:
    game = GAMES[key]
    for seed in range(100):
        for state in _playout(game, seed):
            text = state.to_text()
            again = game.parse_position(text)
            assert again == state
            assert hash(again) == hash(state)
            assert again.to_text() == text
            if state.outcome is None or state.outcome.reason is not Reason.REPETITION:
                assert again.outcome == state.outcome  # repetition needs the history
            for move in state.legal_moves():
                assert game.parse_move(game.move_text(move)) == move
                assert game.parse_move(game.move_text(move).lower()) == move


def _differential(game: Gobblet, seed: int, prefer_board_moves: bool) -> str:
    """Plays one random game with both implementations, comparing every ply; returns the
    final status."""
    rng = random.Random(seed)
    state = game.initial()
    mirror = ref.new_game(game.moves)
    for _ in range(300):
        assert sorted(state.legal_move_texts()) == sorted(mirror.legal()), state.to_text()
        assert state.status == (mirror.result or "ongoing"), state.to_text()
        assert state.to_text() == mirror.text()
        if state.is_over:
            return state.status
        moves = state.legal_move_texts()
        shifts = [m for m in moves if "-" in m]
        move = rng.choice(shifts if prefer_board_moves and shifts and rng.random() < 0.9 else moves)
        state, mirror = state.play_text(move), mirror.play(move)
    raise AssertionError("a random game ran for 300 plies")


@pytest.mark.parametrize(
    ("key", "prefer_board_moves", "endings"),
    [
        ("matryoshka", False, {"x-wins", "o-wins", "draw"}),
        ("gobblet", False, {"x-wins", "o-wins"}),
        # Mostly board moves: long games that also end in repetitions (6 s: the slow run).
        pytest.param("gobblet", True, {"x-wins", "o-wins", "draw"}, marks=pytest.mark.slow),
    ],
)
def test_against_the_reference(key: str, prefer_board_moves: bool, endings: set[str]) -> None:
    results = [_differential(GAMES[key], seed, prefer_board_moves) for seed in range(300)]
    assert set(results) == endings


def test_a_text_that_is_no_move_gets_the_forms_of_its_game() -> None:
    with pytest.raises(InvalidMoveError, match=r"place a figure like L5 \(.*\) or move one of yours like 3-5$"):
        GOBBLET.parse_move("Z9")
    # Matryoshka is placement only: no board moves offered.
    with pytest.raises(InvalidMoveError, match=r"place a figure like L5 \(size S, M or L, then cell 1-9\)$"):
        parse_spec("matryoshka").parse_move("Z9")
