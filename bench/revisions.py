"""Two revisions' code side by side in one run, for the bench scripts that measure a
change of the kernels: the working tree against an earlier revision (`git archive` of
its src/), each in processes of its own with its own empty numba cache (numba checks a
cached kernel against its own source file only, so a cache shared by two revisions
could hand one the other's inlined code), alternating for `rounds` rounds so that a
busy machine slows both alike. The worker a bench names gets the same input in every
process and must find the same thing in all of them; the bench compares CPU seconds.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Compared:
    """What both trees found (the same), and each tree's CPU seconds per round."""

    found: Any
    reference: list[float]
    working: list[float]

    @property
    def ratio(self) -> float:
        """The median of the rounds' ratios, reference / working tree: how many times
        faster the working tree is."""
        return statistics.median(r / w for r, w in zip(self.reference, self.working, strict=True))

    def summary(self, revision: str) -> str:
        return (
            f"CPU seconds (median) {revision} {statistics.median(self.reference):.2f}, "
            f"working tree {statistics.median(self.working):.2f}: {self.ratio:.2f} times faster"
        )


def extract(revision: str, into: Path) -> Path:
    """The src/ folder of `revision`, written under `into`."""
    archive = subprocess.run(["git", "archive", revision, "src"], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def compare(script: str, revision: str, work: Path, rounds: int, arguments: list[str]) -> Compared:
    """Runs `script --worker OUT *arguments` on the working tree's src/ and on
    `revision`'s, `rounds` times each, alternating. The worker writes
    ``{"seconds": CPU seconds, "found": anything JSON}`` to OUT. SystemExit when a
    tree finds something else in another round, or the two trees differ."""
    trees = {"reference": extract(revision, work / "reference"), "working tree": ROOT / "src"}
    seconds: dict[str, list[float]] = {name: [] for name in trees}
    found: dict[str, object] = {}
    for round_ in range(rounds):
        for name, src in trees.items():
            out = work / "out.json"
            cache = work / f"cache-{name.replace(' ', '-')}"
            env = os.environ | {"PYTHONPATH": str(src), "NUMBA_CACHE_DIR": str(cache)}
            subprocess.run([sys.executable, script, "--worker", str(out), *arguments], env=env, check=True)
            result = json.loads(out.read_text())
            seconds[name].append(result["seconds"])
            if found.setdefault(name, result["found"]) != result["found"]:
                raise SystemExit(f"{name}: another result in round {round_ + 1}")
            print(f"round {round_ + 1}: {name} {result['seconds']:.2f} s", flush=True)
    if found["reference"] != found["working tree"]:
        raise SystemExit("the two trees' searches differ")
    return Compared(found["working tree"], seconds["reference"], seconds["working tree"])
