"""What clients see of a game: its public state as a JSON-ready dict, the same for
players and spectators, what a move changes in it, and the lobby's room summaries."""

from __future__ import annotations

import datetime
from functools import lru_cache
from typing import Any

from noughts.records import GameRecord
from noughts.registry import parse_spec, title
from noughts.server.online.actions import OPEN, GameRow, position
from noughts.server.online.storage.store import Surroundings, UserRow
from noughts.server.replay import replay
from noughts.server.views import game_view, position_view


@lru_cache(maxsize=4096)
def _view(spec: str, moves: str) -> dict[str, Any]:
    """The position as the boards draw it (the web app's GameView), replayed: moves send
    `move_patch` instead, so this is built for the other events, on connecting and on a
    resync. Shared: not to be changed by callers."""
    return game_view(replay(spec, None, moves.split())).model_dump()


def _player(
    user_id: int | None, users: dict[int, UserRow], around: Surroundings, before: int | None, after: int | None
) -> Any:
    if user_id is None or user_id not in users:
        return None
    user = users[user_id]
    now = around.ratings.get(user_id)
    # `rating`: as it stands now, shown beside the name while the game goes on (a guest
    # has none: guests play casual games only); `rating_before` and `rating_after` are
    # set when a rated game ends.
    rating = {"rating": now.rating, "provisional": now.provisional} if now and not user.guest else None
    return {"name": user.name, "guest": user.guest, "bot": user.bot, "rating": rating,
            "rating_before": before, "rating_after": after}  # fmt: skip


def _clock(row: GameRow, now: int) -> dict[str, Any] | None:
    if row.clock_initial_ms is None:
        return None
    clocks = row.clocks(now)
    if clocks is None:
        # A room still waiting: both clocks full, neither running (the waiting room shows it).
        initial = row.clock_initial_ms
        return {"initial_ms": initial, "increment_ms": row.clock_increment_ms or 0, "x_ms": initial,
                "o_ms": initial, "running": None, "at": now, "days_per_move": row.days_per_move}  # fmt: skip
    return {
        "days_per_move": row.days_per_move,
        "initial_ms": row.clock_initial_ms,
        "increment_ms": row.clock_increment_ms,
        "x_ms": max(0, clocks.x_ms),
        "o_ms": max(0, clocks.o_ms),
        "running": clocks.running,
        "at": now,
    }


def snapshot(row: GameRow, users: dict[int, UserRow], around: Surroundings, now: int) -> dict[str, Any]:
    """The game's whole public state at `now`, with its `around` (its tournament, the
    players' ratings)."""
    creator = users.get(row.creator_id)
    return {
        "id": row.id,
        "spec": row.spec,
        "title": title(row.spec),
        "rated": row.rated,
        "private": row.private,
        "state": row.state,
        "result": row.result,
        "termination": row.termination,
        "creator": creator.name if creator else None,
        "creator_side": row.creator_side,
        "x": _player(row.x_id, users, around, row.x_rating_before, row.x_rating_after),
        "o": _player(row.o_id, users, around, row.o_rating_before, row.o_rating_after),
        "ply": row.ply,
        "version": row.version,
        "moves": row.move_list,
        "view": _view(row.spec, row.moves),
        "clock": _clock(row, now),
        "offers": {"draw": row.draw_offer, "takeback": row.takeback_offer, "rematch": row.rematch_offer},
        "rematch_id": row.rematch_id,
        "tournament_id": around.tournament_id,
        "away": {"x": row.x_left_at, "o": row.o_left_at},
        "created_at": row.created_at,
        "started_at": row.started_at,
        "ended_at": row.ended_at,
    }


def move_patch(row: GameRow, now: int) -> dict[str, Any]:
    """What a move that does not end the game changes in `snapshot`, besides the ply,
    the version and the move (the event carries those): the clocks, the offers (a move
    drops them) and the fields of the view that a move changes (`position_view`)."""
    head, _, last = row.moves.rpartition(" ")
    after = position(row.spec, row.moves)
    before = position(row.spec, head) if row.moves else None
    return {
        "clock": _clock(row, now),
        "offers": {"draw": row.draw_offer, "takeback": row.takeback_offer, "rematch": row.rematch_offer},
        "view": position_view(after, before, after.game.parse_move(last) if before else None),
    }


def summary(row: GameRow, users: dict[int, UserRow], board: bool = False) -> dict[str, Any]:
    """A line of the lobby or of a profile's history; with `board`, also the position as
    the small boards draw it (the games being played, watched from the home page and the
    lobby), its last move and whose turn it is."""
    creator = users.get(row.creator_id)
    x, o = users.get(row.x_id or -1), users.get(row.o_id or -1)
    line = {
        "id": row.id,
        "spec": row.spec,
        "title": title(row.spec),
        "rated": row.rated,
        "state": row.state,
        "result": row.result,
        "termination": row.termination,
        "creator": creator.name if creator else None,
        "creator_side": row.creator_side if row.state == OPEN else None,
        "x": x.name if x else None,
        "o": o.name if o else None,
        "bots": [side for side, user in (("x", x), ("o", o)) if user is not None and user.bot is not None],
        "ply": row.ply,
        "clock": (
            {
                "minutes": row.clock_initial_ms / 60000,
                "increment": (row.clock_increment_ms or 0) / 1000,
                "days": row.days_per_move,
            }
            if row.clock_initial_ms is not None
            else None
        ),
        "created_at": row.created_at,
    }
    if board:
        view = _view(row.spec, row.moves)
        line["board"] = view["board"]
        line["turn"] = view["turn"]
        line["last_move"] = view["last_move"]
    return line


def record(row: GameRow, users: dict[int, UserRow]) -> GameRecord:
    """The game as a game record (`Termination` is "abandoned" for aborted games too)."""
    x, o = users.get(row.x_id or -1), users.get(row.o_id or -1)
    when = row.started_at or row.created_at
    date = datetime.datetime.fromtimestamp(when / 1000, datetime.UTC).strftime("%Y-%m-%d")
    termination = row.termination or ("abandoned" if row.state in ("aborted", "cancelled") else "normal")
    result = row.result if row.state == "over" else "ongoing"
    return GameRecord(
        parse_spec(row.spec),
        row.move_list,
        x=x.name if x else "?",
        o=o.name if o else "?",
        date=date,
        result=result,
        termination=termination,
    )
