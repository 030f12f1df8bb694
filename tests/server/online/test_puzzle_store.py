"""Puzzles in the database (SQLite and PostgreSQL): the shipped ones loaded by the
migration, choices by rating and filters, the daily puzzle, and attempts: Glicko-2 for
the player and the puzzle, counted once whoever submits it twice, from wherever."""

from __future__ import annotations

import json
import random
import secrets
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any, cast

import pytest

from noughts.competition.ratings import Glicko, update
from noughts.registry import parse_spec
from noughts.server.online.storage.puzzles import PuzzleBook
from noughts.server.online.storage.store import NotFoundError, Store
from noughts.study.puzzles import Puzzle, mine, shipped
from server.online.people import unique

NOW = 1_800_000_000_000


def _classic(count: int, seed: int = 0) -> list[Puzzle]:
    """Puzzles of classic tic-tac-toe (its exact table proves them in no time)."""
    return list(mine(parse_spec("classic"), count, seed=seed))


@pytest.fixture
def fresh_url(database_url: str) -> Iterator[str]:
    """`database_url`, on PostgreSQL a database of the test's own: puzzles are named by
    their position, so two tests adding the same classic puzzle would share its rating."""
    if not database_url.startswith("postgresql"):
        yield database_url
        return
    import psycopg

    name = f"noughts_puzzles_{secrets.token_hex(4)}"
    admin_url = database_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield database_url.rsplit("/", 1)[0] + "/" + name
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def book(fresh_url: str) -> Iterator[PuzzleBook]:
    store = Store(fresh_url)
    store.migrate()
    yield PuzzleBook(store)
    store.close()


def _user(book: PuzzleBook) -> int:
    name = unique("solver")
    return book.store.create_user(name, name, None, False, NOW).id


def test_the_shipped_puzzles_are_there_after_the_migration(book: PuzzleBook) -> None:
    expected = {p.id for p in shipped()}
    games, _ = book.catalogue()
    assert sum(n for _, n in games) >= len(expected)
    for puzzle_id in sorted(expected)[:20]:
        assert book.puzzle(puzzle_id).id == puzzle_id
    assert book.sync_shipped(NOW) == 0  # nothing new to add on the next start


def test_a_shipped_puzzles_changed_line_reaches_a_database_that_has_it(book: PuzzleBook) -> None:
    """A release that made a puzzle's line the quickest win (e6sl5qfy: 9 plies to 7,
    issue 56) gives it to a database loaded before, its rating and attempts kept."""
    from sqlalchemy import update

    from noughts.server.online.storage.tables import Puzzle as PuzzleTable

    (puzzle,) = [p for p in shipped() if p.id == "e6sl5qfy"]
    old = ["a4", "d1", "b2", "e2", "b4", "b3", "d4", "d5", "c4"]  # the line shipped before
    table = cast(Any, PuzzleTable.__table__)
    with book.engine.begin() as c:
        c.execute(
            update(table)
            .where(table.c.id == puzzle.id)
            .values(solution=json.dumps(old), plies=9, themes="|win in at most 5|", rating=1777.0)
        )
    assert book.sync_shipped(NOW) == 1
    row = book.puzzle(puzzle.id)
    assert (row.solution, row.plies, row.rating) == (puzzle.solution, 7, 1777.0)
    assert book.sync_shipped(NOW) == 0


def test_a_game_this_server_cannot_judge_is_kept_but_never_offered(book: PuzzleBook) -> None:
    """gobblet's puzzles on a server without its solved table: stored (they come with the
    release), but neither listed nor chosen, in a streak or as the daily puzzle."""
    hidden = PuzzleBook(book.store, ["gobblet"])
    gobblet_ids = {p.id for p in shipped() if p.spec == "gobblet"}
    assert gobblet_ids and book.puzzle(next(iter(gobblet_ids))).spec == "gobblet"
    assert "gobblet" in dict(book.catalogue()[0])
    assert "gobblet" not in dict(hidden.catalogue()[0])
    assert book.choose(1500, spec="gobblet") is not None
    assert hidden.choose(1500, spec="gobblet") is None
    assert hidden.streak(10, "gobblet", None, seed=1) == []
    assert all(p.spec != "gobblet" for p in hidden.streak(30, None, None, seed=1))
    for day in range(1, 29):
        assert hidden.daily(f"2030-02-{day:02d}").spec != "gobblet"


class _Gobblet(random.Random):
    """Draws a gobblet puzzle whenever there is one to draw."""

    def choice(self, seq: Sequence[Any]) -> Any:
        return next((i for i in seq if i in _GOBBLET_IDS), seq[0])


_GOBBLET_IDS = {p.id for p in shipped() if p.spec == "gobblet"}


