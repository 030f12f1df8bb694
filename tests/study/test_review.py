"""The post-game review: planted blunders found where they are and nowhere on the forced
moves after them, perfect play all best, the graph equal to the analyses, JSON and the
command."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from noughts import parse_spec
from noughts.ai import Limits, make_player
from noughts.ai.base import AIPlayer, Analysis, MoveInfo, Value, parse_player, win_chance
from noughts.ai.levels import level_player
from noughts.cli import main
from noughts.core import Player, State
from noughts.records import GameRecord
from noughts.study import Judgement, judge_move, move_accuracy, review_game, review_record
from noughts.study.review import Review
from noughts.terminal.reviewing import print_review, review_figure

#: A game of each shape, and a reviewer for it that answers quickly.
PLANTED = {
    "classic": "perfect",
    "classic:forget": "perfect",
    "mnk:m=7:n=7:k=4": "alphabeta:depth=2",
    "mnk:m=15:n=15:k=5": "alphabeta:depth=1",
    "nine-board": "alphabeta:depth=2",
    "ultimate": "kalphabeta:depth=3",
    "qubic": "kalphabeta:depth=2",
    "matryoshka": "alphabeta:depth=2",
    "gobblet": "alphabeta:depth=2",
}


def _wins_now(state: State[Any]) -> list[Any]:
    return [m for m in state.legal_moves() if (o := state.play(m).outcome) and o.winner is state.turn]


def _planted(spec: str, seed: int = 3) -> tuple[list[State[Any]], list[str]]:
    """A random game up to a position where the mover can win at once, then the blunder:
    a move that lets the opponent win at once instead (a win thrown away and a forced
    loss walked into), then the opponent's win. The game starts two plies before the
    blunder, so that the move before it is reviewed too."""
    game = parse_spec(spec)
    rng = random.Random(seed)
    for _ in range(500):
        states = [game.initial()]
        moves: list[Any] = []
        while not states[-1].is_over:
            state = states[-1]
            if _wins_now(state) and len(states) > 2:
                losing = [m for m in state.legal_moves() if not state.play(m).is_over and _wins_now(state.play(m))]
                if losing:
                    blunder = rng.choice(losing)
                    reply = _wins_now(state.play(blunder))[0]
                    tail = [*moves[-2:], blunder, reply]
                    start = states[-3]
                    played = [start]
                    for move in tail:
                        played.append(played[-1].play(move))
                    return played, [game.move_text(m) for m in tail]
            move = rng.choice(state.legal_moves())
            moves.append(move)
            states.append(state.play(move))
    raise AssertionError(f"no position with a win in one and a losing alternative in {spec}")


@pytest.mark.parametrize("spec", PLANTED)
def test_a_planted_blunder_is_a_blunder_and_the_forced_win_after_it_is_best(spec: str) -> None:
    states, moves = _planted(spec)
    review = review_game(states, moves, parse_player(PLANTED[spec]), Limits(time=5))
    blunder, reply = review.moves[2], review.moves[3]
    assert blunder.judgement is Judgement.BLUNDER, blunder
    assert blunder.value_before.kind.value == "win"  # the win in one it threw away
    assert blunder.value_after.kind.value == "loss"
    assert blunder.best != blunder.move
    assert reply.judgement is Judgement.BEST
    assert reply.value_before == Value.win(1)
    assert review.chances[-1] == (1.0 if reply.side is Player.X else 0.0)


def test_a_lost_position_made_shorter_is_not_a_blunder() -> None:
    """After x 5, o 2, x 1 every o move loses: 9 in 4 plies, the others in 2. o's 3
    only shortens a lost game: no blunder."""
    game = parse_spec("classic")
    moves = ["5", "2", "1", "3", "9"]
    states = [game.initial()]
    for move in moves:
        states.append(states[-1].play_text(move))
    review = review_game(states, moves, make_player("perfect"))
    shorter = review.moves[3]
    assert shorter.value_before == Value.loss(4)
    assert shorter.value_after == Value.loss(2)
    assert shorter.judgement is Judgement.GOOD
    assert review.moves[1].judgement is Judgement.BLUNDER  # o's 2 lost a drawn game
    assert [m.judgement for m in review.moves].count(Judgement.BLUNDER) == 1


@pytest.mark.parametrize("spec", ["classic", "classic:forget", "mnk:m=3:n=4:k=3"])
def test_perfect_play_reviewed_is_all_best_or_good(spec: str) -> None:
    game = parse_spec(spec)
    player = level_player(game, "max", seed=1)
    states = [game.initial()]
    moves: list[str] = []
    while not states[-1].is_over and len(moves) < 40:
        move = player.choose(states[-1])
        moves.append(game.move_text(move))
        states.append(states[-1].play(move))
    review = review_game(states, moves, level_player(game, "max", mistakes=False))
    assert {m.judgement for m in review.moves} <= {Judgement.BEST, Judgement.GOOD}
    assert review.accuracy(Player.X) == review.accuracy(Player.O) == 100.0


def _for_x(value: Value, state: State[Any]) -> Value:
    return value if state.turn is Player.X else value.negated(0)


def test_the_graph_is_the_analyses_values() -> None:
    """Each point of the graph is the reviewer's own analysis of that position, asked
    again by a new player, put on x's side, on the analysis' own scale."""
    game = parse_spec("ultimate")
    rng = random.Random(5)
    states = [game.initial()]
    moves: list[str] = []
    while not states[-1].is_over and len(moves) < 24:
        move = rng.choice(states[-1].legal_moves())
        moves.append(game.move_text(move))
        states.append(states[-1].play(move))
    spec = "alphabeta:depth=2"
    review = review_game(states, moves, parse_player(spec))
    assert len(review.values) == len(review.chances) == len(states)
    for state, value, chance in zip(states, review.values, review.chances, strict=True):
        if state.is_over:
            continue
        analysis = parse_player(spec).analyze(state)
        if value.exact and not analysis.value.exact:
            continue  # proven from the position before: see the next test
        assert value == _for_x(analysis.value, state)
        expected = analysis.chance()
        assert expected is not None
        assert chance == pytest.approx(expected if state.turn is Player.X else 1 - expected)


class _SharpForX(AIPlayer):
    """A reviewer that searches x's positions 3 plies deep and o's only 1."""

    name = "sharp-for-x"

    def analyze(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
        depth = 3 if state.turn is Player.X else 1
        return parse_player(f"alphabeta:depth={depth}").analyze(state, limits)


def test_a_value_proven_from_the_position_before_is_kept() -> None:
    """x's fork (4 after 5 2 1 9) is proven a win in 3 from the position before it; the
    position after it, searched 1 ply deep, only estimates: the review keeps the proof,
    in the move's value and in the graph."""
    game = parse_spec("classic")
    moves = ["5", "2", "1", "9", "4"]
    states = [game.initial()]
    for move in moves:
        states.append(states[-1].play_text(move))
    assert not _SharpForX().analyze(states[5]).value.exact
    review = review_game(states, moves, _SharpForX())
    fork = review.moves[4]
    assert fork.value_after == Value.win(3)
    assert fork.judgement is Judgement.BEST
    assert review.values[5] == Value.win(2)  # x's, with o to move: o's loss in 2
    assert review.chances[5] == 1.0


