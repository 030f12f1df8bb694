"""``noughts play`` through a real pseudo-terminal: the prompt, the commands, whole games,
and every way a game can end (a result, quit, Ctrl-C, end of input)."""

from __future__ import annotations

import random
import re
import signal
from pathlib import Path

import pexpect
import pytest

from noughts.records import GameRecord

YOUR_MOVE_X = r"your move \(X\): "
AGAIN = r"Play again\? \[Y/n\] "
SAVED = r"saved to (\S+)\r?\n"


def record_at(child: pexpect.spawn, directory: Path) -> GameRecord:
    """The record whose file the last SAVED match named."""
    return GameRecord.parse((directory / child.match.group(1)).read_text(encoding="utf-8"))


def finish(child: pexpect.spawn, status: int = 0) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status


def interrupt_at_the_prompt(child: pexpect.spawn, answer: str, signum: int | None = None) -> None:
    """Ctrl-C (or the signal `signum`) at a prompt that is on the screen, until `answer`
    comes: sent again if the first was lost.

    CPython's input() with readline shows the prompt and only then blocks in select();
    a signal that lands in between is noted but does not wake the select, so that it
    does nothing until the next key (seen in CI on loaded machines, for SIGINT and
    SIGTERM). A person presses Ctrl-C again, a system sends SIGTERM again before
    SIGKILL; so does this test, after a pause no healthy run needs."""

    def send() -> None:
        if signum is None:
            child.sendintr()
        else:
            child.kill(signum)

    send()
    if child.expect([answer, pexpect.TIMEOUT], timeout=5) == 1:
        send()
        child.expect(answer)


def play_cells_until_the_end(child: pexpect.spawn, prompt: str, order: list[str]) -> str:
    """Offer the cells in `order` at every prompt (a taken one is refused and the next is
    tried) until the game is over; the text of the game's last screen."""
    for cell in order:
        if child.expect([prompt, AGAIN]) == 1:
            return str(child.before)
        child.sendline(cell)
    child.expect(AGAIN)
    return str(child.before)


def test_an_illegal_entry_gets_a_reason_and_the_prompt_again(spawn) -> None:
    child = spawn("play", "classic", "--level", "easy", "--seed", "1")
    child.expect(YOUR_MOVE_X)
    child.sendline("0")
    child.expect(r"'0' is not a cell: cells are numbered 1 to 9 \(help lists the commands\)\r\n")
    child.expect(YOUR_MOVE_X)
    child.sendline("nonsense")
    child.expect(r"'nonsense' is not a move")
    child.expect(YOUR_MOVE_X)
    child.sendline("5")
    child.expect(r"the computer \(O\) plays (\d)")
    child.expect(YOUR_MOVE_X)
    child.sendline("5")
    child.expect(r"cell 5 is taken")
    child.expect(YOUR_MOVE_X)
    child.sendline("quit")
    finish(child)


def test_nobody_beats_level_max_at_classic(spawn, tmp_path: Path) -> None:
    for seed, side in [(1, "x"), (2, "x"), (3, "o")]:
        order = [str(c) for c in range(1, 10)]
        random.Random(seed).shuffle(order)
        child = spawn("play", "classic", "--level", "max", "--as", side, "--seed", str(seed))
        last_screen = play_cells_until_the_end(child, rf"your move \({side.upper()}\): ", order)
        verdict = re.search(r"Game over: .* — (.*)\r\n", last_screen)
        assert verdict is not None
        assert verdict.group(1) in ("the computer wins.", "a draw.")
        saved = re.search(SAVED, last_screen)  # the record is written before the question
        assert saved is not None
        record = GameRecord.parse((tmp_path / saved.group(1)).read_text(encoding="utf-8"))
        assert record.result in ("draw", "o-wins" if side == "x" else "x-wins")
        child.sendline("n")
        finish(child)


def test_two_people_play_to_a_win_and_the_record_is_saved(spawn, tmp_path: Path) -> None:
    child = spawn("play", "classic", "--vs", "human", "--record", "game.txt")
    for move, who in zip(["1", "4", "2", "5", "3"], ["player 1 (X)", "player 2 (O)"] * 3, strict=False):
        child.expect_exact(f"{who}: ")
        child.sendline(move)
    child.expect(r"Game over: x wins — player 1 wins!")
    child.expect(SAVED)
    assert child.match.group(1) == "game.txt"
    record = record_at(child, tmp_path)
    assert (record.moves, record.result, record.x, record.o) == (
        ["1", "4", "2", "5", "3"],
        "x-wins",
        "player 1",
        "player 2",
    )
    child.expect(AGAIN)
    child.sendline("maybe")
    child.expect("Answer y or n.")
    child.expect(AGAIN)
    child.sendline("y")
    # The other player moves first in the next game.
    child.expect_exact("game 2: classic — player 1 plays O, player 2 plays X")
    child.expect_exact("player 2 (X): ")
    child.sendline("quit")
    finish(child)
    assert not (tmp_path / "game-2.txt").exists()  # no moves, nothing to keep


