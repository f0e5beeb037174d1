"""AUHost's built-in units by name, as pedalboard offers its own: Delay(delay_time=0.25).
Codes come from the headers (auhost._native). Thread class: setup (each call makes a unit)."""
from . import _native
from .catalog import find_codes
from .plugin import Plugin


def _make(type, subtype, parameters):
    plugin = Plugin(find_codes(type, subtype, _native.kAudioUnitManufacturer_Apple))
    for key, value in parameters.items():
        setattr(plugin, key, value)
    return plugin


def Delay(**parameters):
    """The built-in delay (kAudioUnitSubType_Delay); keyword arguments set its parameters. Thread class: setup."""
    return _make(_native.kAudioUnitType_Effect, _native.kAudioUnitSubType_Delay, parameters)


def IPodEQ(**parameters):
    """The built-in iPod EQ; choose a curve with .preset = "Bass Booster". Thread class: setup."""
    return _make(_native.kAudioUnitType_Effect, _native.kAudioUnitSubType_AUiPodEQ, parameters)


def NBandEQ(**parameters):
    """The built-in N-band EQ. Thread class: setup."""
    return _make(_native.kAudioUnitType_Effect, _native.kAudioUnitSubType_NBandEQ, parameters)


def MultichannelMixer(**parameters):
    """The built-in multichannel mixer. Thread class: setup."""
    return _make(_native.kAudioUnitType_Mixer, _native.kAudioUnitSubType_MultiChannelMixer, parameters)
