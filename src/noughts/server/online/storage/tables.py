"""The tables (SQLAlchemy 2). Alembic's migrations build the same schema (a test
compares them); change both together.

A game is stored as its spec and its move list, like a game record, and rebuilt by
replaying the moves through the core. `moves` holds one row per ply with the primary
key (game, ply): of two moves racing for the same ply, the database accepts one.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    #: The name folded to lower case: names differing only in case are the same name.
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    #: Argon2id hash; None for a guest.
    password_hash: Mapped[str | None] = mapped_column(String(200))
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[int] = mapped_column(BigInteger)
    #: A bot's level ("easy" to "max"): the computer plays this account in the server's
    #: worker pool (`noughts.server.online.bots`). None for a person.
    bot: Mapped[str | None] = mapped_column(String(16))
    #: Who made this bot account ("engine" bots: a program plays it through `noughts bot`).
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    #: The language the player chose in the page's menu (`noughts.i18n.LANGUAGES`), None
    #: until they choose: the page then follows the browser's.
    language: Mapped[str | None] = mapped_column(String(16))


class Session(Base):
    __tablename__ = "sessions"

    #: SHA-256 of the cookie's token: a leaked table does not log anybody in.
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[int] = mapped_column(BigInteger)


class KnownLogin(Base):
    """Where an account has logged in before: a browser (its device cookie's token) or
    an address, each kept as a SHA-256. A log-in from one of them is braked on its own,
    not with strangers' failures (OWASP's device cookies)."""

    __tablename__ = "known_logins"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    last_at: Mapped[int] = mapped_column(BigInteger)


class Game(Base):
    """A room and, once someone joins, its game. Times are milliseconds since 1970."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    spec: Mapped[str] = mapped_column(String(200))
    rated: Mapped[bool] = mapped_column(Boolean)
    #: Not listed in the lobby: joined by its invite link only.
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    creator_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    #: "x", "o" or "random" (settled when the opponent joins).
    creator_side: Mapped[str] = mapped_column(String(8))
    x_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    o_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    #: open (waiting for an opponent), playing, over, aborted, cancelled.
    state: Mapped[str] = mapped_column(String(12), index=True)
    #: The record's words: ongoing, x-wins, o-wins, draw.
    result: Mapped[str] = mapped_column(String(12), default="ongoing")
    #: normal, resignation, time, agreement, abandoned (None while it goes on).
    termination: Mapped[str | None] = mapped_column(String(16))
    #: The canonical move texts, space separated; `moves` has them row by row.
    moves: Mapped[str] = mapped_column(Text, default="")
    ply: Mapped[int] = mapped_column(Integer, default=0)
    #: Counts every change (join, move, offer, result...): events carry it, and an
    #: update applies only to the version it was computed from.
    version: Mapped[int] = mapped_column(Integer, default=0)
    clock_initial_ms: Mapped[int | None] = mapped_column(BigInteger)
    clock_increment_ms: Mapped[int | None] = mapped_column(BigInteger)
    x_ms: Mapped[int | None] = mapped_column(BigInteger)
    o_ms: Mapped[int | None] = mapped_column(BigInteger)
    #: When the player to move started thinking (the clock runs from there).
    turn_started_at: Mapped[int | None] = mapped_column(BigInteger)
    #: A standing offer and who made it ("x"/"o").
    draw_offer: Mapped[str | None] = mapped_column(String(1))
    takeback_offer: Mapped[str | None] = mapped_column(String(1))
    rematch_offer: Mapped[str | None] = mapped_column(String(1))
    rematch_id: Mapped[str | None] = mapped_column(String(16))
    #: When a player's last socket closed (None: connected, or never was).
    x_left_at: Mapped[int | None] = mapped_column(BigInteger)
    o_left_at: Mapped[int | None] = mapped_column(BigInteger)
    x_rating_before: Mapped[int | None] = mapped_column(Integer)
    x_rating_after: Mapped[int | None] = mapped_column(Integer)
    o_rating_before: Mapped[int | None] = mapped_column(Integer)
    o_rating_after: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[int] = mapped_column(BigInteger)
    started_at: Mapped[int | None] = mapped_column(BigInteger)
    ended_at: Mapped[int | None] = mapped_column(BigInteger)
    #: A challenge: the only player who may take the free seat (an engine bot accepts or
    #: declines through `noughts bot`).
    invited_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    #: Correspondence: days for each move (`clock_initial_ms` is that, filled again
    #: after each move); None for a game at one sitting.
    days_per_move: Mapped[int | None] = mapped_column(Integer)
    #: Lag compensation (`noughts.competition.clock.Lag`): each player's quota of network
    #: delay still to give back and the delay given back lately; NULL before their first
    #: compensated move.
    x_lag_quota_ms: Mapped[int | None] = mapped_column(Integer)
    o_lag_quota_ms: Mapped[int | None] = mapped_column(Integer)
    x_lag_ms: Mapped[int | None] = mapped_column(Integer)
    o_lag_ms: Mapped[int | None] = mapped_column(Integer)


