"""Rule edges of ultimate and nine-board (with Forget mode), as tables, and a move-by-move
comparison with the naive implementation in tests/reference/ultimate_ref.py."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from noughts import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    Outcome,
    Player,
    Reason,
    parse_spec,
)
from noughts.games.ultimate import Ultimate, UltimateState
from noughts.perft import perft

from support import load_file, sampled


def _load_reference() -> ModuleType:
    return load_file("ultimate_ref", Path(__file__).resolve().parents[1] / "reference" / "ultimate_ref.py")


ref = _load_reference()


def position(boards: dict[int, str], rest: str) -> str:
    """A position text from the non-empty local boards (numbered 1-9) and the rest."""
    return "/".join(boards.get(b, ".........") for b in range(1, 10)) + " " + rest


def state_of(spec: str, start: str, moves: str = "") -> UltimateState:
    """`start` is a position text, or "" for the initial position."""
    game = parse_spec(spec)
    assert isinstance(game, Ultimate)
    state = game.parse_position(start) if start else game.initial()
    for move in moves.split():
        state = state.play_text(move)
    return state


# Boards full without a line: x o x / x o x / o x o and the same with the colours swapped.
FULL_5X = "xoxxoxoxo"
FULL_5O = "oxooxoxox"
WON_X_1 = {1: "xxxoo...."}  # x has the top row of board 1; o to move next
DRAWN_1 = {1: FULL_5X}
# Boards 1-8 full without lines, board 9 one empty cell from full; x to move in board 9.
ALMOST_FULL = {**{b: FULL_5X for b in range(1, 5)}, **{b: FULL_5O for b in range(5, 9)}, 9: "oxo.xoxox"}
# x has won boards 1 and 2 and needs cell 3 of board 3 for the third in the top row.
TOP_ROW_THREAT = {1: "xxx......", 2: "xxx......", 3: "xx.......", 4: "oo.o.o...", 5: "oo.o.....", 6: "..o......"}


# -- counts ---------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["ultimate", "nine-board"])
@pytest.mark.parametrize(("depth", "count"), [(1, 81), (2, 720), (3, 6336), (4, 55080)])
def test_perft(spec: str, depth: int, count: int) -> None:
    assert perft(parse_spec(spec).initial(), depth) == count


# -- where the player to move may play --------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "start", "moves", "boards", "count"),
    [
        ("ultimate", "", "", list(range(1, 10)), 81),
        ("ultimate", "", "53", [3], 9),
        ("ultimate", "", "55", [5], 8),
        # sent to a won board: any undecided board
        ("ultimate", position(WON_X_1, "o -"), "", list(range(2, 10)), 72),
        ("ultimate", "", "12 21 13 31 11", list(range(2, 10)), 70),
        # sent to a drawn (full) board: any undecided board
        ("ultimate", position(DRAWN_1, "o -"), "", list(range(2, 10)), 72),
        # a won board with empty cells stays closed in ultimate...
        ("ultimate", position(WON_X_1, "o -"), "21", list(range(2, 10)), 71),
        # ...and nine-board only closes full boards
        ("nine-board", position(DRAWN_1, "o -"), "", list(range(2, 10)), 72),
        ("nine-board", position(DRAWN_1, "o -"), "21", list(range(2, 10)), 71),
        ("nine-board", position(DRAWN_1, "o -"), "22", [2], 8),
    ],
)
def test_playable_boards(spec: str, start: str, moves: str, boards: list[int], count: int) -> None:
    state = state_of(spec, start, moves)
    assert [b + 1 for b in state.playable_boards()] == boards
    assert len(state.legal_moves()) == count
    assert {m // 9 + 1 for m in state.legal_moves()} == set(boards)
    assert state.to_text().split()[2] == (str(boards[0]) if len(boards) == 1 else "-")


@pytest.mark.parametrize(
    ("spec", "start", "moves", "text", "error", "message"),
    [
        ("ultimate", "", "53", "41", IllegalMoveError, "you must play in board 3"),
        ("ultimate", "", "55", "55", IllegalMoveError, "cell 55 is taken"),
        (
            "ultimate",
            position(WON_X_1, "o -"),
            "",
            "16",
            IllegalMoveError,
            "board 1 is already decided (won by x); you may play in any undecided board",
        ),
        (
            "ultimate",
            position(DRAWN_1, "o -"),
            "",
            "11",
            IllegalMoveError,
            "board 1 is already decided (drawn); you may play in any undecided board",
        ),
        (
            "ultimate",
            position({**WON_X_1, 3: ".x.......", 5: "o........"}, "o 2"),
            "",
            "16",
            IllegalMoveError,
            "board 1 is already decided (won by x); you must play in board 2",
        ),
        (
            "nine-board",
            position(DRAWN_1, "o -"),
            "",
            "11",
            IllegalMoveError,
            "board 1 is full; you may play in any board with an empty cell",
        ),
        (
            "nine-board",
            position({**DRAWN_1, 3: ".x.......", 5: "o........"}, "o 2"),
            "",
            "11",
            IllegalMoveError,
            "board 1 is full; you must play in board 2",
        ),
        ("nine-board", "", "12 21 13 31 11", "22", IllegalMoveError, "the game is over (x wins)"),
        ("ultimate:forget=true", "", "11 15 51 12 21 13 31", "15", IllegalMoveError, "cell 15 is taken"),
        ("ultimate", "", "", "0", InvalidMoveError, "like 53"),
        ("ultimate", "", "", "10", InvalidMoveError, "not a move"),
        ("ultimate", "", "", "5", InvalidMoveError, "not a move"),
        ("ultimate", "", "", "533", InvalidMoveError, "not a move"),
        ("nine-board", "", "", "e5", InvalidMoveError, "each 1-9 in reading order"),
    ],
)
def test_refusals(spec: str, start: str, moves: str, text: str, error: type[Exception], message: str) -> None:
    state = state_of(spec, start, moves)
    before = state.to_text()
    with pytest.raises(error) as caught:
        state.play_text(text)
    assert message in str(caught.value)
    assert state.to_text() == before


@pytest.mark.parametrize("move", [81, -1, True, "53", 5.0, None])
def test_move_values_that_are_no_move(move: Any) -> None:
    with pytest.raises(InvalidMoveError):
        Ultimate().initial().play(move)


@pytest.mark.parametrize(
    ("text", "move"), [("53", 38), (" 53 ", 38), ("5 3", 38), ("5-3", 38), ("5.3", 38), ("11", 0), ("99", 80)]
)
def test_move_notation(text: str, move: int) -> None:
    game = Ultimate()
    assert game.parse_move(text) == move
    assert game.parse_move(game.move_text(move)) == move


# -- how games end ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "start", "moves", "status", "reason"),
    [
        # three in a line in one local board: the whole game in nine-board, one board in ultimate
        ("nine-board", "", "12 21 13 31 11", "x-wins", Reason.LINE),
        ("ultimate", "", "12 21 13 31 11", "ongoing", None),
        ("ultimate", position(TOP_ROW_THREAT, "x 3"), "", "ongoing", None),
        ("ultimate", position(TOP_ROW_THREAT, "x 3"), "33", "x-wins", Reason.LINE),
        ("ultimate", position(TOP_ROW_THREAT, "x 3"), "34", "ongoing", None),
        # the last open board fills up: no line of won boards, a draw
        ("ultimate", position(ALMOST_FULL, "x 9"), "94", "draw", Reason.FULL),
        ("nine-board", position(ALMOST_FULL, "x 9"), "94", "draw", Reason.FULL),
        ("ultimate:tiebreak=boards", position(ALMOST_FULL, "x 9"), "94", "draw", Reason.FULL),
        # the tie-break counts won local boards
        ("ultimate:tiebreak=boards", position({**ALMOST_FULL, 1: "xxxooxxoo"}, "x 9"), "94", "x-wins", Reason.BOARDS),
        ("ultimate", position({**ALMOST_FULL, 1: "xxxooxxoo"}, "x 9"), "94", "draw", Reason.FULL),
        (
            "ultimate:tiebreak=boards",
            position({**ALMOST_FULL, 1: "xxxooxxoo", 5: "oooxxoxxo"}, "x 9"),
            "94",
            "draw",
            Reason.FULL,
        ),
        (
            "ultimate:tiebreak=boards",
            position({**ALMOST_FULL, 5: "oooxxoxxo"}, "x 9"),
            "94",
            "o-wins",
            Reason.BOARDS,
        ),
    ],
)
def test_results(spec: str, start: str, moves: str, status: str, reason: Reason | None) -> None:
    state = state_of(spec, start, moves)
    assert state.status == status
    assert (state.outcome and state.outcome.reason) == reason
    assert (state.legal_moves() == []) == state.is_over


def test_decided_boards() -> None:
    state = state_of("ultimate", position({**ALMOST_FULL, 1: "xxxooxxoo", 5: "oooxxoxxo"}, "x 9"), "94")
    assert state.board_outcome(0) == Outcome(Player.X)
    assert state.board_outcome(4) == Outcome(Player.O)
    assert state.board_outcome(8) == Outcome(None, Reason.FULL)
    assert state_of("ultimate", "", "55").board_outcome(4) is None


# -- Forget mode ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "board5", "ages", "move", "after", "status", "won"),
    [
        # the oldest mark of x in board 5 goes; the one in board 1 stays
        ("ultimate", "x.x....x.", "51,53,58", "54", "x=11,53,58,54", "ongoing", None),
        # lines are checked after the removal: 51 goes, so 52-53 do not make a row with it
        ("ultimate", "xx......x", "51,52,59", "53", "x=11,52,59,53", "ongoing", None),
        ("ultimate", "xx.x.....", "54,51,52", "53", "x=11,51,52,53", "ongoing", Player.X),
        ("nine-board", "xx.x.....", "54,51,52", "53", "x=11,51,52,53", "x-wins", Player.X),
        # with keep=4 nothing goes yet
        ("ultimate:keep=4", "x.x....x.", "51,53,58", "54", "x=11,51,53,58,54", "ongoing", None),
    ],
)
def test_forget_removes_the_oldest_mark_of_that_board(
    spec: str, board5: str, ages: str, move: str, after: str, status: str, won: Player | None
) -> None:
    text = position({1: "x........", 2: "....o....", 5: board5}, f"x 5 x=11,{ages} o=25")
    state = state_of(spec + ":forget=true", text, move)
    assert state.to_text().split()[3] == after
    assert state.status == status
    board = state.board_outcome(4)
    assert (board.winner if board else None) == won


def test_forget_boards_never_fill() -> None:
    state = parse_spec("ultimate:forget=true").initial()
    rng = random.Random(7)
    for _ in range(300):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
        assert all(((state.x | state.o) >> (9 * b)) & 0x1FF != 0x1FF for b in range(9))
        assert state.drawn == 0


# Four corner boards decided, so a move on a corner cell leaves the opponent a free choice:
# x cycles through the corners of board 5 and o through those of board 2.
CYCLE = position(
    {1: "xxx......", 2: "o.o...o..", 3: "ooo......", 5: "x.x...x..", 7: "ooo......", 9: "xxx......"},
    "x - x=11,12,13,51,53,57,91,92,93 o=21,23,27,31,32,33,71,72,73",
)


def test_forget_repetition_with_free_choices() -> None:
    state = state_of("ultimate:forget=true", CYCLE)
    first = state
    for ply, move in enumerate(["59", "29", "51", "21", "53", "23", "57", "27"] * 2, start=1):
        assert not state.is_over
        state = state.play_text(move)
        assert (state == first) == (ply % 8 == 0)
    assert state.outcome == Outcome(None, Reason.REPETITION)
    # read from text, the position has no history: the game goes on
    assert not state.game.parse_position(state.to_text()).is_over


def endless_schedule() -> list[int]:
    """32 plies that repeat forever: x plays on edge cells of corner boards, o on corner
    cells of edge boards, each visiting its four cells of every board in turn, so no line
    ever forms and every mark is gone again by the time its cell is wanted."""
    corners, edges = (0, 2, 6, 8), (1, 3, 5, 7)
    moves = []
    for i in range(16):
        edge = edges[(i + i // 4) % 4]
        moves += [corners[i % 4] * 9 + edge, edge * 9 + corners[(i + 1) % 4]]
    return moves


@pytest.mark.parametrize("spec", ["ultimate:forget=true", "nine-board:forget=true"])
def test_forget_threefold_repetition(spec: str) -> None:
    state = state_of(spec, "")
    seen = [state]
    for move in endless_schedule() * 3:
        state = state.play(move)
        assert state.repetitions == seen.count(state)  # what the encoding's planes show
        if seen.count(state) == 2:
            break
        assert not state.is_over
        seen.append(state)
    assert state.outcome == Outcome(None, Reason.REPETITION)
    assert len(seen) < 3 * 32


# -- position text ----------------------------------------------------------------------

SPECS = [
    "ultimate",
    "nine-board",
    "ultimate:tiebreak=boards",
    "ultimate:forget=true",
    "nine-board:forget=true",
    "ultimate:forget=true:keep=4",
    "ultimate:forget=true:keep=5",
]


def playout(spec: str, seed: int, max_plies: int = 300) -> list[UltimateState]:
    rng = random.Random(seed)
    state = state_of(spec, "")
    states = [state]
    while not state.is_over and len(states) <= max_plies:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


@pytest.mark.parametrize("spec", sampled(SPECS, 3, also=("nine-board",)))
def test_position_text_round_trip(spec: str) -> None:
    game = parse_spec(spec)
    for seed in range(40):
        for state in playout(spec, seed):
            text = state.to_text()
            back = game.parse_position(text)
            assert back == state
            assert back.to_text() == text
            assert (back.forced, back.won_x, back.won_o, back.drawn) == (
                state.forced,
                state.won_x,
                state.won_o,
                state.drawn,
            )
            if state.outcome is None or state.outcome.reason is not Reason.REPETITION:
                assert back.outcome == state.outcome
                assert back.legal_moves() == state.legal_moves()


@pytest.mark.parametrize(
    ("spec", "text", "message"),
    [
        (
            "ultimate",
            "........./........./........./........./........./........./........./........./......... x",
            "BOARDS TURN BOARD",
        ),
        ("ultimate", "........./........ x -", "9 local boards of 9 cells"),
        ("ultimate", position({1: "x...q...."}, "o 1"), "'q' is not a cell"),
        ("ultimate", position({}, "z -"), "not a player"),
        ("ultimate", position({}, "x 0"), "a digit 1-9"),
        ("ultimate", position({1: "x........"}, "x 1"), "x moves first"),
        ("ultimate", position({1: "xo......."}, "o 1"), "x moves first"),
        ("ultimate", position({}, "x 5"), "write - for the board"),
        ("ultimate", position({1: "x........"}, "o -"), "give the board they must play in"),
        ("ultimate", position({1: "x........"}, "o 2"), "no x mark on cell 2"),
        ("ultimate", position(WON_X_1, "o 1"), "board 1 is decided"),
        ("nine-board", position(DRAWN_1, "o 1"), "board 1 is full"),
        ("ultimate", position({1: "xxxooo...", 2: "x........"}, "o -"), "board 1 has a line for both players"),
        ("nine-board", position({1: "xxx......", 2: "ooo......", 3: "x........"}, "o -"), "only one local board"),
        ("nine-board", position({1: "xxxoo....", 2: "o........"}, "x 1"), "player to move cannot already have a line"),
        ("ultimate", position({**TOP_ROW_THREAT, 3: "xxx......", 7: "o........"}, "x -"), "cannot already have a line"),
        ("ultimate:forget=true", position({}, "x -"), "BOARDS TURN BOARD x=MOVES o=MOVES"),
        ("ultimate:forget=true", position({1: "x........"}, "o 1 x=12 o=-"), "exactly the x marks"),
        ("ultimate:forget=true", position({1: "x........"}, "o 1 x=11 y=-"), "expected o=MOVES"),
        ("ultimate:forget=true", position({1: "x........"}, "o 1 x=1 o=-"), "not a move"),
        ("ultimate:forget=true", position({1: "x", 2: "x........"}, "o 1 x=21,11 o=-"), "9 local boards"),
        ("ultimate:forget=true", position({1: "x........", 2: "x........"}, "o 1 x=21,11 o=-"), "board by board"),
        (
            "ultimate:forget=true",
            position({1: "xx.x.x...", 2: "oo.o.o..."}, "x - x=11,12,14,16 o=21,22,24,26"),
            "more than keep=3 marks in board 1",
        ),
        ("ultimate:forget=true", position({1: "o........"}, "x 1 x=- o=11"), "x moves first"),
        ("ultimate:forget=true", position({1: "x........"}, "x 1 x=11 o=-"), "x moves first"),
        # in Forget mode only the newest mark of a board can have sent the player on
        ("ultimate:forget=true", position({1: "xx.......", 3: "o........"}, "o 1 x=11,12 o=31"), "no x mark on cell 1"),
    ],
)
def test_invalid_positions(spec: str, text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError) as caught:
        parse_spec(spec).parse_position(text)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rule": "mega"}, "option rule takes ultimate or nine-board"),
        ({"forget": "yes"}, "option forget takes true or false"),
        ({"keep": 4}, "keep only applies in Forget mode"),
        ({"forget": True, "keep": 2}, "keep must be at least 3"),
        ({"forget": True, "keep": "4"}, "option keep takes a whole number"),
        ({"tiebreak": "coin"}, "option tiebreak takes none or boards"),
        ({"rule": "nine-board", "tiebreak": "boards"}, "tiebreak only applies to ultimate"),
    ],
)
def test_invalid_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        Ultimate(**options)


@pytest.mark.parametrize(
    ("spec", "key", "text"),
    [
        ("ultimate", "ultimate", "ultimate"),
        ("nine-board", "nine-board", "nine-board"),
        ("ultimate forget=true keep=4", "ultimate", "ultimate:forget=true:keep=4"),
        ("ultimate:tiebreak=boards", "ultimate", "ultimate:tiebreak=boards"),
        ("nine-board:forget", "nine-board", "nine-board:forget=true"),
    ],
)
def test_registry_keys(spec: str, key: str, text: str) -> None:
    game = parse_spec(spec)
    assert game.key == key
    assert game.spec == text
    assert parse_spec(game.spec) == game


# -- the diagram ------------------------------------------------------------------------


def test_diagram_marks_playable_and_decided_boards() -> None:
    state = state_of("ultimate", position({**ALMOST_FULL, 1: "xxxoo.xoo", 9: "oxo.x.xox"}, "x 9"))
    lines = state.diagram().splitlines()
    assert len(lines) == 12
    assert all(len(line) <= 80 for line in lines)
    assert lines[0].startswith(" \\   / ")  # board 1 won by x
    assert "drawn" in lines[1]
    assert lines[8].endswith("[O X O]")  # board 9, the only playable one
    assert lines[-1] == "x to move in board 9 (bottom-right)"
    free = state_of("ultimate", position(WON_X_1, "o -")).diagram().splitlines()
    assert free[0].count("[") == 2 and free[4].count("[") == 3
    assert free[-1] == "o to move in any [bracketed] board"


def test_nine_board_diagram_shows_the_cells_of_full_boards() -> None:
    lines = state_of("nine-board", "", "12 21 13 31 11").diagram().splitlines()
    assert lines[0].startswith(" X X X ")
    assert lines[-1] == "x wins"


# -- the naive reference ----------------------------------------------------------------

REFERENCE = [
    ("ultimate", {"rule": "ultimate"}),
    ("nine-board", {"rule": "nine-board"}),
    ("ultimate:tiebreak=boards", {"rule": "ultimate", "tiebreak": True}),
    ("ultimate:forget=true", {"rule": "ultimate", "keep": 3}),
    ("nine-board:forget=true", {"rule": "nine-board", "keep": 3}),
    ("ultimate:forget=true:keep=5", {"rule": "ultimate", "keep": 5}),
]


def as_result(outcome: Outcome | None) -> tuple[str | None, str] | None:
    """An outcome as the reference writes it."""
    return None if outcome is None else (outcome.winner and outcome.winner.value, outcome.reason.value)


# make test: ultimate, nine-board and Forget mode; every variant in make test-slow.
@pytest.mark.parametrize(("spec", "ref_options"), sampled(REFERENCE, 3, also=(REFERENCE[1],)))
def test_matches_reference(spec: str, ref_options: dict[str, Any]) -> None:
    for seed in range(150):
        rng = random.Random(seed)
        state = state_of(spec, "")
        naive = ref.RefUltimate(**ref_options)
        for _ in range(300):
            assert naive.result() == as_result(state.outcome), (seed, state.to_text())
            moves = state.legal_moves()
            assert moves == naive.legal_moves(), (seed, state.to_text())
            if not moves:
                break
            move = rng.choice(moves)
            state = state.play(move)
            naive.play(move)


@pytest.mark.parametrize(("spec", "ref_options"), [r for r in REFERENCE if r[1].get("keep") == 3])
def test_repetition_matches_reference(spec: str, ref_options: dict[str, Any]) -> None:
    # random playouts never repeat a position three times; this schedule does
    state = state_of(spec, "")
    naive = ref.RefUltimate(**ref_options)
    for move in endless_schedule() * 3:
        state = state.play(move)
        naive.play(move)
        assert naive.result() == as_result(state.outcome)
        assert naive.legal_moves() == state.legal_moves()
        if state.is_over:
            break
    assert state.outcome == Outcome(None, Reason.REPETITION)
