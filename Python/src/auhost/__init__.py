"""auhost: LV2 plug-ins, AUHost's built-in units and SDK plug-ins on NumPy arrays, in
pedalboard's shape, over AUHost's Core Audio C API (libauhost-capi, shipped in auhost/_lib).

    import auhost, numpy as np
    amp = auhost.load_plugin("http://lv2plug.in/plugins/eg-amp", gain=-6.0)
    out = amp(np.zeros((1, 48000), np.float32), 48000)

Thread classes: catalog, loading, parameters, presets and state are setup calls; processing
releases the GIL, so threads that each own their plug-ins or boards render at once.
"""
from . import io
from .board import Mix, Pedalboard
from .catalog import Component, find, list_plugins
from .errors import AUHostError, PluginCrashed
from .plugin import Plugin, load_plugin
from .units import Delay, IPodEQ, MultichannelMixer, NBandEQ

__version__ = "0.1.0"
__all__ = [
    "AUHostError", "Component", "Delay", "IPodEQ", "Mix", "MultichannelMixer", "NBandEQ", "Pedalboard", "Plugin",
    "PluginCrashed", "find", "io", "list_plugins", "load_plugin",
]
