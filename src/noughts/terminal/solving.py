"""``noughts puzzle``: solving puzzles in the terminal, from the shipped file (or one's
own): type the winning move; the defender answers from the stored line; a move off the
line is judged from the puzzle's answer key (`noughts.study.answer_keys`), else by the
exact prover (another move that still wins counts); a wrong move
gets its refutation. ``h`` marks the next move, ``s`` plays the solution, ``n`` goes on
to the next puzzle, ``q`` stops. With input that is not a terminal the same commands
are read line by line, so the game can be scripted."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from noughts.ai.base import AIPlayer, Limits
from noughts.core import InvalidOptionError, NoughtsError, State
from noughts.registry import parse_spec, title
from noughts.study.answer_keys import judge_by_key
from noughts.study.puzzles import SHIPPED, Puzzle, judge, on_line, prover, read_puzzles
from noughts.terminal.render import render

__all__ = ["Solving", "choose_puzzles", "solved_words"]

Reader = Callable[[str], str]

_KEYS = "type a move · h hint · s solution · n next puzzle · q quit"


def choose_puzzles(
    path: Path = SHIPPED, spec: str | None = None, theme: str | None = None, seed: int | None = None
) -> list[Puzzle]:
    """The puzzles of `path` of game `spec` and `theme`, easiest first, shuffled within
    each band of 200 rating points by `seed` (a different order every run without one)."""
    found = [
        p
        for p in read_puzzles(path)
        if (spec is None or p.spec == parse_spec(spec).spec) and (theme is None or theme in p.themes)
    ]
    rng = random.Random(seed)
    keyed = [(p.difficulty // 200, rng.random(), p) for p in found]
    return [p for _, _, p in sorted(keyed, key=lambda item: item[:2])]


@dataclass
class _Score:
    solved: int = 0
    tried: int = 0


def solved_words(hinted: bool, wrong: int) -> str:
    """What a solved puzzle says: a hint and a wrong move are different help, and either
    makes the puzzle not solved at the first try (the score counts only those), as lichess
    counts a puzzle failed once as failed."""
    if not hinted and not wrong:
        return "✓ solved!"
    how = [
        *(["with a hint"] if hinted else []),
        *([f"after {wrong} wrong {'move' if wrong == 1 else 'moves'}"] if wrong else []),
    ]
    return f"✓ solved, {' and '.join(how)}: not counted as solved at the first try"


class Solving:
    """One terminal session of puzzles, one after another."""

    def __init__(self, console: Console, read: Reader, limits: Limits = Limits(time=2)) -> None:
        self.console = console
        self.read = read
        self.limits = limits
        self.provers: dict[Any, AIPlayer | None] = {}
        self.score = _Score()

    def _prover(self, puzzle: Puzzle) -> AIPlayer | None:
        """The game's prover, or None where this machine has none (gobblet before its
        table is built: its shipped puzzles are judged from their answer keys)."""
        game = parse_spec(puzzle.spec)
        if game not in self.provers:
            try:
                self.provers[game] = prover(game)
            except InvalidOptionError:
                self.provers[game] = None
        return self.provers[game]

    def run(self, puzzles: list[Puzzle]) -> int:
        if not puzzles:
            self.console.print("no puzzle matches: try another game or theme")
            return 1
        self.console.print(_KEYS)
        for number, puzzle in enumerate(puzzles, start=1):
            outcome = self.solve(puzzle, number, len(puzzles))
            if outcome == "quit":
                break
        self.console.print(f"{self.score.solved} of {self.score.tried} solved at the first try")
        return 0

    def _show(self, state: State[Any], last: Any) -> None:
        self.console.print(render(state, last, self.console.width), crop=False, overflow="ignore")

    def solve(self, puzzle: Puzzle, number: int, total: int) -> str:
        """Plays one puzzle; "solved", "next" or "quit"."""
        game = parse_spec(puzzle.spec)
        start = game.parse_position(puzzle.position)
        solver = start.turn
        moves = (len(puzzle.solution) + 1) // 2
        self.console.print()
        self.console.print(
            Text(f"puzzle {number} of {total} · {puzzle.id} · {title(game)} · rating {puzzle.difficulty}", style="bold")
        )
        self.console.print(f"themes: {', '.join(puzzle.themes)}")
        self.console.print(
            f"{solver.value.upper()} to move: find the winning move (it wins by force in "
            f"{'at most ' if puzzle.bound else ''}{moves} "
            f"{'move' if moves == 1 else 'moves'})"
        )
        self.score.tried += 1
        hinted, wrong = False, 0
        played: list[str] = []
        state: State[Any] = start
        last: Any = None
        self._show(state, None)
        while True:
            try:
                entry = self.read("puzzle> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return "quit"
            word = entry.lower()
            if word in ("q", "quit"):
                return "quit"
            if word in ("n", "next"):
                return "next"
            if word in ("h", "hint"):
                hinted = True
                self.console.print(
                    f"hint: {puzzle.solution[len(played)]}" if len(played) < len(puzzle.solution) else ""
                )
                continue
            if word in ("s", "solution"):
                self.console.print("solution: " + " ".join(puzzle.solution))
                state, last = start, None
                for text in puzzle.solution:
                    last = game.parse_move(text)
                    state = state.play(last)
                self._show(state, last)
                return "next"
            if not entry:
                continue
            try:
                move = game.parse_move(entry)
                after = state.play(move)
            except NoughtsError as e:
                self.console.print(f"[red]{e}[/red]", highlight=False)
                continue
            tried = [*played, state.move_text(move)]
            # The prover is built (a table, a compiled search) only for a move off the line.
            judged = (
                on_line(puzzle, tried)
                or judge_by_key(puzzle, tried)
                or judge(puzzle, tried, self._prover(puzzle), self.limits)
            )
            correct, done, answer = judged.correct, judged.solved, judged.reply
            refutation, verdict = judged.refutation, judged.verdict
            if not correct:
                wrong += 1
                said = f"{tried[-1]} is not the move"
                if answer:
                    said += f": {answer} refutes it ({verdict}; the line: {' '.join(refutation)})"
                    reply_move = game.parse_move(answer)
                    self._show(after.play(reply_move), reply_move)
                self.console.print(f"[red]✗ {said}.[/red] Try again.", highlight=False)
                self._show(state, last)
                continue
            played, state, last = tried, after, move
            if done:
                self._show(state, last)
                if not hinted and not wrong:
                    self.score.solved += 1
                self.console.print(Text(solved_words(hinted, wrong), style="bold green"))
                return "solved"
            assert answer is not None  # a correct move that does not end the line has a reply
            self.console.print(f"✓ best move. {solver.other.value.upper()} answers {answer}")
            last = game.parse_move(answer)
            state = state.play(last)
            played = [*played, answer]
            self._show(state, last)
