"""What each game can do, answered in one place: an exact table, an exact search, a
shipped proof or opening book, compiled kernels, a puzzle prover.

The solver (`noughts.ai.solve`), the levels (`noughts.ai.levels`), the puzzles
(`noughts.study.puzzles`), the server's catalogue and the docs all read `capabilities`,
so that none of them claims what another cannot deliver; tests/ai/test_capabilities.py
checks every claim against the players that make it, over every registered game and a
spread of m,n,k boards.

>>> from noughts.registry import parse_spec
>>> capabilities(parse_spec("classic")).table
'first use'
>>> capabilities(parse_spec("mnk:m=3:n=5:k=3")).prover
'perfect'
>>> capabilities(parse_spec("mnk:m=5:n=5:k=3")).table is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

from noughts.core import Game
from noughts.games.knowledge import knowledge
from noughts.variant import Trait, placed_on_grid

__all__ = ["MAX_FORGET_CELLS", "MAX_ROW_TABLE_CELLS", "MAX_TABLE_CELLS", "Capabilities", "TableUse", "capabilities"]

#: Plain m,n,k boards up to this many cells have an exact table: two masks of this many
#: bits make one 64-bit key, and the biggest (4x4, 3x5, 2x8) build in 2 s of CPU in the
#: compiled kernel, half a minute and half a gigabyte without it (`bench/table_builds.py`).
MAX_TABLE_CELLS = 16
#: A single row has two symmetries where a square has eight: its positions stay many per
#: stored class, and 1x16 outgrew a gigabyte in the readable builder, so one-row boards
#: stop here.
MAX_ROW_TABLE_CELLS = 12
#: Forget-mode boards up to this many cells: their positions (which marks, in which
#: order) grow far faster than a plain board's, 128,170 on 3x3 already.
MAX_FORGET_CELLS = 9

#: How a table comes to be: ``first use`` - built when first asked for (seconds; half a
#: minute without numba), then cached on disk; ``command`` - built once by ``noughts solve GAME``
#: (gobblet: minutes and gigabytes; every gobblet figure set needs ``noughts[kernels]``),
#: looked up once it exists.
TableUse = Literal["first use", "command"]
#: The exact prover of the game's puzzles (`noughts.study.puzzles.prover`): the
#: perfect player, the forcing searches (`ThreatProver`), the compiled alpha-beta.
Prover = Literal["perfect", "threats", "kalphabeta"]


@dataclass(frozen=True)
class Capabilities:
    """What one game (with its options) can do."""

    #: An exact table of every position's value (`noughts.ai.solve.solve`), and when it is built.
    table: TableUse | None = None
    #: The perfect player searches the game to its end instead of a table (matryoshka).
    exact_search: bool = False
    #: A shipped opening book of exact values (gobblet's first two plies, matryoshka's first five).
    book: bool = False
    #: A shipped proof of the first player's win, which max as x plays (qubic 4x4x4, gobblet).
    proof: bool = False
    #: The compiled kernels play it (`noughts.kernels.supports`: numba installed, a kernel game).
    compiled: bool = False
    #: Who proves its puzzles; None: no puzzles.
    prover: Prover | None = None
    #: An exact solver that proves what it can within a move's time and leaves the rest
    #: to the search (Connect Four: Pons's method, `noughts.ai.connect4_exact`); not
    #: exact at once, as a position it cannot finish in time gets the search's estimates.
    solver: bool = False

    @property
    def perfect(self) -> bool:
        """The `perfect` player plays the game (from its table, by exact search, or by
        the solver: exact where it finishes in time)."""
        return self.table is not None or self.exact_search or self.solver

    @property
    def exact_at_once(self) -> bool:
        """Every position's exact value from the first call on a fresh install: a table
        built on first use, or the exact search (`max` plays `perfect` there)."""
        return self.table == "first use" or self.exact_search

    def claims(self) -> str:
        """The claims in words, as the docs list them."""
        parts = []
        if self.table == "first use":
            parts.append("exact table (built on first use)")
        elif self.table == "command":
            parts.append("exact table (built once by `noughts solve`)")
        if self.exact_search:
            parts.append("exact search")
        if self.book:
            parts.append("opening book")
        if self.proof:
            parts.append("first-player win proof")
        if self.compiled:
            parts.append("compiled kernels")
        if self.solver:
            parts.append("exact solver within a move's time, else search")
        if self.prover:
            parts.append(f"puzzles proved by `{self.prover}`")
        return ", ".join(parts) or "search only"


def capabilities(game: Game[Any, Any]) -> Capabilities:
    """What `game` can do (see `Capabilities`), from what kind of game it is
    (`Game.traits`, its board) rather than its class: a game from elsewhere of a kind
    the tables or kernels serve gets them too, where they take it."""
    from noughts.kernels import available, supports  # import no numba

    compiled = supports(game)
    traits, board = game.traits, game.variant.board
    if placed_on_grid(game):
        return _mnk(game)
    if Trait.GRAVITY in traits:
        from noughts.ai import connect4_exact

        if connect4_exact.applies(game):
            # The 7x6 book (its first plies, where a solve outlasts a move) ships beside the game.
            return Capabilities(
                book=connect4_exact.book(game.m, game.n) is not None,
                compiled=compiled,
                solver=True,
                prover="perfect",
            )
    if Trait.NESTING in traits and Trait.SHIFTS not in traits:
        # matryoshka: the published set has a shipped book of its first five plies (`noughts.ai.matryoshka`).
        return Capabilities(exact_search=True, book=game.spec == "matryoshka", prover="perfect")
    if Trait.NESTING in traits:
        from noughts.ai import gobblet_table

        # A small figure set's table builds in a second, in the kernels: without them it
        # is no more at hand than the published game's.
        table: TableUse = "first use" if gobblet_table.small(cast(Any, game)) and available() else "command"
        published = game.spec == "gobblet"
        # The published game ships x's winning strategy (`noughts.ai.gobblet_strategy`) too.
        return Capabilities(table=table, book=published, proof=published, prover="perfect")
    if board == "qubic":
        # The proof, and the searches that prove qubic's puzzles, run in the kernels.
        proven = compiled and game.spec == "qubic"
        return Capabilities(proof=proven, compiled=compiled, prover="threats" if proven else None)
    if Trait.LOCAL_BOARDS in traits:
        return Capabilities(compiled=compiled, prover="kalphabeta" if compiled else None)
    return Capabilities(compiled=compiled, prover="threats" if _threat_search(game) else None)


def _mnk(game: Any) -> Capabilities:
    if Trait.FORGET in game.traits:
        # Forget positions are keyed by each side's cells in order, 4 bits a cell.
        marks = min(game.keep, (game.cells + 1) // 2)
        if game.cells <= MAX_FORGET_CELLS and 4 * (game.keep + marks) + 1 <= 64:
            return Capabilities(table="first use", prover="perfect")
        return Capabilities()
    if game.cells <= (MAX_TABLE_CELLS if min(game.m, game.n) >= 2 else MAX_ROW_TABLE_CELLS):
        return Capabilities(table="first use", prover="perfect")
    return Capabilities(prover="threats" if _threat_search(game) else None)


def _threat_search(game: Game[Any, Any]) -> bool:
    """Whether the game's own threat search (its knowledge, `noughts.games.knowledge`)
    serves it: then it proves the game's puzzles, as races."""
    return knowledge(game).threats(game)
