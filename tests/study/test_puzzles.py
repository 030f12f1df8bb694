"""Puzzles: every mined puzzle has exactly one winning first move, proved, and a line
that ends in the winner's win; a broken puzzle is caught; solving accepts the answer and
any winning follow-up, not another first move, and the defender answers from the line or
by its longest resistance; the command mines, resumes and verifies."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from noughts import parse_spec
from noughts.ai.base import Analysis, Kind, Limits, MoveInfo, Value, parse_player
from noughts.cli import main
from noughts.core import InvalidOptionError
from noughts.records import GameRecord
from noughts.study import answer_keys
from noughts.study.answer_keys import unprovable_here
from noughts.study.puzzles import (
    Puzzle,
    ThreatProver,
    accepts,
    difficulty,
    judge,
    mine,
    missed,
    prover,
    puzzle_at,
    reply,
    self_play,
    shipped,
    shipped_contexts,
    tempting,
    themes,
    verify,
)

from support import without_the_gobblet_table

#: A qubic position of self-play (medium, game 5) where o's forced win needs quiet moves.
QUBIC_QUIET_WIN = "oxo./..../..../...x|..../xxxo/..o./....|x.../.o../.ox./...x|oo../.o../..../oxxx o"
#: Gomoku positions of hard's self-play. RACE_BY_THREES: x wins in 3 with i11; two of
#: x's other moves lose only to o's threes (no win by fours after them).
RACE_BY_THREES = (
    ".............../.............../.............../......o......../.............../.............../"
    ".............../.............../......oo......./.....oxo......./.....xx......../....xoxx.ox..../"
    "...x..x......../..o...o......../............... x"
)
#: o wins by fours after any move of x but i4, which spoils them and wins with threes.
THREES_AGAINST_FOURS = (
    ".............o./........o...x../........oxxxo../.........xx..../........oxox.../........o...x../"
    ".............oo/.............../.............../.............../.............../.............../"
    "............x../..o............/............... x"
)


# 4x4 builds its solved table first (45 s): among the slow checks.
@pytest.mark.parametrize("spec", ["classic", "classic:forget", pytest.param("mnk:m=4:n=4:k=3", marks=pytest.mark.slow)])
def test_mined_puzzles_are_proved_and_unique(spec: str) -> None:
    game = parse_spec(spec)
    puzzles = list(mine(game, 4, seed=2))
    assert len(puzzles) == 4
    assert len({p.position for p in puzzles}) == 4
    perfect = parse_player("perfect")
    for puzzle in puzzles:
        assert verify(puzzle) is None
        state = game.parse_position(puzzle.position)
        analysis = perfect.analyze(state)
        assert [m.text for m in analysis.moves if m.value.kind.value == "win"] == [puzzle.solution[0]]
        assert analysis.value.plies == puzzle.plies == len(puzzle.solution)
        assert puzzle.themes[0] == f"win in {(puzzle.plies + 1) // 2}"


def test_a_puzzle_with_a_second_winning_move_or_a_wrong_line_fails_verification() -> None:
    two = Puzzle("classic", "xo./ox./xo. x", ["9"], 1)  # 3 wins too (3-5-7)
    assert "winning moves" in (verify(two) or "")
    good = next(mine(parse_spec("classic"), 1, seed=0))
    assert verify(good) is None
    state = parse_spec("classic").parse_position(good.position)
    other = parse_player("perfect").analyze(state).moves[1].text
    assert "winning moves" in (verify(Puzzle(**{**good.to_json(), "solution": [other]})) or "")


@pytest.mark.slow  # 104 s on a fresh clone (its prover's table): among the slow checks until made cheaper
def test_solving_takes_the_answer_and_any_follow_up_that_wins_in_time() -> None:
    """A follow-up that wins within the puzzle's count is accepted; one that wins more
    slowly is not (a "win in 2" is won in 2), nor is another first move."""
    game = parse_spec("mnk:m=4:n=4:k=3")
    perfect = parse_player("perfect")
    slower: list[tuple[Puzzle, str]] = []
    found = None
    for puzzle in mine(game, 30, seed=2):
        if puzzle.plies < 3:
            continue
        state = game.parse_position(puzzle.position).play_text(puzzle.solution[0]).play_text(puzzle.solution[1])
        left = puzzle.plies - 2
        wins = [m for m in perfect.analyze(state).moves if m.value.kind.value == "win"]
        slower += [(puzzle, m.text) for m in wins if (m.value.plies or 0) > left]
        in_time = [m.text for m in wins if (m.value.plies or 0) <= left]
        if found is None and len(in_time) > 1:
            found = puzzle, state, in_time
    if found is None or not slower:
        pytest.fail("no puzzle with two follow-ups that win in time, or none with a slower win, in 30")
    puzzle, state, in_time = found
    assert accepts(puzzle, puzzle.solution[:1], perfect)
    assert reply(puzzle, puzzle.solution[:1], perfect) == puzzle.solution[1]  # from the stored line
    other = next(w for w in in_time if w != puzzle.solution[2])
    followed = [*puzzle.solution[:2], other]
    assert accepts(puzzle, followed, perfect)
    answer = reply(puzzle, followed, perfect)  # off the line: the prover's longest resistance
    after = state.play_text(other)
    assert answer is None if after.is_over else answer == perfect.analyze(after).moves[0].text
    start = game.parse_position(puzzle.position)
    wrong = next(game.move_text(m) for m in start.legal_moves() if game.move_text(m) != puzzle.solution[0])
    assert not accepts(puzzle, [wrong], perfect)
    late, move = slower[0]
    assert not accepts(late, [*late.solution[:2], move], perfect)
    said = judge(late, [*late.solution[:2], move], perfect).verdict
    assert "wins in" in said and "a quicker win was there" in said
    assert re.search(r"wins in \d+ moves?:", said) and not re.search(r"\bpl(y|ies)\b", said)  # moves, not plies


def test_a_game_without_an_exact_prover_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with pytest.raises(InvalidOptionError, match="no exact prover"):
        prover(parse_spec("ultimate:forget=true"))
    # gobblet's prover is its solved table, not built here: its shipped puzzles are
    # judged from their answer keys, without which they could not be offered.
    without_the_gobblet_table(monkeypatch, tmp_path)
    with pytest.raises(InvalidOptionError, match="noughts solve gobblet"):
        prover(parse_spec("gobblet"))
    assert unprovable_here() == []
    monkeypatch.setattr(answer_keys, "KEYS", tmp_path / "no-keys.jsonl.gz")
    assert unprovable_here() == ["gobblet"]


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["ultimate", "nine-board"])
def test_late_positions_of_the_compiled_games_give_proved_puzzles(spec: str) -> None:
    game = parse_spec(spec)
    # A budget of nodes, not seconds: within 0.5 s a busier or faster machine, its table
    # warm from earlier positions, proved a win a few plies earlier than a new prover
    # within VERIFY_LIMITS could again, so what was mined depended on the machine.
    puzzles = list(mine(game, 2, seed=3, limits=Limits(nodes=1_000_000)))
    for puzzle in puzzles:
        assert verify(puzzle) is None  # a new prover, a budget of nodes
        state = game.parse_position(puzzle.position)
        for text in puzzle.solution:
            state = state.play_text(text)
        assert state.outcome is not None and state.outcome.winner is not None


def test_the_command_mines_resumes_and_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.jsonl"
    assert main(["puzzles", "make", "classic", "--count", "3", "--out", str(out)]) == 0
    assert main(["puzzles", "make", "classic", "--count", "2", "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 5 and len({line["position"] for line in lines}) == 5
    assert main(["puzzles", "verify", str(out)]) == 0
    assert "5 of 5 puzzles proved or checked, 0 failed" in capsys.readouterr().out
    # --refresh derives the themes and difficulties again (after a change to them).
    stale = [{**line, "themes": ["stale"], "difficulty": 1} for line in lines]
    out.write_text("".join(json.dumps(line) + "\n" for line in stale))
    assert main(["puzzles", "verify", str(out), "--refresh"]) == 0
    assert [json.loads(line) for line in out.read_text().splitlines()] == lines
    lines[0]["solution"] = ["nonsense"]
    out.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    assert main(["puzzles", "verify", str(out)]) == 1


@pytest.mark.slow
def test_a_budget_of_nodes_mines_the_same_puzzles_again(tmp_path: Path) -> None:
    """Self-play at a level that searches to a depth keeps its depth, and the prover
    counts nodes: two runs of the same seed write the same file, whatever the machine's
    load (a cap of seconds on either made the games, and so the puzzles, differ)."""
    files = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]
    for out in files:
        command = ["puzzles", "make", "nine-board", "--count", "2", "--nodes", "200000", "--seed", "3"]
        assert main([*command, "--from-ply", "20", "--per-game", "1", "--out", str(out)]) == 0
    first = files[0].read_text()
    assert len(first.splitlines()) == 2 and first == files[1].read_text()
    with pytest.raises(SystemExit, match="--nodes"):
        main(["puzzles", "make", "classic", "--nodes", "0", "--out", str(tmp_path / "c.jsonl")])
    assert not (tmp_path / "c.jsonl").exists()


def test_the_command_mines_recorded_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    moves = ["2", "9", "8", "4", "1", "3", "5"]  # x wins; positions 2, 3 and 6 are puzzles
    states = [parse_spec("classic").initial()]
    for move in moves:
        states.append(states[-1].play_text(move))
    record = GameRecord.from_states(states, [states[0].game.parse_move(m) for m in moves], x="ann", o="bob")
    (tmp_path / "game.txt").write_text(record.to_text(), encoding="utf-8")
    other = GameRecord.from_states([parse_spec("qubic").initial()], [])
    (tmp_path / "other.json").write_text(other.to_json_text(), encoding="utf-8")
    out = tmp_path / "p.jsonl"
    files = [str(tmp_path / "game.txt"), str(tmp_path / "other.json")]
    assert main(["puzzles", "make", "classic", "--from", *files, "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "3 puzzles added" in said and "1 records of other games skipped" in said
    found = [Puzzle.from_json(json.loads(line)) for line in out.read_text().splitlines()]
    assert {p.position for p in found} == {states[ply].to_text() for ply in (2, 3, 6)}
    assert all(p.source == "record game.txt" for p in found)
    # Again: the positions are there already.
    assert main(["puzzles", "make", "classic", "--from", files[0], "--out", str(out)]) == 0
    assert "0 puzzles added" in capsys.readouterr().out


# Each proves races for 10-15 s: make test proves one (a race puzzle states its length as
# a bound, below), make test-slow these.
@pytest.mark.slow
@pytest.mark.parametrize("spec", ["qubic", "mnk:m=7:n=7:k=4"])
def test_the_threat_prover_makes_race_puzzles_whose_every_other_move_loses(spec: str) -> None:
    """Qubic and the bigger m,n,k boards: the threat searches prove one move winning
    and every other losing (the opponent wins by threats after it)."""
    game = parse_spec(spec)
    player = prover(game)
    assert isinstance(player, ThreatProver)
    puzzle = next(mine(game, 1, seed=2))
    assert verify(puzzle) is None
    state = game.parse_position(puzzle.position)
    analysis = player.analyze(state)
    assert [m.value.kind.value for m in analysis.moves].count("win") == 1
    assert all(m.value.kind.value == "loss" for m in analysis.moves[1:])
    for text in puzzle.solution:
        state = state.play_text(text)
    assert state.outcome is not None and state.outcome.winner is not None


@pytest.mark.slow
def test_gomoku_races_are_proved_with_threes_as_well_as_fours() -> None:
    """Fours alone prove these positions no puzzle: after two of x's other moves o has
    no win by fours, only by threes (`vct`); in the second, x's only move that spoils
    o's fours wins with threes. With the search by threes both are puzzles, proved again."""
    from noughts.games.mnk.threats import forced_win

    game = parse_spec("mnk:m=15:n=15:k=5")
    player = prover(game)
    state = game.parse_position(RACE_BY_THREES)
    puzzle = puzzle_at(state, player, Limits())
    assert puzzle is not None and verify(puzzle) is None
    assert puzzle.solution[0] == "i11" and puzzle.plies == len(puzzle.solution) == 5
    analysis = player.analyze(state)
    lost_to_threes = [m.text for m in analysis.moves if forced_win(state.play(m.move)) is None]
    assert sorted(lost_to_threes) == ["f8", "i11", "k13"]  # i11 wins; f8 and k13 lose, to threes
    assert all(m.value.kind is Kind.LOSS for m in analysis.moves if m.text != "i11")

    state = game.parse_position(THREES_AGAINST_FOURS)
    assert forced_win(state) is None and forced_win(state.play_text("a15")) is not None
    puzzle = puzzle_at(state, player, Limits())
    assert puzzle is not None and verify(puzzle) is None
    assert puzzle.solution[0] == "i4" and puzzle.plies == len(puzzle.solution) >= 5