def test_against_the_computer_the_first_move_alternates(spawn) -> None:
    child = spawn("play", "classic", "--level", "easy", "--seed", "4")
    play_cells_until_the_end(child, YOUR_MOVE_X, [str(c) for c in range(1, 10)])
    child.sendline("")
    child.expect_exact("game 2: classic — you play O, the computer X at level easy")
    child.expect(r"the computer \(X\) plays \d")
    child.expect(r"your move \(O\): ")
    child.sendline("quit")
    child.expect(r"quit: the game so far is saved to \S+")
    finish(child)


def test_ctrl_c_at_the_prompt_saves_a_readable_record(spawn, tmp_path: Path) -> None:
    child = spawn("play", "classic", "--level", "medium", "--seed", "5")
    child.expect(YOUR_MOVE_X)
    child.sendline("5")
    child.expect(r"the computer \(O\) plays (\d)")
    reply = child.match.group(1)
    child.expect(YOUR_MOVE_X)
    interrupt_at_the_prompt(child, r"interrupted: the game so far is " + SAVED)
    record = record_at(child, tmp_path)
    assert record.moves == ["5", reply]
    assert (record.result, record.termination) == ("ongoing", "abandoned")
    assert "Traceback" not in str(child.before)
    finish(child, 130)


def test_quitting_before_any_move_says_there_is_nothing_to_save(spawn, tmp_path: Path) -> None:
    child = spawn("play", "classic")
    child.expect(YOUR_MOVE_X)
    child.sendline("quit")
    child.expect_exact("quit: no moves were played, so there is no record to save")
    finish(child)
    assert list(tmp_path.glob("noughts-*")) == []


@pytest.mark.parametrize(("name", "why"), [("SIGTERM", "terminated"), ("SIGHUP", "hung up")])
def test_a_stop_signal_saves_the_record(spawn, tmp_path: Path, name: str, why: str) -> None:
    signum = getattr(signal, name)
    child = spawn("play", "nine-board", "--vs", "human")
    child.expect_exact("player 1 (X): ")
    child.sendline("55")
    child.expect_exact("player 2 (O): ")
    interrupt_at_the_prompt(child, why + r": the game so far is " + SAVED, signum)
    record = record_at(child, tmp_path)
    assert record.moves == ["55"]
    assert (record.result, record.termination) == ("ongoing", "abandoned")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 128 + signum


def test_ctrl_c_while_the_computer_thinks(spawn, tmp_path: Path) -> None:
    child = spawn("play", "ultimate", "--level", "max", "--seed", "1", "--record", "ult.txt")
    child.expect(YOUR_MOVE_X)
    child.sendline("55")
    child.expect("the computer is thinking")  # the spinner's message
    child.sendintr()
    child.expect(r"interrupted: the game so far is " + SAVED)
    assert child.match.group(1) == "ult.txt"
    assert record_at(child, tmp_path).moves == ["55"]
    finish(child, 130)


def test_end_of_input_saves_the_record(spawn, tmp_path: Path) -> None:
    child = spawn("play", "gobblet", "--vs", "human")
    child.expect_exact("player 1 (X): ")
    child.sendline("L5")
    child.expect_exact("player 2 (O): ")
    child.sendeof()
    child.expect(r"end of input: the game so far is " + SAVED)
    name = child.match.group(1)
    assert re.fullmatch(r"noughts-gobblet-\d{8}-\d{6}\.txt", name)
    assert record_at(child, tmp_path).moves == ["L5"]
    finish(child)


