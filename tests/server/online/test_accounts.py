"""Sign-up, log-in, guests, sessions: a distinct message for each mistake."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from dataclasses import replace

import pytest

from noughts.server import Settings
from noughts.server.online.accounts import MemoryThrottle, RedisThrottle, TooManyAttemptsError
from server.online.people import FAST, PASSWORD, Person, unique
from server.online.servers import in_thread


@pytest.mark.parametrize(
    ("name", "password", "error", "field"),
    [
        ("ab", PASSWORD, "name-length", "name"),
        ("a" * 21, PASSWORD, "name-length", "name"),
        ("<b>ann</b>", PASSWORD, "name-malformed", "name"),
        ("ann smith", PASSWORD, "name-malformed", "name"),
        ("_ann", PASSWORD, "name-malformed", "name"),
        ("guest-ann", PASSWORD, "name-reserved", "name"),
        ("fine-name", "short", "password-short", "password"),
    ],
)
def test_sign_up_mistakes(people: Callable[[], Person], name: str, password: str, error: str, field: str) -> None:
    answer = people().http.post("/api/online/signup", json={"name": name, "password": password})
    assert answer.status_code == 400
    assert (answer.json()["error"], answer.json()["field"]) == (error, field)
    assert answer.json()["message"]


def test_sign_up_sets_an_httponly_samesite_cookie_and_logs_in(people: Callable[[], Person]) -> None:
    ann = people()
    name = unique("Ann")
    answer = ann.http.post("/api/online/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
    assert ann.http.get("/api/online/me").json() == {"user": {"name": name, "guest": False, "language": None}}
    taken = people().http.post("/api/online/signup", json={"name": name.lower(), "password": PASSWORD})
    assert (taken.status_code, taken.json()["error"]) == (409, "name-taken")


def test_log_in_log_out(people: Callable[[], Person]) -> None:
    name = people().sign_up().name
    bob = people()
    assert bob.http.get("/api/online/me").json() == {"user": None}
    wrong = bob.http.post("/api/online/login", json={"name": name, "password": "not the one"})
    assert (wrong.status_code, wrong.json()["error"], wrong.json()["message"]) == (
        401,
        "wrong-credentials",
        "wrong name or password",
    )
    nobody = bob.http.post("/api/online/login", json={"name": unique("nobody"), "password": PASSWORD})
    assert nobody.json()["message"] == "wrong name or password"  # does not tell which names exist
    assert bob.http.post("/api/online/login", json={"name": name.upper(), "password": PASSWORD}).status_code == 200
    assert bob.http.get("/api/online/me").json()["user"]["name"] == name
    assert bob.http.post("/api/online/logout").status_code == 204
    assert bob.http.get("/api/online/me").json() == {"user": None}


def test_repeated_failed_log_ins_are_slowed_down(people: Callable[[], Person]) -> None:
    name = people().sign_up().name
    mallory = people()
    answers = [mallory.http.post("/api/online/login", json={"name": name, "password": "guess-1234"}) for _ in range(5)]
    assert [a.status_code for a in answers] == [401, 401, 401, 429, 429]  # three are free
    assert answers[-1].json()["error"] == "too-many-attempts" and int(answers[-1].headers["retry-after"]) >= 1
    # Even the right password waits.
    right = mallory.http.post("/api/online/login", json={"name": name, "password": PASSWORD})
    assert right.status_code == 429


def test_throttle_delay_doubles_and_expires() -> None:
    throttle = MemoryThrottle(free=2, max_delay=10)
    for t in range(3):
        throttle.attempt_at(["k"], float(t))  # each failed: nobody said otherwise
    with pytest.raises(TooManyAttemptsError) as wait:
        throttle.attempt_at(["k"], 2.5)  # 2 s after the third failure
    assert wait.value.wait == 2 and "try again in 2 seconds" in wait.value.message
    throttle.attempt_at(["k"], 4.0)
    with pytest.raises(TooManyAttemptsError):
        throttle.attempt_at(["k", "other"], 7.5)  # 4 s after the fourth
    throttle.attempt_at(["k"], 8.0)
    asyncio.run(throttle.succeeded(["k"]))
    throttle.attempt_at(["k"], 8.0)
    throttle.attempt_at(["k"], 8.0)


def test_throttle_counts_an_attempt_before_its_password_is_checked() -> None:
    """A burst of guesses sent at once cannot all pass on the same count."""
    throttle = MemoryThrottle(free=3, max_delay=60)
    passed = 0
    for _ in range(10):
        try:
            throttle.attempt_at(["name:ann", "address:1"], 100.0)
            passed += 1
        except TooManyAttemptsError:
            pass
    assert passed == 3


def test_throttle_success_clears_the_name_and_not_the_address() -> None:
    throttle = MemoryThrottle(free=2, max_delay=60)
    throttle.attempt_at(["name:a", "address:1"], 0.0)  # a failure
    throttle.attempt_at(["name:b", "address:1"], 0.0)
    asyncio.run(throttle.succeeded(["name:b", "address:1"]))  # this one was right
    throttle.attempt_at(["name:c", "address:1"], 0.0)  # the address has one failure back
    with pytest.raises(TooManyAttemptsError):
        throttle.attempt_at(["name:d", "address:1"], 0.0)
    throttle.attempt_at(["name:b", "address:2"], 0.0)  # b's count was cleared


def test_throttle_forgets_old_failures_and_huge_counts_do_not_overflow() -> None:
    throttle = MemoryThrottle(free=1, max_delay=60, forget_after=600)
    throttle.attempt_at(["k"], 0.0)
    for t in range(2000):
        with contextlib.suppress(TooManyAttemptsError):
            throttle.attempt_at(["k"], 60.0 * (t + 1))
    with pytest.raises(TooManyAttemptsError) as wait:
        throttle.attempt_at(["k"], 60.0 * 2000 + 30)
    assert wait.value.wait == 30  # capped at max_delay, 2**1999 notwithstanding
    throttle.attempt_at(["k"], 60.0 * 2000 + 601)  # forgotten after 600 s
    throttle.attempt_at(["other"], 60.0 * 2000 + 601)
    with pytest.raises(TooManyAttemptsError):
        throttle.attempt_at(["k"], 60.0 * 2000 + 601)  # one free failure, then the brake again


def test_throttles_sharing_redis_see_each_others_failures(redis_url: str) -> None:
    """Two server processes' brakes: guesses spread over them add up."""

    async def run() -> None:
        prefix = f"noughts-test-{secrets.token_hex(4)}:"
        one, two = RedisThrottle(redis_url, prefix, free=2), RedisThrottle(redis_url, prefix, free=2)
        stranger = RedisThrottle(redis_url, "x" + prefix, free=2)
        try:
            await one.attempt(["name:ann", "address:1"])
            await two.attempt(["name:ann", "address:2"])
            with pytest.raises(TooManyAttemptsError) as wait:
                await one.attempt(["name:ann", "address:3"])
            assert wait.value.wait == 1 and wait.value.error == "too-many-attempts"
            with pytest.raises(TooManyAttemptsError):
                await two.attempt(["name:ann", "address:4"])
            await stranger.attempt(["name:ann", "address:1"])  # another deployment's brake
            # A success through one process clears the name for all of them.
            await two.attempt(["name:bob", "address:5"])
            await two.attempt(["name:bob", "address:5"])
            await one.succeeded(["name:bob", "address:5"])
            await two.attempt(["name:bob", "address:6"])
        finally:
            for throttle in (one, two, stranger):
                await throttle.close()

    asyncio.run(run())


