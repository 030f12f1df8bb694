"""The registered chance scales against self-play: they predict the results nearly as
well as the best scale for the same games (the slow step; bench/value_scale.py prints
the figures), and the fit finds the scale that made the data."""

from __future__ import annotations

import math
import random

import pytest

from noughts import parse_spec
from noughts.ai.base import Kind, Limits, parse_player
from noughts.ai.evaluation import evaluator_scale
from noughts.study.calibration import fit_scale, log_loss


@pytest.mark.slow  # make test-slow, for make test's 6 minutes
def test_the_fit_finds_the_scale_that_made_the_results() -> None:
    rng = random.Random(1)
    points = []
    for _ in range(4000):
        score = rng.uniform(-600, 600)
        chance = (1 + math.tanh(score / 150)) / 2
        points.append((score, 1.0 if rng.random() < chance else 0.0))
    fitted = fit_scale(points)
    assert 120 < fitted < 185
    assert log_loss(points, fitted) <= log_loss(points, 150)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "player", "evaluator"),
    [
        ("ultimate", "kalphabeta", "seed-lines"),
        ("qubic", "kalphabeta", "open-lines"),
        ("mnk:m=7:n=7:k=4", "alphabeta:depth=2", "lines"),
    ],
)
def test_the_registered_scale_predicts_self_play(spec: str, player: str, evaluator: str) -> None:
    game = parse_spec(spec)
    points: list[tuple[float, float]] = []
    for seed in range(12):
        rng = random.Random(seed)
        state = game.initial()
        for _ in range(4):
            state = state.play(rng.choice(state.legal_moves()))
        searcher = parse_player(f"{player}:seed={seed}")
        seen = []
        while not state.is_over:
            # A node budget, not a fixed depth: at one shallow depth the scores carry
            # the parity of the horizon (odd depths favour the mover), which deepening
            # until a budget runs out averages, as the levels' time does. Nodes, not
            # time: the same games on a loaded machine.
            analysis = searcher.decide(state, Limits(nodes=30_000, time=60))
            if analysis.value.kind is Kind.SCORE:
                seen.append((analysis.value.score, state.turn))
            state = state.play(analysis.best)
        winner = state.outcome.winner if state.outcome else None
        points += [(score, 0.5 if winner is None else float(winner is turn)) for score, turn in seen]
    registered = evaluator_scale(game, evaluator)
    fitted = fit_scale(points)
    ours, best = log_loss(points, registered), log_loss(points, fitted)
    # The same order as the best scale for these games, and better than a coin. The
    # best scale changes with the search's depth (qubic: 23 at max's depth, 66 at this
    # budget), so the registered one, measured at the levels' depths, is not expected
    # to equal it; a factor of 4 still catches a scale set by hand far off (mnk's
    # former 10 against 220-4,545).
    assert registered / 4 < fitted < registered * 4, (registered, fitted, ours, best, len(points))
    assert ours < math.log(2)
