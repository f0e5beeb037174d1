#!/usr/bin/env bash
# auhost (this checkout, installed with pip) against pedalboard 0.9 from PyPI, same run, printed
# side by side. Needs the SDK plug-ins (built here). Not part of make test.
#   Benchmarks/python/run.sh            (VENV=… to reuse a venv, REPEATS=… to change best-of)
# Thread class: n/a (benchmark tooling).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=${VENV:-$root/.build/python-bench-venv}
python=${PYTHON:-/usr/bin/python3}
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/pip" install -q "$root/Python" numpy "pedalboard>=0.9,<0.10"
plugins=$("$root/Plugins/build.sh" release | tail -1)
AUHOST_PLUGIN_PATH=$plugins "$venv/bin/python" "$root/Benchmarks/python/compare_pedalboard.py"
# DawDreamer (120 MB) on the LV2 plug-ins of the test set, when it installs.
if "$venv/bin/pip" install -q "dawdreamer>=0.9,<0.10"; then
    LV2_PATH=$("$root/scripts/test-lv2-path.sh") "$venv/bin/python" "$root/Benchmarks/python/compare_dawdreamer.py" 2>&1 | grep -v '^lv2: skipping'
else
    echo "DawDreamer did not install here; its comparison is skipped."
fi