def test_a_daily_gobblet_puzzle_is_not_offered_by_a_server_that_cannot_judge_it(book: PuzzleBook) -> None:
    """The day's puzzle drawn by a server with gobblet's table (or its keys): another
    without either offers one of its own games that day, the same on every call."""
    drawn = book.daily("2030-03-01", _Gobblet(0))
    assert drawn is not None and drawn.spec == "gobblet"
    assert book.daily("2030-03-01") == drawn  # the same for everyone who can judge it
    hidden = PuzzleBook(book.store, ["gobblet"])
    instead = hidden.daily("2030-03-01")
    assert instead is not None and instead.spec != "gobblet"
    assert hidden.daily("2030-03-01") == instead


def test_puzzles_are_added_once_and_read_back_as_they_were(book: PuzzleBook) -> None:
    found = _classic(3, seed=101)
    assert book.add(found, NOW) == len({p.id for p in found})
    assert book.add(found, NOW) == 0
    for puzzle in found:
        row = book.puzzle(puzzle.id)
        assert (row.spec, row.position, row.solution, row.themes) == (
            puzzle.spec,
            puzzle.position,
            puzzle.solution,
            puzzle.themes,
        )
        assert row.rating == puzzle.difficulty
    with pytest.raises(NotFoundError):
        book.puzzle("nosuchid")


def test_a_choice_is_near_the_rating_and_keeps_to_the_filters(book: PuzzleBook) -> None:
    found = _classic(4, seed=202)
    book.add([replace(p, difficulty=500 + 1000 * i) for i, p in enumerate(found)], NOW)
    spec = found[0].spec
    ids = [p.id for p in found]
    # Among classic puzzles near 3500 that are not the two hardest, the nearest is the third.
    chosen = book.choose(3500, spec=spec, exclude=[ids[3]])
    assert chosen is not None and chosen.spec == spec and chosen.id != ids[3]
    theme = found[0].themes[0]
    themed = book.choose(1500, spec=spec, theme=theme)
    assert themed is not None and theme in themed.themes
    assert book.choose(1500, spec=spec, theme="no such theme") is None
    # A signed-in player is not offered what they tried.
    user = _user(book)
    everything = [p.id for p in found]
    for puzzle_id in everything[:-1]:
        book.attempt(user, puzzle_id, True, NOW)
    classic_left = book.choose(1500, spec=spec, user_id=user, exclude=[i for i in everything] + [])
    assert classic_left is None or classic_left.id not in everything


def test_the_first_attempt_moves_both_ratings_as_glicko_2_says(book: PuzzleBook) -> None:
    puzzle = replace(_classic(1, seed=303)[0], difficulty=1500)
    book.add([puzzle], NOW)
    user = _user(book)
    counted = book.attempt(user, puzzle.id, True, NOW)
    # The worked example of two new players (Glickman's paper, and ratings.py's doctest):
    # a win between 1500/350 players takes the winner to 1662 and the loser to 1338.
    assert counted.first
    assert (round(counted.rating_before), round(counted.rating_after)) == (1500, 1662)
    assert (round(counted.puzzle_rating_before), round(counted.puzzle_rating_after)) == (1500, 1338)
    row = book.puzzle(puzzle.id)
    assert (round(row.rating), row.attempts, row.solved) == (1338, 1, 1)
    player = book.player(user, NOW)
    assert (round(player.rating), player.attempts, player.solved) == (1662, 1, 1)
    assert player.deviation == pytest.approx(update(Glicko(), [(Glicko(), 1.0)]).deviation)

    # A second submission changes nothing and answers the first.
    again = book.attempt(user, puzzle.id, False, NOW + 1000)
    assert not again.first and again.solved and round(again.rating_after) == 1662
    assert book.puzzle(puzzle.id).attempts == 1
    assert book.player(user, NOW).attempts == 1
    history = book.history(user)
    assert [(a.puzzle_id, a.solved) for a, _ in history] == [(puzzle.id, True)]


def test_a_failed_attempt_lowers_the_player_and_raises_the_puzzle(book: PuzzleBook) -> None:
    puzzle = replace(_classic(1, seed=404)[0], difficulty=1500)
    book.add([puzzle], NOW)
    counted = book.attempt(_user(book), puzzle.id, False, NOW)
    assert (round(counted.rating_after), round(counted.puzzle_rating_after)) == (1338, 1662)
    with pytest.raises(NotFoundError):
        book.attempt(_user(book), "nosuchid", True, NOW)


#: One attempt from a process of its own: what a second server process does. It says
#: "ready" once it is set up, and attempts when told "go", so that both race.
_ATTEMPT = """
import sys
from noughts.server.online.storage.puzzles import PuzzleBook
from noughts.server.online.storage.store import Store
url, user, puzzle_id, solved = sys.argv[1:]
store = Store(url)
book = PuzzleBook(store)
book.puzzle(puzzle_id)  # connected
print("ready", flush=True)
sys.stdin.readline()
print(book.attempt(int(user), puzzle_id, solved == "1", 1_800_000_000_000).first, flush=True)
store.close()
"""


