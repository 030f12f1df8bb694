"""Tuning an evaluation function's weights by self-play with CMA-ES (the `cma` package).

A candidate is a set of weights ``w_i = hand_i * exp(x_i)`` (so a weight keeps its sign
and CMA-ES works on scale factors); its fitness is its score, with alpha-beta at a
fixed depth, against the same search with the hand-set weights — every candidate of a
generation on the same seeded openings, each with both colours. The state file (a
pickle of the optimiser and the history) is written after every generation, so a run
can be stopped and resumed; the best weights so far also go to ``STATE.weights.json``,
which ``noughts arena --weights NAME=FILE`` loads to test them properly.
"""

from __future__ import annotations

import json
import math
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from noughts.ai.evaluation import evaluator_names, evaluator_weights
from noughts.arena.entrants import Entrant
from noughts.arena.tournament import GameResult, Tournament, Variant, run, schedule
from noughts.core import InvalidOptionError
from noughts.registry import parse_spec

__all__ = ["TuneState", "load_weights", "tune"]

STATE_VERSION = 1


@dataclass
class TuneState:
    """Everything a resumed run needs."""

    game: str
    eval: str
    depth: int
    games: int
    seed: int
    optimizer: Any  # cma.CMAEvolutionStrategy
    generation: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    best: dict[str, Any] | None = None  # {"score": s, "weights": {...}, "generation": g}
    version: int = STATE_VERSION


def _weights(hand: dict[str, float], x: Any) -> dict[str, float]:
    return {name: value * math.exp(float(step)) for (name, value), step in zip(hand.items(), x, strict=True)}


def _start(game_spec: str, eval_name: str, depth: int, games: int, seed: int) -> TuneState:
    import cma  # type: ignore[import-untyped]

    game = parse_spec(game_spec)
    hand = evaluator_weights(game, eval_name)
    if not hand:
        tunable = [n for n in evaluator_names(game) if evaluator_weights(game, n)]
        raise InvalidOptionError(
            f"{eval_name} has no weights to tune; in {game.key} these do: {', '.join(tunable) or 'none'}"
        )
    options = {"seed": seed + 1, "verbose": -9, "bounds": [-3, 3]}
    optimizer = cma.CMAEvolutionStrategy([0.0] * len(hand), 0.5, options)
    return TuneState(game.spec, eval_name, depth, games, seed, optimizer)


def _load(path: Path, game_spec: str, eval_name: str) -> TuneState:
    try:
        with path.open("rb") as f:
            state = pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError) as e:
        raise InvalidOptionError(f"cannot read the tuning state {path}: {e}") from None
    if not isinstance(state, TuneState) or state.version != STATE_VERSION:
        raise InvalidOptionError(f"{path} is not a tuning state of this version of noughts")
    if (state.game, state.eval) != (parse_spec(game_spec).spec, eval_name):
        raise InvalidOptionError(f"{path} tunes {state.eval} for {state.game}, not {eval_name} for {game_spec}")
    return state


def _save(state: TuneState, path: Path) -> None:
    # Written beside and then renamed: an interrupted write never spoils the state.
    partial = path.with_name(path.name + ".partial")
    with partial.open("wb") as f:
        pickle.dump(state, f)
    partial.replace(path)
    if state.best is not None:
        weights = {"game": state.game, "eval": state.eval, **state.best}
        path.with_name(path.name + ".weights.json").write_text(json.dumps(weights, indent=2) + "\n")


def tune(
    game_spec: str,
    eval_name: str,
    generations: int,
    state_path: Path,
    games: int = 8,
    depth: int = 2,
    seed: int = 0,
    jobs: int = 1,
    report: Callable[[str], None] = print,
    on_game: Callable[[GameResult], None] = lambda result: None,
) -> TuneState:
    """Run (or resume, when `state_path` exists) until `generations` generations are done."""
    if state_path.exists():
        state = _load(state_path, game_spec, eval_name)
        if state.generation >= generations:
            report(f"{state_path} has {state.generation} generations already; ask for more with --generations")
        else:
            report(f"resuming {state_path} at generation {state.generation + 1}")
    else:
        state = _start(game_spec, eval_name, depth, games, seed)
    game = parse_spec(state.game)
    hand = evaluator_weights(game, state.eval)
    base = Entrant("hand-set", "ai", f"alphabeta:depth={state.depth}:eval={state.eval}")
    while state.generation < generations:
        optimizer = state.optimizer
        candidates = optimizer.ask()
        scores = _scores(state, hand, candidates, base, jobs, on_game)
        optimizer.tell(candidates, [1 - s for s in scores])
        state.generation += 1
        top = max(range(len(scores)), key=scores.__getitem__)
        state.history.append({"generation": state.generation, "scores": scores})
        if state.best is None or scores[top] > state.best["score"]:
            weights = {k: round(v, 4) for k, v in _weights(hand, candidates[top]).items()}
            state.best = {"score": scores[top], "weights": weights, "generation": state.generation}
        _save(state, state_path)
        mean = sum(scores) / len(scores)
        report(
            f"generation {state.generation}/{generations}: best {scores[top]:.3f}, mean {mean:.3f} "
            f"(score against the hand-set weights; best so far {state.best['score']:.3f})"
        )
    return state


def _scores(
    state: TuneState,
    hand: dict[str, float],
    candidates: list[Any],
    base: Entrant,
    jobs: int,
    on_game: Callable[[GameResult], None],
) -> list[float]:
    """Each candidate's share of the points against the hand-set weights, all the games
    of the generation in one pool. Every candidate plays the same openings."""
    tasks = []
    for i, x in enumerate(candidates):
        name = f"{state.eval}~candidate{i}"
        candidate = Entrant(f"candidate{i}", "ai", f"alphabeta:depth={state.depth}:eval={name}")
        variant = Variant(name, state.eval, tuple(_weights(hand, x).items()))
        seed = state.seed * 10_007 + state.generation
        plan = schedule(state.game, [candidate, base], state.games, seed, opening_plies=2, variants=(variant,))
        tasks += plan.tasks
    generation = Tournament(state.game, [], [replace(t, index=k) for k, t in enumerate(tasks)])
    run(generation, jobs, on_game)
    if generation.interrupted:
        raise KeyboardInterrupt
    points = [0.0] * len(candidates)
    for r in generation.results:
        player = r.x if r.x != base.name else r.o
        i = int(player.removeprefix("candidate"))
        points[i] += 1.0 if r.result == _win(r, player) else 0.5 if r.result == "draw" else 0.0
    return [p / state.games for p in points]


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
