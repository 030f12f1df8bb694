"""The players' languages on the server: the page in the language the browser asks for,
its texts as JSON, the refusals' messages in the asker's language (their error word
unchanged), the language a player chose kept on their account, and a notification and a
reason declined written in their reader's language."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from server.online.people import PASSWORD, Person
from server.online.shared import database_url, server

# One server for the module (server/online/shared.py): each test with people of its own.
__all__ = ["database_url", "server"]


def test_the_page_speaks_the_browsers_language_and_serves_its_texts(people: Callable[[], Person]) -> None:
    http = people().http
    assert '<html lang="zh">' in http.get("/", headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"}).text
    page = http.get("/", headers={"Accept-Language": "ko-KR"})
    assert '<html lang="en">' in page.text and "Accept-Language" in page.headers["vary"]
    zh = http.get("/i18n/zh.json").json()
    assert zh["language"] == "zh" and zh["languages"]["zh"] == "中文（简体）"
    assert zh["messages"]["Play online"] == "在线对弈"
    assert http.get("/i18n/en.json").json()["messages"] == {}
    unknown = http.get("/i18n/xx.json")
    assert (unknown.status_code, unknown.json()["error"]) == (404, "unknown-language")


def test_a_refusal_is_worded_in_the_askers_language(people: Callable[[], Person]) -> None:
    http = people().http
    login = {"name": "nobody-here", "password": "not a password"}
    zh = http.post("/api/online/login", json=login, headers={"Accept-Language": "zh"})
    en = http.post("/api/online/login", json=login, headers={"Accept-Language": "en"})
    assert zh.status_code == en.status_code == 401
    assert zh.json()["error"] == en.json()["error"] == "wrong-credentials"
    assert (zh.json()["message"], en.json()["message"]) == ("名字或密码错误", "wrong name or password")


@pytest.mark.both_databases
def test_the_chosen_language_is_kept_on_the_account(people: Callable[[], Person]) -> None:
    ann = people().sign_up()
    assert ann.http.get("/api/online/me").json()["user"]["language"] is None
    chosen = ann.http.put("/api/online/me/language", json={"language": "zh"})
    assert chosen.status_code == 200 and chosen.json()["user"]["language"] == "zh"
    refused = ann.http.put("/api/online/me/language", json={"language": "tlh"})
    assert (refused.status_code, refused.json()["error"], refused.json()["field"]) == (
        400,
        "unknown-language",
        "language",
    )
    # Nothing changed by the refusal, and the choice outlives the session.
    ann.http.post("/api/online/logout")
    ann.http.post("/api/online/login", json={"name": ann.name, "password": PASSWORD})
    assert ann.http.get("/api/online/me").json()["user"]["language"] == "zh"
    visitor = people().http.put("/api/online/me/language", json={"language": "zh"})
    assert (visitor.status_code, visitor.json()["error"]) == (401, "not-logged-in")


def test_a_challenge_is_worded_in_each_readers_language(people: Callable[[], Person]) -> None:
    ann, bob = people().sign_up(), people().sign_up()
    assert bob.http.put("/api/online/me/language", json={"language": "zh"}).status_code == 200
    made = ann.http.post(
        "/api/online/challenges", json={"to": bob.name, "spec": "classic", "minutes": 5, "increment": 3}
    )
    assert made.status_code == 201, made.text
    # The notification is written in the language of its reader's account, whoever sent it.
    note = bob.http.get("/api/online/me/notifications").json()["notifications"][0]
    assert (note["kind"], note["text"]) == ("challenge", f"{ann.name} 向你发起挑战：Tic-tac-toe，5+3")
    reasons = bob.http.get("/api/online/challenges", headers={"Accept-Language": "ru"}).json()["reasons"]
    assert {"key": "later", "text": "Сейчас неподходящее время, предложи попозже."} in reasons
    challenge_id = made.json()["challenge"]["id"]
    declined = bob.http.post(
        f"/api/online/challenges/{challenge_id}/decline", json={"reason": "later"}, headers={"Accept-Language": "de"}
    ).json()["challenge"]
    assert (declined["reason"], declined["reason_text"]) == (
        "later",
        "Gerade passt es mir nicht, frag bitte später noch einmal.",
    )
