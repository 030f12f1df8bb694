"""``noughts bot`` as a user runs it: its bad options are a clear error and start
nothing."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (["--time", "0"], "--time is a number of seconds above 0"),
        (["--time", "nan"], "--time is a number of seconds above 0"),
        (["--option", "level"], "'level' is not a genmove option"),
        (["--option", "time=3"], "'time=3' is not a genmove option"),
        (["--level", "max hard"], "'level=max hard' is not a genmove option"),
    ],
)
def test_bad_bot_options_are_refused_before_anything_starts(
    options: list[str], says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from noughts.cli import main

    monkeypatch.setenv("NOUGHTS_BOT_TOKEN", "token")
    with pytest.raises(SystemExit, match=says):
        main(["bot", "--server", "http://127.0.0.1:9", *options, "--", "/nonexistent/engine"])
