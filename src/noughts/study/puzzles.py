"""Puzzles: positions where exactly one move wins by force, proved.

A position is a puzzle when an exact prover values *every* legal move exactly (proven
win, draw or loss, not an estimate) and exactly one of them wins. The solution line
follows best play: the winner's quickest win, the defender's longest resistance. When
solving, any winning follow-up of the winner is accepted (`accepts`); the first move
has one answer by construction.

The provers (`prover`, as `noughts.ai.capabilities` names them): the solved tables of
the small games (`perfect`: classic, Forget mode up to 9 cells, m,n,k up to 16 cells,
matryoshka, gobblet); the compiled alpha-beta of ultimate
and nine-board, whose values are exact where its search reached every end (late in a
game); and for qubic and the bigger m,n,k boards the forcing searches (`ThreatProver`: a
race, one move wins by force and every other lets the opponent win by force; qubic's
proof-number search proves wins that need quiet moves too). Where
a prover cannot prove every move, the position is no puzzle: nothing is guessed.

`mine` finds puzzles in seeded self-play of the levels; `verify` proves a stored puzzle
again from scratch. Themes and the first difficulty estimate come from the position and
the line (`themes`, `difficulty`); ratings take over once people solve them.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, TypeGuard, cast

from noughts.ai.base import (
    AIPlayer,
    Analysis,
    Kind,
    Limits,
    MoveInfo,
    Value,
    parse_player,
    require_moves,
    split_spec,
)
from noughts.ai.capabilities import capabilities
from noughts.ai.evaluation import evaluator
from noughts.ai.levels import level_player, level_spec
from noughts.ai.solve import PerfectPlayer
from noughts.core import Game, InvalidOptionError, Player, State
from noughts.games.gobblet import Gobblet
from noughts.games.knowledge import knowledge
from noughts.games.mnk.rules import MnkState
from noughts.games.ultimate import UltimateState
from noughts.registry import parse_spec
from noughts.variant import Trait, placed_on_grid

__all__ = [
    "SHIPPED",
    "VERIFY_LIMITS",
    "Judged",
    "Puzzle",
    "ThreatProver",
    "accepts",
    "difficulty",
    "ended",
    "judge",
    "mine",
    "mine_states",
    "missed",
    "on_line",
    "prover",
    "puzzle_at",
    "read_puzzles",
    "refresh",
    "reply",
    "resistance",
    "self_play",
    "shipped",
    "shipped_contexts",
    "tempting",
    "themes",
    "verify",
]

#: The puzzles that come with Noughts: mined by tools/puzzles/build.py (a recipe of seeded self-play), proved by
#: `noughts puzzles verify` (and by the slow tests, every one of them).
SHIPPED = Path(__file__).resolve().parent / "data" / "puzzles.jsonl"


@dataclass(frozen=True)
class Puzzle:
    """A position, the side to move wins by force with exactly one first move."""

    spec: str
    """The game's spec."""
    position: str
    """The position text, the side to move in it."""
    solution: list[str]
    """The winner's moves and the defender's best replies, in turn."""
    plies: int
    """The forced win's length in plies (the solution's)."""
    themes: list[str] = field(default_factory=list)
    """What the solution does, in words (`themes`)."""
    difficulty: int = 1500
    """A first estimate on the rating scale, until ratings take over."""
    source: str = ""
    """Where the puzzle was found (a game's seed, a record)."""
    #: `plies` is an upper bound, not the shortest win: a race prover's searches
    #: (`ThreatProver`) prove that the win comes no later, not that none comes sooner.
    #: False: `plies` is the shortest forced win, as an exact prover values it.
    bound: bool = False
    #: The position the puzzle arose from and the move played there (the defender's), where
    #: known: the page shows that move first, as lichess shows a puzzle's last move.
    before: str | None = None
    last_move: str | None = None
    """The defender's move played in `before` to reach `position`."""
    #: A rating from attempts (tools/puzzles/calibrate.py: the levels, of measured
    #: strength, tried the puzzle, and the guess, `difficulty`, was updated by them);
    #: None: the guess is all there is. Where a database's rating starts (`first_rating`).
    rating: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The puzzle as a JSON object, a line of a puzzle file; `from_json` reads it back."""
        data = {
            "spec": self.spec,
            "position": self.position,
            "solution": self.solution,
            "plies": self.plies,
            "themes": self.themes,
            "difficulty": self.difficulty,
            "source": self.source,
        }
        # Written only when set, so that the other puzzles' lines stay as they were.
        if self.bound:
            data["bound"] = True
        if self.before is not None and self.last_move is not None:
            data.update(before=self.before, last_move=self.last_move)
        if self.rating is not None:
            data["rating"] = self.rating
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        """The puzzle `to_json` wrote."""
        return cls(**data)

    @property
    def first_rating(self) -> int:
        """The rating a puzzle starts with: from attempts if it has one, else the guess."""
        return self.difficulty if self.rating is None else self.rating

    @property
    def id(self) -> str:
        """A short name that stays the same wherever the puzzle is stored: drawn from
        its game and position (one puzzle per position), as lichess names puzzles."""
        digest = hashlib.sha256(f"{self.spec}\n{self.position}".encode()).digest()
        return base64.b32encode(digest).decode("ascii")[:8].lower()


def read_puzzles(path: Path) -> list[Puzzle]:
    """The puzzles of a file of them (one JSON object a line); none if it is missing."""
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return [Puzzle.from_json(json.loads(line)) for line in lines if line.strip()]


def shipped() -> list[Puzzle]:
    """The puzzles that come with Noughts (`SHIPPED`)."""
    return read_puzzles(SHIPPED)


@cache
def shipped_contexts() -> dict[str, tuple[str, str]]:
    """The shipped puzzles' contexts by id: the position before and the move played there."""
    return {p.id: (p.before, p.last_move) for p in shipped() if p.before is not None and p.last_move is not None}


