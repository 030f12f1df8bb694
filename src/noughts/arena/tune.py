"""Tuning an evaluation function's weights by self-play with CMA-ES (the `cma` package).

A candidate is a set of weights ``w_i = base_i * exp(x_i)`` (so a weight keeps its sign
and CMA-ES works on scale factors), around the weights the evaluator uses now — the
shipped ones where the package has them, else the hand-set ones (``--eval NAME@hand``
starts from those in any case). Its fitness is its mean score over one or more fixed
alpha-beta depths against the same search with those base weights — every candidate
of a generation on the same seeded openings at every depth, each with both colours.
Several depths because weights tuned at one depth can fail at another: tuned at depth
3 in matryoshka, a two-in-a-line was worth so little that a 1-ply search stopped
blocking, and the levels search at depths 1, 2 and 3. One pool of worker
processes plays the games of the whole run. The state file (a pickle of the optimiser
and the history) is written after every generation, so a run can be stopped and
resumed; the weights at the distribution's mean (CMA-ES's best estimate, played
each generation for its score) also go to ``STATE.weights.json``, which
``noughts arena --weights NAME=FILE`` loads to test them properly, and which becomes
the shipped file once it has beaten the base in the arena (docs/arena.md).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import pickle
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any

from noughts.ai.evaluation import HAND, HAND_SEPARATOR, evaluator_names, evaluator_weights, shipped_weights
from noughts.arena.entrants import Entrant
from noughts.arena.tournament import GameResult, Variant, play, schedule
from noughts.core import InvalidOptionError
from noughts.registry import parse_spec

__all__ = ["TuneState", "load_weights", "tune"]

#: 3: `depths` (a fitness over several depths) replaced `depth`.
STATE_VERSION = 3


@dataclass
class TuneState:
    """Everything a resumed run needs."""

    game: str
    eval: str  # the evaluator's name, without @hand
    depths: tuple[int, ...]  # ascending; a candidate's fitness is its mean score over them
    games: int
    seed: int
    optimizer: Any  # cma.CMAEvolutionStrategy
    #: The weights every candidate plays against and scales: kept here, so that a
    #: resumed run keeps its yardstick even if the shipped weights changed meanwhile.
    base: dict[str, float]
    against: str  # what `base` is: "hand-set" or "shipped"
    generation: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    #: The latest centre: {"score": mean, "depths": {"1": s1, ...}, "weights": {...},
    #: "generation": g}.
    latest: dict[str, Any] | None = None
    version: int = STATE_VERSION
    #: Random plies before each game. A default, not a new version: the states written
    #: before it was an option all played from two.
    opening_plies: int = 2

    @property
    def base_spec(self) -> str:
        """The base weights as an evaluator name a player spec takes."""
        return self.eval if self.against == "shipped" else f"{self.eval}{HAND_SEPARATOR}{HAND}"


def _weights(base: dict[str, float], x: Any) -> dict[str, float]:
    return {name: value * math.exp(float(step)) for (name, value), step in zip(base.items(), x, strict=True)}


def _start(
    game_spec: str, eval_name: str, depths: tuple[int, ...], games: int, seed: int, opening_plies: int
) -> TuneState:
    game = parse_spec(game_spec)
    base = evaluator_weights(game, eval_name)
    if not base:
        tunable = [n for n in evaluator_names(game) if evaluator_weights(game, n)]
        raise InvalidOptionError(
            f"{eval_name} has no weights to tune; in {game.key} these do: {', '.join(tunable) or 'none'}"
        )
    if opening_plies < 0:
        raise InvalidOptionError(f"the opening plies must be 0 or more, not {opening_plies}")
    # Imported once the request is known to be sound: cma brings scipy and matplotlib.
    import cma  # type: ignore[import-untyped]

    name = _bare(eval_name)
    hand = name != eval_name.strip().lower()
    against = "shipped" if not hand and shipped_weights(game, name) is not None else "hand-set"
    options = {"seed": seed + 1, "verbose": -9, "bounds": [-3, 3]}
    # A step of 1 scales a weight by e: weights that matter differ by factors, not by
    # percents, and smaller steps rarely change a move (the games hardly tell them apart).
    optimizer = cma.CMAEvolutionStrategy([0.0] * len(base), 1.0, options)
    return TuneState(game.spec, name, depths, games, seed, optimizer, base, against, opening_plies=opening_plies)


def _bare(eval_name: str) -> str:
    """The evaluator's name without ``@hand``."""
    return eval_name.strip().lower().partition(HAND_SEPARATOR)[0]


