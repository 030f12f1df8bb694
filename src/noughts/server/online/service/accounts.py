"""Accounts: signing up, logging in and out, guests, players' bot accounts, and the
sessions that say who is asking. What an account may be called, how passwords are
hashed and how attempts are braked is `noughts.server.online.accounts`."""

from __future__ import annotations

import asyncio

from noughts import i18n
from noughts.competition.clock import now_ms
from noughts.server.online import accounts
from noughts.server.online.accounts import AccountError, Passwords, TooManyAttemptsError, make_quota, make_throttle
from noughts.server.online.config import OnlineConfig
from noughts.server.online.storage.store import NameTakenError, Store, TooManyBotsError, UserRow

#: Bot accounts a player may make for their programs, and how long a bot's token lasts
#: (a new one replaces it: `Accounts.new_bot_token`).
MAX_ENGINE_BOTS = 5
BOT_TOKEN_DAYS = 365


class Accounts:
    """The accounts in `store`, their log-ins braked through `redis_url` (None: in this
    process only)."""

    def __init__(self, store: Store, redis_url: str | None, config: OnlineConfig) -> None:
        self.store, self.config = store, config
        self.passwords = Passwords(config.argon2_time_cost, config.argon2_memory_kib)
        self.throttle = make_throttle(redis_url, config)
        self.signups = make_quota(redis_url, config, "signup", config.signups_per_address)
        self.guests = make_quota(redis_url, config, "guest", config.guests_per_address)
        # Each Argon2 hash takes `argon2_memory_kib` of memory while it runs.
        self._hashing = asyncio.Semaphore(config.hashing_at_once)

    async def close(self) -> None:
        for brake in (self.throttle, self.signups, self.guests):
            await brake.close()

    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.passwords.hash, password)

    async def _verify(self, stored: str | None, password: str) -> bool:
        async with self._hashing:
            return await asyncio.to_thread(self.passwords.verify, stored, password)

    async def sign_up(
        self, name: str, password: str, address: str, device: str | None = None
    ) -> tuple[UserRow, str, str]:
        accounts.check_name(name)
        accounts.check_password(password)
        try:
            await self.signups.attempt([accounts.ADDRESS_KEY + address])
        except TooManyAttemptsError as e:
            raise TooManyAttemptsError(e.wait, "new accounts from your address") from None
        hashed = await self._hash(password)
        try:
            user = await self.store.call(self.store.create_user, name, accounts.name_key(name), hashed, False, now_ms())
        except NameTakenError:
            raise AccountError("name-taken", f"the name {name!r} is taken: choose another", "name", 409) from None
        return user, await self._session(user), await self._remember(user, address, device)

    async def log_in(
        self, name: str, password: str, address: str, device: str | None = None, session: str | None = None
    ) -> tuple[UserRow, str, str]:
        """The user, a new session token, and the browser's device token (`device`, the
        one it sent, or a new one). Failures are braked per name, name and address, and
        address; but an attempt from a browser or an address the account logged in from
        before, or with a session of the account, only by that place's own failures."""
        user = await self.store.call(self.store.user_by_key, accounts.name_key(name))
        keys, cleared = await self._brake_keys(user, name, address, device, session)
        await self.throttle.attempt(keys)
        ok = await self._verify(user.password_hash if user else None, password)
        if user is None or not ok:
            raise AccountError("wrong-credentials", "wrong name or password", None, 401)
        await self.throttle.succeeded(keys, cleared=cleared)
        return user, await self._session(user), await self._remember(user, address, device)

    async def _brake_keys(
        self, user: UserRow | None, name: str, address: str, device: str | None, session: str | None
    ) -> tuple[list[str], int]:
        """The brake's keys of a log-in, and how many a success clears. The same
        look-ups run whether the name exists or not, so their time does not tell."""
        holder = await self.user_for(session)
        if user is not None and holder is not None and holder.id == user.id and session is not None:
            return [accounts.DEVICE_KEY + accounts.token_hash(session)], 1
        browser = accounts.device_hash(device) if device and len(device) <= 100 else None
        place = accounts.address_hash(address)
        since = now_ms() - self.config.known_login_days * 86_400_000
        asked = [k for k in (browser, place) if k is not None]
        known = await self.store.call(self.store.known_logins, user.id if user else 0, asked, since)
        if browser in known:
            return [accounts.DEVICE_KEY + browser], 1
        if place in known:
            # Strangers' failures on the name (from elsewhere) or on the address (other
            # names) do not count; the name's from this address do.
            return [accounts.login_keys(name, address)[1]], 1
        return accounts.login_keys(name, address), 2

    async def _remember(self, user: UserRow, address: str, device: str | None) -> str:
        """Notes the browser and the address `user` logged in from; the browser's device
        token (a new one if it had none)."""
        if not device or len(device) > 100:
            device = accounts.new_device()
        places = [accounts.device_hash(device), accounts.address_hash(address)]
        await self.store.call(self.store.remember_login, user.id, places, now_ms())
        return device

    async def guest(self, address: str) -> tuple[UserRow, str]:
        try:
            await self.guests.attempt([accounts.ADDRESS_KEY + address])
        except TooManyAttemptsError as e:
            raise TooManyAttemptsError(e.wait, "new guests from your address") from None
        for _ in range(5):
            name = accounts.guest_name()
            try:
                user = await self.store.call(self.store.create_user, name, name, None, True, now_ms())
            except NameTakenError:
                continue
            return user, await self._session(user)
        raise AccountError("busy", "no guest name is free: try again", None, 503)

    async def create_engine_bot(self, owner: UserRow, name: str) -> tuple[UserRow, str]:
        """A bot account of `owner`'s for a program to play through `noughts bot`, and
        its token (shown once)."""
        if owner.guest or owner.bot is not None:
            raise AccountError("not-allowed", "sign up to make bot accounts (guests and bots cannot)", None, 403)
        accounts.check_name(name)
        try:
            bot = await self.store.call(
                self.store.add_engine_bot, name, accounts.name_key(name), owner.id, now_ms(), MAX_ENGINE_BOTS
            )
        except NameTakenError:
            raise AccountError("name-taken", f"the name {name!r} is taken: choose another", "name", 409) from None
        except TooManyBotsError:
            raise AccountError(
                "too-many-bots", f"a player has at most {MAX_ENGINE_BOTS} bot accounts", None, 409
            ) from None
        return bot, await self._session(bot, BOT_TOKEN_DAYS)

    async def engine_bots(self, owner: UserRow) -> list[UserRow]:
        return await self.store.call(self.store.bots_of, owner.id)

    async def new_bot_token(self, owner: UserRow, name: str) -> tuple[UserRow, str]:
        """A new token for `owner`'s bot `name`; its earlier ones stop working."""
        bot = await self.store.call(self.store.user_by_key, accounts.name_key(name))
        if bot is None or bot.owner_id != owner.id:
            raise AccountError("no-such-bot", f"you have no bot {name!r}", None, 404)
        await self.store.call(self.store.drop_sessions_of, bot.id)
        return bot, await self._session(bot, BOT_TOKEN_DAYS)

    async def language(self, user: UserRow) -> str | None:
        """The language `user` chose in the page's menu, None before they choose."""
        return await self.store.call(self.store.language, user.id)

    async def set_language(self, user: UserRow, language: str) -> None:
        """Keeps `language` (one the page offers) as `user`'s."""
        if language not in i18n.LANGUAGES:
            raise AccountError("unknown-language", "this language is not offered", "language")
        await self.store.call(self.store.set_language, user.id, language)

    async def _session(self, user: UserRow, days: int | None = None) -> str:
        token, hashed = accounts.new_token()
        expires = now_ms() + (self.config.session_days if days is None else days) * 86_400_000
        await self.store.call(self.store.add_session, hashed, user.id, expires)
        return token

    async def user_for(self, token: str | None) -> UserRow | None:
        if not token or len(token) > 100:
            return None
        return await self.store.call(self.store.session_user, accounts.token_hash(token), now_ms())

    async def log_out(self, token: str) -> None:
        await self.store.call(self.store.drop_session, accounts.token_hash(token))