def test_a_redis_throttle_brakes_alone_while_redis_is_away(caplog: pytest.LogCaptureFixture) -> None:
    async def run() -> None:
        throttle = RedisThrottle("redis://127.0.0.1:1", "noughts-test:", free=2)
        try:
            await throttle.attempt(["name:ann"])
            await throttle.attempt(["name:ann"])
            with pytest.raises(TooManyAttemptsError):
                await throttle.attempt(["name:ann"])
        finally:
            await throttle.close()

    asyncio.run(run())
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "Redis at redis://127.0.0.1:1 is unreachable" in warnings[0]


def test_apps_sharing_redis_brake_log_ins_together(sqlite_url: str, redis_url: str) -> None:
    prefix = f"noughts-test-{secrets.token_hex(4)}:"
    settings = Settings(database=sqlite_url, ai_workers=1, redis=redis_url, online=replace(FAST, redis_prefix=prefix))
    with in_thread(settings) as one, in_thread(settings) as two:
        ann, here, there = Person(one).sign_up(), Person(one), Person(two)
        name = ann.name
        wrong = {"name": name, "password": "guess-1234"}
        answers = [here.http.post("/api/online/login", json=wrong) for _ in range(3)]
        assert [a.json()["error"] for a in answers] == ["wrong-credentials"] * 3
        slowed = there.http.post("/api/online/login", json={"name": name, "password": PASSWORD})
        assert slowed.status_code == 429 and slowed.json()["error"] == "too-many-attempts"
        assert "try again in 1 second" in slowed.json()["message"] and slowed.headers["retry-after"] == "1"
        for person in (ann, here, there):
            person.close()


