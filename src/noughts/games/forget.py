"""Forget mode, the option of classic, mnk, ultimate and nine-board: each player keeps at
most `keep` marks (per local board in ultimate and nine-board); placing one more first
removes that player's oldest; the third occurrence of a position is a draw (without
it, a game could go on for ever). Written once here, for every game that has it: the
rule itself (`placed`), its options' checks, how a position text lists the marks'
ages, and the rules in words.
"""

from __future__ import annotations

from collections.abc import Callable

from noughts.core import InvalidMoveError, InvalidOptionError, InvalidPositionError, shown
from noughts.variant import OptionSpec

__all__ = ["FORGET_OPTIONS", "check_options", "forget_options", "forget_rule", "parse_ages", "placed"]

#: ``keep`` when Forget mode is off: the option is then not set.
DEFAULT_KEEP = 3


def placed(order: tuple[int, ...], move: int, keep: int) -> tuple[tuple[int, ...], int | None]:
    """A player's marks oldest first after they place `move`, and the mark that placing it
    removed (their oldest, once they had `keep`), or None.

    >>> placed((4, 0, 8), 2, keep=3)
    ((0, 8, 2), 4)
    >>> placed((4,), 2, keep=3)
    ((4, 2), None)
    """
    if len(order) >= keep:
        return (*order[1:], move), order[0]
    return (*order, move), None


def check_options(forget: object, keep: object, least: int, why: str) -> None:
    """Refuse a `keep` that is not a whole number, is below `least` in Forget mode (`why`
    says so: "at least {why}"), or is set without Forget mode."""
    if not isinstance(forget, bool):
        raise InvalidOptionError(f"option forget takes true or false, not {shown(forget)}")
    if not isinstance(keep, int) or isinstance(keep, bool):
        raise InvalidOptionError(f"option keep takes a whole number, not {shown(keep)}")
    if forget and keep < least:
        raise InvalidOptionError(f"keep must be at least {why}")
    if not forget and keep != DEFAULT_KEEP:
        raise InvalidOptionError("keep only applies in Forget mode (add forget=true)")


def parse_ages(
    text: str, side: str, marks: int, parse_move: Callable[[str], int], form: str = "CELLS (oldest first)"
) -> tuple[int, ...]:
    """A side's marks as a position text lists them, ``x=5,1,9`` (oldest first, ``-`` for
    none), checked against that side's cells `marks` (a bitmask); `form` describes the
    list in the message for a text that is not one."""
    label, _, listed = text.partition("=")
    if label.lower() != side:
        raise InvalidPositionError(f"expected {side}={form}, got {shown(text)}")
    try:
        order = tuple(parse_move(m) for m in listed.split(",")) if listed not in ("", "-") else ()
    except InvalidMoveError as e:
        raise InvalidPositionError(str(e)) from None
    if sum(1 << m for m in order) != marks or len(set(order)) != len(order):
        raise InvalidPositionError(f"{side}=... must list exactly the {side} marks, oldest first")
    return order


def forget_rule(keep: int | None, where: str = "") -> str:
    """Forget mode's rules in a paragraph: `keep` marks each (None: as the option sets,
    three by default), counted `where` (" in each small board")."""
    count = (
        f'three marks{where} (the option "marks kept per player" sets how many)'
        if keep is None
        else f"{keep} marks{where}"
    )
    return (
        f"Forget mode: each player keeps at most {count}. Placing one more first removes that player's "
        "oldest mark there (the board shows which goes next). The same position for the third time is a draw."
    )


def forget_options(where: str) -> tuple[OptionSpec, OptionSpec]:
    """The options `forget` and `keep`, as the games with Forget mode describe them."""
    return (
        OptionSpec(
            "forget",
            "Forget mode",
            "only each player's newest marks stay; one more removes the oldest",
            rule=forget_rule(None, where),
        ),
        OptionSpec("keep", "marks kept per player", f"how many marks each player keeps{where}", 3, 9),
    )


#: Forget mode's options on a single board.
FORGET_OPTIONS = forget_options("")
