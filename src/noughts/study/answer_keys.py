"""Answer keys: a puzzle's judgement of every move the solver can make on the way to the
win, worked out once by the exact prover and shipped with the puzzles, so that any
server or terminal judges them as the prover would, without it.

Which games have them (`keyed_game`), and why:

* gobblet: its prover is its solved table, which each user builds once (``noughts
  solve gobblet``: minutes of a core and 443 MB). Without keys a new installation
  could not judge a gobblet puzzle's move off the stored line, so it could not offer
  them at all.
* qubic: its race prover (`ThreatProver`) is at hand, but judging a move off the line
  searches every reply of the defender where no single search settles it: up to 3.2
  seconds of a core a move in the shipped puzzles (``bench/puzzle_judging.py``); from
  a key, at most a millisecond. Not gomoku's: a move there is judged live by one
  search from it (`ThreatProver.forces`, about a second at most), and a key would
  judge two hundred moves a turn, hours of work for the shipped puzzles.

What a key holds: at each of the solver's turns, every legal move, judged as `judge`
judges it; a correct move's entry goes on after the defender's reply, a wrong one's
holds the defender's best line against it and what the position is then worth.

* With an exact table (`perfect`: gobblet), a move that still wins within the
  puzzle's count of plies (a "win in N" is won in N: a quickest move) is correct,
  the reply is the defender's longest resistance, and the key branches only where
  several moves win equally fast.
* With a race prover the key is made by the very functions `judge` uses: the first
  move is correct only if it is the solution's, a later one when the searches prove
  its win within the puzzle's count (`accepts`), answered by the stored line's reply
  on it and by `reply` off it; a wrong move holds the defender's win that one search
  finds (`ThreatProver.winning`), or nothing where none is proved. The count keeps
  the key finite: a winner delaying with forcing moves is not winning in N.

A key is a tree of plain JSON: ``{move: entry}`` for one turn of the solver, where a
correct entry is ``{"reply": MOVE, "next": {...}}`` (``"next"`` left out when the reply
ends the game; ``{}`` when the move itself ends the puzzle), and a
wrong one is ``{"value": CODE, "line": [MOVE, ...]}``: the value for the defender, to
move, in the solved tables' code (`noughts.ai.exact.code_value`, its plies a bound
where a race prover made the key; null when the move
ended the game, or when a race prover proves nothing there), and the defender's best
line (empty when nothing is proved). The file holds one JSON object a line, ``{"id": PUZZLE_ID, "key": {...}}``, in the
puzzles' file order, compressed with gzip (no time stamp: the same puzzles and provers
make the same bytes). The shipped file (`KEYS`) is written by ``noughts puzzles keys``,
which works out the keys of every keyed game of the shipped puzzles in one run (and
keeps gobblet's where its table is not built). Run it again after adding puzzles or
changing a prover: the slow tests fail until it has.
"""

from __future__ import annotations

import functools
import gzip
import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from noughts.ai.base import AIPlayer, Kind, Limits, Value
from noughts.ai.capabilities import capabilities
from noughts.ai.exact import code_value, value_code
from noughts.ai.solve import PerfectPlayer
from noughts.core import Game, IllegalMoveError, InvalidOptionError, State
from noughts.games.gobblet import Gobblet
from noughts.registry import parse_spec
from noughts.study.puzzles import (
    Judged,
    Puzzle,
    ThreatProver,
    accepts,
    ended,
    missed,
    prover,
    reply,
    resistance,
    shipped,
)

__all__ = [
    "KEYS",
    "answer_key",
    "answer_keys",
    "build_key",
    "judge_by_key",
    "keyed",
    "keyed_game",
    "unprovable_here",
    "verify_by_key",
    "write_keys",
]

#: The answer keys of the shipped puzzles of the games that have them (`keyed_game`).
KEYS = Path(__file__).resolve().parent / "data" / "answer-keys.jsonl.gz"

Key = dict[str, dict[str, Any]]


def build_key(puzzle: Puzzle, player: AIPlayer, limits: Limits = Limits()) -> Key:
    """`puzzle`'s answer key from its prover `player`: see the module's docstring; an
    exact table (`perfect`) judges by the puzzle's count of plies, any other prover as
    `accepts` does (the race provers: the defender proved lost). ValueError when a
    value along the way is not proven (exact tables)."""
    state = parse_spec(puzzle.spec).parse_position(puzzle.position)
    if isinstance(player, PerfectPlayer):
        return _turn(state, puzzle.plies, player, limits, puzzle.solution)
    if not isinstance(player, ThreatProver):
        raise ValueError(f"no answer keys with {player.name}: a solved table or a race prover")
    return _race_turn(puzzle, state, [], player, limits)


