"""The site as one app: every page (the games, study, puzzles and online play) under one
header, signed out and signed in; none scrolls sideways on a 360 px phone; axe-core finds
nothing on any page in either theme; the old online addresses reach their pages; the home
page's first game is a few Tabs away. Screenshots: artifacts/screenshots/site-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from noughts.server.online.sessions import COOKIE
from server.online.people import Person, unique
from web.browsing import DESKTOP, PHONE, SCREENSHOTS, Tab, axe_violations

SMALL_PHONE = {"width": 360, "height": 740}
#: The links of the header, on every page.
HEADER = ["#nav-online", "#nav-puzzles", "#nav-analysis", "#nav-rules", "#nav-leaderboard", "#nav-tournaments"]


@dataclass(frozen=True)
class World:
    """Someone with the longest name allowed, a game of theirs being played, one
    finished, a room waiting for an opponent, and a tournament."""

    ann: Person
    live: str
    finished: str
    waiting: str
    tournament: str


def _play(x: Person, o: Person, spec: str, moves: list[str]) -> str:
    game_id = x.room(spec)
    o.join(game_id)
    sockets = {"x": x.socket(game_id), "o": o.socket(game_id)}
    for ply, move in enumerate(moves):
        assert sockets["xo"[ply % 2]].move(move, ply)["type"] == "ack"
    return game_id


@pytest.fixture(scope="module")
def world(server_url: str) -> Iterator[World]:
    ann = Person(server_url).sign_up(unique("a-name-twenty-"))
    bob = Person(server_url).sign_up()
    live = _play(ann, bob, "ultimate", ["55", "51"])
    finished = _play(ann, bob, "classic", ["1", "4", "2", "5", "3"])
    waiting = ann.room("qubic")
    made = ann.http.post(
        "/api/online/tournaments", json={"kind": "arena", "name": unique("Arena "), "spec": "classic", "duration": 30}
    )
    assert made.status_code == 201, made.text
    yield World(ann, live, finished, waiting, made.json()["id"])
    ann.close()
    bob.close()


def routes(world: World) -> dict[str, tuple[str, str]]:
    """Every page of the site: its address and what shows once it is drawn."""
    name = world.ann.name
    assert name is not None
    return {
        "home": ("#/", ".quick-tiles"),
        "play-computer": ("#/play?spec=classic&mode=computer&level=easy&side=x&moves=5", ".board-box .cell"),
        "play-gomoku": ("#/play?spec=mnk:m=15:n=15:k=5&mode=local&moves=h8,h9,i8", ".board-box .cell"),
        "play-ultimate": ("#/play?spec=ultimate&mode=local&moves=55,51,15", ".board-box .cell"),
        "play-qubic": ("#/play?spec=qubic&mode=local&moves=111,222", ".board-box .cell"),
        "play-gobblet": ("#/play?spec=gobblet&mode=local&moves=L5,M1", ".board-box .cell"),
        "rules": ("#/rules", ".rules-page"),
        "puzzles": ("#/puzzles", ".puzzle-page .board-box .cell"),
        "analysis": ("#/analysis?spec=classic&tree=5,1(2,3),9(3)", ".variation .tree-move"),
        "review": ("#/analysis?spec=ultimate&tree=55,51,15,57,75,53&review=1", "#review .graph-box"),
        "lobby": ("#/lobby", "#lobby-tournaments"),
        # Signed in, these lead where their form would have: the lobby.
        "login": ("#/login", "#submit, #lobby-tournaments"),
        "signup": ("#/signup", "#submit, #lobby-tournaments"),
        "game": (f"#/game/{world.live}", "#board .cell"),
        "waiting-room": (f"#/game/{world.waiting}", ".waiting-room"),
        "profile": (f"#/u/{name}", "#history"),
        "replay": (f"#/replay/{world.finished}", "#replay-ply"),
        "leaderboard": ("#/leaderboard?game=classic", "#leaderboard-game"),
        "tournaments": ("#/tournaments", "#lobby-tournament-list, .online-home"),
        "tournament": (f"#/tournament/{world.tournament}", "#standings, #no-players"),
    }


def _visit(tab: Tab, route: str, ready: str) -> None:
    tab.open(route)
    tab.page.wait_for_selector(ready)
    tab.page.wait_for_function("() => !document.querySelector('#status.thinking')")
    tab.page.wait_for_timeout(300)  # the pop-in animations end


def _sign_in(tab: Tab, person: Person) -> None:
    token = person.http.cookies.get(COOKIE)
    tab.page.context.add_cookies([{"name": COOKIE, "value": token, "url": tab.base}])


# Every route in every state is the exhaustive check (make test-slow): the sweep at 360 px
# costs half a minute of a browser a state, past make test's budget; the phone layout
# of single pages is checked in make test where each page is tested.
@pytest.mark.slow
@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
def test_no_page_scrolls_sideways_on_a_small_phone(make_tab: Any, world: World, signed_in: bool) -> None:
    tab = make_tab(SMALL_PHONE)
    if signed_in:
        _sign_in(tab, world.ann)
    wide: dict[str, int] = {}
    for name, (route, ready) in routes(world).items():
        _visit(tab, route, ready)
        header = tab.page.locator(".topbar").bounding_box()
        assert header["height"] < 60, f"{name}: the header wrapped"
        assert tab.page.locator("#me" if signed_in else "#login-link").is_visible(), name
        width = tab.page.evaluate("document.scrollingElement.scrollWidth - innerWidth")
        if width > 0:
            wide[name] = width
    assert not wide, f"pages wider than the screen, by px: {wide}"
    tab.assert_clean()


def test_the_phone_menu_holds_the_links_and_switches(make_tab: Any, world: World) -> None:
    tab = make_tab(SMALL_PHONE)
    page = tab.page
    _visit(tab, "#/lobby", "#lobby-tournaments")
    assert not page.locator("#nav-puzzles").is_visible()
    page.click("#menu-toggle")
    assert page.locator("#menu-toggle").get_attribute("aria-expanded") == "true"
    for link in [*HEADER, "#sound-toggle", "#music-toggle", "#theme-toggle", "#settings-toggle"]:
        assert page.locator(link).is_visible(), link
    page.keyboard.press("Escape")
    assert not page.locator("#nav-puzzles").is_visible()
    assert page.evaluate("document.activeElement.id") == "menu-toggle"
    page.click("#menu-toggle")
    page.click("#nav-puzzles")
    page.wait_for_selector(".puzzle-page")
    assert not page.locator("#nav-rules").is_visible()  # closed on the way
    assert page.locator("#nav-puzzles").get_attribute("aria-current") == "page"
    tab.assert_clean()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("size", "viewport", "theme"),
    [
        pytest.param(size, viewport, theme, id=f"{size}-{theme}")
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE))
        for theme in ("light", "dark")
    ],
)
def test_every_page_has_the_one_header(
    make_tab: Any, world: World, size: str, viewport: dict[str, int], theme: str
) -> None:
    """Signed in, every page has the same header: the site's links, the account, sound
    and the theme (on a phone behind the menu button); a screenshot of each page."""
    tab = make_tab(viewport, theme)
    page = tab.page
    _sign_in(tab, world.ann)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, (route, ready) in routes(world).items():
        _visit(tab, route, ready)
        assert page.evaluate("document.documentElement.dataset.theme") == theme
        assert page.locator("#me").inner_text() == world.ann.name, name
        if size == "phone":
            assert page.locator("#menu-toggle").is_visible()
        else:
            for link in [*HEADER, "#sound-toggle", "#music-toggle", "#theme-toggle", "#logout"]:
                assert page.locator(link).is_visible(), f"{name}: {link}"
        page.screenshot(path=str(SCREENSHOTS / f"site-{name}-{size}-{theme}.png"), full_page=True)
    tab.assert_clean()


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_nothing_on_any_page(make_tab: Any, world: World, theme: str) -> None:
    """axe-core, every rule at every impact, on every page signed in (the account in the
    header, the profile's own sections), and on the home page and the lobby signed out."""
    tab = make_tab(DESKTOP, theme)
    found: dict[str, list[str]] = {}
    for name in ("home", "lobby"):
        _visit(tab, *routes(world)[name])
        found.update({f"{name} (signed out)": v for v in [axe_violations(tab.page)] if v})
    _sign_in(tab, world.ann)
    for name, (route, ready) in routes(world).items():
        _visit(tab, route, ready)
        violations = axe_violations(tab.page)
        if violations:
            found[name] = violations
    assert not found, found
    tab.assert_clean()


def test_signed_in_the_log_in_page_leads_where_it_would_have(make_tab: Any, world: World) -> None:
    """A bookmarked or shared log-in link, or the back button, while signed in: no form
    that logs in again, but the page the form would have led to."""
    tab = make_tab(DESKTOP)
    _sign_in(tab, world.ann)
    page = tab.page
    _visit(tab, "#/login?next=/puzzles", ".puzzle-page")
    assert page.evaluate("location.hash") == "#/puzzles"
    _visit(tab, "#/signup", "#lobby-tournaments")
    assert page.evaluate("location.hash") == "#/lobby"
    assert page.locator("#submit").count() == 0
    tab.assert_clean()


def test_the_old_online_addresses_reach_their_pages(tab: Tab, world: World) -> None:
    page = tab.page
    name = world.ann.name
    page.goto(f"{tab.base}/online#/u/{name}")
    page.wait_for_selector("#history")
    assert page.url == f"{tab.base}/#/u/{name}"
    page.goto(f"{tab.base}/online#/game/{world.live}")
    page.wait_for_selector("#board .cell")
    assert page.url == f"{tab.base}/#/game/{world.live}"
    for old in ("/online", "/online#/"):  # the old lobby
        page.goto(tab.base + old)
        page.wait_for_selector("#lobby-tournaments")
        assert page.url == f"{tab.base}/#/lobby"
    tab.assert_clean()


def test_the_home_page_lists_each_game_once_and_the_first_is_three_tabs_away(tab: Tab) -> None:
    page = tab.page
    tab.open("#/")
    page.wait_for_selector(".quick-tiles")
    titles = page.locator(".quick-tiles .tile:not(.tile-online) .tile-title").all_inner_texts()
    games = page.evaluate("fetch('/api/games').then(r => r.json()).then(c => c.games.length)")
    assert len(titles) == len(set(titles)) == games
    # one line each, of even length: none more than twice another
    lengths = [len(text) for text in page.locator(".quick-tiles .tile-sub").all_inner_texts()]
    assert max(lengths) <= 2 * min(lengths), lengths
    assert page.locator(".game-card").count() == 0  # the form below chooses from a list
    # The first Tab reaches the skip link; through it, the level, then the first game.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "view"
    assert page.evaluate("location.hash") == "#/"
    tabs = 1
    while not page.evaluate("document.activeElement.matches('.quick-tiles .tile')") and tabs < 20:
        page.keyboard.press("Tab")
        tabs += 1
    assert tabs <= 3, f"the first game took {tabs} Tabs"
    assert page.evaluate("document.activeElement.dataset.quick") == "ultimate"
    # the four levels are one stop: the arrows choose
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("ArrowRight")
    chosen = page.locator('.level-chip[aria-checked="true"]')
    assert chosen.evaluate("e => e === document.activeElement")
    assert f"level={chosen.get_attribute('data-level')}" in (
        page.locator('[data-quick="ultimate"]').get_attribute("href") or ""
    )
    tab.assert_clean()
