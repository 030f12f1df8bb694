"""The build's one hook: hatchling adds the repository's .gitignore to every sdist (so
that a wheel built from it leaves out the same files), but this sdist lists exactly what
it holds (pyproject.toml's sdist include), so the ignore file would only be clutter."""

from __future__ import annotations

from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class SdistWithoutVcsIgnore(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        forced = build_data["force_include"]
        for source in [source for source, target in forced.items() if target == ".gitignore"]:
            del forced[source]