def _load(path: Path, game_spec: str, eval_name: str) -> TuneState:
    try:
        with path.open("rb") as f:
            state = pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError) as e:
        raise InvalidOptionError(f"cannot read the tuning state {path}: {e}") from None
    if not isinstance(state, TuneState) or state.version != STATE_VERSION:
        raise InvalidOptionError(f"{path} is not a tuning state of this version of noughts")
    if (state.game, state.eval) != (parse_spec(game_spec).spec, _bare(eval_name)):
        raise InvalidOptionError(f"{path} tunes {state.eval} for {state.game}, not {eval_name} for {game_spec}")
    return state


def _save(state: TuneState, path: Path) -> None:
    # Written beside and then renamed: an interrupted write never spoils the state.
    partial = path.with_name(path.name + ".partial")
    with partial.open("wb") as f:
        pickle.dump(state, f)
    partial.replace(path)
    if state.latest is not None:
        tuned = {
            "depths": list(state.depths),
            "games": state.games,
            "opening_plies": state.opening_plies,
            "against": state.against,
            "base": state.base,
        }
        weights = {"game": state.game, "eval": state.eval, **state.latest, "tuned": tuned}
        weights_path(path).write_text(json.dumps(weights, indent=2) + "\n")


def weights_path(state_path: Path) -> Path:
    """Where a run keeps its latest centre's weights: beside its state file."""
    return state_path.with_name(state_path.name + ".weights.json")


def tune(
    game_spec: str,
    eval_name: str,
    generations: int,
    state_path: Path,
    games: int = 8,
    depth: int | Sequence[int] = 2,
    seed: int = 0,
    jobs: int = 1,
    opening_plies: int = 2,
    report: Callable[[str], None] = print,
    on_game: Callable[[GameResult], None] = lambda result: None,
) -> TuneState:
    """Run (or resume, when `state_path` exists) until `generations` generations are done,
    at `depth` (one or several) from `opening_plies` random plies (a resumed run keeps
    its own of both). KeyboardInterrupt stops it
    (the workers too) with the finished generations saved."""
    if state_path.exists():
        state = _load(state_path, game_spec, eval_name)
        if state.generation >= generations:
            report(f"{state_path} has {state.generation} generations already; ask for more with --generations")
            return state
        report(
            f"resuming {state_path} at generation {state.generation + 1} "
            f"(depths {_listed(state.depths)}, {state.opening_plies} opening plies)"
        )
    else:
        state = _start(game_spec, eval_name, _depths(depth), games, seed, opening_plies)
        report(
            f"tuning {state.eval} in {state.game} at depths {_listed(state.depths)} "
            f"from {state.opening_plies} random plies "
            f"against its {state.against} weights {json.dumps(state.base)}"
        )
    with _workers(jobs) as pool:
        while state.generation < generations:
            started = time.perf_counter()
            optimizer = state.optimizer
            # The distribution's mean plays too, unseen by the optimiser: it is CMA-ES's
            # estimate of the best weights, and its score is the honest progress figure
            # (the best candidate of a generation is the luckiest of several noisy ones).
            centre = optimizer.result.xfavorite
            candidates = optimizer.ask()
            *by_depth, centre_by_depth = _scores(state, [*candidates, centre], pool, on_game)
            scores = [sum(s) / len(s) for s in by_depth]
            centre_score = sum(centre_by_depth) / len(centre_by_depth)
            optimizer.tell(candidates, [1 - s for s in scores])
            state.generation += 1
            state.history.append(
                {
                    "generation": state.generation,
                    "scores": scores,
                    "centre": centre_score,
                    "by_depth": by_depth,
                    "centre_by_depth": centre_by_depth,
                }
            )
            weights = {k: round(v, 4) for k, v in _weights(state.base, centre).items()}
            depths = {str(d): s for d, s in zip(state.depths, centre_by_depth, strict=True)}
            state.latest = {"score": centre_score, "depths": depths, "weights": weights, "generation": state.generation}
            _save(state, state_path)
            recent = [h["centre"] for h in state.history[-5:]]
            per_depth = ", ".join(f"depth {d} {s:.3f}" for d, s in depths.items())
            report(
                f"generation {state.generation}/{generations}: centre {centre_score:.3f} ({per_depth}; "
                f"last {len(recent)}: {sum(recent) / len(recent):.3f}), candidates best {max(scores):.3f} "
                f"mean {sum(scores) / len(scores):.3f} — scores against the {state.against} weights; "
                f"{time.perf_counter() - started:.0f} s"
            )
    return state


