"""LADSPA plug-ins from the installed package: describing a LADSPA library means running it,
which the engine does in lv2-sweep-child; the package ships that child beside the library."""
import os
import subprocess
import sys


def test_ladspa_plugins_are_described_and_render_from_an_empty_cache(tmp_path):
    # A fresh interpreter with a cache of its own: the libraries are described now, by the child
    # the package shipped (a missing child would leave every LADSPA library out, with a warning).
    code = ("import auhost, numpy as np\n"
            "amp = next(c for c in auhost.list_plugins('effect') if c.origin.startswith('ladspa amp_mono '))\n"
            "plugin = auhost.load_plugin(amp.triple, gain=0.5)\n"
            "print(plugin(np.ones(8, np.float32), 48000).tolist())\n")
    environment = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    environment.pop("LV2_SWEEP_CHILD", None)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=environment)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == str([0.5] * 8)
