"""Looking back and looking ahead: stepping through a saved game (``noughts replay``) and
the computer's analysis of one position (``noughts analyze``)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from noughts.ai.base import Analysis, Limits
from noughts.ai.levels import level_player, level_spec
from noughts.core import MAX_DIGITS, State, shown
from noughts.records import GameRecord
from noughts.terminal.render import render
from noughts.terminal.session import Reader
from noughts.terminal.thinking import table_note, think
from noughts.terminal.values import value_legend

__all__ = ["analysis_text", "replay", "show_analysis"]

_REPLAY_KEYS = "Enter or n: next, p: previous, a number: that move, q: quit"


def _header(record: GameRecord) -> str:
    """The record's first line, as markup: its names and date escaped (a name such as
    "[red]ann" is shown as it is written)."""
    parts = [record.game.spec, f"X: {escape(record.x)}", f"O: {escape(record.o)}"]
    if record.date:
        parts.append(escape(record.date))
    result = record.result if record.termination == "normal" else f"{record.result} ({record.termination})"
    parts.append(f"result: {result}")
    return " · ".join(parts)


def _position(console: Console, record: GameRecord, states: list[State[Any]], ply: int) -> None:
    state = states[ply]
    last = state.game.parse_move(record.moves[ply - 1]) if ply else None
    title = "start" if ply == 0 else f"move {ply} of {len(record.moves)}"
    console.print()
    console.print(Text(title, style="bold"))
    console.print(render(state, last, console.width), crop=False, overflow="ignore")


def replay(console: Console, record: GameRecord, read: Reader | None) -> int:
    """Step through `record`, one position per key press; with no `read` (input is not a
    terminal) print every position one after another."""
    states = record.replay()
    console.print(_header(record), highlight=False)
    if read is None:
        for ply in range(len(states)):
            _position(console, record, states, ply)
        return 0
    console.print(_REPLAY_KEYS)
    ply = 0
    _position(console, record, states, ply)
    last = len(states) - 1
    while True:
        try:
            entry = read("replay> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return 0
        if entry in ("", "n", "next"):
            if ply == last:
                console.print("that was the last move (p: back, q: quit)")
                continue
            ply += 1
        elif entry in ("p", "prev", "previous", "b", "back"):
            if ply == 0:
                console.print("this is the start (n: next, q: quit)")
                continue
            ply -= 1
        elif entry in ("q", "quit", "exit"):
            return 0
        elif entry.isascii() and entry.isdigit() and len(entry) <= MAX_DIGITS and int(entry) <= last:
            ply = int(entry)
        else:
            console.print(f"{shown(entry)}: {_REPLAY_KEYS} (moves 0-{last})", highlight=False)
            continue
        _position(console, record, states, ply)


def analysis_text(analysis: Analysis, player: str) -> str:
    """The analysis as people read it: a summary, then every move with its value."""
    lines = [
        f"player: {player}",
        f"best:   {analysis.moves[0].text} ({analysis.value.text})",
        f"line:   {' '.join(analysis.pv) or '-'}",
        f"depth:  {analysis.depth if analysis.depth is not None else '-'}",
        f"nodes:  {analysis.nodes}",
        f"time:   {analysis.time:.3f} s",
        "",
        f"every move, best first ({value_legend(analysis)}):",
    ]
    width = max(len(m.text) for m in analysis.moves)
    for info in analysis.moves:
        line = f"  {info.text.ljust(width)}  {info.value.text}"
        if info.visits is not None:
            line += f"  visits={info.visits}"
        if info.note:
            line += f"  ({info.note})"
        lines.append(line)
    return "\n".join(lines)


def show_analysis(console: Console, state: State[Any], level: str, seconds: float | None, seed: int | None) -> Analysis:
    """Draw `state`, let the level's player analyse it and print what it found."""
    console.print(render(state, None, console.width), crop=False, overflow="ignore")
    note = table_note(state.game, level)
    if note:
        console.print(note, highlight=False)
    player = level_player(state.game, level, seed)
    limits = Limits(time=seconds) if seconds else Limits()
    analysis, _ = think(console, player, state, limits, "analysing…")
    console.print()
    spec = level_spec(state.game, level)
    label = f"level {level} ({spec})"
    if spec == "perfect" and analysis.player != "perfect":
        # The header must not call a search's estimates perfect: the exact player ran
        # out of time (matryoshka's search, gobblet before its table), or valued only
        # some moves (gobblet's strategy: its win, the rest by the search).
        _, merged, search = analysis.player.partition("+")
        if merged:
            label += f", the moves it leaves unvalued estimated by {search}"
        else:
            label += f", answered by {analysis.player}: the exact player did not finish in time"
    console.print(analysis_text(analysis, label), highlight=False)
    return analysis