def test_the_line_defends_as_a_player_would_where_the_searches_bound_replies_alike() -> None:
    """After x's three, o's replies are bounded alike by the search (a far corner lasts
    as long as a block, by the bound); the line shows the reply the evaluation likes
    best for o, not the first cell in reading order, and the defender answers so."""
    game = parse_spec("mnk:m=15:n=15:k=5")
    puzzle = puzzle_at(game.parse_position(THREES_AGAINST_FOURS), prover(game), Limits())
    assert puzzle is not None
    corners = {"a1", "o1", "a15", "o15"}
    assert not corners & set(puzzle.solution[1::2])
    assert reply(puzzle, puzzle.solution[:1], prover(game)) == puzzle.solution[1]


def test_an_ultimate_win_by_where_it_sends_is_themed_so() -> None:
    # x's 11 decides no board and sends o to board 1, where every reply loses.
    state = parse_spec("ultimate").parse_position(
        "..oxx...o/o.xoo.oo./oxoxooxox/oxx.oo.x./xoxooxoxo/.x.oxxox./xxo.xo.ox/.xoxxoxo./..x.x.x.o x 1"
    )
    assert "send to board" in themes(state, ["11", "16", "81"])
    # A move that takes a local board is no send: x's 16 takes board 1 (themes look at
    # the first move and the line's length only, here).
    assert "send to board" not in themes(state, ["16", "41", "11"])


