"""Shared set-up: the fixed test LV2_PATH (plus the project's broken-plug-in fixtures) and
LADSPA_PATH/DSSI_PATH, the SDK plug-ins, and the `auhost` CLI the outputs are compared with. The
Makefile's check-python target provides them; run alone, this file builds what is missing (slow the first time)."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))


def _run(args):
    return subprocess.run(args, cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def _environment():
    # The engine reads these when its registry is first used: set them before any auhost call.
    if "LV2_PATH" not in os.environ:
        os.environ["LV2_PATH"] = _run(["scripts/test-lv2-path.sh"])
    for variable, option in (("LADSPA_PATH", []), ("DSSI_PATH", ["--dssi"])):
        if variable not in os.environ:
            os.environ[variable] = _run(["scripts/test-ladspa-path.sh", *option])
    if "AUHOST_PYTHON_FIXTURES" not in os.environ:
        os.environ["AUHOST_PYTHON_FIXTURES"] = _run(["scripts/build-lv2-fixtures.sh"])
    os.environ["LV2_PATH"] = os.environ["LV2_PATH"] + ":" + os.environ["AUHOST_PYTHON_FIXTURES"]
    if "AUHOST_PLUGIN_PATH" not in os.environ:
        os.environ["AUHOST_PLUGIN_PATH"] = _run(["Plugins/build.sh", "release"]).splitlines()[-1]
    if "AUHOST_CLI" not in os.environ:
        _run(["swift", "build", "-c", "release", "--product", "auhost"])
        os.environ["AUHOST_CLI"] = str(ROOT / ".build" / "release" / "auhost")


_environment()

EG_AMP = "http://lv2plug.in/plugins/eg-amp"


@pytest.fixture
def noise():
    """Seeded stereo noise, 0.3 s at 48 kHz, float32 — a fresh copy per test."""
    return (np.random.default_rng(28).standard_normal((2, 14_400)) * 0.25).astype(np.float32)


@pytest.fixture
def cli(tmp_path):
    """cli(args) runs the auhost CLI in tmp_path and returns its result (check=True)."""

    def run(args):
        return subprocess.run([os.environ["AUHOST_CLI"], *args], cwd=tmp_path, check=True, capture_output=True, text=True)

    return run
