"""The install hint a command prints when a module is missing names an extra that brings it."""

from __future__ import annotations

import importlib.metadata as metadata
import re

from packaging.requirements import Requirement

from noughts import cli

#: The extras whose modules the commands import (rl and openspiel are the library's:
#: no command imports them).
_COMMANDS_EXTRAS = ("kernels", "server", "scale", "arena")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _wanted_by_extra() -> dict[str, set[str]]:
    """Each distribution's normal name -> the extras that ask for it."""
    wanted: dict[str, set[str]] = {}
    for line in metadata.requires("noughts") or []:
        requirement = Requirement(line)
        for extra in _COMMANDS_EXTRAS:
            if requirement.marker is not None and requirement.marker.evaluate({"extra": extra}):
                wanted.setdefault(_normal(requirement.name), set()).add(extra)
    return wanted


def test_every_module_an_extra_brings_has_its_install_hint() -> None:
    modules: dict[str, set[str]] = {}  # a distribution's normal name -> its top-level modules
    for module, dists in metadata.packages_distributions().items():
        for dist in dists:
            modules.setdefault(_normal(dist), set()).add(module)
    wanted = _wanted_by_extra()
    assert {"numba", "fastapi", "httpx2", "websockets", "dramatiq", "matplotlib"} <= wanted.keys()
    for dist, extras in wanted.items():
        hinted = modules[dist] & cli._EXTRAS.keys()
        assert hinted, f"{dist} ({', '.join(sorted(modules[dist]))}) is missing from cli._EXTRAS"
        for module in hinted:
            assert cli._EXTRAS[module] in extras, f"{module}: hinted {cli._EXTRAS[module]}, comes with {extras}"
