"""Preparing the kernels: the warm-up compiles everything play uses, a player's clock
never pays for compiling, and a server on a fresh machine answers its first moves.

The tests on an empty numba cache compile everything (a minute of one core each), so
they are in the slow run (``make test-slow``), which CI runs too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from noughts import parse_spec
from noughts.ai.compiled import KernelAlphaBetaPlayer, KernelMCTSPlayer, is_cached, is_ready, prepare


def _dispatchers() -> dict[str, Any]:
    """Every compiled kernel, by name."""
    import numba.core.registry

    from noughts.kernels import boards, cube, evaluate, games, jit, negamax, proof, threats, tree

    found = {}
    for module in (boards, cube, evaluate, games, jit, negamax, proof, threats, tree):
        for name, value in vars(module).items():
            if isinstance(value, numba.core.registry.CPUDispatcher):
                found[f"{module.__name__}.{name}"] = value
    return found


def test_after_prepare_play_compiles_nothing_more() -> None:
    # What the warm-up misses would be compiled in the middle of someone's move.
    prepare()
    assert is_ready() and is_cached()
    kernels = _dispatchers()
    assert len(kernels) > 20
    # The clock's object-mode block is compiled in each process on its first run and
    # never cached: left to play, it took the first 0.1 s move's whole time.
    lifted = [block for kernel in kernels.values() for done in kernel.overloads.values() for block in done.lifted]
    assert lifted and all(block.overloads for block in lifted)
    # Compiled, not loaded: a signature loaded from the cache (one that other runs compiled
    # there) costs a moment; one missing from it is compiled, a cache miss.
    before = {name: sum(kernel.stats.cache_misses.values()) for name, kernel in kernels.items()}
    for spec in ("ultimate", "ultimate:tiebreak=boards", "nine-board", "qubic"):
        state = parse_spec(spec).initial()
        for move in ("55", "51", "15") if spec != "qubic" else ("111", "222", "112"):
            state = state.play_text(move)
        players = [
            KernelMCTSPlayer(seed=1, iterations=3000),
            KernelMCTSPlayer(seed=1, time=0.05, guided=False, contempt=0.25),
            KernelAlphaBetaPlayer(seed=1, depth=3),
            KernelAlphaBetaPlayer(seed=1, time=0.05),
        ]
        if spec == "qubic":
            players += [
                KernelAlphaBetaPlayer(seed=1, time=0.1, proof=True),
                KernelAlphaBetaPlayer(depth=2, threats=False),
            ]
        for player in players:
            analysis = player.decide(state)
            player.analyze(state.play(analysis.moves[0].move))
    after = {name: sum(kernel.stats.cache_misses.values()) for name, kernel in kernels.items()}
    assert {name: n for name, n in after.items() if n != before[name]} == {}


@pytest.fixture
def empty_numba_cache(tmp_path: Any) -> dict[str, str]:
    """The environment of a machine where nothing is compiled yet."""
    return {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "PYTHONUNBUFFERED": "1"}


FIRST_DECISIONS = """
import json, sys, time, warnings
from noughts import parse_spec
from noughts.ai import Limits
from noughts.ai.compiled import KernelAlphaBetaPlayer, KernelMCTSPlayer, is_cached, is_ready
warnings.simplefilter("always")
cached = is_cached()
state = parse_spec("ultimate").initial()
player = KernelMCTSPlayer(seed=1)
report = {"cached": cached, "decisions": [], "warnings": []}

def decide(player, limits):
    started = time.perf_counter()
    with warnings.catch_warnings(record=True) as heard:
        analysis = player.decide(state, limits)
    report["warnings"] += [f"{w.category.__name__}: {w.message}" for w in heard]
    wall = time.perf_counter() - started
    found = {"player": analysis.player, "time": analysis.time, "wall": wall, "nodes": analysis.nodes}
    report["decisions"].append(found)

decide(player, Limits(time=0.5))
decide(KernelAlphaBetaPlayer(seed=1), Limits(time=0.3))
if sys.argv[1:] == ["all"]:
    decide(KernelAlphaBetaPlayer(seed=1), Limits(depth=2))  # no time limit: waits for the kernels
    decide(player, Limits(time=0.5))