def test_guests_play_casual_only(people: Callable[[], Person]) -> None:
    guest = people().guest()
    assert guest.name is not None and guest.name.startswith("guest-")
    assert guest.http.get("/api/online/me").json()["user"]["guest"] is True
    rated = guest.http.post("/api/online/rooms", json={"spec": "classic", "rated": True})
    assert (rated.status_code, rated.json()["error"]) == (403, "guest-rated")
    assert guest.http.post("/api/online/rooms", json={"spec": "classic"}).status_code == 201


def test_visitors_must_log_in_to_create_or_join(people: Callable[[], Person]) -> None:
    visitor = people()
    answer = visitor.http.post("/api/online/rooms", json={"spec": "classic"})
    assert (answer.status_code, answer.json()["error"]) == (401, "not-logged-in")
    game_id = people().sign_up().room()
    assert visitor.http.post(f"/api/online/games/{game_id}/join").status_code == 401


def test_a_forged_cookie_is_nobody(people: Callable[[], Person]) -> None:
    person = people()
    person.http.cookies.set("noughts_session", "forged")
    assert person.http.get("/api/online/me").json() == {"user": None}


def test_failures_on_other_names_do_not_lock_an_account_out_from_the_same_address(
    people: Callable[[], Person],
) -> None:
    """Issue 17: after 13 failures for one name, a correct log-in to another account
    from the same address got 429. Behind one address (a household, a school) one
    person's mistakes must not lock the others out."""
    ann = people().sign_up()
    strangers = [people().sign_up().name for _ in range(5)]
    mallory = people()
    failures = 0
    for name in strangers:
        for _ in range(4):
            answer = mallory.http.post("/api/online/login", json={"name": name, "password": "guess-1234"})
            failures += answer.status_code == 401
    assert failures == 15  # three free for each name from this address, then 429s
    right = mallory.http.post("/api/online/login", json={"name": ann.name, "password": PASSWORD})
    assert right.status_code == 200 and right.json()["user"]["name"] == ann.name


def test_throttle_keys_have_their_own_free_failures() -> None:
    throttle = MemoryThrottle(free=2, max_delay=60, free_for={"address:": 5})
    for name in "abcde":
        throttle.attempt_at([f"name:{name}", "address:1"], 0.0)  # five failures from address 1
    throttle.attempt_at(["name:f", "address:2"], 0.0)
    with pytest.raises(TooManyAttemptsError):
        throttle.attempt_at(["name:f", "address:1"], 0.0)  # the address's sixth
    throttle.attempt_at(["name:f", "address:2"], 0.0)
    with pytest.raises(TooManyAttemptsError):
        throttle.attempt_at(["name:f", "address:3"], 0.0)  # the name's third


def test_a_success_clears_the_name_and_the_name_from_that_address() -> None:
    throttle = MemoryThrottle(free=1, max_delay=60, free_for={"name:": 5})
    keys = ["name:ann", "pair:ann@1", "address:1"]
    throttle.attempt_at(keys, 0.0)
    with pytest.raises(TooManyAttemptsError):
        throttle.attempt_at(keys, 0.0)  # the pair's second
    asyncio.run(throttle.succeeded(keys, cleared=2))
    throttle.attempt_at(keys, 0.0)  # the pair and the name are clear; the address got its attempt back


def test_redis_throttle_keys_have_their_own_free_failures(redis_url: str) -> None:
    async def run() -> None:
        prefix = f"noughts-test-{secrets.token_hex(4)}:"
        throttle = RedisThrottle(redis_url, prefix, free=1, free_for={"address:": 3})
        try:
            for name in "abc":
                await throttle.attempt([f"pair:{name}@1", "address:1"])
            with pytest.raises(TooManyAttemptsError):
                await throttle.attempt(["pair:d@1", "address:1"])
            with pytest.raises(TooManyAttemptsError):
                await throttle.attempt(["pair:a@1"])
            await throttle.succeeded(["pair:a@1", "address:1"], cleared=1)
            await throttle.attempt(["pair:a@1", "address:1"])  # cleared; the address has one back
        finally:
            await throttle.close()

    asyncio.run(run())