def test_the_difficulty_counts_the_tempting_moves_that_fail() -> None:
    values = [Value.win(3), Value.draw(), Value.loss(6), Value.loss(4), Value.loss(2), Value.loss(1)]
    analysis = Analysis("perfect", [MoveInfo(i, str(i), v) for i, v in enumerate(values)])
    assert tempting(analysis) == 3  # the draw, the losses in 6 and in 4
    state = parse_spec("classic").initial()
    puzzle = Puzzle("classic", state.to_text(), ["5", "1", "9"], 3)
    plain = difficulty(state, puzzle)
    assert plain == 1000 + 120 * 2 + 5 * 9
    assert difficulty(state, puzzle, analysis) == plain + 3 * 25
    # Gomoku's 225 cells count as 40 moves: the far ones make a puzzle no harder.
    board = parse_spec("mnk:m=15:n=15:k=5").initial()
    assert difficulty(board, Puzzle(board.game.spec, board.to_text(), ["h8"], 1)) == 1000 + 5 * 40


def test_a_qubic_win_that_needs_quiet_moves_is_proved_by_proof_number_search() -> None:
    """Self-play (medium, game 5): o wins in 4, but not by threats alone: the threat
    search finds no win here; the proof-number search proves it, and after each of
    x's replies in the line again. Every other first move loses (x wins after it)."""
    from noughts.ai.compiled import qubic_threat_win

    game = parse_spec("qubic")
    state = game.parse_position(QUBIC_QUIET_WIN)
    assert qubic_threat_win(state) is None
    player = prover(game)
    puzzle = puzzle_at(state, player, Limits())
    assert puzzle is not None and verify(puzzle) is None
    assert puzzle.plies == len(puzzle.solution) == 7 and puzzle.themes[0] == "win in at most 4"
    analysis = player.analyze(state)
    assert [m.text for m in analysis.moves if m.value.kind.value == "win"] == [puzzle.solution[0]]
    assert all(m.value.kind.value == "loss" for m in analysis.moves[1:])