report["ready"], report["cached_after"] = is_ready(), is_cached()
print(json.dumps(report))
"""


def first_decisions(env: dict[str, str], *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", FIRST_DECISIONS, *args], env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    assert report["cached"] is False
    return report


@pytest.mark.integration
def test_a_first_timed_decision_on_a_cold_cache_keeps_its_time_and_says_why(empty_numba_cache: dict[str, str]) -> None:
    """Compiling takes a minute or more: the first decision with a time limit does not
    wait for it, but plays with the readable twin, and a warning names the remedy."""
    report = first_decisions(empty_numba_cache)
    first, second = report["decisions"]
    assert first["player"] == "mcts" and second["player"] == "alphabeta"
    assert first["time"] < 1.0 and second["time"] < 1.0
    # Besides the search, starting the compilation's thread, and sharing the cores with it.
    assert first["wall"] < 10 and second["wall"] < 10
    (warning,) = report["warnings"]
    assert warning.startswith("CompileWarning: kmcts: the fast engine is not compiled") and "noughts prepare" in warning
    assert report["ready"] is False


@pytest.mark.slow
def test_on_a_cold_cache_the_kernels_take_over_once_compiled(empty_numba_cache: dict[str, str]) -> None:
    report = first_decisions(empty_numba_cache, "all")
    readable, readable_alphabeta, untimed, compiled = report["decisions"]
    assert readable["player"] == "mcts" and readable_alphabeta["player"] == "alphabeta"
    # A decision limited by depth alone waited for the compilation, and had the kernels.
    assert untimed["player"] == "kalphabeta"
    # Then the time limits are the kernels': the search had its half second, and used it.
    assert compiled["player"] == "kmcts" and compiled["time"] < 1.5 and compiled["nodes"] > 10_000
    assert report["ready"] is True and report["cached_after"] is True
    assert len(report["warnings"]) == 1  # once per process


@pytest.mark.slow
def test_a_fresh_server_answers_its_first_max_move(empty_numba_cache: dict[str, str], tmp_path: Any) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "noughts.cli", "serve", "--port", "0", "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**empty_numba_cache, "NOUGHTS_DATA_DIR": str(tmp_path)},
    )
    assert process.stdout is not None
    try:
        said = []
        for line in process.stdout:
            said.append(line)
            if "http://" in line:
                break
        address = "http://" + said[-1].split("http://", 1)[1].split()[0]
        # It said what it was doing while it compiled, before it gave its address.
        assert "preparing the fast engine" in "".join(said[:-1])
        request = urllib.request.Request(
            f"{address}/api/computer",
            data=json.dumps({"spec": "ultimate", "moves": ["55"], "level": "max"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=120) as response:
            answer = json.loads(response.read())
        assert response.status == 200
        assert answer["move"][0] == "5" and len(answer["move"]) == 2
        assert answer["analysis"]["nodes"] > 1000
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_prepare_is_done_once_per_process() -> None:
    prepare()
    assert prepare() == 0.0


def test_compiled_code_of_other_sources_is_dropped_before_compiling(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    # numba would load a cached kernel whose own file is unchanged with the old code of
    # the kernels it inlined: after an update, prepare starts from an empty cache.
    from noughts.ai import compiled

    stale = [tmp_path / "proof.prove-239.py311.nbi", tmp_path / "proof.prove-239.py311.1.nbc"]
    kept = [tmp_path / "proof.cpython-311.pyc", tmp_path / "readme.txt"]
    for path in [*stale, *kept, tmp_path / "noughts-kernels-0123456789abcdef.ready"]:
        path.write_bytes(b"old")
    marker = tmp_path / "noughts-kernels-fedcba9876543210.ready"
    monkeypatch.setattr(compiled, "_ready", False)
    monkeypatch.setattr(compiled, "_cache_marker", lambda: marker)
    monkeypatch.setattr(compiled, "_warm_up", lambda progress: 0.0)
    prepare()
    # What stays: the marker, and the lock that one process at a time holds to compile.
    assert sorted(tmp_path.iterdir()) == sorted([*kept, marker, marker.with_suffix(".lock")])
    # With the marker of these sources there, the cache is used as it is.
    stale[0].write_bytes(b"new")
    monkeypatch.setattr(compiled, "_ready", False)
    prepare()
    assert stale[0].exists()


def test_one_process_compiles_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While another process compiles (holds the lock beside numba's cache), `prepare`
    waits for it before looking at the cache again, rather than compiling the same."""
    from noughts.ai import compiled

    monkeypatch.setattr(compiled, "_cache_marker", lambda: tmp_path / "noughts-kernels-test.ready")
    hold = (
        "import fcntl, sys, time\n"
        f"lock = open({str(tmp_path / 'noughts-kernels-test.lock')!r}, 'a')\n"
        "fcntl.flock(lock, fcntl.LOCK_EX)\n"
        "print('holding', flush=True)\n"
        "time.sleep(1.0)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", hold], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
    began = time.monotonic()
    with compiled._one_process_at_a_time():
        waited = time.monotonic() - began
    holder.wait(10)
    assert waited > 0.5
