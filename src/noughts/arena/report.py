"""What a tournament comes to: the results per pairing, the ratings, and the files —
``results.json``, one record per game under ``games/``, and ``ratings.png`` /
``ratings.svg`` (the ratings with their intervals)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from noughts.arena.ratings import Pairing, Rating, elo_ratings
from noughts.arena.tournament import GameResult, Tournament

__all__ = ["Summary", "print_summary", "summarize", "write_files"]

METHOD = (
    "maximum likelihood Bradley-Terry (Elo scale), draws as half points, one virtual draw per pairing; "
    "95% intervals from the Fisher information"
)


@dataclass(frozen=True)
class Summary:
    pairings: list[Pairing]
    ratings: list[Rating]
    forfeits: list[GameResult]


def summarize(tournament: Tournament) -> Summary:
    """Wins, draws and losses per pairing (first named = earlier on the command line)
    and the ratings, from the games that finished."""
    names = [e.name for e in tournament.entrants]
    order = {name: i for i, name in enumerate(names)}
    counts: dict[tuple[str, str], list[int]] = {}
    for a_index, a in enumerate(names):
        for b in names[a_index + 1 :]:
            counts[(a, b)] = [0, 0, 0]
    for result in tournament.results:
        first, second = sorted((result.x, result.o), key=order.__getitem__)
        winner = {"x-wins": result.x, "o-wins": result.o}.get(result.result)
        slot = 1 if winner is None else 0 if winner == first else 2
        counts[(first, second)][slot] += 1
    pairings = [Pairing(a, b, *c) for (a, b), c in counts.items()]
    ratings = elo_ratings(names, pairings)
    forfeits = sorted((r for r in tournament.results if r.forfeit), key=lambda r: r.index)
    return Summary(pairings, ratings, forfeits)


def print_summary(tournament: Tournament, summary: Summary, console: Console) -> None:
    done, total = len(tournament.results), len(tournament.tasks)
    title = f"{tournament.game}: {done} of {total} games" + (" (interrupted)" if tournament.interrupted else "")
    table = Table(title=title)
    for column in ("pairing", "+", "=", "-", "score"):
        table.add_column(column, justify="left" if column == "pairing" else "right")
    for p in summary.pairings:
        table.add_row(f"{p.first} vs {p.second}", str(p.wins), str(p.draws), str(p.losses), f"{100 * p.score:.0f}%")
    console.print(table)
    ratings = Table(title="Elo (mean 0), 95% interval")
    for column in ("player", "Elo", "interval", "games", "points"):
        ratings.add_column(column, justify="left" if column == "player" else "right")
    for r in sorted(summary.ratings, key=_rank):
        if r.elo is None or r.low is None or r.high is None:
            ratings.add_row(r.player, "-", "-", "0", "0")
        else:
            ratings.add_row(r.player, f"{r.elo:+.0f}", f"{r.low:+.0f} .. {r.high:+.0f}", str(r.games), f"{r.points:g}")
    console.print(ratings)
    for f in summary.forfeits:
        console.print(f"[yellow]forfeit[/] game {f.index + 1} ({f.x} - {f.o}): {f.forfeit}")


def _rank(rating: Rating) -> float:
    return -rating.elo if rating.elo is not None else float("inf")


def to_json(tournament: Tournament, summary: Summary, settings: dict[str, Any]) -> dict[str, Any]:
    return {
        "game": tournament.game,
        "players": {e.name: e.describe() for e in tournament.entrants},
        "settings": settings,
        "scheduled": len(tournament.tasks),
        "finished": len(tournament.results),
        "interrupted": tournament.interrupted,
        "method": METHOD,
        "pairings": [
            {
                "first": p.first,
                "second": p.second,
                "wins": p.wins,
                "draws": p.draws,
                "losses": p.losses,
                "score": round(p.score, 4),
            }
            for p in summary.pairings
        ],
        "ratings": [
            {
                "player": r.player,
                "elo": _round(r.elo),
                "low": _round(r.low),
                "high": _round(r.high),
                "games": r.games,
                "points": r.points,
            }
            for r in sorted(summary.ratings, key=_rank)
        ],
        "forfeits": [
            {"game": f.index + 1, "x": f.x, "o": f.o, "result": f.result, "reason": f.forfeit} for f in summary.forfeits
        ],
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def write_files(tournament: Tournament, summary: Summary, settings: dict[str, Any], out: Path) -> list[Path]:
    """Write the results, the records and the chart into `out`; the paths written."""
    games = out / "games"
    games.mkdir(parents=True, exist_ok=True)
    written = []
    for result in sorted(tournament.results, key=lambda r: r.index):
        path = games / f"{result.index + 1:04d}-{_slug(result.x)}-vs-{_slug(result.o)}.txt"
        path.write_text(result.record, encoding="utf-8")
    results = out / "results.json"
    results.write_text(json.dumps(to_json(tournament, summary, settings), indent=2) + "\n", encoding="utf-8")
    written.append(results)
    rated = [r for r in summary.ratings if r.elo is not None]
    if rated:
        written += chart(tournament.game, rated, out / "ratings")
    return written


def chart(game: str, ratings: list[Rating], stem: Path) -> list[Path]:
    """A horizontal bar per player at its rating, with its 95% interval; PNG and SVG."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display, safe in worker-less CLI runs and CI
    import matplotlib.pyplot as plt

    ordered = sorted(ratings, key=lambda r: r.elo or 0.0)
    elo = [r.elo or 0.0 for r in ordered]
    errors = [
        [e - (r.low or e) for r, e in zip(ordered, elo, strict=True)],
        [(r.high or e) - e for r, e in zip(ordered, elo, strict=True)],
    ]
    figure, axes = plt.subplots(figsize=(7, 0.6 * len(ordered) + 1.5))
    positions = list(range(len(ordered)))
    axes.errorbar(elo, positions, xerr=errors, fmt="o", capsize=4, color="tab:blue")
    axes.set_yticks(positions, [r.player for r in ordered])
    axes.axvline(0, color="grey", linewidth=0.8)
    axes.set_xlabel("Elo (mean 0), 95% interval")
    axes.set_title(f"{game}: ratings")
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    for path in paths:
        figure.savefig(path)
    plt.close(figure)
    return paths


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-." else "_" for c in name)[:40]
