"""The interpreter's thread keeps IEEE subnormals: libauhost's dependency libSoundTouchDll is
built with -ffast-math and its loader constructor turns on flush-to-zero / denormals-are-zero;
auhost undoes that at import and keeps renders and plug-in loading from changing the mode."""
import numpy as np

import auhost
from conftest import EG_AMP


def subnormals_survive():
    return bool((np.array([5e-324]) * 1.0)[0] != 0) and bool(np.float32(1e-40) * np.float32(1) != 0)


def test_import_load_render_and_boards_keep_subnormals(noise):
    assert subnormals_survive()
    for name in (EG_AMP, "http://plugin.org.uk/swh-plugins/sc4", "http://drobilla.net/plugins/mda/Delay"):
        plugin = auhost.load_plugin(name)
        plugin(noise, 48000)
        assert subnormals_survive(), name
    auhost.Mix([auhost.Delay(), auhost.IPodEQ()])(noise, 48000)
    assert subnormals_survive()