def test_accounts_and_guests_from_one_address_are_braked(sqlite_url: str) -> None:
    """Issue 17: 300 guests in 3.2 s, 40 sign-ups at once took 500 MB. Past the free
    ones, each new account or guest from an address waits, and nothing is made."""
    online = replace(FAST, signups_per_address=2, guests_per_address=3)
    with in_thread(Settings(database=sqlite_url, ai_workers=1, online=online)) as base:
        spammer = Person(base)
        try:
            made = [spammer.http.post("/api/online/guest").status_code for _ in range(5)]
            assert made == [201, 201, 201, 429, 429]
            names = [unique("spam") for _ in range(4)]
            answers = [spammer.http.post("/api/online/signup", json={"name": n, "password": PASSWORD}) for n in names]
            assert [a.status_code for a in answers] == [201, 201, 429, 429]
            refused = answers[-1]
            assert refused.json()["error"] == "too-many-attempts" and int(refused.headers["retry-after"]) >= 1
            assert "too many new accounts from your address" in refused.json()["message"]
            for name in names[2:]:  # not made
                assert spammer.http.get(f"/api/online/users/{name}").status_code == 404
            # A mistake in the form is not an account made: it does not count.
            short = spammer.http.post("/api/online/signup", json={"name": unique("ok"), "password": "short"})
            assert short.json()["error"] == "password-short"
        finally:
            spammer.close()


