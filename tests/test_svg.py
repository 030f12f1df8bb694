"""noughts.svg: every game's positions drawn as SVG, valid XML with a title, and a
state's _repr_svg_ for notebooks."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

import toy_game
from noughts import InvalidMoveError, InvalidOptionError, parse_position, parse_spec
from noughts.svg import COLORS, board

from support import SPECS, playout

SVG = "{http://www.w3.org/2000/svg}"


def parsed(drawing: str) -> ET.Element:
    root = ET.fromstring(drawing)
    assert root.tag == f"{SVG}svg"
    return root


@pytest.mark.parametrize("spec", SPECS)
def test_every_game_draws_every_stage_of_a_game_as_valid_svg(spec: str) -> None:
    steps = playout(spec, seed=3, max_plies=60)
    for (state, _), (_, last) in zip(steps[1:], steps[:-1], strict=True):
        root = parsed(board(state, lastmove=last))
        title = root.find(f"{SVG}title")
        assert title is not None and title.text is not None and title.text.startswith(state.game.variant.name)
        desc = root.find(f"{SVG}desc")
        assert desc is not None and desc.text == f"{state.game.spec} {state.to_text()}"
    final = steps[-1][0]
    assert final._repr_svg_() == board(final)


def test_the_title_says_whose_turn_or_the_result() -> None:
    state = parse_spec("classic").initial()
    for move in ["1", "4", "2", "5", "3"]:
        state = state.play_text(move)
    assert parsed(board(state)).findtext(f"{SVG}title") == "Tic-tac-toe: x wins"
    assert parsed(board(parse_spec("connect4").initial())).findtext(f"{SVG}title") == "Connect Four: x to move"


def test_size_sets_the_width_and_keeps_the_shape() -> None:
    root = parsed(board(parse_spec("qubic").initial(), size=400))
    _, _, width, height = (float(v) for v in root.attrib["viewBox"].split())
    assert float(root.attrib["width"]) == 400
    assert float(root.attrib["height"]) == pytest.approx(400 * height / width, abs=0.01)


def test_the_winning_line_and_the_last_move_are_coloured() -> None:
    state = parse_spec("classic").initial()
    for move in ["1", "4", "2", "5"]:
        state = state.play_text(move)
    last = state.game.parse_move("3")
    won = state.play(last)
    assert board(won).count(f'fill="{COLORS["win"]}"') == 3
    assert board(state.play_text("9"), lastmove=8).count(f'fill="{COLORS["lastmove"]}"') == 1


def test_marks_and_figures_are_drawn_in_the_sites_colours() -> None:
    state = parse_position("classic", "xo./.../... x")
    drawing = board(state)
    assert drawing.count(f'stroke="{COLORS["x"]}"') == 1 and drawing.count(f'stroke="{COLORS["o"]}"') == 1
    gobblet = parse_position("gobblet", ".,sL,./M,.,./.,.,l x")
    root = parsed(board(gobblet))
    figures = [g.attrib["class"] for g in root.iter(f"{SVG}g") if g.attrib.get("class", "").startswith("figure ")]
    # On the board: X's large over o's small, X's medium, o's large; in hand, the rest.
    assert figures.count("figure figure-x-3") == 2 and figures.count("figure figure-o-3") == 2


def test_qubic_draws_its_layers_side_by_side_and_ultimate_its_nine_boards() -> None:
    root = parsed(board(parse_spec("qubic").initial()))
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert labels == ["layer 1", "layer 2", "layer 3", "layer 4"]
    assert len([r for r in root.iter(f"{SVG}rect")]) == 4 * (1 + 16)
    state = parse_spec("ultimate").initial().play_text("53")
    drawing = board(state)
    assert drawing.count(f'stroke="{COLORS["playable"]}"') == 1  # o is sent to board 3


def test_colours_and_texts_are_escaped() -> None:
    state = parse_spec("classic").initial().play_text("5")
    drawing = board(state, colors={"x": '"><script>alert(1)</script>'})
    parsed(drawing)
    assert "<script>" not in drawing


def test_a_game_nothing_draws_is_its_text_diagram() -> None:
    with toy_game.registered():
        state: Any = parse_spec(toy_game.KEY).initial()
        state = state.play(state.legal_moves()[0])
        root = parsed(board(state))
        lines = [t.text for t in root.iter(f"{SVG}text")]
        assert "\n".join(line or "" for line in lines) == state.diagram()


def test_the_last_move_marks_the_cells_it_played() -> None:
    lit = f'fill="{COLORS["lastmove"]}"'
    connect4 = parse_spec("connect4").initial().play_text("4").play_text("4")
    root = parsed(board(connect4, lastmove=3))  # the column: its top mark, on the fifth row
    cells = [r for r in root.iter(f"{SVG}rect") if r.attrib.get("fill") == COLORS["lastmove"]]
    assert len(cells) == 1 and float(cells[0].attrib["y"]) == 44 + 4 + 4 * 104
    gobblet = parse_spec("gobblet").initial().play_text("L1").play_text("S9")
    shifted = gobblet.play_text("1-5")
    assert board(shifted, lastmove=shifted.game.parse_move("1-5")).count(lit) == 2
    assert board(shifted).count(lit) == 0


def test_the_last_move_may_be_its_text_and_a_size_is_a_width() -> None:
    state = parse_spec("ultimate").initial().play_text("53")
    assert board(state, lastmove="53") == board(state, lastmove=state.game.parse_move("53"))
    with pytest.raises(InvalidMoveError):
        board(state, lastmove="0")
    for size in (0, -5, True, "200"):
        with pytest.raises(InvalidOptionError, match="size is a width in pixels"):
            board(state, size=size)  # type: ignore[arg-type]