def _turn(state: State[Any], left: int, player: AIPlayer, limits: Limits, stored: list[str]) -> Key:
    """The key from `state`, the solver to move, with `left` plies to win in; `stored`:
    the rest of the puzzle's line from here when `state` is on it (else empty), whose
    replies the key keeps (the line is what the solver is answered with first)."""
    node: Key = {}
    for info in player.analyze(state, limits).moves:
        child = state.play(info.move)
        won = info.value.kind is Kind.WIN and (info.value.plies or 0) <= left
        if child.is_over:
            node[info.text] = {} if won else {"value": None, "line": []}
            continue
        answer = player.analyze(child, limits)
        on_line = won and len(stored) > 1 and stored[0] == info.text
        if on_line:
            best = next(m for m in answer.moves if m.text == stored[1])
        else:
            best = resistance(child, answer) if won else answer.moves[0]
        if not won:
            line = list(best.line) if best.line and best.line[0] == best.text else [best.text]
            node[info.text] = {"value": value_code(best.value), "line": line}
            continue
        after = child.play(best.move)
        entry: dict[str, Any] = {"reply": best.text}
        if not after.is_over:
            entry["next"] = _turn(after, left - 2, player, limits, stored[2:] if on_line else [])
        node[info.text] = entry
    return node


def _race_turn(puzzle: Puzzle, state: State[Any], played: list[str], player: ThreatProver, limits: Limits) -> Key:
    """The key from `state`, after `played`, the solver to move, judged with the very
    functions `judge` uses with a race prover: the stored line as it stands, the first
    move only the solution's, a later one when the searches prove its win within the
    puzzle's count (`accepts`), then answered by `reply`; a wrong move's refutation the
    defender's win one search finds (`ThreatProver.winning`), or none (value null)."""
    node: Key = {}
    for move in state.legal_moves():
        text = state.move_text(move)
        tried = [*played, text]
        child = state.play(move)
        entry: dict[str, Any]
        if tried == puzzle.solution[: len(tried)]:
            answer = puzzle.solution[len(tried)] if len(tried) < len(puzzle.solution) else None
        elif accepts(puzzle, tried, player, limits):
            answer = None if child.is_over else reply(puzzle, tried, player, limits)
        elif child.is_over:
            node[text] = {"value": None, "line": []}
            continue
        else:
            found = player.winning(child)
            node[text] = {"value": None, "line": []} if found is None else {
                "value": value_code(found.value, bound_ok=True), "line": [found.moves[0].text]
            }  # fmt: skip
            continue
        entry = {}
        if answer is not None:
            entry["reply"] = answer
            after = child.play_text(answer)
            if not after.is_over:
                entry["next"] = _race_turn(puzzle, after, [*tried, answer], player, limits)
        node[text] = entry
    return node


def keyed_game(game: Game[Any, Any]) -> bool:
    """Whether the puzzles of `game` get answer keys: gobblet's (its prover is a table
    each user builds) and qubic's, whose live searches take up to seconds a move off
    the stored line (see the module's docstring for why not gomoku's). Not the other
    games: their provers are at hand and quick where puzzles are (the small tables,
    the compiled searches near the end of ultimate and nine-board, one search from a
    gomoku move)."""
    found = capabilities(game)
    return found.table == "command" or (game.variant.board == "qubic" and found.prover == "threats")


def _prover_of(game: Game[Any, Any]) -> AIPlayer | None:
    try:
        return prover(game)
    except InvalidOptionError:
        return None


def write_keys(
    puzzles: Iterable[Puzzle],
    player_of: Callable[[Puzzle], AIPlayer | None],
    path: Path | None = None,
    kept: Mapping[str, Key] | None = None,
) -> int:
    """Writes the answer keys of `puzzles`, in their order, to `path` (default `KEYS`);
    how many were written. `player_of(puzzle)` gives each one's prover; where it gives
    None the puzzle keeps its key of `kept` (by id), if it has one there."""
    path = path or KEYS
    lines = []
    for puzzle in puzzles:
        player = player_of(puzzle)
        key = build_key(puzzle, player) if player is not None else (kept or {}).get(puzzle.id)
        if key is not None:
            lines.append(json.dumps({"id": puzzle.id, "key": key}, separators=(",", ":")))
    # mtime=0: the same keys make the same bytes, so a rebuild shows no change in git.
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write("".join(line + "\n" for line in lines).encode("utf-8"))
    _read.cache_clear()
    return len(lines)


