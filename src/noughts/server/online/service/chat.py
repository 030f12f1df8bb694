"""A game's chat, on the game's socket: the players' channel (the two players) and the
spectators' (everyone else, and the players too once the game is over), as lichess
keeps them apart. Players and spectators with an account write; guests and visitors
read. Lines are stored, then published to the game's channel as an envelope that each
socket opens to decide whether its viewer sees the line (`ChatViewer.frame`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from noughts.competition.clock import now_ms
from noughts.server.online import actions
from noughts.server.online.accounts import name_key
from noughts.server.online.actions import ActionError, GameRow
from noughts.server.online.config import OnlineConfig
from noughts.server.online.protocol import ENVELOPE_HEAD, ChatBacklog, ChatEnvelope, ChatLineFrame, encode
from noughts.server.online.protocol import ChatLine as ShownLine
from noughts.server.online.realtime import Fanout, game_channel
from noughts.server.online.storage.chat import ChatBook, ChatLine, ChatTooFastError
from noughts.server.online.storage.social import SocialBook
from noughts.server.online.storage.store import Store, UserRow
from noughts.server.online.texts import text_fault

PLAYERS, SPECTATORS = "players", "spectators"
#: A report's reason, in characters.
REASON_LENGTH = 200


def players_of(row: GameRow) -> set[int]:
    """Who writes in and reads the players' channel: the seated players, or a room's
    creator before anybody joins."""
    seated = {i for i in (row.x_id, row.o_id) if i is not None}
    return seated or {row.creator_id}


def clean(given: object, most: int, what: str = "a chat line") -> str:
    """`text` trimmed, if it is a text of 1 to `most` characters that `text_fault`
    finds nothing wrong with; else ActionError `bad-text`, nothing stored."""
    if not isinstance(given, str):
        raise ActionError("bad-message", f'{what} is a "text" string')
    text = given.strip()
    if len(text) > most:
        raise ActionError("bad-text", f"{what} has at most {most} characters")
    fault = text_fault(text)
    if fault is not None:
        raise ActionError("bad-text", f"{what} {fault}")
    return text


@dataclass
class ChatViewer:
    """Who reads through one socket: their id (None for a visitor) and whom they mute."""

    user_id: int | None
    muted: dict[int, str] = field(default_factory=dict)
    #: Whom they block (`Social.block`): no chat from them either.
    blocked: set[int] = field(default_factory=set)

    def sees(self, line: ChatLine, players: set[int], finished: bool) -> bool:
        if line.user_id in self.muted or line.user_id in self.blocked:
            return False
        playing = self.user_id in players
        if line.channel == PLAYERS:
            return playing
        return not playing or finished

    def frame(self, text: str) -> str | None:
        """What this socket sends for a published frame: other frames as they are, a
        chat envelope as its line if the viewer sees it, else nothing."""
        if not text.startswith(ENVELOPE_HEAD):
            return text
        envelope = ChatEnvelope.model_validate_json(text)
        line = ChatLine(**envelope.line)
        if not self.sees(line, set(envelope.players), envelope.finished):
            return None
        return encode(ChatLineFrame(line=_public(line)))


def _public(line: ChatLine) -> ShownLine:
    return ShownLine(id=line.id, user=line.name, channel=line.channel, text=line.text, at=line.at)  # type: ignore[arg-type]


class Chat:
    def __init__(self, store: Store, fanout: Fanout, config: OnlineConfig) -> None:
        self.store, self.fanout, self.config = store, fanout, config
        self.book = ChatBook(store.engine)
        self.blocks = SocialBook(store.engine)

    async def viewer(self, user: UserRow | None) -> ChatViewer:
        if user is None:
            return ChatViewer(None)
        muted = await self.store.call(self.book.muted, user.id)
        blocked = await self.store.call(self.blocks.blocked, user.id)
        return ChatViewer(user.id, muted, set(blocked))

    async def backlog(self, row: GameRow, viewer: ChatViewer) -> ChatBacklog:
        """The frame a socket gets on opening: the lines its viewer sees, and whom they mute."""
        lines = await self.store.call(self.book.lines, row.id)
        players, finished = players_of(row), row.state in actions.FINISHED
        return ChatBacklog(
            lines=[_public(line) for line in lines if viewer.sees(line, players, finished)],
            muted=sorted(viewer.muted.values()),
            channel=_channel(row, viewer.user_id),  # type: ignore[arg-type]
        )

    async def say(self, game_id: str, user: UserRow | None, text: Any) -> None:
        """Stores `user`'s line in their channel of the game and publishes it."""
        if user is None:
            raise ActionError("not-logged-in", "log in to write in the chat")
        if user.guest:
            raise ActionError("guest-read-only", "guests read the chat: sign up to write in it")
        text = clean(text, self.config.chat_length)
        row = await self.store.call(self.store.game, game_id)
        channel = _channel(row, user.id)
        window = round(self.config.chat_window * 1000)
        try:
            line = await self.store.call(
                self.book.say, game_id, user.id, user.name, channel, text, now_ms(), self.config.chat_burst, window
            )
        except ChatTooFastError:
            raise ActionError(
                "chat-too-fast",
                f"at most {self.config.chat_burst} chat lines in {self.config.chat_window:g} seconds: wait a moment",
            ) from None
        finished = row.state in actions.FINISHED
        envelope = ChatEnvelope(line=asdict(line), players=sorted(players_of(row)), finished=finished)
        await self.fanout.publish(game_channel(game_id), encode(envelope))

    async def mute(self, viewer: ChatViewer, user: UserRow | None, name: Any, muting: bool) -> list[str]:
        """`user` mutes (or no longer mutes) the player `name` everywhere; whom they mute now."""
        if user is None or viewer.user_id is None:
            raise ActionError("not-logged-in", "log in or play as a guest to mute a player")
        target = await self._user(name)
        if target.id == user.id:
            raise ActionError("bad-message", "you cannot mute yourself")
        if muting:
            await self.store.call(self.book.mute, user.id, target.id, now_ms())
            viewer.muted[target.id] = target.name
        else:
            await self.store.call(self.book.unmute, user.id, target.id)
            viewer.muted.pop(target.id, None)
        return sorted(viewer.muted.values())

    async def report(self, game_id: str, viewer: ChatViewer, user: UserRow | None, line_id: Any, reason: Any) -> None:
        """Keeps `user`'s report of a line they can see in this game for the moderators."""
        if user is None:
            raise ActionError("not-logged-in", "log in or play as a guest to report a line")
        if not isinstance(line_id, int) or isinstance(line_id, bool):
            raise ActionError("bad-message", 'a report names the chat line\'s "line" number')
        reason = clean(reason or "abuse", REASON_LENGTH, "a report's reason")
        line = await self.store.call(self.book.line, line_id)
        row = await self.store.call(self.store.game, game_id)
        seen = line is not None and viewer.sees(line, players_of(row), row.state in actions.FINISHED)
        if line is None or line.game_id != game_id or not seen:
            raise ActionError("no-such-line", "there is no such chat line in this game")
        await self.store.call(self.book.report, user.id, line_id, reason, now_ms())

    async def _user(self, name: Any) -> UserRow:
        if not isinstance(name, str) or not 0 < len(name) <= 40:
            raise ActionError("bad-message", 'name the player: "user": their name')
        found = await self.store.call(self.store.user_by_key, name_key(name))
        if found is None:
            raise ActionError("no-such-player", f"there is no player {name!r}")
        return found


def _channel(row: GameRow, user_id: int | None) -> str:
    return PLAYERS if user_id in players_of(row) else SPECTATORS