def test_a_follow_up_the_searches_cannot_prove_is_told_so() -> None:
    value = Value(Kind.UNKNOWN)
    puzzle = Puzzle("qubic", parse_spec("qubic").initial().to_text(), ["111"], 1)
    assert missed(puzzle, ["111"], value, parse_spec("qubic").initial().turn) == (
        "no forced win found after it: the searches prove none"
    )


def test_a_parallel_run_writes_as_it_goes_and_a_second_run_goes_on_after_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--jobs 2: the games are shared in small tasks, each task's puzzles written when
    it ends; --per-game 1 keeps one puzzle a game; a run without --seed starts after
    the file's last game, so a stopped run goes on instead of playing its games again."""
    out = tmp_path / "p.jsonl"
    parallel = ["--count", "4", "--jobs", "2", "--per-game", "1", "--out", str(out)]
    assert main(["puzzles", "make", "classic", *parallel]) == 0
    first = [Puzzle.from_json(json.loads(line)) for line in out.read_text().splitlines()]
    games = [int(p.source.rsplit(" ", 1)[1]) for p in first]
    assert len(first) == 4 and len(set(games)) == 4 and len({p.position for p in first}) == 4
    assert main(["puzzles", "make", "classic", "--count", "2", "--per-game", "1", "--out", str(out)]) == 0
    assert f"going on from self-play game {max(games) + 1}" in capsys.readouterr().err
    later = [Puzzle.from_json(json.loads(line)) for line in out.read_text().splitlines()][4:]
    assert len(later) == 2 and all(int(p.source.rsplit(" ", 1)[1]) > max(games) for p in later)
    with pytest.raises(SystemExit, match="--per-game"):
        main(["puzzles", "make", "classic", "--per-game", "0", "--out", str(out)])


