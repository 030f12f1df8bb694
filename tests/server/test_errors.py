"""Server errors are typed: each refusal's word is raised as one kind of error, whose
class gives its HTTP status (no table of words beside them)."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from noughts.server.online import actions
from noughts.server.online.storage.tournaments import TournamentError

SERVER = Path(__file__).resolve().parents[2] / "src" / "noughts" / "server"
KINDS = {
    cls.__name__: cls
    for cls in (
        actions.ActionError,
        actions.MissingError,
        actions.ForbiddenError,
        actions.InvalidError,
        actions.TooManyError,
        TournamentError,
    )
}


def test_each_word_is_raised_as_one_kind_with_one_status() -> None:
    raised: dict[str, set[str]] = defaultdict(set)
    for path in SERVER.rglob("*.py"):
        for kind, word in re.findall(r"\b(\w+Error)\(\s*\"([a-z-]+)\"", path.read_text()):
            if kind in KINDS:
                raised[word].add(kind)
    assert len(raised) > 40  # the pattern still finds the raises
    statuses = {word: {KINDS[kind].status for kind in kinds} for word, kinds in raised.items()}
    assert {word: s for word, s in statuses.items() if len(s) > 1} == {}
    assert statuses["no-such-game"] == {404} and statuses["not-a-player"] == {403}
    assert statuses["invalid-spec"] == {400} and statuses["too-many-tournaments"] == {429}
    assert statuses["not-your-turn"] == {409}