def answer_keys(path: Path | None = None) -> dict[str, Key]:
    """The keys of the file at `path` (default `KEYS`), by puzzle id; none if it is missing."""
    return _read(path or KEYS)


@functools.cache
def _read(path: Path) -> dict[str, Key]:
    if not path.exists():
        return {}
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return {entry["id"]: entry["key"] for entry in map(json.loads, lines) if entry}


def answer_key(puzzle: Puzzle) -> Key | None:
    """The shipped answer key of `puzzle`, if it has one."""
    return answer_keys().get(puzzle.id)


def keyed(puzzles: Iterable[Puzzle]) -> bool:
    """Whether every one of `puzzles` has a shipped answer key."""
    keys = answer_keys()
    return all(p.id in keys for p in puzzles)


def judge_by_key(puzzle: Puzzle, played: list[str]) -> Judged | None:
    """The judgement of the solver's last move of `played` (both sides' moves from the
    puzzle's position) from the puzzle's answer key; None when it has none. The moves
    must be legal (InvalidMoveError, IllegalMoveError) and the defender's the key's
    replies (IllegalMoveError: the key judges the puzzle's line, not other games)."""
    key = answer_key(puzzle)
    if key is None:
        return None
    state = parse_spec(puzzle.spec).parse_position(puzzle.position)
    for text in played:
        state = state.play_text(text)
    node = key
    for ply in range(0, len(played) - 1, 2):
        entry = node[played[ply]]
        if "reply" not in entry or entry["reply"] != played[ply + 1] or "next" not in entry:
            raise IllegalMoveError(
                f"move {ply + 2} ({played[ply + 1]}) is not the defender's: the puzzle answers "
                f"{played[ply]} with {entry.get('reply', 'nothing')}"
            )
        node = entry["next"]
    entry = node[played[-1]]
    if "value" not in entry:
        return Judged(True, "next" not in entry, entry.get("reply"))
    if state.is_over:
        return Judged(False, False, None, [], ended(state))
    line = entry["line"]
    # null: the race provers prove nothing after the move (`missed` says so). Their
    # searches bound the plies; a table's are exact.
    race = isinstance(_prover_of(state.game), ThreatProver)
    value = Value(Kind.UNKNOWN) if entry["value"] is None else code_value(entry["value"], bound=race)
    return Judged(False, False, line[0] if line else None, line, missed(puzzle, played, value, state.turn))


def verify_by_key(puzzle: Puzzle, key: Key) -> str | None:
    """Check `puzzle` against its answer key where its prover is not here (gobblet
    before its table is built): None when they agree, else what does not. The key was
    worked out by the exact prover, so this checks the stored puzzle (a line edited or
    corrupted, a first move the key does not hold the only correct one, a line of
    another length than the key's win) and the position and line again by the rules;
    it proves nothing new. Agreement: at each of the solver's turns the line's move
    is correct in the key (at the first, the only correct move) and the defender's
    replies are the key's; the line is `plies` long and ends in the solver's win."""
    state = parse_spec(puzzle.spec).parse_position(puzzle.position)
    solver = state.turn
    if len(puzzle.solution) != puzzle.plies:
        return f"the line is {len(puzzle.solution)} plies long, the puzzle says {puzzle.plies}"
    correct = [move for move, entry in key.items() if "value" not in entry]
    if correct != [puzzle.solution[0]]:
        return f"the answer key's winning moves are {correct}, not only {puzzle.solution[0]}"
    node: Key | None = key
    for ply, text in enumerate(puzzle.solution):
        if state.is_over:
            return "the line goes on after the end"
        state = state.play_text(text)
        if ply % 2 == 1:
            continue
        entry = (node or {}).get(text)
        if entry is None or "value" in entry:
            return f"the answer key does not hold {text} (move {ply + 1}) correct"
        if entry.get("reply") != (puzzle.solution[ply + 1] if ply + 1 < len(puzzle.solution) else None):
            return f"the answer key answers {text} (move {ply + 1}) with {entry.get('reply')}"
        node = entry.get("next")
    if state.outcome is None or state.outcome.winner is not solver:
        return "the line does not end in the winner's win"
    return None


def unprovable_here() -> list[str]:
    """The games of the shipped puzzles that this machine could not judge off the stored
    line: gobblet's when ``noughts solve gobblet`` has not built its table and the
    shipped answer keys do not cover them. A server keeps their puzzles but does not
    offer them."""
    from noughts.ai import gobblet_table

    game = Gobblet()
    if gobblet_table.is_built(game) or keyed(p for p in shipped() if p.spec == game.spec):
        return []
    return [game.spec]