def test_make_keeps_only_puzzles_within_the_plies_asked(tmp_path: Path) -> None:
    """--min-plies leaves out the wins in one that most games end with; --max-plies the
    long ones."""
    out = tmp_path / "p.jsonl"
    assert main(["puzzles", "make", "classic", "--count", "3", "--min-plies", "3", "--out", str(out)]) == 0
    found = [Puzzle.from_json(json.loads(line)) for line in out.read_text().splitlines()]
    assert len(found) == 3 and all(p.plies >= 3 for p in found)
    short = tmp_path / "short.jsonl"
    assert main(["puzzles", "make", "classic", "--count", "3", "--max-plies", "1", "--out", str(short)]) == 0
    assert all(json.loads(line)["plies"] == 1 for line in short.read_text().splitlines())
    with pytest.raises(SystemExit, match="--min-plies"):
        main(["puzzles", "make", "classic", "--min-plies", "0", "--out", str(out)])


def test_verify_rejects_a_length_that_is_not_the_shortest_win() -> None:
    """x wins only with 9 here; o's longest resistance, 8, lasts five plies. A line where
    o gives up at once (1) is legal and won, but "win in 2" is not the position's win:
    the stated length must be the shortest forced win, and verify says so."""
    game = parse_spec("classic")
    position = ".xo/..o/x.. x"
    good = Puzzle("classic", position, ["9", "8", "1", "4", "5"], 5)
    assert verify(good) is None
    state = game.parse_position(position).play_text("9").play_text("1")
    finish = next(m for m in state.legal_moves() if (o := state.play(m).outcome) and o.winner is state.turn)
    short = Puzzle("classic", position, ["9", "1", state.move_text(finish)], 3)
    assert "the shortest win is 5 plies" in (verify(short) or "")
    assert "the line is 5 plies long, the puzzle says 3" in (verify(Puzzle(**{**good.to_json(), "plies": 3})) or "")


def test_a_race_puzzle_states_its_length_as_a_bound() -> None:
    """The race provers bound a win's plies (their first tree is not the shortest:
    shipped gomoku puzzle 7speimaq's line won in nine plies where one of seven was
    there), so a puzzle they prove says "at most", and verify holds it to that."""
    game = parse_spec("mnk:m=15:n=15:k=5")
    puzzle = puzzle_at(game.parse_position(RACE_BY_THREES), ThreatProver(), Limits())
    assert puzzle is not None and puzzle.bound and puzzle.to_json()["bound"] is True
    assert puzzle.themes[0] == f"win in at most {(puzzle.plies + 1) // 2}"
    assert verify(puzzle) is None
    assert "a search's bound" in (verify(Puzzle(**{**puzzle.to_json(), "bound": False})) or "")
    exact = next(iter(mine(parse_spec("classic"), 1, seed=2)))
    assert not exact.bound and "bound" not in exact.to_json()


