#!/usr/bin/env bash
# pyproject.toml's dependency ranges, measured at both ends: for each resolution given
# (default: lowest-direct, every direct requirement at its lower bound; then highest),
# uv pip compile resolves every extra and the dev group, a fresh venv gets exactly that,
# and there run make check's tests (-m "not slow and not integration") and a server smoke
# (noughts serve, the home page, a max move in ultimate). About ten minutes each on two cores.
#   tools/dependency_ranges.sh [lowest-direct|highest ...]
# EXTRAS names the extras to resolve instead of all of them, TESTS the tests to run (the
# smoke runs only with the server extra): a floor that another extra's raises (numpy's in
# rl and openspiel, beside arena's) is measured on its own:
#   EXTRAS="rl openspiel" TESTS="tests/test_rl.py tests/test_spiel.py" tools/dependency_ranges.sh lowest-direct
# UV is the uv to run (default .venv/bin/uv).
set -euo pipefail
cd "$(dirname "$0")/.."
uv=${UV:-.venv/bin/uv}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
resolutions=("$@")
[ ${#resolutions[@]} -gt 0 ] || resolutions=(lowest-direct highest)
extras=(--all-extras)
if [ -n "${EXTRAS:-}" ]; then
    extras=()
    for extra in $EXTRAS; do extras+=(--extra "$extra"); done
fi
read -r -a tests <<< "${TESTS:-}"
for resolution in "${resolutions[@]}"; do
    echo "== $resolution"
    "$uv" pip compile --quiet pyproject.toml "${extras[@]}" --group dev --resolution "$resolution" \
        --python-version 3.11 --no-header --no-annotate -o "$work/$resolution.txt"
    venv="$work/venv-$resolution"
    "$uv" venv --quiet -p python3.11 "$venv"
    "$uv" pip install --quiet -p "$venv/bin/python" -r "$work/$resolution.txt"
    "$uv" pip install --quiet -p "$venv/bin/python" --no-deps -e .
    grep -iE '^(rich|numba|numpy|fastapi|starlette|sqlalchemy|open-spiel|gymnasium|pettingzoo)==' "$work/$resolution.txt" \
        | tr '\n' ' '
    echo
    # Its own numba cache: the kernels compiled by this numba, not the set-up's.
    export NUMBA_CACHE_DIR="$work/numba-$resolution"
    if grep -qi '^numba==' "$work/$resolution.txt"; then "$venv/bin/noughts" prepare --quiet; fi
    "$venv/bin/pytest" -q -n 2 -p no:cacheprovider -m "not slow and not integration" "${tests[@]}"
    if [ -n "${EXTRAS:-}" ] && [[ " $EXTRAS " != *" server "* ]]; then continue; fi
    NOUGHTS_DATA_DIR="$work/data-$resolution" "$venv/bin/python" - <<'SMOKE'
import json, os, subprocess, sys, urllib.request

noughts = os.path.join(os.path.dirname(sys.executable), "noughts")
server = subprocess.Popen([noughts, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
try:
    line = next(line for line in server.stdout if "http://" in line)
    address = "http://" + line.split("http://", 1)[1].split()[0]
    with urllib.request.urlopen(address + "/", timeout=60) as response:
        assert response.status == 200
    asked = json.dumps({"spec": "ultimate", "moves": ["55"], "level": "max"}).encode()
    request = urllib.request.Request(address + "/api/computer", asked, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        answer = json.loads(response.read())
    print(f"server smoke: the home page, and max's move {answer['move']} by {answer['analysis']['player']}")
finally:
    server.terminate()
    server.wait(timeout=30)
SMOKE
done