class ThreatProver(AIPlayer):
    """Proves values by forcing searches alone, where the games are too big to search
    to the end (qubic, m,n,k from 5x5 with k >= 4): a move wins when a search finds the
    mover's forced win starting with it (or it wins at once), and loses when, after it,
    a search finds the opponent's forced win. Every other move stays unvalued
    (Kind.UNKNOWN): such a position is no puzzle. So a puzzle here is a race: one move
    wins by force, every other lets the opponent win by force first.

    The searches: where the game's knowledge has a threat search (`noughts.games.knowledge`;
    on m,n,k boards the threat-space searches of `noughts.games.mnk.threats`):
    wins by continuous fours, then wins with threes too (`vct`, every defence that
    could matter searched), which is what proves most other moves lost in a race where
    the opponent's attack is built of threes, and wins whose first move blocks a four
    and then goes on with threes; in qubic the compiled threat search and then the
    proof-number search (`noughts.kernels.proof`), which also proves wins that need
    quiet moves between the threats, every reply of the defender searched. Both are
    exact: a win they report is forced. A win's plies are the proof's bound: the win
    comes no later, however the defender answers."""

    name = "threats"

    #: Expansions of qubic's proof-number search for one position: a count, not
    #: seconds, so that a proof holds or fails alike on a busy machine.
    PROOF_EXPANSIONS = 5_000
    #: Nodes of its tree (each expansion adds at most 64).
    PROOF_CAPACITY = 400_000

    #: Nodes of the m,n,k search with threes (`vct`) for one position: it runs where
    #: the search by fours found nothing, which in a race is most positions.
    VCT_NODES = 20_000
    #: Nodes of the m,n,k search from a solver's move (`forces`): a person waits for
    #: it, and a win found within fewer nodes is as real.
    JUDGE_NODES = 20_000
    #: Positions whose search result is remembered (a puzzle's line and its check ask
    #: about the same positions again).
    MEMO = 50_000

    def __init__(self, nodes: int = 200_000) -> None:
        self.nodes = nodes
        """Nodes of the m,n,k search by fours and of qubic's threat search, for one position."""
        self._tree: Any = None  # qubic's proof-number tree, allocated at first use
        self._known: dict[str, tuple[Any, int] | None] = {}

    def wins_by_threats(self, state: State[Any]) -> tuple[Any, int] | None:
        """The mover's first move and plies of a forced win found by the searches (a
        win at once included)."""
        return self._win(state)

    def races(self, state: State[Any]) -> bool:
        """Whether `state` can be a race puzzle: the mover wins by the searches, and
        after every other move the opponent does. Stops at the first move that fails,
        so most positions cost a few searches instead of one per move."""
        ours = self._win(state)
        if ours is None:
            return False
        for move in state.legal_moves():
            if move == ours[0]:
                continue
            child = state.play(move)
            if child.is_over or self._win(child) is None:
                return False
        return True

    def _win(self, state: State[Any]) -> tuple[Any, int] | None:
        key = state.to_text()
        if key not in self._known:
            if len(self._known) >= self.MEMO:
                self._known.clear()
            self._known[key] = self._search(state)
        return self._known[key]

    def _search(self, state: State[Any]) -> tuple[Any, int] | None:
        game = state.game
        known = knowledge(game)
        if known.threats(game):  # the game's own threat search (`noughts.games.knowledge`)
            if state.is_over:
                return None
            found = known.threat_win(state, state.turn, False, self.nodes, None) or known.threat_win(
                state, state.turn, True, self.VCT_NODES, None
            )
            return None if found is None else (found.move, found.plies)
        if game.variant.board != "qubic":
            return None
        from noughts.ai.compiled import qubic_threat_win

        return qubic_threat_win(state, self.nodes) or self._proved(state)

    def _proved(self, state: State[Any]) -> tuple[Any, int] | None:
        """Qubic: the mover's win proven by proof-number search, if one is found
        within `PROOF_EXPANSIONS`."""
        from noughts.kernels.games import encode
        from noughts.kernels.layout import TURN
        from noughts.kernels.proof import PLIES, ProofTree

        if self._tree is None:
            self._tree = ProofTree(self.PROOF_CAPACITY)
        root = encode(state)
        side = int(root[TURN])
        move = self._tree.prove(int(root[side]), int(root[1 - side]), 0.0, self.PROOF_EXPANSIONS)
        return None if move < 0 else (int(move), int(self._tree.stats[PLIES]))

    def forces(self, state: State[Any], move: Any, limits: Limits = Limits()) -> int | None:
        """The plies to the end of the mover's forced win starting with `move` (a bound:
        against the defence that lasts longest in the searches), or None when the
        searches prove none. On m,n,k boards one search from the move, whose defender
        replies are only those that could spoil the attack (`threats.wins_with`); in
        qubic every reply is searched (`analyze`), some fifty."""
        state.play(move)  # a legal move, or the error says why
        known = knowledge(state.game)
        if known.threats(state.game):
            return known.wins_with(state, move, self.JUDGE_NODES)
        child = state.play(move)
        if child.is_over:
            return 1 if child.outcome is not None and child.outcome.winner is state.turn else None
        quick = self.winning(child)
        value = quick.value if quick is not None else self.analyze(child, limits).value
        return (value.plies or 0) + 1 if value.kind is Kind.LOSS else None

    def winning(self, state: State[Any]) -> Analysis | None:
        """The mover's win found by the searches, as an analysis of that one move (the
        others not searched), or None. Judging a solver's move asks only whether the
        defender now wins: one search, where `analyze` makes one for every move (two
        hundred on a gomoku board, seconds)."""
        started = time.perf_counter()
        ours = self._win(state)
        if ours is None:
            return None
        info = MoveInfo(ours[0], state.move_text(ours[0]), Value.win(ours[1], bound=True))
        return Analysis(self.name, [info], [info.text], None, 0, time.perf_counter() - started)

    def analyze(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
        started = time.perf_counter()
        moves = require_moves(state)
        ours = self._win(state)
        values: dict[Any, Value] = {}
        for move in moves:
            child = state.play(move)
            if child.is_over:
                winner = child.outcome.winner if child.outcome else None
                values[move] = Value.draw() if winner is None else Value.win(1)
            elif ours is not None and move == ours[0]:
                values[move] = Value.win(ours[1], bound=True)
            elif (theirs := self._win(child)) is not None:
                values[move] = Value.win(theirs[1], bound=True).negated()
            else:
                values[move] = Value(Kind.UNKNOWN)
        order = sorted(
            moves, key=lambda m: values[m].sort_key() if values[m].kind is not Kind.UNKNOWN else (1, 0.0), reverse=True
        )
        infos = [MoveInfo(m, state.move_text(m), values[m]) for m in order]
        return Analysis(self.name, infos, [infos[0].text], None, 0, time.perf_counter() - started)


def prover(game: Game[Any, Any]) -> AIPlayer:
    """The exact prover for `game` (`noughts.ai.capabilities` says which); InvalidOptionError
    for a game without one."""
    found = capabilities(game)
    if found.prover is None:
        raise InvalidOptionError(
            f"no exact prover for {game.spec} yet: puzzles come from classic, m,n,k up to 16 cells, Forget "
            "mode up to 9 cells, m,n,k from 17 cells with k >= 3 (threats), matryoshka, gobblet, ultimate, "
            "nine-board and qubic"
        )
    if found.table == "command":
        from noughts.ai import gobblet_table

        # Gobblet's exact values come from its solved table, which the user builds once.
        game = cast(Gobblet, game)  # the only game whose table a command builds
        if not gobblet_table.is_built(game):
            raise InvalidOptionError(
                f"{game.spec}'s puzzles are proved from its solved table: {gobblet_table.BUILD_NOTE}"
            )
    if found.prover == "threats":
        return ThreatProver()
    return parse_player(found.prover)


def _exact(analysis: Analysis) -> bool:
    return all(info.value.exact for info in analysis.moves)


def _wins(analysis: Analysis) -> list[MoveInfo]:
    return [info for info in analysis.moves if info.value.kind is Kind.WIN]


def puzzle_at(state: State[Any], player: AIPlayer, limits: Limits, source: str = "") -> Puzzle | None:
    """The puzzle at `state`, if it is one (see the module's docstring), else None."""
    if state.is_over or len(state.legal_moves()) < 2:
        return None
    if isinstance(player, ThreatProver) and not player.races(state):
        return None  # no race: spare the search of every move
    analysis = player.analyze(state, limits)
    wins = _wins(analysis)
    if not _exact(analysis) or len(wins) != 1:
        return None
    line = _solution(state, wins[0], player, limits)
    if line is None:
        return None
    if isinstance(player, ThreatProver) and len(line) != wins[0].value.plies:
        # A search's plies bound the win; the puzzle's count must be its line's, so
        # that "win in N" is both shown and proved.
        return None
    # A race prover's count is its searches' bound (another move on the way may win
    # sooner: the first tree a search finds is not the shortest), and the puzzle says so;
    # on an m,n,k board the line is then made the quickest where that can be counted.
    bound = isinstance(player, ThreatProver)
    if bound and _countable(state):
        line = quickest_line(state, line)
    puzzle = Puzzle(state.game.spec, state.to_text(), line, len(line), source=source, bound=bound)
    return replace(puzzle, themes=themes(state, line, bound), difficulty=difficulty(state, puzzle, analysis))


def quickest_line(state: MnkState, line: list[str]) -> list[str]:
    """A race puzzle's `line` made the winner's quickest win and the defender's longest
    resistance (`noughts.ai.quickest`: the threat searches' first win is often not the
    quickest), where that search finishes (an m,n,k board up to `COUNT_CELLS`); else
    `line` as it is."""
    if not _countable(state):
        return line
    from noughts.ai.quickest import TooOpenError
    from noughts.ai.quickest import line as quickest

    try:
        found = quickest(state, len(line), evaluator(state.game))
    except TooOpenError:
        return line
    # The race's own line wins within its plies, so the search finds one at least as quick.
    assert found is not None
    moves = [state.move_text(found[0])]
    after = state.play(found[0])
    for move in found[1:]:
        moves.append(after.move_text(move))
        after = after.play(move)
    return moves


#: Nodes of the quickest-win search when judging one move (on a board too open for
#: it, it gives up and the searches' bound stands).
COUNT_NODES = 200_000
#: The m,n,k boards the quickest-win search counts on: up to 5x5, where the shipped
#: puzzles' lines take it at most 4 s (`tests/study/test_shipped_puzzles.py`); a gomoku
#: board's every node looks at 200 cells and 572 lines, far too many for it.
COUNT_CELLS = 25


def _countable(state: State[Any]) -> TypeGuard[MnkState]:
    game: Any = state.game
    return bool(placed_on_grid(game) and Trait.FORGET not in game.traits and game.cells <= COUNT_CELLS)


def _counted_within(state: State[Any], move: Any, plies: int) -> bool:
    """Whether `move` wins within `plies` as the quickest-win search counts it, on an
    m,n,k board small enough for it (`COUNT_CELLS`, `noughts.ai.quickest`); False elsewhere."""
    from noughts.ai.quickest import TooOpenError, wins_within

    if _countable(state):
        try:
            return wins_within(state, move, plies, COUNT_NODES)
        except TooOpenError:
            pass
    return False


def _solution(state: State[Any], first: MoveInfo, player: AIPlayer, limits: Limits) -> list[str] | None:
    """The winner's quickest win and the defender's longest resistance from `first`,
    each step proved again; None if a step cannot be proved. At the defender's turns
    every reply must be valued (a loss, proved); at the winner's a proved win is what
    is needed: a `ThreatProver` plays the win its search finds (the other moves need
    no value there: any winning follow-up is accepted when solving)."""
    line = [first.text]
    winner = state.turn
    state = state.play(first.move)
    while not state.is_over:
        if isinstance(player, ThreatProver) and state.turn is winner:
            found = player.wins_by_threats(state)
            if found is None:
                return None
            line.append(state.move_text(found[0]))
            state = state.play(found[0])
            continue
        analysis = player.analyze(state, limits)
        if not _exact(analysis):
            return None
        best = resistance(state, analysis) if state.turn is not winner else analysis.moves[0]
        line.append(best.text)
        state = state.play(best.move)
    return line


def resistance(state: State[Any], analysis: Analysis) -> MoveInfo:
    """The defender's reply in a puzzle's line: the longest loss, and among replies that
    lose as late, the one the game's evaluation likes best for the defender. The
    searches bound many replies alike (on a big board a move in the far corner "lasts"
    as long as a block, by the bound), and a line should show the defence a player
    would try, not the first cell in reading order."""
    best = analysis.moves[0]
    tied = [m for m in analysis.moves if (m.value.kind, m.value.plies) == (best.value.kind, best.value.plies)]
    if len(tied) < 2:
        return best
    score = evaluator(state.game)  # the winner's view, the winner to move after the reply
    return min(tied, key=lambda m: score(after) if not (after := state.play(m.move)).is_over else 0.0)


def accepts(puzzle: Puzzle, played: list[str], player: AIPlayer, limits: Limits = Limits(time=5)) -> bool:
    """Whether the solver's last move keeps the forced win. `played`: the moves from the
    puzzle's position so far, both sides', ending with the solver's. The first must be
    the solution's (the puzzle has one answer); a later one may be any move after which
    the defender is still lost (several follow-ups may win). Where the prover counts
    the plies exactly (the solved tables: `perfect`), the win must also come within
    the puzzle's count: a "win in N" is won in N, as the answer keys judge it; so too
    for the race provers, by their searches' bound (`ThreatProver.forces`): a move that
    only keeps a slower win (on a big board, most moves far from the fight) is not
    the way to win in N."""
    game = _game(puzzle)
    state = game.parse_position(puzzle.position)
    solver = state.turn
    for text in played[:-1]:
        state = state.play_text(text)
    if len(played) == 1:
        state.play_text(played[0])  # legal, or the error says why
        return played[0] == puzzle.solution[0]
    left = puzzle.plies - len(played) + 1  # the plies the win may take from the move on
    if isinstance(player, ThreatProver):
        move = game.parse_move(played[-1])
        plies = player.forces(state, move, limits)
        # The searches' bound may exceed a count that the quickest-win search set.
        return plies is not None and (plies <= left or _counted_within(state, move, left))
    state = state.play_text(played[-1])
    if state.is_over:
        return state.outcome is not None and state.outcome.winner is solver
    value = player.analyze(state, limits).value
    if value.kind is not Kind.LOSS:
        return False
    return not isinstance(player, PerfectPlayer) or (value.plies or 0) <= left - 1


def reply(puzzle: Puzzle, played: list[str], player: AIPlayer, limits: Limits = Limits(time=5)) -> str | None:
    """The defender's answer to `played` (both sides' moves so far): the stored line's
    while the solver follows it, else the prover's longest resistance; None at the end."""
    if played == puzzle.solution[: len(played)]:
        return puzzle.solution[len(played)] if len(played) < len(puzzle.solution) else None
    state = _game(puzzle).parse_position(puzzle.position)
    for text in played:
        state = state.play_text(text)
    return None if state.is_over else resistance(state, player.analyze(state, limits)).text


@dataclass(frozen=True)
class Judged:
    """The answer to a solver's move (`judge`)."""

    correct: bool
    """The move is the solution's, or another that keeps the forced win."""
    #: The puzzle is solved: the move won, or it kept the win and the line is over.
    solved: bool
    #: The defender's answer to a correct move, the refutation's first move after a
    #: wrong one (None when the game is over).
    reply: str | None
    #: After a wrong move: the defender's line from there (its reply first), as far as
    #: the prover gives it, and what the position is now worth, in words.
    refutation: list[str] = field(default_factory=list)
    verdict: str = ""
    """After a wrong move: what the position is now worth, in words."""


def on_line(puzzle: Puzzle, played: list[str]) -> Judged | None:
    """The judgement of `played` when it follows the stored solution (proved when the
    puzzle was made: no search needed), else None."""
    if played != puzzle.solution[: len(played)]:
        return None
    answer = puzzle.solution[len(played)] if len(played) < len(puzzle.solution) else None
    return Judged(True, answer is None, answer)


def judge(puzzle: Puzzle, played: list[str], player: AIPlayer | None, limits: Limits = Limits(time=2)) -> Judged:
    """Judges the solver's last move of `played` (both sides' moves from the puzzle's
    position, the solver's last): on the stored line at once (`on_line`); else by the
    prover `player`: correct when it keeps the forced win (`accepts`), then the
    defender's reply (`reply`), or wrong, with the refutation. The moves must be legal;
    InvalidMoveError or IllegalMoveError says which is not. InvalidOptionError when the
    move needs a prover and `player` is None (the game has none here: a shipped puzzle
    is then judged from its answer key, `noughts.study.answer_keys`, before this)."""
    known = on_line(puzzle, played)
    if known is not None:
        return known
    state = _game(puzzle).parse_position(puzzle.position)
    for text in played:
        state = state.play_text(text)
    if player is None:
        raise InvalidOptionError(f"no exact prover for {puzzle.spec} here to judge puzzle {puzzle.id} off its line")
    if accepts(puzzle, played, player, limits):
        if state.is_over:
            return Judged(True, True, None)
        answer = reply(puzzle, played, player, limits)
        return Judged(True, answer is None, answer)
    if state.is_over:
        return Judged(False, False, None, [], ended(state))
    if isinstance(player, ThreatProver):
        found = player.winning(state)
        if found is None:
            # Valuing every reply would take a search each (seconds on a big board): the
            # verdict says what is known, the solver tries again.
            return Judged(False, False, None, [], missed(puzzle, played, Value(Kind.UNKNOWN), state.turn))
        analysis = found
    else:
        analysis = player.analyze(state, limits)
    best = analysis.moves[0]
    line = list(best.line) if best.line and best.line[0] == best.text else [best.text]
    return Judged(False, False, best.text, line, missed(puzzle, played, best.value, state.turn))


#: What a race prover says after a move that leaves no win it can prove.
_NO_WIN = "no forced win found after it: the searches prove none"


def missed(puzzle: Puzzle, played: list[str], value: Value, mover: Player) -> str:
    """What a wrong move left, in words a player reads (moves, not plies): `value`
    belongs to `mover`, the defender, to move after `played`. A win still there but too
    slow for the puzzle's count says so."""
    from noughts.study.verdicts import in_moves, verdict

    if value.kind is Kind.UNKNOWN:
        # The race provers (`ThreatProver`) prove wins; after this move they prove
        # none: the move may not be lost, but the puzzle's win is no longer shown.
        return _NO_WIN
    if value.kind not in (Kind.WIN, Kind.LOSS):
        return verdict(value, mover)
    winner = mover if value.kind is Kind.WIN else mover.other
    said = f"{winner.value.upper()} wins {in_moves(value)}"
    if value.kind is Kind.LOSS:
        said += ": a quicker win was there"
    return said


def ended(state: State[Any]) -> str:
    """How a game that a wrong move ended stands, in words (a gobblet move may lift a
    figure off the opponent's line and lose at once)."""
    winner = None if state.outcome is None else state.outcome.winner
    return "a draw: the win is gone" if winner is None else f"{winner.value.upper()} wins: the move lost"


#: The search a puzzle is proved again with (`verify`): a count of nodes, not seconds, so
#: that the answer is the same on a busy machine and a quiet one. The searches' other
#: budgets (the threat searches' nodes, the solved tables) are fixed already.
VERIFY_LIMITS = Limits(nodes=5_000_000)


def verify(puzzle: Puzzle, player: AIPlayer | None = None, limits: Limits = VERIFY_LIMITS) -> str | None:
    """Prove `puzzle` again: None when it holds, else what fails (its first move does
    not win, another move wins too, a value is not proven, the line is not legal, the
    stated length is not the win's). The length: the line is `plies` long; where the
    prover counts plies exactly, `plies` is the first move's shortest win (a puzzle
    marked `bound` may state more); where it bounds them (`ThreatProver`), the puzzle
    must be marked `bound` and `plies` is the searches' bound.
    Without `player`, a new prover: nothing learnt from other positions helps, so the
    answer is the same whatever was proved before."""
    game = _game(puzzle)
    player = player or prover(game)
    state = game.parse_position(puzzle.position)
    analysis = player.analyze(state, limits)
    if not _exact(analysis):
        return "not every move's value is proven"
    wins = _wins(analysis)
    if [w.text for w in wins] != [puzzle.solution[0]]:
        return f"the winning moves are {[w.text for w in wins]}, not only {puzzle.solution[0]}"
    if len(puzzle.solution) != puzzle.plies:
        return f"the line is {len(puzzle.solution)} plies long, the puzzle says {puzzle.plies}"
    value = wins[0].value
    if value.bound and not puzzle.bound:
        return f"the win's {value.plies} plies are a search's bound, but the puzzle states them as the shortest"
    if puzzle.bound and (value.plies or 0) > puzzle.plies and not _counted_within(state, wins[0].move, puzzle.plies):
        return f"the proved bound is {value.plies} plies, more than the {puzzle.plies} stated"
    if not puzzle.bound and value.plies != puzzle.plies:
        return f"the shortest win is {value.plies} plies, the puzzle says {puzzle.plies}"
    for text in puzzle.solution:
        if state.is_over:
            return "the line goes on after the end"
        state = state.play_text(text)
    if state.outcome is None or state.outcome.winner is None:
        return "the line does not end in the winner's win"
    return None


def refresh(puzzle: Puzzle, player: AIPlayer | None = None, limits: Limits = VERIFY_LIMITS) -> Puzzle:
    """`puzzle` with its themes and first difficulty derived again, as `puzzle_at`
    derives them now (after a change to `themes` or `difficulty`)."""
    state = _game(puzzle).parse_position(puzzle.position)
    analysis = (player or prover(state.game)).analyze(state, limits)
    found = themes(state, puzzle.solution, puzzle.bound)
    return replace(puzzle, themes=found, difficulty=difficulty(state, puzzle, analysis))


def themes(state: State[Any], line: list[str], bound: bool = False) -> list[str]:
    """What the puzzle is about, from the position and the line:

    * ``win in N``: N moves of the winner, the shortest forced win; ``win in at most
      N`` where the count is a bound (`bound`: a race prover's puzzle, `Puzzle.bound`);
    * ``double threat``: a win in two whose first move threatens two wins at once: after
      every reply of the defender the winner wins at once, and not always with the same
      move (`_double`), so no single block saves the defender;
    * ``fork``: a longer win that ends in a double threat: the winner's second-to-last
      move of the line is one (`_double`), reached by the moves before it;
    * ``forced block``: a win of five plies or more whose first move threatens a win at
      once that the defender has exactly one move to stop: the line's reply is its
      only move after which the winner cannot win at once;
    * ``forcing sequence``: longer, and every reply of the defender was its only move
      that did not lose at once;
    * ``block and win``: the first move is also where the opponent would have won next;
    * ``send to board`` (ultimate, nine-board): the first move wins nothing itself, no
      local board, no game: it wins by the one board it sends the opponent to;
    * ``send to a won board`` (ultimate): the first move's cell names a local board that
      is decided (won or full), so the defender may play in any open board, and still
      loses: the freedom given is no help;
    * ``sacrifice`` (nine-board, where the first line on any local board wins): the
      first move sends the defender to a board where its reply in the line, its
      longest resistance, makes a new threat of its own there (two of its marks in a
      line with the third cell empty), and the winner wins all the same
      (`_hands_threat`): a threat given, as a chess sacrifice gives material;
    * ``tempo`` (Forget mode): the winning move is on a cell the defender held when the
      puzzle began, blocking the line, and that the defender's own move in the line
      emptied (its oldest mark vanished): the win waits for the blocker to go
      (`_takes_forgotten`).
    """
    game = state.game
    first = game.parse_move(line[0])
    found = [f"win in {'at most ' if bound else ''}{(len(line) + 1) // 2}"]
    if len(line) == 3 and _double(state.play(first)):
        found.append("double threat")
    if len(line) >= 5 and _double(_after(state, line[:-2])):
        found.append("fork")
    if len(line) >= 5 and _forced_block(state.play(first), line[1]):
        found.append("forced block")
    if len(line) >= 5 and _forced(state, line):
        found.append("forcing sequence")
    if _blocks(state, first):
        found.append("block and win")
    if len(line) >= 3 and _sends(state, first):
        found.append("send to board")
    if len(line) >= 3 and _to_decided(state, first):
        found.append("send to a won board")
    if len(line) >= 3 and _hands_threat(state, first, game.parse_move(line[1])):
        found.append("sacrifice")
    if _takes_forgotten(state, line):
        found.append("tempo")
    return found


def _after(state: State[Any], moves: list[str]) -> State[Any]:
    for text in moves:
        state = state.play_text(text)
    return state


def _double(state: State[Any]) -> bool:
    """`state`, the defender to move: every reply leaves the winner a win at once, and
    the winning moves are not one and the same after every reply."""
    if state.is_over:
        return False
    wins: set[str] = set()
    for reply in state.legal_moves():
        after = state.play(reply)
        if after.is_over:
            return False  # the reply ended the game: no threat of the winner's decided it
        now = _wins_now(after)
        if not now:
            return False
        wins.update(after.move_text(m) for m in now)
    return len(wins) >= 2


def _forced_block(state: State[Any], answer: str) -> bool:
    """`state`, the defender to move after the first move: exactly one reply leaves the
    winner no win at once, and the line's reply `answer` is that one."""
    if state.is_over:
        return False
    safe = [m for m in state.legal_moves() if (after := state.play(m)).is_over or not _wins_now(after)]
    return len(safe) == 1 and state.move_text(safe[0]) == answer and len(safe) < len(state.legal_moves())


def _to_decided(state: State[Any], first: Any) -> bool:
    """Ultimate (not nine-board): the first move sends the defender to a decided local
    board, so the defender may play in any open one."""
    if state.game.key != "ultimate":
        return False
    state = cast(UltimateState, state)
    after = state.play(first)
    return not after.is_over and after.board_outcome(first % 9) is not None and len(after.playable_boards()) > 1


def _hands_threat(state: State[Any], first: Any, reply: Any) -> bool:
    """Nine-board: after the first move, the defender's `reply` makes a new line of two
    of its marks with the third cell empty in its local board."""
    if state.game.key != "nine-board":
        return False
    after = cast(UltimateState, state.play(first))
    if after.is_over:
        return False
    board, cell = divmod(reply, 9)
    x, o = after.x >> (9 * board) & 511, after.o >> (9 * board) & 511  # the board's 9 cells
    mine = (x if after.turn is Player.X else o) | 1 << cell
    empty = ~(x | o) & 511 & ~(1 << cell)
    return any(mask >> cell & 1 and (mine & mask).bit_count() == 2 and empty & mask for mask in _LOCAL_LINES)


#: The 8 lines of a 3x3 local board as 9-bit masks.
_LOCAL_LINES = tuple(
    sum(1 << c for c in line)
    for line in ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
)


def _takes_forgotten(state: State[Any], line: list[str]) -> bool:
    """Forget mode (m,n,k): the winning move of `line` is on a cell the defender held
    at the start and that a move of the defender's in the line emptied (its oldest
    mark vanished)."""
    if not placed_on_grid(state.game) or Trait.FORGET not in state.game.traits:
        return False
    state = cast(MnkState, state)
    winner = state.turn
    blockers = state.o if winner is Player.X else state.x
    final: Any = _after(state, line[:-1])
    last = state.game.parse_move(line[-1])
    still = final.o if winner is Player.X else final.x
    # Only the defender's own moves remove its marks: a blocker gone by the last move
    # was made to vanish by one of them.
    return bool(blockers >> last & 1) and not still >> last & 1


def _sends(state: State[Any], first: Any) -> bool:
    """Ultimate and nine-board: the first move decides no local board and confines the
    opponent to one board."""
    if Trait.LOCAL_BOARDS not in state.game.traits:
        return False
    state = cast(UltimateState, state)
    after = state.play(first)
    decided = [b for b in range(9) if after.board_outcome(b) != state.board_outcome(b)]
    return not after.is_over and not decided and len(after.playable_boards()) == 1


def _wins_now(state: State[Any]) -> list[Any]:
    """The moves that win at once for the player to move."""
    if state.is_over:
        return []
    return [m for m in state.legal_moves() if (o := state.play(m).outcome) and o.winner is state.turn]


def _blocks(state: State[Any], first: Any) -> bool:
    """Whether, had the winner played elsewhere, the opponent could have won at once
    with the same move (the same cell)."""
    text = state.move_text(first)
    for other in state.legal_moves():
        if other == first:
            continue
        after = state.play(other)
        if not after.is_over and any(after.move_text(m) == text for m in _wins_now(after)):
            return True
    return False


def _forced(state: State[Any], line: list[str]) -> bool:
    """Every reply of the defender in the line was its only move that did not leave the
    winner a win in one."""
    for ply, text in enumerate(line):
        if ply % 2 == 1:
            safe = [m for m in state.legal_moves() if (nxt := state.play(m)).is_over or not _wins_now(nxt)]
            if len(safe) > 1:
                return False
        state = state.play_text(text)
    return True


#: A failing first move is tempting when the search shows it does not lose at once: it
#: draws, or it loses only after this many plies or more (two replies of the opponent).
TEMPTING_PLIES = 4


def tempting(analysis: Analysis) -> int:
    """How many of the moves that do not win would not be seen to fail at a glance: the
    ones that draw, or lose only after `TEMPTING_PLIES` or more."""
    return sum(
        1
        for info in analysis.moves
        if info.value.kind is Kind.DRAW or (info.value.kind is Kind.LOSS and (info.value.plies or 0) >= TEMPTING_PLIES)
    )


#: The legal moves a first difficulty counts at most: past a few dozen, more moves
#: (gomoku's two hundred empty cells) are far from the fight and make a puzzle no
#: harder; counted in full they rated every gomoku win in one like a long ultimate win.
MOVES_COUNTED = 40


def difficulty(state: State[Any], puzzle: Puzzle, analysis: Analysis | None = None) -> int:
    """A first rating estimate from the search: longer wins are harder, and so are
    positions with many moves and with many tempting moves that fail (`tempting`).
    1000 + 120 a ply of the win beyond the first + 5 a legal move (at most
    `MOVES_COUNTED`) + 25 a tempting move, at most 2600."""
    lure = 0 if analysis is None else tempting(analysis)
    moves = min(MOVES_COUNTED, len(state.legal_moves()))
    return min(2600, 1000 + 120 * max(0, puzzle.plies - 1) + 5 * moves + 25 * lure)


def mine(
    game: Game[Any, Any],
    count: int,
    seed: int = 0,
    limits: Limits = Limits(time=0.5),
    level: str = "medium",
    opening_plies: int = 4,
    known: set[str] | None = None,
    progress: Callable[[int], None] | None = None,
    from_ply: int = 0,
    per_game: int | None = None,
    games: int | None = None,
    max_plies: int | None = None,
    min_plies: int = 1,
) -> Iterator[Puzzle]:
    """Puzzles from seeded self-play of `level` (games opened by random plies), at most
    one per game position, none whose position is in `known`, until `count` are found.
    Games are numbered from `seed`: within a budget of nodes (`limits`), the same seed
    finds the same puzzles on any machine; within seconds, what the prover reaches in
    time depends on the machine and its load. Positions
    before ply `from_ply` are played through unexamined: where the prover cannot reach
    the end of the game from them (early in ultimate), looking costs its whole time.
    `per_game`: at most this many puzzles from one game (the first found): once a
    forced win is on the board, every later position of the game is often the same
    puzzle again, a move shorter. `games`: stop after this many games, however many
    were found (a share of a parallel run). `max_plies`: none longer (a forced win of
    twenty moves proved by a search is no puzzle to solve by hand). `min_plies`: none
    shorter (in gomoku and qubic most games end in a win in one, a line to complete
    while the opponent threatens one too; the longer races are the rarer puzzles)."""
    player = prover(game)
    known = set() if known is None else known
    found = 0
    number = seed
    while found < count and (games is None or number < seed + games):
        in_game = 0
        for ply, state, before in self_play(game, level, number, opening_plies):
            if found >= count or (per_game is not None and in_game >= per_game):
                break
            text = state.to_text()
            if ply >= from_ply and text not in known:
                puzzle = puzzle_at(state, player, limits, source=f"self-play {level}, game {number}")
                if puzzle is not None and min_plies <= puzzle.plies <= (max_plies or puzzle.plies):
                    known.add(text)
                    found += 1
                    in_game += 1
                    if progress is not None:
                        progress(found)
                    yield puzzle if before is None else replace(puzzle, before=before[0], last_move=before[1])
        number += 1


def self_play(
    game: Game[Any, Any], level: str, number: int, opening_plies: int = 4
) -> Iterator[tuple[int, State[Any], tuple[str, str] | None]]:
    """Game `number` of `level`'s seeded self-play, as `mine` plays it: `opening_plies`
    random plies, then the level's moves. Each position from the opening's end on, with
    its ply and the position before it with the move played there (None at the start)."""
    rng = random.Random(number)
    mover = level_player(game, level, seed=number)
    move_limits = _self_play_limits(game, level)
    state: State[Any] = game.initial()
    before: tuple[str, str] | None = None
    for _ in range(opening_plies):
        if state.is_over:
            break
        move = rng.choice(state.legal_moves())
        before = (state.to_text(), state.move_text(move))
        state = state.play(move)
    ply = opening_plies
    while not state.is_over:
        yield ply, state, before
        move = mover.choose(state, move_limits)
        before = (state.to_text(), state.move_text(move))
        state = state.play(move)
        ply += 1


#: Seconds a move of self-play takes at a level that searches by time (max): its own
#: budget would make mining as slow as a real game.
SELF_PLAY_SECONDS = 0.05


def _self_play_limits(game: Game[Any, Any], level: str) -> Limits:
    """The budget of a self-play move: a level that searches to a depth, a number of
    nodes or of iterations keeps its own, so that the same seed plays the same games on
    a busy machine and a quiet one (a cap in seconds cut medium's depth-2 search short
    under load, and the game went another way); a level that searches by time gets
    `SELF_PLAY_SECONDS`."""
    _, options = split_spec(level_spec(game, level))
    if options.keys() & {"depth", "nodes", "iterations"}:
        return Limits()
    return Limits(time=SELF_PLAY_SECONDS)


def mine_states(
    states: list[State[Any]], player: AIPlayer, limits: Limits, source: str, known: set[str] | None = None
) -> Iterator[Puzzle]:
    """The puzzles among `states` (the positions of one game, a record's or an online
    game's), none whose position is in `known` (which grows with those found)."""
    known = set() if known is None else known
    for state in states:
        text = state.to_text()
        if text in known or state.is_over:
            continue
        puzzle = puzzle_at(state, player, limits, source)
        if puzzle is not None:
            known.add(text)
            yield puzzle


def _game(puzzle: Puzzle) -> Game[Any, Any]:
    return parse_spec(puzzle.spec)