def test_a_five_by_five_race_puzzles_line_is_the_quickest_win() -> None:
    """The threat searches' first win is not the quickest (shipped e6sl5qfy's line took
    9 plies where X wins in 7, issue 56): on a board the quickest-win search counts, the
    miner's line is the quickest, verify holds it though the searches bound it longer,
    and a move off the line that wins as quickly counts."""
    game = parse_spec("mnk:m=5:n=5:k=4")
    found = puzzle_at(game.parse_position(".x.../o.xx./o..x./....o/o.... x"), ThreatProver(), Limits())
    assert found is not None and found.plies == 7 and found.themes[0] == "win in at most 4"
    (shipped_one,) = [p for p in shipped() if p.id == "b7qb4fcw"]
    assert ThreatProver().forces(game.parse_position(shipped_one.position), game.parse_move("d5")) == 11
    assert shipped_one.plies == 9 and verify(shipped_one) is None
    # After d5 a2, a4 is off the line (d3) and wins within the 7 plies left; the searches bound it at 11.
    assert shipped_one.solution[:3] == ["d5", "a2", "d3"]
    assert accepts(shipped_one, ["d5", "a2", "a4"], ThreatProver())
    assert not accepts(shipped_one, ["d5", "a2", "e1"], ThreatProver())


def test_verify_goes_on_past_a_failure_checks_gobblet_by_its_keys_and_sums_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without gobblet's table, its shipped puzzles are checked against their answer
    keys (a line that strays from the key fails), one with no key is skipped with the
    reason; a failure first in the file does not stop the rest; the summary counts
    each game; the exit status is 1 for the failure alone, 0 without it."""
    without_the_gobblet_table(monkeypatch, tmp_path)
    gobblet = [p for p in shipped() if p.spec == "gobblet"][:2]
    keyless = gobblet[1]
    moved = parse_spec("gobblet").parse_position(keyless.position)
    for text in keyless.solution[:2]:
        moved = moved.play_text(text)
    unkeyed = Puzzle("gobblet", moved.to_text(), keyless.solution[2:], keyless.plies - 2)
    strayed = Puzzle(**{**gobblet[1].to_json(), "solution": gobblet[1].solution[:1], "plies": 1})
    good = Puzzle("classic", ".xo/..o/x.. x", ["9", "8", "1", "4", "5"], 5)
    broken = Puzzle(**{**good.to_json(), "solution": ["8", "9", "1"], "plies": 3})
    out = tmp_path / "p.jsonl"
    puzzles = [broken, good, gobblet[0], unkeyed]
    out.write_text("".join(json.dumps(p.to_json()) + "\n" for p in puzzles))
    assert main(["puzzles", "verify", str(out)]) == 1
    said = capsys.readouterr()
    assert "puzzle 1 " in said.err and "winning moves" in said.err
    assert "classic: 2 checked, 1 passed, 1 failed" in said.out
    assert "gobblet: 1 checked (from its answer keys: the prover is not here), 1 passed, 0 failed" in said.out
    assert "1 skipped: no prover here and no answer key" in said.out
    assert "2 of 4 puzzles proved or checked, 1 failed" in said.out
    out.write_text("".join(json.dumps(p.to_json()) + "\n" for p in [good, gobblet[0], strayed]))
    assert main(["puzzles", "verify", str(out)]) == 1
    assert f"the answer key answers {strayed.solution[0]} (move 1) with" in capsys.readouterr().err
    out.write_text("".join(json.dumps(p.to_json()) + "\n" for p in [good, gobblet[0], unkeyed]))
    assert main(["puzzles", "verify", str(out)]) == 0


def _themes_of(spec: str, position: str, line: list[str]) -> list[str]:
    return themes(parse_spec(spec).parse_position(position), line)


def test_a_double_threat_is_two_wins_no_reply_stops_both() -> None:
    # x's 3 threatens 2 (1-2-3) and 6 (3-6-9), and blocks o's 3-5-7.
    assert _themes_of("classic", "x../.o./o.x x", ["3", "2", "6"]) == [
        "win in 2", "double threat", "block and win",
    ]  # fmt: skip
    from noughts.study.puzzles import _double

    game = parse_spec("classic")
    assert _double(game.parse_position("x.x/.o./o.x o"))  # threats on 2 and 6
    assert not _double(game.parse_position("x.x/.o./ox. o"))  # only 2: o blocks it


def test_a_forced_block_then_a_fork() -> None:
    """x's 9 blocks o's 3-6-9 and threatens 7-8-9: o's 8 is its only move that does not
    lose at once (a forced block); then x's 1 threatens 1-4-7 and 1-5-9 (a fork)."""
    found = _themes_of("classic", ".xo/..o/x.. x", ["9", "8", "1", "4", "5"])
    assert {"fork", "forced block", "block and win"} <= set(found) and "double threat" not in found
    # A longer line whose end is no double threat is no fork.
    assert "fork" not in _themes_of("classic:forget", "x../ox./xoo x x=7,1,5 o=8,4,9", ["2", "3", "8"])