def test_hint_moves_save_undo_and_help(spawn, tmp_path: Path) -> None:
    child = spawn("play", "classic", "--level", "max", "--seed", "1")
    child.expect(YOUR_MOVE_X)
    child.sendline("undo")
    child.expect_exact("nothing to undo yet")
    child.sendline("hint")
    child.expect(r"hint: \d \(exact: a draw with best play[;)]")  # every first move of tic-tac-toe draws
    child.expect(YOUR_MOVE_X)
    child.sendline("5")
    child.expect(r"the computer \(O\) plays (\d)")
    reply = child.match.group(1)
    child.expect(YOUR_MOVE_X)
    child.sendline("moves")
    child.expect_exact(f"1. 5 {reply}")
    child.sendline("save mid.json")
    child.expect_exact("saved to mid.json")
    saved = GameRecord.parse((tmp_path / "mid.json").read_text(encoding="utf-8"))
    assert saved.moves == ["5", reply]
    assert (saved.result, saved.termination) == ("ongoing", "unterminated")  # saved mid-game
    child.sendline("undo")
    child.expect_exact(f"took back 5 {reply}")
    child.expect(YOUR_MOVE_X)
    child.sendline("moves")
    child.expect_exact("no moves yet")
    child.sendline("help")
    child.expect_exact("Players take turns putting their mark")
    child.expect_exact("hint       what the computer would play here")
    child.sendline("save")
    child.expect_exact("save needs a file name: save FILE")
    child.sendline("quit")
    finish(child)
    assert list(tmp_path.glob("noughts-*")) == []  # everything was taken back


def test_a_hint_in_a_solved_game_gives_exact_values_at_every_level(spawn) -> None:
    # medium, the default, searches with a heuristic; its hint reads the solved table.
    child = spawn("play", "classic", "--seed", "2")
    child.expect(YOUR_MOVE_X)
    child.sendline("hint")
    child.expect(r"hint: \d \(exact: a draw with best play[;)]")
    child.expect(r"next best: \d \(draws[;)].*\d \(draws[;)].*\d \(draws[;)]")
    child.sendline("quit")
    finish(child)


def test_explain_shows_the_value_of_every_move(spawn) -> None:
    child = spawn("play", "classic", "--level", "max", "--explain", "--seed", "1")
    child.expect(YOUR_MOVE_X)
    child.sendline("1")
    # Only the centre holds against a corner; said in the words of the analysis board.
    child.expect(r"the computer \(O\) plays 5 — a draw with best play +\[\d+\.\d\d s\]")
    child.expect_exact("its best moves, for O:")
    child.expect(r"5 +draws\r?\n +\d +loses in \d moves?")
    child.expect(r"and 3 more, (each loses in \d moves?|the worst: loses in \d moves?)")
    child.expect(r"\(perfect; [\d,]+ positions in \d+\.\d\d s")
    child.sendline("quit")
    finish(child)


def test_friendly_aliases(spawn) -> None:
    child = spawn("play", "ultimate", "--vs", "human")
    child.expect_exact("player 1 (X): ")
    child.sendline("5 5")
    child.expect_exact("player 2 (O): ")
    child.sendline("1")  # sent to board 5: the cell alone
    child.expect_exact("last move: O 51")
    child.expect_exact("player 1 (X): ")
    child.sendline("56")
    child.expect_exact("you must play in board 1")
    child.sendline("2")
    child.expect_exact("last move: X 12")
    child.sendline("quit")
    finish(child)
    child = spawn("play", "gobblet", "--vs", "human")
    child.expect_exact("player 1 (X): ")
    child.sendline("large 5")
    child.expect_exact("player 2 (O): ")
    child.sendline("small 5")
    child.expect_exact("cell 5 holds a large figure: nothing can cover it")
    child.sendline("quit")
    finish(child)


def test_options_as_flags_and_words(spawn) -> None:
    child = spawn("play", "classic", "--forget", "--vs", "human")
    child.expect_exact("game 1: classic:forget")
    child.sendline("quit")
    finish(child)
    child = spawn("play", "ultimate", "forget", "keep=4", "--vs", "human")
    child.expect_exact("game 1: ultimate:forget=true:keep=4")
    child.sendline("quit")
    finish(child)
    child = spawn("play", "classic", "--keep", "4")
    child.expect_exact("noughts: keep only applies in Forget mode (add forget=true)")
    finish(child, 2)


def test_the_menu(spawn) -> None:
    child = spawn("play")
    child.expect_exact("game (number or name) [1]: ")
    child.sendline("42")
    child.expect_exact("'42' is not one of")
    child.sendline("qubic")
    child.expect_exact("a friend at this keyboard [1]: ")
    child.sendline("2")
    child.expect_exact("player 1 plays (x moves first) [x]: ")
    child.sendline("o")
    child.expect_exact("game 1: qubic — player 1 plays O, player 2 plays X")
    child.expect_exact("layer 4")
    child.expect_exact("player 2 (X): ")
    child.sendline("111")
    child.expect_exact("player 1 (O): ")
    child.sendeof()
    child.expect(r"end of input: the game so far is saved to \S+")
    finish(child)
