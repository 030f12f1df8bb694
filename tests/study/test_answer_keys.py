"""Answer keys: a key judges every move as its prover does (checked on classic, whose
table is instant, and on qubic's race prover); the shipped keys cover every shipped
gobblet and qubic puzzle and follow its line, so gobblet puzzles are judged off the
line without the solved table and qubic's without a search; a defender's move that is
not the key's reply is refused; and (slow) the shipped keys are the ones the provers
give: qubic's always, gobblet's with its table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from noughts import parse_spec
from noughts.ai.base import Value, parse_player
from noughts.ai.exact import code_value, value_code
from noughts.cli import main
from noughts.core import IllegalMoveError, InvalidOptionError, State
from noughts.games.gobblet import Gobblet
from noughts.study import answer_keys
from noughts.study.answer_keys import Key, answer_key, build_key, judge_by_key, keyed_game, unprovable_here, write_keys
from noughts.study.puzzles import Puzzle, ThreatProver, judge, mine, prover, shipped

from support import the_users_gobblet_table, without_the_gobblet_table


def _nodes(puzzle: Puzzle, key: Key) -> list[tuple[list[str], State[Any], Key]]:
    """Every turn of the solver in `key`: the moves to it, its position, its node."""
    start = parse_spec(puzzle.spec).parse_position(puzzle.position)
    found = []
    todo: list[tuple[list[str], State[Any], Key]] = [([], start, key)]
    while todo:
        played, state, node = todo.pop()
        found.append((played, state, node))
        for move, entry in node.items():
            if "next" in entry:
                after = state.play_text(move).play_text(entry["reply"])
                todo.append(([*played, move, entry["reply"]], after, entry["next"]))
    return found


def test_value_codes_read_back() -> None:
    for value in (Value.win(1), Value.win(13), Value.loss(0), Value.loss(4), Value.draw()):
        assert code_value(value_code(value)) == value
    with pytest.raises(ValueError, match="only a proven value"):
        value_code(Value.estimate(0.3))


def test_a_key_judges_every_move_as_its_prover_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    perfect = parse_player("perfect")
    puzzles = [p for p in mine(parse_spec("classic"), 8, seed=7) if p.plies >= 3]
    assert puzzles
    assert write_keys(puzzles, lambda _: perfect, tmp_path / "keys.jsonl.gz") == len(puzzles)
    monkeypatch.setattr(answer_keys, "KEYS", tmp_path / "keys.jsonl.gz")
    judged = 0
    for puzzle in puzzles:
        key = answer_key(puzzle)
        assert key is not None
        assert [m for m, e in key.items() if "value" not in e] == [puzzle.solution[0]]
        for played, state, node in _nodes(puzzle, key):
            assert sorted(node) == sorted(state.move_text(m) for m in state.legal_moves())
            for move in node:
                assert judge_by_key(puzzle, [*played, move]) == judge(puzzle, [*played, move], perfect)
                judged += 1
    assert judged > 3 * len(puzzles)


#: The shipped games whose puzzles have answer keys (`keyed_game`), and how many of them
#: at least.
#: At least this many shipped puzzles of each keyed game (qubic's wins in one are kept
#: to 15% of its puzzles: tools/puzzles).
KEYED = {"gobblet": 30, "qubic": 60}


def test_the_games_that_get_keys() -> None:
    specs = {p.spec for p in shipped()}
    assert {spec for spec in specs if keyed_game(parse_spec(spec))} == set(KEYED)
    assert not keyed_game(parse_spec("matryoshka")) and not keyed_game(parse_spec("classic"))
    assert not keyed_game(parse_spec("mnk:m=15:n=15:k=5"))  # one search a move, live


@pytest.mark.parametrize("spec", sorted(KEYED))
def test_every_shipped_keyed_puzzle_has_a_key_that_follows_its_line(spec: str) -> None:
    puzzles = [p for p in shipped() if p.spec == spec]
    assert len(puzzles) >= KEYED[spec]
    for puzzle in puzzles:
        key = answer_key(puzzle)
        assert key is not None, puzzle.id
        assert [m for m, e in key.items() if "value" not in e] == [puzzle.solution[0]]  # one answer
        node: Key | None = key
        for ply in range(0, len(puzzle.solution), 2):
            assert node is not None
            entry = node[puzzle.solution[ply]]
            assert "value" not in entry
            if ply + 1 < len(puzzle.solution):
                assert entry["reply"] == puzzle.solution[ply + 1]
            node = entry.get("next")
        assert node is None  # the line ends where the key does
        for _, state, node in _nodes(puzzle, key):
            assert sorted(node) == sorted(state.move_text(m) for m in state.legal_moves())


def test_gobblet_puzzles_are_judged_off_their_line_without_the_table(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    without_the_gobblet_table(monkeypatch, tmp_path)
    assert unprovable_here() == []
    alternatives = 0
    # Every move of every turn of the first 20 keys (the slow check compares every key
    # with the table's).
    for puzzle in [p for p in shipped() if p.spec == Gobblet().spec][:20]:
        key = answer_key(puzzle)
        assert key is not None
        for played, _, node in _nodes(puzzle, key):
            for move, entry in node.items():
                if [*played, move] == puzzle.solution[: len(played) + 1]:
                    continue
                judged = judge_by_key(puzzle, [*played, move])
                assert judged is not None
                assert judged.correct == ("value" not in entry)
                if judged.correct:
                    alternatives += 1  # another move that wins as quickly
                    assert judged.reply == entry.get("reply")
                elif judged.reply is not None:
                    assert judged.refutation[0] == judged.reply
                    assert "wins" in judged.verdict or "draw" in judged.verdict
    assert alternatives > 0
    puzzle = next(p for p in shipped() if p.spec == Gobblet().spec and p.plies >= 3)
    state = parse_spec(puzzle.spec).parse_position(puzzle.position).play_text(puzzle.solution[0])
    other = next(m for m in state.legal_moves() if state.move_text(m) != puzzle.solution[1])
    after = state.play(other)
    third = after.move_text(after.legal_moves()[0])
    with pytest.raises(IllegalMoveError, match="not the defender's"):
        judge_by_key(puzzle, [puzzle.solution[0], state.move_text(other), third])
    unkeyed = Puzzle(puzzle.spec, parse_spec(puzzle.spec).initial().to_text(), ["L5"], 13)
    assert judge_by_key(unkeyed, ["L1"]) is None
    with pytest.raises(InvalidOptionError, match="no exact prover for gobblet here"):
        judge(unkeyed, ["L1"], None)


@pytest.mark.slow
def test_the_shipped_gobblet_keys_are_those_its_table_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    the_users_gobblet_table(monkeypatch)
    perfect = parse_player("perfect")
    for puzzle in (p for p in shipped() if p.spec == Gobblet().spec):
        assert build_key(puzzle, perfect) == answer_key(puzzle), puzzle.id


def _off_the_line(puzzle: Puzzle, key: Key) -> list[list[str]]:
    """Moves to judge off `puzzle`'s stored line, from its key: a wrong first move, and
    at each later turn of the line a different winning follow-up and a wrong one, where
    there are."""
    found = []
    node: Key | None = key
    played: list[str] = []
    for ply in range(0, len(puzzle.solution), 2):
        assert node is not None
        others = [m for m in node if m != puzzle.solution[ply]]
        found += [[*played, m] for m in others if "value" in node[m]][:1]
        found += [[*played, m] for m in others if "value" not in node[m]][:1]
        played += puzzle.solution[ply : ply + 2]
        node = node[puzzle.solution[ply]].get("next")
    return found


def test_qubic_puzzles_are_judged_off_their_line_as_the_race_prover_judges() -> None:
    """A wrong move refuted and a different winning follow-up accepted, from the key (no
    search), as the live prover (`judge` with `ThreatProver`) judges them."""
    puzzles = [p for p in shipped() if p.spec == "qubic" and p.plies >= 3]
    player = ThreatProver()
    kinds = set()
    for puzzle in puzzles[:6]:
        key = answer_key(puzzle)
        assert key is not None
        for played in _off_the_line(puzzle, key):
            judged = judge_by_key(puzzle, played)
            assert judged == judge(puzzle, played, player), (puzzle.id, played)
            kinds.add((len(played) > 1, judged.correct))
            if judged.correct and len(played) > 1:
                # The defender's answer is the key's: the solving goes on from it.
                assert judged.reply is not None or judged.solved
    assert kinds >= {(False, False), (True, False), (True, True)}


def test_a_race_key_is_the_race_provers_judgement_of_every_move() -> None:
    """A short qubic puzzle's key, worked out again: the first move only the solution's,
    a later one correct when the defender is proved lost after it (`accepts`); every
    move of every turn judged as `judge` does."""
    puzzle = next(p for p in shipped() if p.spec == "qubic" and p.plies == 3)
    player = prover(parse_spec(puzzle.spec))
    key = build_key(puzzle, player)
    assert key == answer_key(puzzle)
    assert [m for m, e in key.items() if "value" not in e] == [puzzle.solution[0]]
    for played, state, node in _nodes(puzzle, key):
        assert sorted(node) == sorted(state.move_text(m) for m in state.legal_moves())
        for move in node:
            assert judge_by_key(puzzle, [*played, move]) == judge(puzzle, [*played, move], player)


def test_a_move_that_only_keeps_a_slower_win_is_not_the_way() -> None:
    """A race puzzle's "win in N" is won in N, as the searches bound it: in this gomoku
    puzzle a stone in the far corner at the second turn keeps x's attack (the
    defender has nothing against it) but does not win in the count, so it is wrong;
    the moves that win as fast as the line are accepted. Judged live (gomoku has no
    keys), each by one search from the move."""
    puzzle = next(p for p in shipped() if p.id == "7speimaq")
    player = prover(parse_spec(puzzle.spec))
    turn = puzzle.solution[:2]
    far = judge(puzzle, [*turn, "a1"], player)
    assert not far.correct and far.refutation == [] and "no forced win found" in far.verdict
    assert judge(puzzle, [*turn, "e14"], player).correct  # another way, as quick as the line's
    assert judge(puzzle, [*turn, puzzle.solution[2]], player).correct


@pytest.mark.slow
def test_the_shipped_qubic_keys_are_those_the_prover_gives() -> None:
    for puzzle in (p for p in shipped() if p.spec == "qubic"):
        assert build_key(puzzle, prover(parse_spec(puzzle.spec))) == answer_key(puzzle), puzzle.id


def test_the_command_writes_every_keyed_games_keys_in_one_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`noughts puzzles keys`: the keys of a file's qubic puzzles worked out, its gobblet
    puzzles' kept without the table, the others' none (gomoku's judged live); the same bytes
    again; and without a kept key for a gobblet puzzle, a clear refusal."""
    without_the_gobblet_table(monkeypatch, tmp_path)
    chosen = [
        p for spec in ("gobblet", "qubic", "mnk:m=15:n=15:k=5") for p in [q for q in shipped() if q.spec == spec][:2]
    ]
    chosen += list(mine(parse_spec("classic"), 1, seed=7))
    assert {p.spec for p in chosen} == {"gobblet", "qubic", "mnk:m=15:n=15:k=5", "classic"}
    file = tmp_path / "puzzles.jsonl"
    file.write_text("".join(json.dumps(p.to_json()) + "\n" for p in chosen), encoding="utf-8")
    out = tmp_path / "keys.jsonl.gz"
    out.write_bytes(answer_keys.KEYS.read_bytes())
    assert main(["puzzles", "keys", str(file), "--out", str(out)]) == 0
    said = capsys.readouterr()
    assert "gobblet: the keys there are kept" in said.err
    written = answer_keys.answer_keys(out)
    keyed = [p for p in chosen if p.spec in ("gobblet", "qubic")]
    assert list(written) == [p.id for p in keyed]  # in the file's order
    assert all(written[p.id] == answer_key(p) for p in keyed)
    first = out.read_bytes()
    assert main(["puzzles", "keys", str(file), "--out", str(out)]) == 0
    assert out.read_bytes() == first
    with pytest.raises(SystemExit, match="answer keys are for"):
        main(["puzzles", "keys", str(file), "--out", str(out), "--game", "classic"])
    out.unlink()
    with pytest.raises(SystemExit, match="no prover here for the puzzles"):
        main(["puzzles", "keys", str(file), "--out", str(out), "--game", "gobblet"])