def test_sending_to_a_won_board_in_ultimate() -> None:
    """o's 58 sends x to board 8, which o has won: x may play anywhere, and loses."""
    position = "oxoxxoxo./xxoo.xoxo/o.x.oxoxx/oxoxx..ox/xoxooxx../.o.xo..o./xxxoo.x.o/ooo....xx/x.x.x.ooo o -"
    found = _themes_of("ultimate", position, ["58", "25", "19"])
    assert "send to a won board" in found and "send to board" not in found


def test_a_sacrifice_in_nine_board_gives_the_defender_a_threat() -> None:
    """o's 47 sends x to board 7, where x's reply in the line, 75, makes two in a line
    with the third cell empty (a threat of its own); o wins all the same."""
    position = "x.oooxxxo/o.o.xx.../oxoxxoxox/x.xo.x..o/x.x.oo.../ooxo....x/x.ox..ox./..x...o.o/oxox..o.x o 4"
    assert "sacrifice" in _themes_of("nine-board", position, ["47", "75", "54"])
    # Ultimate's rules have no such theme: the same cells there are another game.
    assert "sacrifice" not in _themes_of("ultimate", "........./" * 8 + "......... x -", ["55", "51", "15"])


def test_no_sacrifice_when_the_defenders_reply_in_the_line_makes_no_threat() -> None:
    """A shipped puzzle: o's 82 sends x to board 2, where some replies would make two
    in a line, but x's longest resistance, 23, does not: nothing is given."""
    position = "oxxxxooo./oo.x.o.x./x.o.xx.oo/x...x.oxo/..ooo.x.x/xx....o.o/xoxooxx../o.xo..x../.xo...oxx o 8"
    assert "sacrifice" not in _themes_of("nine-board", position, ["82", "23", "37"])


def test_tempo_in_forget_mode_takes_the_cell_the_defenders_reply_forgot() -> None:
    """o's 3 makes its oldest mark, on 8, vanish; x wins on 8 (2-5-8)."""
    assert "tempo" in _themes_of("classic:forget", "x../ox./xoo x x=7,1,5 o=8,4,9", ["2", "3", "8"])
    assert "tempo" not in _themes_of("classic", "x../.o./o.x x", ["3", "2", "6"])


def test_a_mined_puzzle_knows_the_move_that_led_to_it() -> None:
    """The position before and the move played there, which the puzzle page shows first;
    the same as self-play played it, and kept through the puzzle's JSON."""
    game = parse_spec("classic:forget")
    puzzles = list(mine(game, 3, seed=2))
    for puzzle in puzzles:
        assert puzzle.before is not None and puzzle.last_move is not None
        assert game.parse_position(puzzle.before).play_text(puzzle.last_move).to_text() == puzzle.position
        number = int(puzzle.source.rsplit(" ", 1)[1])
        played = {state.to_text(): before for _, state, before in self_play(game, "medium", number)}
        assert played[puzzle.position] == (puzzle.before, puzzle.last_move)
        assert Puzzle.from_json(json.loads(json.dumps(puzzle.to_json()))) == puzzle


def test_the_shipped_puzzles_last_moves_lead_to_them() -> None:
    contexts = shipped_contexts()
    assert contexts  # tools/puzzles/build.py context gave them
    for puzzle in shipped():
        if puzzle.id in contexts:
            before, move = contexts[puzzle.id]
            assert parse_spec(puzzle.spec).parse_position(before).play_text(move).to_text() == puzzle.position


def test_no_tempo_when_the_winning_cell_was_free_at_the_start() -> None:
    """A shipped puzzle: x's moves pass over cells o held on the way, but x wins on 7,
    empty when the puzzle began: no blocker had to vanish."""
    line = ["9", "7", "3", "6", "1", "2", "4", "5", "7"]
    assert "tempo" not in _themes_of("classic:forget", "ox./.o./.x. x x=2,8 o=1,5", line)
