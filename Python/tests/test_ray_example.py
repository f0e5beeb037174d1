"""The Ray example (Python/examples/ray_folder.py) on a local cluster of 2 CPUs renders a folder
bit-identically to the serial run. Skipped only when ray is not installed (make check-python
installs it)."""
import sys
from pathlib import Path

import numpy as np
import pytest

import auhost
from wavfile import read_float

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
ray = pytest.importorskip("ray")
import ray_folder  # noqa: E402


def test_ray_renders_a_folder_like_the_serial_run(tmp_path):
    rng = np.random.default_rng(4)
    source = tmp_path / "in"
    source.mkdir()
    for i, rate in enumerate([48_000, 44_100, 48_000, 96_000]):
        audio = (rng.standard_normal((2, rate // 2 + 123 * i)) * 0.2).astype(np.float32)
        with auhost.io.AudioFile(str(source / f"take{i}.wav"), "w", rate, 2) as f:
            f.write(audio)
    serial = ray_folder.run_serial(source, tmp_path / "serial")
    parallel = ray_folder.run_ray(source, tmp_path / "ray", num_cpus=2)
    assert [Path(p).name for p in parallel] == [Path(p).name for p in serial] and len(serial) == 4
    for a, b in zip(serial, parallel):
        x, rate_x = read_float(a)
        y, rate_y = read_float(b)
        assert rate_x == rate_y and x.shape == y.shape
        assert np.array_equal(x.view(np.uint32), y.view(np.uint32)), Path(a).name
        assert np.abs(x).max() > 0