class _ProvesTheOpening(AIPlayer):
    """A classic reviewer exact in the first four plies (the perfect player) and blind
    after them: every move an even estimate, so that each move played is as good as its
    best."""

    name = "proves-the-opening"

    def analyze(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
        if len(state.legal_moves()) > 5:
            return make_player("perfect").analyze(state, limits)
        infos = [MoveInfo(m, state.move_text(m), Value.estimate(0.0)) for m in state.legal_moves()]
        return Analysis(self.name, infos, [infos[0].text], scale=1.0)


@pytest.mark.parametrize(
    ("moves", "fell_to"),
    [
        # After 5 2 1 9 x wins in 3 (a fork at 4 or 7); 8 lets it go, 7 then loses.
        (["5", "2", "1", "9", "8", "3", "7", "6"], Value.loss(0)),
        (["5", "2", "1", "9", "8", "3", "6", "4", "7"], Value.draw()),
    ],
)
def test_a_proven_win_that_fell_is_a_blunder_whatever_the_estimates(moves: list[str], fell_to: Value) -> None:
    """issue 56: x's value proven a win, then estimates only, then the game lost (or
    drawn): x's moves all the reviewer's best by its estimates, yet the win was given
    away, by x's first move after the proof."""
    game = parse_spec("classic")
    states = [game.initial()]
    for move in moves:
        states.append(states[-1].play_text(move))
    review = review_game(states, moves, _ProvesTheOpening())
    assert review.values[4] == Value.win(3)  # kept from o's move into it, proven before
    blunder = review.moves[4]
    assert (blunder.move, blunder.judgement) == ("8", Judgement.BLUNDER)
    assert blunder.value_before == Value.win(3) and blunder.fell_to == fell_to and blunder.fell_at == len(moves)
    # o's 2 threw the start's draw away, proven by the reviewer; the rest are all best by its estimates.
    assert [m.move for m in review.moves if m.judgement is not Judgement.BEST] == ["2", "8"]
    accuracy = review.accuracy(Player.X)
    assert accuracy is not None and accuracy < 100
    assert review.to_json()["moves"][4]["fell_to"]["kind"] == fell_to.kind.value
    from noughts.server.models import ReviewView  # the server extra's, only here

    ReviewView.model_validate(review.to_json())  # as the server answers it
    console = Console(record=True, width=200)
    print_review(console, review)
    assert f"(the win fell to a {fell_to.kind.value} by ply {len(moves)})" in console.export_text()


def test_a_gobblet_game_lost_after_its_proven_win_is_not_all_best(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 56's game, reviewed by max without the table: x's win proven at the start,
    o's win at the end; no longer every move best at 100%."""
    monkeypatch.setenv("NOUGHTS_CACHE_DIR", str(tmp_path))
    game = parse_spec("gobblet")
    moves = ["S5", "L5", "L1", "S2", "L2", "M3", "1-3", "M1", "S9", "L9"]
    states: list[State[Any]] = [game.initial()]
    for move in moves:
        states.append(states[-1].play_text(move))
    assert states[-1].status == "o-wins"
    review = review_game(states, moves, level_player(game, "max", mistakes=False), Limits(time=0.05))
    assert review.values[0] == Value.win(13)
    assert review.count(Player.X, Judgement.BLUNDER) >= 1
    accuracy = review.accuracy(Player.X)
    assert accuracy is not None and accuracy < 100


def test_win_chance_puts_every_value_on_one_scale() -> None:
    assert win_chance(Value.win(9)) == 1.0
    assert win_chance(Value.loss(2)) == 0.0
    assert win_chance(Value.draw()) == 0.5
    assert win_chance(Value.estimate(0.0), scale=200.0) == 0.5
    assert win_chance(Value.estimate(400.0), scale=200.0) == pytest.approx((1 + 0.9640275800758169) / 2)
    assert win_chance(Value.estimate(-3.0)) == 0.0  # a mean result, clipped


def test_accuracy_is_full_without_loss_and_falls_with_it() -> None:
    assert move_accuracy(0.5, 0.5) == 100.0
    assert move_accuracy(0.4, 0.9) == 100.0  # a gain counts as no loss
    assert 40 < move_accuracy(0.66, 0.5) < 60
    assert move_accuracy(1.0, 0.0) == 0.0


def test_the_command_prints_a_json_review_and_draws_the_graph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = GameRecord(parse_spec("classic"), ["5", "1", "3", "7", "2", "4"], x="ann", o="bob", result="o-wins")
    path = tmp_path / "game.txt"
    path.write_text(record.to_text(), encoding="utf-8")
    plot = tmp_path / "graph.png"
    assert main(["review", str(path), "--json", "--plot", str(plot)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [m["ply"] for m in data["moves"]] == [1, 2, 3, 4, 5, 6]
    fifth = data["moves"][4]
    assert {"ply", "move", "class", "best", "value_before", "value_after", "line"} <= fifth.keys()
    assert (fifth["move"], fifth["class"], fifth["best"]) == ("2", "blunder", "4")
    assert fifth["value_before"]["text"] == "draw"
    assert fifth["value_after"]["text"] == "loss in 2" and fifth["value_after"]["bound"] is False
    assert data["graph"] == [0.5, 0.5, 0.5, 0.5, 0.5, 0.0, 0.0]
    assert data["classes"]["x"]["blunder"] == 1
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_review_shows_the_qubic_proofs_plies_as_a_bound(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each of x's moves from the shipped proof wins in at most the empty cells (and o's
    positions lose in at most as many), in the JSON and in the table."""
    path = tmp_path / "game.txt"
    path.write_text(GameRecord(parse_spec("qubic"), ["111", "222", "444"]).to_text(), encoding="utf-8")
    assert main(["review", str(path), "--json", "--time", "0.3"]) == 0
    data = json.loads(capsys.readouterr().out)
    before = [m["value_before"] for m in data["moves"]]
    assert [(v["kind"], v["plies"], v["bound"], v["text"]) for v in before] == [
        ("win", 64, True, "win in at most 64"),
        ("loss", 63, True, "loss in at most 63"),
        ("win", 62, True, "win in at most 62"),
    ]
    assert main(["review", str(path), "--time", "0.3"]) == 0
    assert "win in at most" in capsys.readouterr().out


def test_the_graphs_title_is_whole_inside_the_figure() -> None:
    """issue 56: a reviewer's name with its estimates note ran wider than the graph, and
    its title was cut off at both sides; it wraps into lines that fit."""
    import matplotlib.pyplot as plt

    reviewer = "max (kmcts:time=2:contempt=0.25:endgame=39:minimax=0.3) · estimates in 6 of 10 positions (by alphabeta)"
    review = Review("ultimate:forget=true", reviewer, None, [], [Value.draw()] * 3, [0.5, 0.6, 0.4])
    figure = review_figure(review)
    try:
        figure.canvas.draw()
        title = figure.axes[0].title
        box, frame = title.get_window_extent(), figure.bbox
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1, (box, frame)
        assert " ".join(title.get_text().split()) == f"ultimate:forget=true: reviewed by {reviewer}"
        assert "\n" in title.get_text()
    finally:
        plt.close(figure)


def test_the_command_prints_a_table_with_the_better_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.txt"
    record = GameRecord(parse_spec("classic"), ["5", "1", "3", "7", "2", "4"], x="ann", o="bob", result="o-wins")
    path.write_text(record.to_text(), encoding="utf-8")
    assert main(["review", str(path), "--level", "hard"]) == 0
    out = capsys.readouterr().out
    assert "2??" in out
    assert "blunder" in out
    assert "x (ann): accuracy" in out
    assert "1 blunder" in out


def test_a_record_with_a_bad_move_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.txt"
    path.write_text('[Game "classic"]\n[Result "ongoing"]\n\n1. 5 5 *\n', encoding="utf-8")
    assert main(["review", str(path)]) == 2
    assert "5" in capsys.readouterr().err


def test_review_record_reads_the_moves_of_a_record() -> None:
    record = GameRecord(parse_spec("classic"), ["1", "5", "9"], result="ongoing")
    review = review_record(record, make_player("perfect"))
    assert [m.move for m in review.moves] == ["1", "5", "9"]
    assert review.moves[1].judgement is Judgement.BEST  # the centre answers a corner


@pytest.mark.parametrize(
    ("spec", "seed"),
    # Forget mode's small board here, its 3x3 (a 7-s table) in make test-slow.
    [pytest.param("classic:forget", 1, marks=pytest.mark.slow), ("mnk:m=4:n=3:k=3", 2), ("mnk:m=2:n=4:k=2:forget", 3)],
)
def test_max_reviews_exactly_from_the_first_call(
    spec: str, seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On an empty cache, at a review's short time a position: every position valued
    exactly by the table, under a header that says nothing of estimates."""
    from noughts.ai import solve as solve_module

    monkeypatch.setenv("NOUGHTS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(solve_module, "_TABLES", {})
    game = parse_spec(spec)
    rng = random.Random(seed)
    states: list[State[Any]] = [game.initial()]
    moves: list[str] = []
    while not states[-1].is_over and len(moves) < 12:
        move = rng.choice(states[-1].legal_moves())
        moves.append(states[-1].move_text(move))
        states.append(states[-1].play(move))
    review = review_game(states, moves, level_player(game, "max", mistakes=False), Limits(time=0.05), "max (perfect)")
    assert review.reviewer == "max (perfect)"
    assert all(v.exact for v, s in zip(review.values, states, strict=True) if not s.is_over)


def test_a_review_says_where_its_values_are_estimates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Gobblet past its shipped book, before `noughts solve gobblet` has built its table
    (an empty cache folder): max's search stands in for the exact player there, and the
    header says so, how often and by whom."""
    monkeypatch.setenv("NOUGHTS_CACHE_DIR", str(tmp_path))
    game = parse_spec("gobblet")
    states: list[State[Any]] = [game.initial()]
    moves = ["L5", "l1", "L9", "l3", "M2", "m8"]
    for move in moves:
        states.append(states[-1].play_text(move))
    review = review_game(states, moves, level_player(game, "max", mistakes=False), Limits(time=0.05), "max (perfect)")
    assert review.reviewer.startswith("max (perfect) · estimates in ")
    # Named by the search, alone or beside the exact player's proven moves (perfect+alphabeta).
    assert "alphabeta" in review.reviewer.partition("(by ")[2]


def test_a_move_tried_in_place_of_a_played_one_is_classed_as_the_review_classes_it() -> None:
    """judge_move (Learn from your mistakes) and the review agree on every move of a
    position: after 5 1 3 7, x's 4 draws (best), each other move loses (a blunder)."""
    game = parse_spec("classic")
    states = [game.initial()]
    for move in ["5", "1", "3", "7"]:
        states.append(states[-1].play_text(move))
    state = states[-1]
    analysis = make_player("perfect").analyze(state, Limits())
    tried = {game.move_text(m): judge_move(analysis, state, game.move_text(m)) for m in state.legal_moves()}
    assert tried == {"2": Judgement.BLUNDER, "4": Judgement.BEST, "6": Judgement.BLUNDER, "8": Judgement.BLUNDER,
                     "9": Judgement.BLUNDER}  # fmt: skip
    for move, judgement in tried.items():
        reviewed = review_game([*states, state.play_text(move)], ["5", "1", "3", "7", move], make_player("perfect"))
        assert reviewed.moves[-1].judgement is judgement
    with pytest.raises(ValueError, match="values no move"):
        judge_move(analysis, state, "5")
