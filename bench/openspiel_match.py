"""A match: our ultimate level (``max`` by default) against OpenSpiel's C++ MCTSBot
(random-rollout evaluator, solver on) at the same time per move.

OpenSpiel's bot has a simulation budget, not a clock: its rate from the opening is
measured first, in this run (the best of five), and the budget set to rate x time. OpenSpiel splits a free
ultimate move into "choose a board" then "choose a cell"; its bot spends the full
budget on each step, so it gets up to twice our time on those moves.

Colours alternate and each pair of games (one per colour) starts from the same random
first plies. Games run in `--jobs` processes, one game each (a process per core).

    .venv/bin/python bench/openspiel_match.py [--games 40] [--time 1.0] [--level max]
        [--opening-plies 2] [--uct-c 2.0] [--jobs 1] [--seed 1] [--record FILE]
        [--simulations N]

--simulations sets OpenSpiel's budget a move instead of measuring its rate: to compare
two of our settings at one budget, or to run on a busy machine with the budget measured
on a quiet one (a busy machine then slows only our side).

--record writes one JSON line per game: its moves (our notation), our side, the result,
and our value and iterations at each of our moves, to look into the games lost or drawn.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pyspiel

from noughts import parse_spec
from noughts.ai.base import AIPlayer, Limits, parse_player
from noughts.ai.levels import LEVELS, level_player, level_spec
from noughts.core import Player, State
from noughts.match import random_opening

SPIEL_GAME = "ultimate_tic_tac_toe"
_CELL = re.compile(r"(?:Local board (\d): )?[xo]\((\d+),(\d+)\)")


def spiel_move(spiel_state: Any, action: int) -> int | None:
    """Our move for an OpenSpiel cell action; None for a board choice."""
    text = spiel_state.action_to_string(spiel_state.current_player(), action)
    match = _CELL.fullmatch(text)
    if match is None:
        return None
    board, row, col = match.groups()
    return int(board) * 9 + int(row) * 3 + int(col)


def play_into(spiel_state: Any, move: int) -> None:
    """Play our `move` in OpenSpiel's state (choosing its board first if it asks)."""
    for action in spiel_state.legal_actions():
        if spiel_move(spiel_state, action) == move:
            spiel_state.apply_action(action)
            return
    spiel_state.apply_action(move // 9)  # "Choose local board b" is action b
    play_into(spiel_state, move)


def bot_move(bot: Any, spiel_state: Any) -> int:
    """Let the bot choose, board then cell if it must; its move in our numbering."""
    probe = spiel_state.clone()
    while True:
        action = bot.step(probe)
        move = spiel_move(probe, action)
        if move is not None:
            return move
        probe.apply_action(action)


def new_bot(simulations: int, uct_c: float, seed: int) -> Any:
    game = pyspiel.load_game(SPIEL_GAME)
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    # MCTSBot(game, evaluator, uct_c, max_simulations, max_memory_mb, solve, seed, verbose)
    return pyspiel.MCTSBot(game, evaluator, uct_c, simulations, 1000, True, seed, False)


def openspiel_rate(uct_c: float, simulations: int = 30_000, tries: int = 5) -> float:
    """OpenSpiel MCTSBot simulations per second from the opening: the best of `tries`
    measurements, so that a moment of load on a shared machine does not shrink its
    budget (the benefit of the doubt goes to OpenSpiel)."""
    best = 0.0
    for seed in range(tries):
        bot = new_bot(simulations, uct_c, seed)
        state = pyspiel.load_game(SPIEL_GAME).new_initial_state()
        started = time.perf_counter()
        bot.step(state)
        best = max(best, simulations / (time.perf_counter() - started))
    return best


def our_player(level: str, seed: int) -> AIPlayer:
    """A level of ultimate (easy ... max) or a player spec (``kmcts:c=1.4``)."""
    if level in LEVELS:
        return level_player(parse_spec("ultimate"), level, seed)
    return parse_player(f"{level}:seed={seed}")


def play_one(job: tuple[int, list[int], bool, str, float, int, float]) -> tuple[int, str, dict[str, Any]]:
    """One game; (index, result for us: win/draw/loss, its record)."""
    index, opening, ours_is_x, level, seconds, simulations, uct_c = job
    game = parse_spec("ultimate")
    state: State[Any] = game.initial()
    spiel_state = pyspiel.load_game(SPIEL_GAME).new_initial_state()
    for move in opening:
        state = state.play(move)
        play_into(spiel_state, move)
    ours = our_player(level, index)
    bot = new_bot(simulations, uct_c, 1000 + index)
    us = Player.X if ours_is_x else Player.O
    moves = [state.game.move_text(m) for m in opening]
    values: list[str] = []
    iterations: list[int] = []
    while not state.is_over:
        if state.turn is us:
            analysis = ours.analyze(state, Limits(time=seconds))
            move = analysis.best
            values.append(analysis.value.text)
            iterations.append(analysis.nodes)
        else:
            move = bot_move(bot, spiel_state)
        moves.append(state.move_text(move))
        state = state.play(move)
        play_into(spiel_state, move)
    assert state.outcome is not None
    winner = state.outcome.winner
    result = "draw" if winner is None else ("win" if winner is us else "loss")
    record = {
        "game": index + 1,
        "ours": us.name.lower(),
        "result": result,
        "moves": moves,
        "values": values,
        "iterations": iterations,
    }
    return index, result, record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move")
    parser.add_argument("--level", default="max", help="a level of ultimate or a player spec")
    parser.add_argument("--opening-plies", type=int, default=2)
    parser.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel's exploration constant")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--record", default=None, help="write the games here, one JSON line each")
    parser.add_argument("--simulations", type=int, default=None, help="OpenSpiel's budget a move (default: measured)")
    args = parser.parse_args()

    from noughts.ai.compiled import prepare

    prepare()
    game = parse_spec("ultimate")
    spec = level_spec(game, args.level) if args.level in LEVELS else args.level
    print(f"ours: {args.level} = {spec}, {args.time} s per move")
    if args.simulations:
        simulations = args.simulations
        print(f"OpenSpiel MCTSBot: {simulations:,} simulations per move (given), uct_c={args.uct_c}")
    else:
        rate = openspiel_rate(args.uct_c)
        simulations = max(1, int(rate * args.time))
        print(f"OpenSpiel MCTSBot: {rate:,.0f} simulations/s measured -> {simulations:,} per move, uct_c={args.uct_c}")
    jobs = []
    for index in range(args.games):
        opening = random_opening(game, args.opening_plies, random.Random(args.seed * 100_003 + index // 2))
        jobs.append((index, opening, index % 2 == 0, args.level, args.time, simulations, args.uct_c))
    tally = {"win": 0, "draw": 0, "loss": 0}
    searched: list[int] = []
    started = time.perf_counter()
    record = open(args.record, "w", encoding="utf-8") if args.record else None  # noqa: SIM115
    # Each worker loads the compiled kernels before its first game, not on its first move.
    with ProcessPoolExecutor(args.jobs, initializer=prepare) as pool:
        for index, result, game_record in pool.map(play_one, jobs):
            searched += game_record["iterations"]
            if record is not None:
                record.write(json.dumps(game_record) + "\n")
                record.flush()
            tally[result] += 1
            colour = "x" if index % 2 == 0 else "o"
            print(f"game {index + 1:>3} (ours {colour}): {result}", flush=True)
    if record is not None:
        record.close()
    games = sum(tally.values())
    score = (tally["win"] + tally["draw"] / 2) / games
    if searched:
        # Ours runs on the clock, so a loaded machine shows here; OpenSpiel's budget is fixed.
        print(f"ours searched {statistics.median(searched):,.0f} iterations a move (median)")
    print(
        f"\n{args.level} vs OpenSpiel MCTSBot: +{tally['win']} ={tally['draw']} -{tally['loss']}"
        f" -> {100 * score:.1f}% over {games} games ({time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
