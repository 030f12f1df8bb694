"""What the exact tables share (the solved games' in `solve`, gobblet's in
`gobblet_table`): where they are cached on disk, how a stored value code reads, and how
the shipped books (numpy's ``.npz`` files) read without numpy."""

from __future__ import annotations

import array
import ast
import os
import sys
import zipfile
from pathlib import Path
from typing import Any

from noughts.ai.base import Kind, Value
from noughts.core import State

__all__ = ["cache_dir", "code_value", "outcome_value", "read_npz", "value_code"]


def cache_dir() -> Path:
    """Where tables are cached: ``$NOUGHTS_CACHE_DIR``, else ``$XDG_CACHE_HOME/noughts``,
    else ``~/.cache/noughts``."""
    explicit = os.environ.get("NOUGHTS_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "noughts"


def code_value(code: int, bound: bool = False) -> Value:
    """A stored code as a value: plies + 1 to a win if positive, to a loss if negative,
    0 a draw; with `bound`, the plies are an upper bound (`Value.bound`: codes written by
    a prover that bounds them, the race puzzles' answer keys)."""
    if code > 0:
        return Value.win(code - 1, bound)
    if code < 0:
        return Value.loss(-code - 1, bound)
    return Value.draw()


def value_code(value: Value, bound_ok: bool = False) -> int:
    """A proven value as its stored code (`code_value` reads it back); ValueError for an
    estimate, and for a `bound` unless `bound_ok` (whose reader then knows the codes are
    bounds: a table's are exact distances)."""
    if value.bound and not bound_ok:
        raise ValueError(f"only an exact distance has a code, not {value}")
    if value.kind is Kind.WIN:
        return (value.plies or 0) + 1
    if value.kind is Kind.LOSS:
        return -(value.plies or 0) - 1
    if value.kind is Kind.DRAW:
        return 0
    raise ValueError(f"only a proven value has a code, not {value}")


def outcome_value(state: State[Any]) -> Value:
    """The value of a finished game for the player who would move next."""
    assert state.outcome is not None
    winner = state.outcome.winner
    if winner is None:
        return Value.draw()
    return Value.win(0) if winner is state.turn else Value.loss(0)


#: numpy's little-endian type codes in an .npy header, as `array` type codes.
_NPY_TYPES = {"<u8": "Q", "<i8": "q", "<u4": "I", "<i4": "i", "|u1": "B", "|i1": "b"}


def _npy(data: bytes) -> array.array[int]:
    """The numbers of a one-dimensional (or scalar) .npy file of the types above: its
    format is a magic string, a version, a header's length and a Python dict literal."""
    if data[:6] != b"\x93NUMPY":
        raise ValueError("not an .npy file")
    size_bytes = 2 if data[6] == 1 else 4
    start = 8 + size_bytes
    length = int.from_bytes(data[8:start], "little")
    header = ast.literal_eval(data[start : start + length].decode("latin1"))
    numbers = array.array(_NPY_TYPES[header["descr"]])
    if numbers.itemsize != int(header["descr"][2:]):  # array's sizes are the platform's
        raise ValueError(f"no array type of {header['descr']} here")
    numbers.frombytes(data[start + length :])
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers


def read_npz(path: Path, names: tuple[str, ...]) -> tuple[array.array[int], ...]:
    """The arrays `names` of numpy's ``.npz`` archive at `path` (one-dimensional, of
    whole numbers), as plain arrays: the shipped books are read without numpy (the tools
    that write them have it)."""
    with zipfile.ZipFile(path) as archive:
        return tuple(_npy(archive.read(f"{name}.npy")) for name in names)