@pytest.mark.both_databases
@pytest.mark.integration
def test_an_attempt_sent_from_two_processes_at_once_counts_once(book: PuzzleBook, fresh_url: str) -> None:
    puzzle = _classic(1, seed=505)[0]
    book.add([puzzle], NOW)
    user = _user(book)
    racing = [
        subprocess.Popen(
            [sys.executable, "-c", _ATTEMPT, fresh_url, str(user), puzzle.id, solved],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for solved in ("1", "0")
    ]
    for process in racing:
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    for process in racing:
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()
    answers = [process.communicate(timeout=60)[0].strip() for process in racing]
    assert sorted(answers) == ["False", "True"]
    row = book.puzzle(puzzle.id)
    assert (row.attempts, row.solved) == (1, 1 if answers[0] == "True" else 0)
    assert book.player(user, NOW).attempts == 1
    assert len(book.history(user)) == 1


def test_the_daily_puzzle_is_chosen_once_a_day(book: PuzzleBook) -> None:
    book.add([replace(p, difficulty=1600) for p in _classic(3, seed=606)], NOW)
    first = book.daily("2031-01-01")
    assert first is not None
    assert book.daily("2031-01-01") == first  # the same for everyone after
    other = book.daily("2031-01-02")
    assert other is not None and other.id != first.id  # never the same twice


def test_a_streak_rises_and_the_best_is_kept(book: PuzzleBook) -> None:
    book.add(_classic(6, seed=707), NOW)
    run = book.streak(5, "classic", None, seed=1)
    assert len(run) == 5
    assert [p.rating for p in run] == sorted(p.rating for p in run)
    assert book.streak(5, "classic", None, seed=1) == run
    user = _user(book)
    assert book.record_streak(user, 4, NOW) == 4
    assert book.record_streak(user, 2, NOW) == 4
    assert book.player(user, NOW).best_streak == 4


def test_the_catalogue_orders_wins_in_at_most_n_with_the_wins_in_n() -> None:
    """A race puzzle's length theme ("win in at most 3") sorts with "win in N" by N,
    after the themes of ideas."""
    from noughts.server.online.storage.puzzles import _theme_order

    found = [("win in at most 3", 9), ("win in 2", 1), ("fork", 2), ("win in 1", 5)]
    assert [t for t, _ in sorted(found, key=_theme_order)] == ["fork", "win in 1", "win in 2", "win in at most 3"]


def _expected(player: float, puzzle: float) -> float:
    """Glicko-2's expected score at a deviation of 0 is Elo's: 400 points make odds of 10."""
    return 1 / (1 + 10 ** ((puzzle - player) / 400))


def test_the_calibration_report_sets_predicted_beside_observed_success(
    book: PuzzleBook, fresh_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Four new players (1500) make one attempt each at puzzles rated 1100, 1500, 1550
    and 1900: the bands of 200 hold what each predicted and what happened."""
    from noughts.cli import main

    found = [replace(p, difficulty=d) for p, d in zip(_classic(4), (1100, 1500, 1550, 1900), strict=True)]
    book.add(found, NOW)
    for puzzle, solved in zip(found, (True, True, False, False), strict=True):
        book.attempt(_user(book), puzzle.id, solved, NOW)
    attempts = book.rated_attempts()
    assert [(a.player_rating, a.puzzle_rating, a.solved) for a in attempts] == [
        (1500.0, 1100.0, True), (1500.0, 1500.0, True), (1500.0, 1550.0, False), (1500.0, 1900.0, False),
    ]  # fmt: skip
    assert book.rated_attempts("qubic") == []
    assert main(["puzzles", "calibration", "--database", fresh_url]) == 0
    middle = (0.5 + _expected(1500, 1550)) / 2
    assert capsys.readouterr().out.splitlines()[2:6] == [
        f"| 1000-1200 | 1 | {_expected(1500, 1100):.0%} | 100% |",
        f"| 1400-1600 | 2 | {middle:.0%} | 50% |",
        f"| 1800-2000 | 1 | {_expected(1500, 1900):.0%} | 0% |",
        f"| all | 4 | {(_expected(1500, 1100) + 2 * middle + _expected(1500, 1900)) / 4:.0%} | 50% |",
    ]


def test_the_calibration_report_refuses_a_database_that_is_not_there(tmp_path: Any) -> None:
    from noughts.cli import main

    missing = tmp_path / "none.db"
    with pytest.raises(SystemExit, match="no database at"):
        main(["puzzles", "calibration", "--database", f"sqlite:///{missing}"])
    assert not missing.exists()


def test_a_puzzle_rated_from_attempts_starts_at_that_rating(book: PuzzleBook) -> None:
    """tools/puzzles/calibrate.py's rating, not the search's guess, is where it starts."""
    guessed, rated = (replace(p, difficulty=1200) for p in _classic(2, seed=808))
    rated = replace(rated, rating=1700)
    book.add([guessed, rated], NOW)
    assert (book.puzzle(guessed.id).rating, book.puzzle(rated.id).rating) == (1200, 1700)
