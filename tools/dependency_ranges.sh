#!/usr/bin/env bash
# pyproject.toml's dependency ranges, measured at both ends: for each resolution given
# (default: lowest-direct, every direct requirement at its lower bound; then highest),
# uv pip compile resolves the dev extra, a fresh venv gets exactly that, and there run
# make check's tests (-m "not slow and not integration") and a server smoke (noughts
# serve, the home page, a max move in ultimate). About ten minutes each on two cores.
#   tools/dependency_ranges.sh [lowest-direct|highest ...]
set -euo pipefail
cd "$(dirname "$0")/.."
uv=.venv/bin/uv
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
resolutions=("$@")
[ ${#resolutions[@]} -gt 0 ] || resolutions=(lowest-direct highest)
for resolution in "${resolutions[@]}"; do
    echo "== $resolution"
    "$uv" pip compile --quiet pyproject.toml --extra dev --resolution "$resolution" --python-version 3.11 \
        --no-header --no-annotate -o "$work/$resolution.txt"
    venv="$work/venv-$resolution"
    "$uv" venv --quiet -p python3.11 "$venv"
    "$uv" pip install --quiet -p "$venv/bin/python" -r "$work/$resolution.txt"
    "$uv" pip install --quiet -p "$venv/bin/python" --no-deps -e .
    grep -iE '^(rich|numba|numpy|fastapi|starlette|sqlalchemy|open-spiel|gymnasium|pettingzoo)==' "$work/$resolution.txt" \
        | tr '\n' ' '
    echo
    # Its own numba cache: the kernels compiled by this numba, not the set-up's.
    export NUMBA_CACHE_DIR="$work/numba-$resolution"
    "$venv/bin/noughts" prepare --quiet
    "$venv/bin/pytest" -q -n 2 -p no:cacheprovider -m "not slow and not integration"
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
