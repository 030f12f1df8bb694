"""``noughts review``: a finished game's review (`noughts.study.review`) as a table in
the terminal, as JSON, or as a plot of the evaluation over the game."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from noughts.ai.base import Value
from noughts.core import Player
from noughts.study.review import Judgement, Review

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["JUDGEMENT_STYLES", "plot_review", "print_review", "progress_bar", "review_figure", "write_json"]

#: The colours lichess uses for its classes, by style name.
JUDGEMENT_STYLES = {
    Judgement.BEST: "green",
    Judgement.GOOD: "",
    Judgement.INACCURACY: "cyan",
    Judgement.MISTAKE: "yellow",
    Judgement.BLUNDER: "bold red",
}
_MARKS = {Judgement.INACCURACY: "?!", Judgement.MISTAKE: "?", Judgement.BLUNDER: "??"}


def print_review(console: Console, review: Review, x: str = "x", o: str = "o") -> None:
    """Every move with its class, its values before and after for the mover (with the
    chance, a draw counting half), and the better move and its line where the move was
    not the best; then each player's accuracy and counts."""
    table = Table(title=f"{review.spec} · reviewed by {review.reviewer}", title_justify="left")
    for name, justify in (("ply", "right"), ("side", "left"), ("move", "left"), ("class", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    table.add_column("before")
    table.add_column("after")
    table.add_column("better, and its line")
    for move in review.moves:
        style = JUDGEMENT_STYLES[move.judgement]
        better = ""
        if move.judgement is not Judgement.BEST:
            better = f"{move.best}: " + " ".join(move.line[:8]) + (" …" if len(move.line) > 8 else "")
        if move.fell_to is not None:
            better += f" (the {move.value_before.kind.value} fell to a {move.fell_to.kind.value} by ply {move.fell_at})"
        table.add_row(
            str(move.ply),
            move.side.value,
            move.move + _MARKS.get(move.judgement, ""),
            Text(move.judgement.value, style=style),
            _value(move.value_before, move.chance_before),
            _value(move.value_after, move.chance_after),
            better,
        )
    console.print(table)
    for side, name in ((Player.X, x), (Player.O, o)):
        accuracy = review.accuracy(side)
        counts = ", ".join(
            _count(review.count(side, j), j) for j in (Judgement.INACCURACY, Judgement.MISTAKE, Judgement.BLUNDER)
        )
        shown = "no moves" if accuracy is None else f"accuracy {accuracy:.0f}%"
        console.print(f"{side.value} ({escape(name)}): {shown}; {counts}", highlight=False)


def _count(n: int, judgement: Judgement) -> str:
    if n == 1:
        return f"1 {judgement.value}"
    return f"{n} " + ("inaccuracies" if judgement is Judgement.INACCURACY else f"{judgement.value}s")


def _value(value: Value, chance: float) -> str:
    """An exact value in words; an estimate as the mover's chance, its score beside."""
    return value.text if value.exact else f"{chance:.0%} ({value.text})"


def write_json(review: Review, out: IO[str]) -> None:
    json.dump(review.to_json(), out, indent=2)
    out.write("\n")


def plot_review(review: Review, path: Path) -> None:
    """The evaluation graph (`review_figure`) as a PNG (or any format matplotlib knows by
    the file's suffix)."""
    import matplotlib.pyplot as plt

    figure = review_figure(review)
    figure.savefig(path)
    plt.close(figure)


def review_figure(review: Review) -> Figure:
    """The evaluation graph: x's chance after every ply, the classes marked, under a
    title that names the game and the reviewer in full."""
    import matplotlib

    matplotlib.use("Agg")  # no screen needed
    import matplotlib.pyplot as plt

    colours = {Judgement.INACCURACY: "#56b4e9", Judgement.MISTAKE: "#e69f00", Judgement.BLUNDER: "#d55e00"}
    plies = list(range(len(review.chances)))
    figure, axes = plt.subplots(figsize=(8, 3), dpi=120)
    axes.fill_between(plies, 0.5, review.chances, color="#888888", alpha=0.35, step=None)
    axes.plot(plies, review.chances, color="#333333", linewidth=1.2)
    for move in review.moves:
        if move.judgement in colours:
            axes.scatter(
                [move.ply],
                [review.chances[move.ply]],
                color=colours[move.judgement],
                zorder=3,
                label=move.judgement.value,
            )
    handles, labels = axes.get_legend_handles_labels()
    unique = dict(zip(labels, handles, strict=True))
    if unique:
        axes.legend(unique.values(), unique.keys(), loc="upper right", fontsize=8)
    axes.axhline(0.5, color="#999999", linewidth=0.6)
    axes.set_ylim(0, 1)
    axes.set_xlim(0, max(1, len(plies) - 1))
    axes.set_xlabel("ply")
    axes.set_ylabel("x's chance")
    _fit_title(figure, axes, f"{review.spec}: reviewed by {review.reviewer}")
    return figure


def _fit_title(figure: Figure, axes: Axes, text: str) -> None:
    """`text` as the axes' title, wrapped into as many lines as keep it inside the
    figure: a reviewer's name with its estimates note runs wider than the graph, and
    one line of it was cut off at both sides."""
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    title = axes.set_title(text, fontsize=10)
    columns = len(text)
    while True:
        figure.tight_layout()  # the axes move to make room for the title's lines
        box = title.get_window_extent(renderer)
        if (box.x0 >= 0 and box.x1 <= figure.bbox.width) or columns <= 20:
            return
        columns = max(20, columns * 9 // 10)
        title.set_text("\n".join(textwrap.wrap(text, columns)))


def progress_bar(console: Console) -> tuple[Progress, Callable[[int, int], None]]:
    """A progress bar for the positions analysed, and the callback that moves it."""
    progress = Progress(
        TextColumn("reviewing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("positions"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
    task = progress.add_task("review", total=None)

    def advance(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    return progress, advance
