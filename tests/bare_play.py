"""What an installation without any extra plays, as a script the tests run in another
interpreter (tests/test_library_use.py with numpy and numba hidden, tests/test_packaging.py
in a fresh venv from the built wheel): every registered game at every level, a level
against itself for up to PLIES plies at SECONDS a move; gobblet's max valuing the start
exactly from the shipped book; the compiled players and gobblet's table naming the extra
they need; and an engine session that answers those with ``? `` and goes on. Prints one
JSON object, which `check` checks.

    python tests/bare_play.py [PLIES [SECONDS]]
"""

from __future__ import annotations

import json
import sys
from typing import Any


def main(plies: int, seconds: float) -> dict[str, Any]:
    import noughts
    from noughts.engine import EngineSession

    limits = noughts.Limits(time=seconds)
    played: dict[str, list[str]] = {}
    for key in noughts.game_keys():
        for level in noughts.LEVELS:
            player = noughts.level_player(key, level, seed=1)
            state = noughts.parse_spec(key).initial()
            moves = []
            while not state.is_over and len(moves) < plies:
                move = player.choose(state, limits)
                moves.append(state.move_text(move))
                state = state.play(move)
            played[f"{key} {level}"] = moves
    gobblet = noughts.level_player("gobblet", "max").analyze(noughts.parse_spec("gobblet").initial(), limits)
    refused = {}
    for name in ("kmcts", "kalphabeta"):
        try:
            noughts.make_player(name)
        except noughts.MissingExtraError as e:
            refused[name] = e.extra
    try:
        noughts.make_player("perfect").choose(noughts.parse_spec("gobblet:copies=1").initial())
    except noughts.MissingExtraError as e:
        refused["gobblet table"] = e.extra
    session = EngineSession()
    asked = ["new gobblet", "genmove level=medium seed=1", "genmove player=kmcts", "genmove level=perfect", "moves"]
    answers = [session.handle(line) for line in asked]
    heavy = sorted({m.split(".")[0] for m in sys.modules} & {"numba", "numpy", "llvmlite"})
    return {
        "played": played,
        "gobblet start": gobblet.moves[0].value.text,
        "refused": refused,
        "engine": [(answer or "").strip() for answer in answers],
        "heavy": heavy,
    }


def check(found: dict[str, Any], plies: int) -> None:
    """What `main` reports, checked: every game played at every level by legal moves
    (for `plies` plies or to its end), gobblet's start valued exactly, the compiled
    players and gobblet's table refused naming the kernels, the engine answering those
    with ``? `` and going on."""
    import noughts

    assert sorted(found["played"]) == sorted(
        f"{key} {level}" for key in noughts.game_keys() for level in noughts.LEVELS
    )
    for name, moves in found["played"].items():
        state = noughts.parse_spec(name.split()[0]).initial()
        for move in moves:
            state = state.play_text(move)
        assert state.is_over or len(moves) == plies, name
    assert found["gobblet start"] == "win in 13"  # the shipped book, exact
    assert found["refused"] == {"kmcts": "kernels", "kalphabeta": "kernels", "gobblet table": "kernels"}
    new, medium, kmcts, perfect, moves = found["engine"]
    assert new == "= gobblet" and medium.startswith("= ")
    assert kmcts.startswith("? ") and "pip install 'noughts[kernels]'" in kmcts
    assert perfect.startswith("? ") and "pip install 'noughts[kernels]'" in perfect
    assert moves == "= " + medium[2:]  # the session went on, the refused moves changed nothing
    assert found["heavy"] == []


if __name__ == "__main__":
    plies, seconds = (sys.argv[1:] + ["1000", "0.1"][len(sys.argv) - 1 :])[:2]
    print(json.dumps(main(int(plies), float(seconds))))