class Move(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    #: 1 for the first move of the game.
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    move: Mapped[str] = mapped_column(String(16))
    played_at: Mapped[int] = mapped_column(BigInteger)
    #: The mover's clock after the move (None without a clock).
    clock_ms: Mapped[int | None] = mapped_column(BigInteger)


class Rating(Base):
    """A player's Glicko-2 rating in one game (spec), on the Glicko scale."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    spec: Mapped[str] = mapped_column(String(200), primary_key=True, index=True)
    rating: Mapped[float] = mapped_column()
    deviation: Mapped[float] = mapped_column()
    volatility: Mapped[float] = mapped_column()
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[int] = mapped_column(BigInteger)


class Review(Base):
    """A finished game's computer review (`noughts.study.review`), asked for once and
    shown to everyone who opens the game."""

    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    #: The level that reviewed (its player spec is in the review's data).
    level: Mapped[str] = mapped_column(String(8))
    #: The review as JSON (the shape of POST /api/review's answer).
    data: Mapped[str] = mapped_column(Text)
    requested_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[int] = mapped_column(BigInteger)


class KeptReview(Base):
    """The review of a game sent by a page (`POST /api/review`), computed once and kept:
    keyed by a hash of what decides it (`noughts.server.reviews.review_key`)."""

    __tablename__ = "kept_reviews"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    spec: Mapped[str] = mapped_column(String(200))
    level: Mapped[str] = mapped_column(String(8))
    #: Seconds of thought per position.
    seconds: Mapped[float] = mapped_column()
    #: The review as JSON (the shape of POST /api/review's answer).
    data: Mapped[str] = mapped_column(Text)
    created_at: Mapped[int] = mapped_column(BigInteger)


class Puzzle(Base):
    """A proved puzzle (`noughts.study.puzzles.Puzzle`) and its Glicko-2 rating, which
    starts at the search's difficulty estimate and moves with every first attempt."""

    __tablename__ = "puzzles"
    __table_args__ = (Index("ix_puzzles_spec_rating", "spec", "rating"),)

    #: `Puzzle.id`: from the game and the position, the same in every database.
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    spec: Mapped[str] = mapped_column(String(200))
    position: Mapped[str] = mapped_column(Text)
    #: The solution's move texts as a JSON list.
    solution: Mapped[str] = mapped_column(Text)
    plies: Mapped[int] = mapped_column(Integer)
    #: The themes between bars ("|win in 2|double threat|"): a theme is found with LIKE.
    themes: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(Text)
    #: The online game it was found in (offered to that game's players), if any.
    origin_game: Mapped[str | None] = mapped_column(String(16), index=True)
    rating: Mapped[float] = mapped_column()
    deviation: Mapped[float] = mapped_column()
    volatility: Mapped[float] = mapped_column()
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[int] = mapped_column(BigInteger)


class PuzzlePlayer(Base):
    """A player's puzzle rating (one for all games, as lichess keeps one) and record."""

    __tablename__ = "puzzle_players"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    rating: Mapped[float] = mapped_column()
    deviation: Mapped[float] = mapped_column()
    volatility: Mapped[float] = mapped_column()
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    best_streak: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[int] = mapped_column(BigInteger)


class PuzzleAttempt(Base):
    """A player's first attempt at a puzzle: the one that counts for both ratings. The
    primary key makes a second submission (a double click, another process) a no-op."""

    __tablename__ = "puzzle_attempts"
    __table_args__ = (Index("ix_puzzle_attempts_user_created", "user_id", "created_at"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"), primary_key=True)
    solved: Mapped[bool] = mapped_column(Boolean)
    rating_before: Mapped[float] = mapped_column()
    rating_after: Mapped[float] = mapped_column()
    puzzle_rating_before: Mapped[float] = mapped_column()
    puzzle_rating_after: Mapped[float] = mapped_column()
    created_at: Mapped[int] = mapped_column(BigInteger)


class PuzzleDaily(Base):
    """The daily puzzle: chosen by the first request of the day (UTC), the same for
    everyone and every process from then on."""

    __tablename__ = "puzzle_daily"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"))


class Seek(Base):
    """A player waiting in quick pairing for a game of `spec` with this clock (one seek a
    player). Paired, it keeps the game's id until the player has seen it."""

    __tablename__ = "seeks"
    __table_args__ = (Index("ix_seeks_pool", "spec", "rated", "clock_initial_ms", "clock_increment_ms"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    spec: Mapped[str] = mapped_column(String(200))
    rated: Mapped[bool] = mapped_column(Boolean)
    clock_initial_ms: Mapped[int | None] = mapped_column(BigInteger)
    clock_increment_ms: Mapped[int | None] = mapped_column(BigInteger)
    #: The player's rating in the game when they joined (the pairing window is around it).
    rating: Mapped[float] = mapped_column()
    joined_at: Mapped[int] = mapped_column(BigInteger)
    game_id: Mapped[str | None] = mapped_column(String(16))
    #: After this long unpaired, a bot of about the player's rating fills in (None: never).
    bot_after_ms: Mapped[int | None] = mapped_column(BigInteger)


class Tournament(Base):
    """An arena (a fixed duration) or a Swiss (a fixed number of rounds) of one game and
    clock. Its players and games are in `tournament_players` and `tournament_games`;
    standings are computed from those, so nothing else needs to survive a restart."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    #: arena or swiss.
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str] = mapped_column(String(60))
    spec: Mapped[str] = mapped_column(String(200))
    rated: Mapped[bool] = mapped_column(Boolean)
    clock_initial_ms: Mapped[int | None] = mapped_column(BigInteger)
    clock_increment_ms: Mapped[int | None] = mapped_column(BigInteger)
    creator_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    #: upcoming, running, finished.
    state: Mapped[str] = mapped_column(String(12), index=True)
    #: An arena's duration (None for a Swiss).
    minutes: Mapped[int | None] = mapped_column(Integer)
    #: A Swiss's rounds (None for an arena), and the round being played (0 before the first).
    rounds: Mapped[int | None] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer, default=0)
    starts_at: Mapped[int] = mapped_column(BigInteger)
    #: When an arena stops pairing (set when it starts).
    ends_at: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[int] = mapped_column(BigInteger)
    finished_at: Mapped[int | None] = mapped_column(BigInteger)


class TournamentPlayer(Base):
    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    #: The player's rating in the game when they joined (seeding and pairing order).
    rating: Mapped[float] = mapped_column()
    joined_at: Mapped[int] = mapped_column(BigInteger)
    #: Withdrawn players keep their results but are not paired (an arena's may come back).
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)


class TournamentGame(Base):
    """A pairing: an ordinary online game (its result is the game's), or a Swiss bye
    (no game, no o)."""

    __tablename__ = "tournament_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    #: A Swiss's round (1 for the first); an arena's games all have 0.
    round: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    x_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    o_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    #: Both ratings when paired (an arena's performance is computed from them).
    x_rating: Mapped[float] = mapped_column()
    o_rating: Mapped[float | None] = mapped_column()
    paired_at: Mapped[int] = mapped_column(BigInteger)


class ChatMessage(Base):
    """A line of a game's chat: the players' (seen by the two players) or the
    spectators' (seen by everyone else, and by the players once the game is over), as
    lichess keeps the two apart."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_user_at", "user_id", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    #: players or spectators.
    channel: Mapped[str] = mapped_column(String(12))
    text: Mapped[str] = mapped_column(String(400))
    created_at: Mapped[int] = mapped_column(BigInteger)


class ChatMute(Base):
    """`user_id` does not see `muted_id`'s chat, in any game."""

    __tablename__ = "chat_mutes"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    muted_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    created_at: Mapped[int] = mapped_column(BigInteger)


class ChatReport(Base):
    """A report of a chat line for the moderators (docs/online.md says how they read them)."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id", ondelete="CASCADE"))
    reason: Mapped[str] = mapped_column(String(400))
    created_at: Mapped[int] = mapped_column(BigInteger)


class Challenge(Base):
    """A player's challenge to another: a game with these settings, pending until the
    challenged player accepts it (then `game_id` is the game), declines it (with a
    reason), the challenger cancels it, or `expires_at` passes."""

    __tablename__ = "challenges"
    __table_args__ = (
        Index("ix_challenges_challenged_state", "challenged_id", "state"),
        Index("ix_challenges_challenger_state", "challenger_id", "state"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    challenger_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    challenged_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    spec: Mapped[str] = mapped_column(String(200))
    rated: Mapped[bool] = mapped_column(Boolean)
    #: The challenger's side: x, o or random.
    side: Mapped[str] = mapped_column(String(8))
    clock_initial_ms: Mapped[int | None] = mapped_column(BigInteger)
    clock_increment_ms: Mapped[int | None] = mapped_column(BigInteger)
    days_per_move: Mapped[int | None] = mapped_column(Integer)
    #: pending, accepted, declined, cancelled (a pending one past `expires_at` is expired).
    state: Mapped[str] = mapped_column(String(12))
    #: Why it was declined (social.DECLINE_REASONS).
    reason: Mapped[str | None] = mapped_column(String(16))
    game_id: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[int] = mapped_column(BigInteger)


class Follow(Base):
    """`user_id` follows `followed_id`: sees them online and playing."""

    __tablename__ = "follows"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    followed_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    created_at: Mapped[int] = mapped_column(BigInteger)


class Block(Base):
    """`user_id` blocks `blocked_id`: no challenges between them, no chat from them."""

    __tablename__ = "blocks"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    created_at: Mapped[int] = mapped_column(BigInteger)


class Notification(Base):
    """Something a player is told in the header's bell: a challenge, their move, a
    tournament starting, a rematch offered; read or not."""

    __tablename__ = "notifications"
    __table_args__ = (Index("ix_notifications_user_id_id", "user_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    #: challenge, your-move, tournament-start, rematch.
    kind: Mapped[str] = mapped_column(String(20))
    #: Who it is about (the challenger, the opponent), by name; what it points at.
    actor: Mapped[str | None] = mapped_column(String(32))
    game_id: Mapped[str | None] = mapped_column(String(16))
    challenge_id: Mapped[str | None] = mapped_column(String(16))
    tournament_id: Mapped[str | None] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(String(200))
    read: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[int] = mapped_column(BigInteger)
