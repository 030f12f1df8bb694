"""Players between themselves, as lichess has it: challenges from one player to another
(accepted, declined with a reason, cancelled, or expired after `challenge_expiry`),
follows, blocks, and the notifications of the header's bell.

What a player is told reaches every page they have open through their own channel
(`realtime.user_channel`, through Redis between processes): `ChallengeNews` when a
challenge to them or from them is new or answered, `NotificationFrame` for a
notification. Notifications are stored first, then published; read or not is kept in
the database.

A challenge to a bot is the bot's (`Rooms.challenge`): a house bot accepts at once, an
engine bot's program answers it. The clock is injectable (`clock`), so that expiry is
tested without waiting for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from noughts import i18n
from noughts.competition.clock import now_ms
from noughts.registry import title
from noughts.server.online import actions
from noughts.server.online.accounts import name_key
from noughts.server.online.actions import (
    ActionError,
    ForbiddenError,
    GameRow,
    InvalidError,
    MissingError,
    turn_of,
)
from noughts.server.online.bus import Changed, TournamentStarted
from noughts.server.online.config import OnlineConfig
from noughts.server.online.protocol import (
    ChallengeNews,
    ChallengeView,
    Inbox,
    NotificationFrame,
    NotificationView,
    encode,
)
from noughts.server.online.realtime import Fanout, user_channel
from noughts.server.online.service.live import LiveGames
from noughts.server.online.service.rooms import MAX_DAYS, Rooms, checked, room_row
from noughts.server.online.storage.db import log_failure
from noughts.server.online.storage.social import PENDING, ChallengeRow, NotificationRow, SocialBook
from noughts.server.online.storage.store import Store, UserRow

__all__ = ["DECLINE_REASONS", "Social"]

log = logging.getLogger(__name__)

#: Why a challenge is declined, and what its challenger reads (lichess's reasons), in
#: English: `reason_text` is it in the reader's language.
DECLINE_REASONS: dict[str, str] = {
    "generic": i18n.N_("I'm not accepting challenges at the moment."),
    "later": i18n.N_("This is not the right time for me, please ask again later."),
    "too-fast": i18n.N_("This time control is too fast for me, please challenge again with a slower game."),
    "too-slow": i18n.N_("This time control is too slow for me, please challenge again with a faster game."),
    "time-control": i18n.N_("I'm not accepting challenges with this time control."),
    "rated": i18n.N_("Please send me a rated challenge instead."),
    "casual": i18n.N_("Please send me a casual challenge instead."),
    "game": i18n.N_("I'm not willing to play this game right now."),
}
#: Notifications sent in a list at most.
NOTIFICATIONS_SHOWN = 50
#: Players listed as online at most.
ONLINE_SHOWN = 100


def reason_text(reason: str | None) -> str | None:
    """The words of a reason declined, in the language of the moment."""
    return i18n.gettext(DECLINE_REASONS[reason]) if reason in DECLINE_REASONS else None


def _clock_words(minutes: float | None, increment: float | None, days: int | None) -> str:
    if days is not None:
        return i18n.ngettext("{n} day a move", "{n} days a move", days)
    if minutes is None:
        return i18n.gettext("no clock")
    return f"{minutes:g}+{increment or 0:g}"


class Social:
    """Challenges, follows, blocks and notifications (see the module's docstring)."""

    def __init__(
        self,
        store: Store,
        fanout: Fanout,
        rooms: Rooms,
        live: LiveGames,
        config: OnlineConfig,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.store, self.fanout, self.rooms, self.live, self.config = store, fanout, rooms, live, config
        self.clock = clock
        self.book = SocialBook(store.engine)
        self._tasks: set[asyncio.Task[None]] = set()

    def tasks(self) -> list[asyncio.Task[None]]:
        return list(self._tasks)

    async def player(self, name: Any) -> UserRow:
        """The player called `name`, or `no-such-player` (404)."""
        if not isinstance(name, str) or not 0 < len(name) <= 40:
            raise MissingError("no-such-player", "there is no such player")
        found = await self.store.call(self.store.user_by_key, name_key(name))
        if found is None:
            raise MissingError("no-such-player", f"there is no player {name!r}")
        return found

    # -- challenges -------------------------------------------------------------------

    def view(self, row: ChallengeRow, names: dict[int, UserRow]) -> ChallengeView:
        minutes = (
            row.clock_initial_ms / 60_000 if row.clock_initial_ms is not None and row.days_per_move is None else None
        )
        increment = (
            row.clock_increment_ms / 1000 if minutes is not None and row.clock_increment_ms is not None else None
        )
        return ChallengeView(
            id=row.id,
            by=names[row.challenger_id].name,
            to=names[row.challenged_id].name,
            spec=row.spec,
            title=title(row.spec),
            rated=row.rated,
            side=row.side,  # type: ignore[arg-type]
            minutes=minutes,
            increment=increment,
            days=row.days_per_move,
            state=row.state_at(self.clock()),  # type: ignore[arg-type]
            reason=row.reason,
            reason_text=reason_text(row.reason),
            game=row.game_id,
            expires_at=row.expires_at,
        )

    async def _views(self, rows: list[ChallengeRow]) -> list[ChallengeView]:
        ids = {i for r in rows for i in (r.challenger_id, r.challenged_id)}
        names = await self.store.call(self.store.users, ids) if ids else {}
        return [self.view(r, names) for r in rows]

    async def challenge(
        self,
        user: UserRow,
        name: Any,
        spec: str,
        rated: bool,
        side: str,
        minutes: float | None,
        increment: float,
        days: int | None,
    ) -> ChallengeView | GameRow:
        """`user` challenges the player `name`: the challenge, pending (published to
        both), or, for a bot, the game it made (`Rooms.challenge`)."""
        target = await self.player(name)
        if target.id == user.id:
            raise InvalidError("own-challenge", "you cannot challenge yourself")
        if side not in ("x", "o", "random"):
            raise InvalidError("invalid-side", "side is x, o or random")
        if days is not None and (minutes is not None or not 1 <= days <= MAX_DAYS):
            raise InvalidError(
                "invalid-clock", f"a correspondence game has 1 to {MAX_DAYS} days a move, and no minutes"
            )
        if target.bot is not None:
            if days is not None:
                raise InvalidError("bot-correspondence", "bots play at one sitting: choose a clock, not days")
            return await self.rooms.challenge(user, target.name, spec, rated, side, minutes, increment)
        canonical = checked(user, spec, rated, minutes, increment)
        if rated and target.guest:
            raise ForbiddenError("guest-rated", f"{target.name} is a guest: guests play casual games only")
        now = self.clock()
        initial: int | None
        if days is not None:
            initial, step = days * 86_400_000, 0
        else:
            initial = round(minutes * 60_000) if minutes is not None else None
            step = round(increment * 1000) if minutes is not None else 0
        row = ChallengeRow(
            id=actions.new_game_id(), challenger_id=user.id, challenged_id=target.id, spec=canonical, rated=rated,
            side=side, clock_initial_ms=initial, clock_increment_ms=step if initial is not None else None,
            days_per_move=days, state=PENDING, reason=None, game_id=None, created_at=now,
            expires_at=now + round(self.config.challenge_expiry * 1000),
        )  # fmt: skip
        await self.store.call(self.book.add_challenge, row, self.config.challenges_per_player)
        shown = self.view(row, {user.id: user, target.id: target})
        await self._tell_both(row, shown)

        def text() -> str:
            clock = _clock_words(shown.minutes, shown.increment, days)
            return i18n.gettext("{name} challenges you: {game}, {clock}", name=user.name, game=shown.title, clock=clock)

        await self.notify(target.id, "challenge", text, actor=user.name, challenge_id=row.id)
        return shown

    async def _tell_both(self, row: ChallengeRow, shown: ChallengeView) -> None:
        """Each player's pages hear of it, the reason declined in the player's language."""
        for uid in (row.challenger_id, row.challenged_id):
            with i18n.speaking(await self._language(uid)):
                said = shown.model_copy(update={"reason_text": reason_text(row.reason)})
            await self.fanout.publish(user_channel(uid), encode(ChallengeNews(challenge=said)))

    async def _language(self, user_id: int) -> str:
        """The language the player chose in the page's menu, English if none."""
        chosen = await self.store.call(self.store.language, user_id)
        return chosen if chosen is not None and chosen in i18n.LANGUAGES else i18n.DEFAULT

    async def accept(self, user: UserRow, challenge_id: str) -> ChallengeView:
        """The challenged player accepts: the game starts, and both are told its id."""

        def make_game(row: ChallengeRow) -> GameRow:
            now = self.clock()
            minutes = row.clock_initial_ms / 60_000 if row.clock_initial_ms is not None else None
            increment = (row.clock_increment_ms or 0) / 1000
            room = room_row(
                row.spec, row.rated, row.challenger_id, row.side, False,
                None if row.days_per_move is not None else minutes, increment, now, row.days_per_move,
            )  # fmt: skip
            return actions.join(room, user.id, user.guest, now).row

        row, game = await self.store.call(self.book.accept, challenge_id, user.id, self.clock(), make_game)
        self.rooms.play.await_arrivals(game)
        await self.store.call(self.book.mark_challenge_read, user.id, row.id)
        shown = (await self._views([row]))[0]
        await self._tell_both(row, shown)
        if game.days_per_move is not None and game.x_id == row.challenger_id:
            # A correspondence challenger may be away for days: the first move is theirs.
            await self._your_move(game, user.id, row.challenger_id)
        return shown

    async def decline(self, user: UserRow, challenge_id: str, reason: str) -> ChallengeView:
        if reason not in DECLINE_REASONS:
            raise InvalidError("invalid-reason", f"a reason is one of {', '.join(DECLINE_REASONS)}")
        row = await self.store.call(self.book.decline, challenge_id, user.id, reason, self.clock())
        await self.store.call(self.book.mark_challenge_read, user.id, row.id)
        shown = (await self._views([row]))[0]
        await self._tell_both(row, shown)
        return shown

    async def cancel(self, user: UserRow, challenge_id: str) -> ChallengeView:
        row = await self.store.call(self.book.cancel, challenge_id, user.id, self.clock())
        shown = (await self._views([row]))[0]
        await self._tell_both(row, shown)
        return shown

    async def pending(self, user: UserRow) -> tuple[list[ChallengeView], list[ChallengeView]]:
        incoming, outgoing = await self.store.call(self.book.pending, user.id, self.clock())
        return await self._views(incoming), await self._views(outgoing)

    async def inbox(self, user: UserRow) -> Inbox:
        incoming, outgoing = await self.pending(user)
        _, unread = await self.store.call(self.book.notifications, user.id, 0)
        return Inbox(incoming=incoming, outgoing=outgoing, unread=unread)

    # -- follows and blocks -------------------------------------------------------------

    async def _other(self, user: UserRow, name: Any, what: str) -> UserRow:
        target = await self.player(name)
        if target.id == user.id:
            raise InvalidError(f"own-{what}", f"you cannot {what} yourself")
        return target

    async def follow(self, user: UserRow, name: Any, following: bool) -> None:
        target = await self._other(user, name, "follow")
        if following:
            _, blocking = await self.store.call(self.book.relation, user.id, target.id)
            if blocking:
                raise ActionError("blocking", f"you block {target.name}: unblock them to follow them")
            await self.store.call(self.book.follow, user.id, target.id, self.clock())
        else:
            await self.store.call(self.book.unfollow, user.id, target.id)

    async def block(self, user: UserRow, name: Any, blocking: bool) -> None:
        target = await self._other(user, name, "block")
        if blocking:
            await self.store.call(self.book.block, user.id, target.id, self.clock())
        else:
            await self.store.call(self.book.unblock, user.id, target.id)

    async def relation(self, user: UserRow, name: Any) -> tuple[UserRow, bool, bool]:
        target = await self.player(name)
        follows, blocks = await self.store.call(self.book.relation, user.id, target.id)
        return target, follows, blocks

    async def following(self, user: UserRow) -> list[dict[str, Any]]:
        """Whom `user` follows, with whether each is online (has a page open on this
        process) and the game they are playing."""
        followed = await self.store.call(self.book.following, user.id)
        playing = await self.store.call(self.book.playing_among, set(followed)) if followed else {}
        here = self.live.online_users()
        return [{"name": name, "online": uid in here, "playing": playing.get(uid)} for uid, name in followed.items()]

    async def blocked(self, user: UserRow) -> list[str]:
        return sorted((await self.store.call(self.book.blocked, user.id)).values(), key=str.lower)

    async def online(self, viewer: UserRow | None) -> list[dict[str, Any]]:
        """The players with a page open on this process (guests included; not the
        viewer, nor bots), with the game each is playing."""
        here = self.live.online_users() - ({viewer.id} if viewer else set())
        ids = set(sorted(here)[:ONLINE_SHOWN])
        if not ids:
            return []
        users = await self.store.call(self.store.users, ids)
        playing = await self.store.call(self.book.playing_among, ids)
        people = [u for u in users.values() if u.bot is None]
        return [
            {"name": u.name, "guest": u.guest, "playing": playing.get(u.id)}
            for u in sorted(people, key=lambda u: u.name.lower())
        ]

    # -- notifications --------------------------------------------------------------------

    def shown(self, row: NotificationRow) -> NotificationView:
        return NotificationView(
            id=row.id, kind=row.kind, actor=row.actor, game=row.game_id, challenge=row.challenge_id,  # type: ignore[arg-type]
            tournament=row.tournament_id, text=row.text, read=row.read, at=row.created_at,
        )  # fmt: skip

    async def notify(
        self,
        user_id: int,
        kind: str,
        text: Callable[[], str],
        actor: str | None = None,
        game_id: str | None = None,
        challenge_id: str | None = None,
        tournament_id: str | None = None,
        replaces: bool = False,
    ) -> None:
        """Stores a notification for `user_id`, then tells their pages. `text()` writes it
        in the language of the reader's account, once: the stored words stay in it."""
        with i18n.speaking(await self._language(user_id)):
            words = text()
        row = NotificationRow(
            id=0, user_id=user_id, kind=kind, actor=actor, game_id=game_id, challenge_id=challenge_id,
            tournament_id=tournament_id, text=words[:200], read=False, created_at=self.clock(),
        )  # fmt: skip
        stored = await self.store.call(self.book.notify, row, replaces)
        _, unread = await self.store.call(self.book.notifications, user_id, 0)
        frame = NotificationFrame(notification=self.shown(stored), unread=unread)
        await self.fanout.publish(user_channel(user_id), encode(frame))

    async def notifications(self, user: UserRow) -> tuple[list[NotificationView], int]:
        rows, unread = await self.store.call(self.book.notifications, user.id, NOTIFICATIONS_SHOWN)
        return [self.shown(r) for r in rows], unread

    async def mark_read(self, user: UserRow, ids: list[int] | None) -> int:
        return await self.store.call(self.book.mark_read, user.id, ids)

    def after(self, event: Changed) -> None:
        """A game changed (`Play.change`): a rematch offered, or a move that leaves the
        turn to a player who plays by correspondence or is away, is a notification for
        that player (not for a house bot). Cheap for every other change: nothing is
        awaited here."""
        change, bots = event.change, self.rooms.bots.levels
        row = change.row
        if change.kind == "rematch-offer" and change.by is not None:
            to_id = row.o_id if change.by == "x" else row.x_id
            by_id = row.x_id if change.by == "x" else row.o_id
            if to_id is not None and by_id is not None and to_id not in bots:
                self._spawn(self._rematch(row, by_id, to_id))
        elif change.kind == "move" and not change.finished:
            side = turn_of(row.ply)
            to_id = row.x_id if side == "x" else row.o_id
            by_id = row.o_id if side == "x" else row.x_id
            away = row.x_left_at if side == "x" else row.o_left_at
            if to_id is not None and by_id is not None and to_id not in bots and (row.days_per_move or away):
                self._spawn(self._your_move(row, by_id, to_id))

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(self._logged(work), name="noughts-notify")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _logged(work: Any) -> None:
        try:
            await work
        except Exception:
            log_failure(log, "a notification failed")

    async def _names(self, *ids: int) -> dict[int, UserRow]:
        return await self.store.call(self.store.users, set(ids))

    async def _rematch(self, row: GameRow, by_id: int, to_id: int) -> None:
        by = (await self._names(by_id))[by_id]
        if by.bot is not None:
            return

        def text() -> str:
            return i18n.gettext("{name} offers a rematch: {game}", name=by.name, game=title(row.spec))

        await self.notify(to_id, "rematch", text, actor=by.name, game_id=row.id)

    async def _your_move(self, row: GameRow, by_id: int, to_id: int) -> None:
        users = await self._names(by_id, to_id)
        if users[to_id].bot is not None:
            return

        def text() -> str:
            return i18n.gettext("Your move against {name}: {game}", name=users[by_id].name, game=title(row.spec))

        await self.notify(to_id, "your-move", text, actor=users[by_id].name, game_id=row.id, replaces=True)

    async def tournament_started(self, event: TournamentStarted) -> None:
        """Each player entered in the tournament is told it has started."""
        tournament_id = event.tournament_id
        name, players = await self.store.call(self.book.tournament_players, tournament_id)

        def started() -> str:
            return i18n.gettext("{tournament} has started", tournament=name)

        for uid in players:
            await self.notify(uid, "tournament-start", started, tournament_id=tournament_id)
