"""Sign-up, log-in, guests, sessions: a distinct message for each mistake."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from noughts.server.online.accounts import LoginThrottle, TooManyAttemptsError
from online.people import PASSWORD, Person, unique


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
    assert ann.http.get("/api/online/me").json() == {"user": {"name": name, "guest": False}}
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
    throttle = LoginThrottle(free=2, max_delay=10)
    for t in range(3):
        throttle.check(["k"], now=float(t))
        throttle.failed(["k"], now=float(t))
    with pytest.raises(TooManyAttemptsError) as wait:
        throttle.check(["k"], now=2.5)  # 2 s after the third failure
    assert wait.value.wait == 2
    throttle.check(["k"], now=4.0)
    throttle.failed(["k"], now=4.0)
    with pytest.raises(TooManyAttemptsError):
        throttle.check(["k", "other"], now=7.5)  # 4 s after the fourth
    throttle.check(["k"], now=8.0)
    throttle.succeeded("k")
    throttle.failed(["k"], now=8.0)
    throttle.check(["k"], now=8.0)


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