def _depths(depth: int | Sequence[int]) -> tuple[int, ...]:
    depths = tuple(sorted({depth} if isinstance(depth, int) else set(depth)))
    if not depths or depths[0] < 1:
        raise InvalidOptionError(f"the depths must be at least 1, not {_listed(depths) or 'none'}")
    return depths


def _listed(depths: tuple[int, ...]) -> str:
    return ",".join(map(str, depths))


def _quiet_worker() -> None:
    # Ctrl-C reaches the whole process group: the parent stops the run, keeping the
    # saved generations; the workers must not die with a traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _workers(jobs: int) -> Iterator[Pool]:
    """One pool for the whole run: starting workers (and their imports) costs more
    than a generation of short games."""
    pool = multiprocessing.get_context("spawn").Pool(max(1, jobs), initializer=_quiet_worker)
    try:
        yield pool
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _scores(
    state: TuneState, candidates: list[Any], pool: Pool, on_game: Callable[[GameResult], None]
) -> list[list[float]]:
    """Each candidate's share of the points against the base weights at each of the
    state's depths, all the games of the generation in the pool at once. Every
    candidate plays the same openings at every depth."""
    base_variant = Variant(f"{state.eval}~base", state.base_spec, tuple(state.base.items()))
    seed = state.seed * 10_007 + state.generation
    tasks = []
    owners = []  # per task: (candidate, index of the depth)
    for i, x in enumerate(candidates):
        variant = Variant(f"{state.eval}~candidate{i}", state.base_spec, tuple(_weights(state.base, x).items()))
        for j, depth in enumerate(state.depths):
            base = Entrant("base", "ai", f"alphabeta:depth={depth}:eval={base_variant.name}")
            candidate = Entrant(f"candidate{i}", "ai", f"alphabeta:depth={depth}:eval={variant.name}")
            plan = schedule(
                state.game,
                [candidate, base],
                state.games,
                seed,
                opening_plies=state.opening_plies,
                variants=(base_variant, variant),
            )
            tasks += plan.tasks
            owners += [(i, j)] * len(plan.tasks)
    points = [[0.0] * len(state.depths) for _ in candidates]
    for r in pool.imap_unordered(play, [replace(t, index=k) for k, t in enumerate(tasks)]):
        on_game(r)
        i, j = owners[r.index]
        player = r.x if r.x != "base" else r.o
        points[i][j] += 1.0 if r.result == _win(r, player) else 0.5 if r.result == "draw" else 0.0
    return [[p / state.games for p in row] for row in points]


def _win(result: GameResult, name: str) -> str:
    return "x-wins" if result.x == name else "o-wins"


def load_weights(text: str) -> Variant:
    """``NAME=FILE`` (arena's ``--weights``): the weights file `tune` writes, as a variant
    evaluator called NAME."""
    name, eq, file = text.partition("=")
    if not eq or not name.strip() or not file.strip():
        raise InvalidOptionError(f"--weights takes NAME=FILE, e.g. tuned=tune.state.weights.json, not {text!r}")
    try:
        data = json.loads(Path(file).read_text(encoding="utf-8"))
        weights = tuple((str(k), float(v)) for k, v in data["weights"].items())
        base = str(data["eval"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise InvalidOptionError(f"cannot read weights from {file}: {e}") from None
    return Variant(name.strip(), base, weights)
