"""Values in words, for people, on the one scale the web shows them (its
``web/js/values.js``): a proven result counts the winner's own moves ("wins in 2
moves"), an estimate is a chance (``noughts.ai.base.win_chance``), and the engine
protocol's tokens (``loss-in-6``, ``+503.00``) never reach the screen. Each sentence is
whole in the catalogue (`noughts.i18n`), with its plural forms."""

from __future__ import annotations

from noughts.ai.base import Analysis, Kind, MoveInfo, Value, win_chance
from noughts.core import Player
from noughts.i18n import gettext, ngettext
from noughts.study.verdicts import in_moves, verdict

__all__ = ["meaning", "move_words", "outlook", "percent", "plies", "rest_words", "traps", "value_legend"]


def plies(n: int) -> str:
    """``1 ply``, ``3 plies``."""
    return ngettext("{n} ply", "{n} plies", n)


def percent(chance: float) -> str:
    """``62%``; an estimate never reads 0% or 100%, which would pass for proven."""
    return f"{min(99, max(1, round(100 * chance)))}%"


def outlook(value: Value, mover: Player, scale: float | None = None) -> str:
    """What `mover`'s move (whose value `value` is) leaves, in words for both sides:
    a proven result as the analysis board says it (``X wins in 3 moves``, ``a draw
    with best play``: `noughts.study.verdicts.verdict`), an estimate as `mover`'s
    chance (``O's chance: 62%, an estimate``)."""
    if value.exact and value.kind in (Kind.WIN, Kind.LOSS):
        side = (mover if value.kind is Kind.WIN else mover.other).value.upper()
        n = _distance(value)
        if value.bound:
            return ngettext(
                "{side} wins, proven, in at most {n} move", "{side} wins, proven, in at most {n} moves", n, side=side
            )
        return ngettext("{side} wins in {n} move", "{side} wins in {n} moves", n, side=side)
    if value.exact and value.kind is Kind.DRAW:
        return gettext("a draw with best play")
    if value.exact:
        return verdict(value, mover, scale)
    chance = win_chance(value, scale)
    if chance is None:
        return gettext("not evaluated")
    return gettext("{side}'s chance: {percent}, an estimate", side=mover.value.upper(), percent=percent(chance))


def _distance(value: Value) -> int:
    """A win's or loss's distance in the winner's own moves (`in_moves`' count)."""
    return ((value.plies or 0) + 1) // 2


def move_words(info: MoveInfo, mover: Player, scale: float | None = None) -> str:
    """One move's value for `mover`, who would make it: ``wins in 2 moves``, ``draws``,
    ``loses in 4 moves``, ``62%``; with the count of the opponent's replies that lose
    against it, where the analysis counted them, and the rule that chose it."""
    value = info.value
    n = _distance(value)
    if value.kind is Kind.WIN and value.bound:
        words = ngettext("wins in at most {n} move", "wins in at most {n} moves", n)
    elif value.kind is Kind.WIN:
        words = ngettext("wins in {n} move", "wins in {n} moves", n)
    elif value.kind is Kind.LOSS and value.bound:
        words = ngettext("loses in at most {n} move", "loses in at most {n} moves", n)
    elif value.kind is Kind.LOSS:
        words = ngettext("loses in {n} move", "loses in {n} moves", n)
    elif value.kind is Kind.DRAW:
        words = gettext("draws")
    elif info.note:
        # The rules player's scores only rank its rules: the rule says more than a number.
        words = gettext("rule: {rule}", rule=info.note)
    else:
        chance = win_chance(value, scale)
        words = gettext("not evaluated") if chance is None else percent(chance)
    return words + traps(info, mover)


def traps(info: MoveInfo, mover: Player) -> str:
    """``; 7 of O's replies lose``, where the analysis counted the opponent's replies
    that lose against `mover`'s move (`MoveInfo.traps`); else empty."""
    if not info.traps:
        return ""
    return gettext("; {n} of {side}'s replies lose", n=info.traps, side=mover.other.value.upper())


def rest_words(infos: list[MoveInfo], mover: Player, scale: float | None = None) -> str:
    """The moves an explanation leaves out (best first), in a few words: ``each draws``,
    or the worst of them (``the worst: loses in 1 move``)."""
    words = {move_words(info, mover, scale) for info in infos}
    if len(words) == 1:
        return gettext("each {value}", value=words.pop())
    return gettext("the worst: {value}", value=move_words(infos[-1], mover, scale))


def value_legend(analysis: Analysis) -> str:
    """Which of the values shown are exact and which are estimates, in a few words."""
    exact = [info.value.exact for info in analysis.moves]
    bounds = " ('at most N': proven, N plies a bound)" if any(info.value.bound for info in analysis.moves) else ""
    if all(exact):
        return "all exact, with best play" + bounds
    if not any(exact):
        return "estimates: above 0 is good for the player to move"
    return "win/loss in N plies and draw are exact, numbers are estimates" + bounds


def meaning(value: Value, scale: float | None = None) -> str:
    """A move's value in words, for the person who would make it, saying how sure it
    is: exact (proven by search or read from a solved table), proven with a bound on its
    distance (`Value.bound`), or an estimate, as a chance on `scale`."""
    if value.kind is Kind.WIN:
        if value.bound:
            return f"proven: a forced win {in_moves(value)}, perhaps sooner"
        return f"exact: a forced win {in_moves(value)}"
    if value.kind is Kind.LOSS:
        if value.bound:
            return f"proven: every move loses with best play; the opponent wins with this one {in_moves(value)}"
        return f"exact: every move loses with best play; the opponent wins {in_moves(value)} against this one"
    if value.kind is Kind.DRAW:
        return "exact: a draw with best play"
    chance = win_chance(value, scale)
    if chance is None:
        return "not evaluated"
    return f"an estimate, not proven: about {percent(chance)} for you"
