"""Bitboard kernels for ultimate and nine-board (the layout is in `layout`).

A local board is 9 bits; tables indexed by such a mask answer "is there a line",
"how many marks" and "which is the k-th empty cell" in one look-up, so a random
playout costs a few dozen table reads per ply.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from noughts.games.geometry import has_line, line_masks
from noughts.kernels.jit import kernel_uncounted
from noughts.kernels.layout import DRAW, FORCED, FULL, NINE_BOARD, RESULT, TURN, ULTIMATE_TIEBREAK, WON, Int
from noughts.kernels.rng import next_bits, scaled

__all__ = ["LINE", "POP", "WINS", "guided_playout", "legal", "play", "playout", "winning_move"]

_LINES3 = line_masks((3, 3), 3)
ALL = 511
#: LINE[mask]: the 9-bit board has a line. POP[mask]: its number of bits.
LINE = np.array([has_line(m, _LINES3) for m in range(512)], dtype=np.bool_)
POP = np.array([m.bit_count() for m in range(512)], dtype=np.int64)
#: NTH[mask, k]: the k-th set bit of mask (k < POP[mask]).
NTH = np.zeros((512, 9), dtype=np.int64)
for _m in range(512):
    for _k, _c in enumerate(c for c in range(9) if _m >> c & 1):
        NTH[_m, _k] = _c


@kernel_uncounted
def closed(game: int, st: npt.NDArray[np.int64]) -> int:
    """The boards nobody may play in: full ones, and in ultimate decided ones."""
    if game == NINE_BOARD:
        return int(st[FULL])
    return int(st[WON] | st[WON + 1] | st[FULL])


@kernel_uncounted
def legal(game: int, st: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """Write the legal moves (board * 9 + cell), ascending, into `out`; their number."""
    if st[RESULT] != 0:
        return 0
    n = 0
    forced = st[FORCED]
    if forced >= 0:
        empty = ALL & ~(st[forced] | st[9 + forced])
        for k in range(POP[empty]):
            out[n] = forced * 9 + NTH[empty, k]
            n += 1
        return n
    shut = closed(game, st)
    for b in range(9):
        if not (shut >> b) & 1:
            empty = ALL & ~(st[b] | st[9 + b])
            for k in range(POP[empty]):
                out[n] = b * 9 + NTH[empty, k]
                n += 1
    return n


@kernel_uncounted
def count(game: int, st: npt.NDArray[np.int64]) -> int:
    """The number of legal moves."""
    if st[RESULT] != 0:
        return 0
    forced = st[FORCED]
    if forced >= 0:
        return int(POP[ALL & ~(st[forced] | st[9 + forced])])
    shut = closed(game, st)
    n = 0
    for b in range(9):
        if not (shut >> b) & 1:
            n += POP[ALL & ~(st[b] | st[9 + b])]
    return n


@kernel_uncounted
def play(game: int, st: npt.NDArray[np.int64], move: Int) -> None:
    """Play a legal move in place."""
    board = move // 9
    cell = move - board * 9
    side = st[TURN]
    mine = st[side * 9 + board] | (1 << cell)
    st[side * 9 + board] = mine
    if LINE[mine]:
        won = st[WON + side] | (1 << board)
        st[WON + side] = won
        if game == NINE_BOARD or LINE[won]:
            st[RESULT] = side + 1
    elif (mine | st[(1 - side) * 9 + board]) == ALL:
        st[FULL] |= 1 << board
    shut = closed(game, st)
    if st[RESULT] == 0 and shut == ALL:
        st[RESULT] = DRAW
        if game == ULTIMATE_TIEBREAK:
            x, o = POP[st[WON]], POP[st[WON + 1]]
            if x != o:
                st[RESULT] = 1 if x > o else 2
    st[FORCED] = -1 if (shut >> cell) & 1 else cell
    st[TURN] = 1 - side


@kernel_uncounted
def _mark(
    game: int, st: npt.NDArray[np.int64], side: Int, board: Int, cell: Int, won_x: Int, won_o: Int, full: Int
) -> tuple[Int, Int, Int, Int, Int]:
    """A playout's move: `side`'s mark in `st`, the rest of the position in and out of
    local variables; (won_x, won_o, full, forced, result) after it."""
    mine = st[side * 9 + board] | (1 << cell)
    st[side * 9 + board] = mine
    result = 0
    nine = game == NINE_BOARD
    if LINE[mine]:
        if side == 0:
            won_x |= 1 << board
            if nine or LINE[won_x]:
                result = 1
        else:
            won_o |= 1 << board
            if nine or LINE[won_o]:
                result = 2
    elif (mine | st[(1 - side) * 9 + board]) == ALL:
        full |= 1 << board
    shut = full if nine else won_x | won_o | full
    if result == 0 and shut == ALL:
        result = DRAW
        if game == ULTIMATE_TIEBREAK and POP[won_x] != POP[won_o]:
            result = 1 if POP[won_x] > POP[won_o] else 2
    forced = -1 if (shut >> cell) & 1 else cell
    return won_x, won_o, full, forced, result


@kernel_uncounted
def playout(game: int, st: npt.NDArray[np.int64], rng: npt.NDArray[np.uint64]) -> int:
    """Play random moves on `st` (in place) to the end; the RESULT code.

    `random_move` and `play` fused, with the position in local variables: the same
    moves from the same generator, at about twice the speed of calling them per ply."""
    won_x, won_o, full, forced, side, result = st[WON], st[WON + 1], st[FULL], st[FORCED], st[TURN], st[RESULT]
    nine = game == NINE_BOARD
    bits = rng[0]
    while result == 0:
        shut = full if nine else won_x | won_o | full
        if forced >= 0:
            board = forced
            empty = ALL & ~(st[board] | st[9 + board])
            bits = next_bits(bits)
            cell = NTH[empty, scaled(bits, POP[empty])]
        else:
            n = np.int64(0)  # not a literal 0: numba would compile `scaled` twice
            for b in range(9):
                if not (shut >> b) & 1:
                    n += POP[ALL & ~(st[b] | st[9 + b])]
            bits = next_bits(bits)
            k = scaled(bits, n)
            board = cell = 0
            for b in range(9):
                if not (shut >> b) & 1:
                    empty = ALL & ~(st[b] | st[9 + b])
                    if k < POP[empty]:
                        board, cell = b, NTH[empty, k]
                        break
                    k -= POP[empty]
        won_x, won_o, full, forced, result = _mark(game, st, side, board, cell, won_x, won_o, full)
        side = 1 - side
    rng[0] = bits
    st[WON], st[WON + 1], st[FULL], st[FORCED], st[TURN], st[RESULT] = won_x, won_o, full, forced, side, result
    return int(result)


#: WINS[mask]: the cells that would complete a line of the 9-bit board `mask` (cells
#: already in it excluded). One table for both levels: a side's winning cells in a local
#: board, and the boards whose win would give it the game.
WINS = np.array(
    [sum(1 << c for c in range(9) if not m >> c & 1 and has_line(m | 1 << c, _LINES3)) for m in range(512)],
    dtype=np.int64,
)


@kernel_uncounted
def _winning(st: npt.NDArray[np.int64], side: Int, targets: Int) -> int:
    """A move (board * 9 + cell) with which `side` wins one of the boards `targets`
    (open ones it may play in), or -1."""
    while targets:
        b = NTH[targets, 0]
        cells = WINS[st[side * 9 + b]] & ~st[(1 - side) * 9 + b]
        if cells:
            return int(b * 9 + NTH[cells, 0])
        targets &= targets - 1
    return -1


@kernel_uncounted
def winning_move(game: int, st: npt.NDArray[np.int64]) -> int:
    """A move that wins the game at once for the player to move (by a line of boards,
    or in nine-board any line), or -1; -1 too for a game that is over."""
    if st[RESULT] != 0:
        return -1
    side = st[TURN]
    forced = st[FORCED]
    reach = ALL & ~closed(game, st) if forced < 0 else np.int64(1) << forced
    return _winning(st, side, reach if game == NINE_BOARD else WINS[st[WON + side]] & reach)


@kernel_uncounted
def _safe(st: npt.NDArray[np.int64], side: Int, board: Int, empty: Int, threats: Int, shut: Int) -> int:
    """The cells of `empty` in `board` after which the opponent (to move next) cannot
    win the game at once, given `threats`: the boards where it could before the move.
    A cell sends it to the board of the same number, or anywhere if that board is
    closed; the cell numbered like `board` itself is judged after the move."""
    safe = empty & ~(threats | shut)
    if (empty >> board) & 1:
        mine = st[side * 9 + board] | (1 << board)
        theirs = st[(1 - side) * 9 + board]
        if LINE[mine] or (mine | theirs) == ALL:
            back = (threats & ~(1 << board)) == 0  # this board closes: a free move
        else:
            back = not ((threats >> board) & 1 and WINS[theirs] & ~mine)
        safe = safe | (1 << board) if back else safe & ~(1 << board)
    return int(safe)


@kernel_uncounted
def guided_playout(game: int, st: npt.NDArray[np.int64], rng: npt.NDArray[np.uint64]) -> int:
    """`playout` with two rules at every ply: a move that wins the game is taken (the
    first found), and the moves that would let the opponent win the game on its next
    move are left out when there are others; the rest is uniformly random.

    Random playouts miss both all the time, so a position where one side has a won game
    in hand scores little better than an even one; with the rules, tactics near the end
    of a playout count, and MCTS sees them with far fewer iterations (the guided player
    scored 60% against the random one in ultimate, 90% in nine-board, at equal time)."""
    won_x, won_o, full, forced, side, result = st[WON], st[WON + 1], st[FULL], st[FORCED], st[TURN], st[RESULT]
    nine = game == NINE_BOARD
    bits = rng[0]
    while result == 0:
        shut = full if nine else won_x | won_o | full
        reach = ALL & ~shut if forced < 0 else np.int64(1) << forced
        won = _winning(st, side, reach if nine else WINS[won_x if side == 0 else won_o] & reach)
        if won >= 0:
            board, cell = won // 9, won % 9
        else:
            # The boards where the opponent could win the game now.
            threats = np.int64(0)
            targets = ALL & ~shut if nine else WINS[won_o if side == 0 else won_x] & ~shut
            while targets:
                b = NTH[targets, 0]
                if WINS[st[(1 - side) * 9 + b]] & ~st[side * 9 + b]:
                    threats |= np.int64(1) << b
                targets &= targets - 1
            if forced >= 0:
                board = forced
                empty = ALL & ~(st[board] | st[9 + board])
                if threats:
                    safe = _safe(st, side, board, empty, threats, shut)
                    if safe:
                        empty = safe
                bits = next_bits(bits)
                cell = NTH[empty, scaled(bits, POP[empty])]
            else:
                n = np.int64(0)
                good = np.int64(0)
                for b in range(9):
                    if (reach >> b) & 1:
                        empty = ALL & ~(st[b] | st[9 + b])
                        n += POP[empty]
                        if threats:
                            good += POP[_safe(st, side, b, empty, threats, shut)]
                picky = 0 < good < n
                if picky:
                    n = good
                bits = next_bits(bits)
                k = scaled(bits, n)
                for b in range(9):
                    if (reach >> b) & 1:
                        empty = ALL & ~(st[b] | st[9 + b])
                        if picky:
                            empty = _safe(st, side, b, empty, threats, shut)
                        if k < POP[empty]:
                            board, cell = b, NTH[empty, k]
                            break
                        k -= POP[empty]
        won_x, won_o, full, forced, result = _mark(game, st, side, board, cell, won_x, won_o, full)
        side = 1 - side
    rng[0] = bits
    st[WON], st[WON + 1], st[FULL], st[FORCED], st[TURN], st[RESULT] = won_x, won_o, full, forced, side, result
    return int(result)