def test_at_most_a_few_argon2_hashes_run_at_once(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each Argon2id hash holds 64 MiB while it runs: sign-ups beyond
    `hashing_at_once` wait their turn instead of all hashing together."""
    import threading
    import time

    from noughts.server.online.service import Online

    online = Online(sqlite_url, None, replace(FAST, hashing_at_once=2))
    running, most = 0, 0
    lock = threading.Lock()
    hash_one = online.accounts.passwords.hash

    def watched(password: str) -> str:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)  # long enough for the others to start, were they let through
        try:
            return hash_one(password)
        finally:
            with lock:
                running -= 1

    monkeypatch.setattr(online.accounts.passwords, "hash", watched)

    async def run() -> None:
        await online.start()
        try:
            await asyncio.gather(*(online.accounts.sign_up(unique("h"), PASSWORD, "1.2.3.4") for _ in range(8)))
        finally:
            await online.stop()

    asyncio.run(run())
    assert most == 2


def test_passwords_are_argon2id_hashes_and_tokens_are_kept_as_their_sha256(sqlite_url: str) -> None:
    """What a stolen database holds: no password, no usable log-in."""
    from noughts.competition.clock import now_ms
    from noughts.server.online.accounts import token_hash
    from noughts.server.online.service import Online

    online = Online(sqlite_url, None, FAST)

    async def run() -> None:
        await online.start()
        try:
            name = unique("ann")
            user, token, _ = await online.accounts.sign_up(name, PASSWORD, "1.2.3.4")
            stored = await online.store.call(online.store.user_by_key, name.lower())
            assert stored is not None and stored.password_hash is not None
            assert stored.password_hash.startswith("$argon2id$") and PASSWORD not in stored.password_hash
            assert await online.store.call(online.store.session_user, token, now_ms()) is None
            found = await online.store.call(online.store.session_user, token_hash(token), now_ms())
            assert found is not None and found.id == user.id
        finally:
            await online.stop()

    asyncio.run(run())


def test_strangers_failures_do_not_lock_an_owner_out_of_a_known_browser_or_address(sqlite_url: str) -> None:
    """Issue 41: 100 failures by strangers from a shared address (a school), or 10 on
    the name from anywhere, made the owner's right password get 429. A log-in from a
    browser (its device cookie) or an address the account logged in from before is
    braked only by that place's own failures (OWASP's device cookies)."""
    from noughts.server.online.accounts import AccountError
    from noughts.server.online.service import Online

    online = Online(sqlite_url, None, FAST)
    school, home, elsewhere = "203.0.113.7", "198.51.100.1", "192.0.2.9"

    async def attempt(name: str, password: str, address: str, device: str | None = None) -> str:
        try:
            await online.accounts.log_in(name, password, address, device)
        except AccountError as e:
            return e.error
        return "in"

    async def run() -> None:
        await online.start()
        try:
            name = unique("ann")
            _, _, at_school = await online.accounts.sign_up(name, PASSWORD, school)
            _, _, at_home = await online.accounts.log_in(name, PASSWORD, home)
            # 101 failures by strangers at the school on other names, 11 on ann's name
            # from other addresses: the address and the name are braked for strangers.
            for _ in range(101):
                await attempt(unique("x"), "guess-1234", school)
            for i in range(11):
                await attempt(name, "guess-1234", f"192.0.2.{100 + i}")
            assert await attempt(unique("x"), PASSWORD, school) == "too-many-attempts"
            assert await attempt(name, PASSWORD, elsewhere) == "too-many-attempts"  # unknown place
            # Ann's browsers, at school and at home, and a new browser at home: in.
            assert await attempt(name, PASSWORD, school, at_school) == "in"
            assert await attempt(name, PASSWORD, home, at_home) == "in"
            assert await attempt(name, PASSWORD, home) == "in"
            # A browser known for another account is a stranger's here.
            bob = unique("bob")
            _, _, bobs = await online.accounts.sign_up(bob, PASSWORD, elsewhere)
            assert await attempt(name, PASSWORD, elsewhere, bobs) == "too-many-attempts"
            # A known browser is braked by its own failures: three free, as anywhere.
            errors = [await attempt(name, "guess-1234", school, at_school) for _ in range(4)]
            assert errors == ["wrong-credentials"] * 3 + ["too-many-attempts"]
            assert await attempt(name, PASSWORD, home, at_home) == "in"  # another browser of hers
        finally:
            await online.stop()

    asyncio.run(run())


def test_a_browser_that_logged_in_before_gets_in_past_strangers_failures(sqlite_url: str) -> None:
    """Over HTTP: the device cookie set at sign-up and kept across log-outs, and a valid
    session of the account, get the owner in while strangers at the same address are
    braked on the name (the test server is one address)."""
    settings = Settings(database=sqlite_url, ai_workers=1, online=FAST)
    with in_thread(settings) as base:
        ann, mallory, fresh = Person(base).sign_up(), Person(base), Person(base)
        other_tab = Person(base)
        try:
            device = ann.http.cookies.get("noughts_device")
            assert device
            credentials = {"name": ann.name, "password": PASSWORD}
            # Another browser of ann's, logged in: its session only (no device cookie).
            assert other_tab.http.post("/api/online/login", json=credentials).status_code == 200
            other_tab.http.cookies.delete("noughts_device")
            assert other_tab.http.cookies.get("noughts_device") is None
            assert ann.http.post("/api/online/logout").status_code == 204
            wrong = {"name": ann.name, "password": "guess-1234"}
            answers = [mallory.http.post("/api/online/login", json=wrong).status_code for _ in range(5)]
            assert answers == [401, 401, 401, 429, 429]
            assert fresh.http.post("/api/online/login", json=credentials).status_code == 429
            assert ann.http.post("/api/online/login", json=credentials).status_code == 200
            assert ann.http.cookies.get("noughts_device") == device  # the same browser
            assert other_tab.http.post("/api/online/login", json=credentials).status_code == 200
            # A forged device cookie is a stranger's.
            fresh.http.cookies.set("noughts_device", "forged")
            assert fresh.http.post("/api/online/login", json=credentials).status_code == 429
        finally:
            for person in (ann, mallory, fresh, other_tab):
                person.close()


@pytest.mark.both_databases
def test_log_ins_at_once_from_one_browser_note_it_once(database_url: str) -> None:
    """Two log-ins from the same new browser and address at once both insert its row:
    the database keeps one (its key), and neither log-in fails."""
    import threading

    from noughts.server.online.storage.store import Store

    store = Store(database_url)
    store.migrate()
    try:
        user = store.create_user(name := unique("ann"), name.lower(), None, False, 0)
        keys = [f"{i:064x}" for i in range(3)]
        start = threading.Barrier(8)
        failures: list[BaseException] = []

        def log_in(at: int) -> None:
            start.wait()
            try:
                store.remember_login(user.id, keys, at)
            except Exception as e:
                failures.append(e)

        threads = [threading.Thread(target=log_in, args=(1000 + i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        assert store.known_logins(user.id, [*keys, "f" * 64], 1000) == set(keys)
        assert store.known_logins(user.id, keys, 2000) == set()  # older than asked
    finally:
        store.close()
