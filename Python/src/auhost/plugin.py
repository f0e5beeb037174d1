"""Plugin: one unit (LV2, built-in or SDK plug-in) as a callable on NumPy arrays, with its
parameters as attributes, presets, state, latency and tail. Instruments render from MIDI."""
import weakref

import numpy as np

from . import _native, catalog
from .audio import check_block, check_rate, planar
from .errors import PluginCrashed
from .midi import events_to_frames
from .parameters import read_parameters

_G, _IN, _OUT = _native.kAudioUnitScope_Global, _native.kAudioUnitScope_Input, _native.kAudioUnitScope_Output
_INSTRUMENT = _native.kAudioUnitType_MusicDevice
_LATENCY = _native.kAudioUnitProperty_Latency


def load_plugin(name, isolated=False, plugin_name=None, **parameters):
    """A Plugin for `name`: an LV2 URI, a triple ("aufx dely AUHs"), a unique fragment of a
    unit's name (LookupError lists the nearest names otherwise), or as in pedalboard the path of
    an LV2 bundle or SDK plug-in with plugin_name= choosing among several. isolated=True runs it
    in a child process: a crash there raises PluginCrashed and the interpreter lives. Keyword
    arguments set parameters. Thread class: setup."""
    component = catalog.find_path(name, plugin_name) if plugin_name is not None else catalog.find(name)
    plugin = Plugin(component, isolated=isolated)
    for key, value in parameters.items():
        setattr(plugin, key, value)
    return plugin


class Plugin:
    """One unit instance. Call it like pedalboard's plug-ins: plugin(audio, sample_rate).

    Parameter reads and writes, presets and state are setup calls; process() releases the GIL
    while the unit renders, so threads with their own plug-ins run at once. One plug-in object
    processes on one thread at a time (a second thread gets RuntimeError)."""

    def __init__(self, component, isolated=False):
        # Thread class: setup.
        object.__setattr__(self, "_component", component)
        object.__setattr__(self, "_isolated", bool(isolated))
        unit = _native.Unit(component.type, component.subtype, component.manufacturer, isolated=bool(isolated))
        object.__setattr__(self, "_unit", unit)
        object.__setattr__(self, "_config", None)
        object.__setattr__(self, "_parameters", read_parameters(unit))
        # Units of boards that render this plug-in: parameter writes reach them too.
        object.__setattr__(self, "_mirrors", weakref.WeakSet())
        object.__setattr__(self, "_preset", None)
        if isolated:
            # Offline, a slow cycle is no fault: only a child stuck for 10 s counts as hung.
            unit.set_f64(_native.kAUHostIsolatedUnitProperty_RenderDeadline, 10.0)

    # -- identity ---------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The unit's name. Thread class: any."""
        return self._component.name

    @property
    def component(self):
        """The catalog entry (codes, name, origin). Thread class: any."""
        return self._component

    @property
    def is_instrument(self) -> bool:
        """Thread class: any."""
        return self._component.is_instrument

    @property
    def is_effect(self) -> bool:
        """Thread class: any."""
        return not self.is_instrument

    def __repr__(self):
        return f"<auhost.Plugin {self.name!r} ({self._component.triple}){' isolated' if self._isolated else ''}>"

    # -- parameters -------------------------------------------------------------------------

    @property
    def parameters(self):
        """{python_name: Parameter}: range, unit, default, value strings. Thread class: any."""
        return dict(self._parameters)

    def __getattr__(self, key):
        parameters = object.__getattribute__(self, "_parameters")
        if key in parameters:
            return self._unit.get_parameter(parameters[key].id)
        raise AttributeError(f"{type(self).__name__} {self.name!r} has no attribute or parameter {key!r}")

    def __setattr__(self, key, value):
        # Thread class: setup. Out-of-range values raise ValueError (the engine would clamp).
        if key in self._parameters:
            parameter = self._parameters[key]
            number = parameter.check(value)
            self._unit.set_parameter(parameter.id, number)
            for unit in self._mirrors:
                unit.set_parameter(parameter.id, number)
        elif key.startswith("_") or hasattr(type(self), key):
            object.__setattr__(self, key, value)
        else:
            names = ", ".join(self._parameters) or "none"
            raise AttributeError(f"{self.name!r} has no parameter {key!r} (its parameters: {names})")

    def __dir__(self):
        return list(super().__dir__()) + list(self._parameters)

    # -- presets and state ------------------------------------------------------------------

    @property
    def presets(self):
        """The factory presets' names, in order. Thread class: setup."""
        return [name for _, name in self._unit.presets()]

    @property
    def preset(self):
        """The factory preset last chosen here, or None. Thread class: any."""
        return self._preset

    @preset.setter
    def preset(self, name):
        # Thread class: setup.
        available = self._unit.presets()
        for number, preset_name in available:
            if preset_name == name or (isinstance(name, int) and not isinstance(name, bool) and number == name):
                self._unit.set_preset(number, preset_name)
                self._sync_mirrors()
                object.__setattr__(self, "_preset", preset_name)
                return
        shown = ", ".join(repr(n) for _, n in available) or "it has none"
        raise ValueError(f"{self.name!r} has no factory preset {name!r} ({shown})")

    @property
    def state(self) -> bytes:
        """The unit's full state (ClassInfo: parameters and, for LV2, its state extension's data)
        as bytes; assign them back (to this or another instance of the same unit) to restore.
        Thread class: setup."""
        return self._unit.get_state()

    @state.setter
    def state(self, data):
        # Thread class: setup.
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"state must be bytes (from a plug-in's .state), not {type(data).__name__}")
        self._unit.set_state(bytes(data))
        self._sync_mirrors()

    def _sync_mirrors(self):
        if self._mirrors:
            data = self._unit.get_state()
            for unit in self._mirrors:
                unit.set_state(data)

    # -- latency and tail -------------------------------------------------------------------

    @property
    def latency_seconds(self) -> float:
        """kAudioUnitProperty_Latency. Thread class: setup."""
        return self._unit.get_f64(_native.kAudioUnitProperty_Latency)

    @property
    def reported_latency_samples(self) -> int:
        """The latency in frames at the last sample rate processed (48 kHz before any).
        Thread class: setup."""
        rate = self._config[0][0] if self._config else 48000.0
        return _frames(self.latency_seconds, rate)

    @property
    def tail_seconds(self) -> float:
        """kAudioUnitProperty_TailTime: how long output rings on after input stops.
        Thread class: setup."""
        try:
            return self._unit.get_f64(_native.kAudioUnitProperty_TailTime)
        except _native.AUHostError:
            return 0.0

    # -- processing -------------------------------------------------------------------------

    def _configure(self, rate, channels, block):
        """Formats and maximum block for (rate, channels, block); returns (in, out) channels.
        Re-initializes only when they change. Thread class: setup."""
        key = (rate, channels, block)
        if self._config and self._config[0] == key:
            return self._config[1]
        unit = self._unit
        unit.uninitialize()
        unit.set_u32(_native.kAudioUnitProperty_MaximumFramesPerSlice, block)
        inputs = _element_count(unit, _IN)
        in_channels = _negotiate(unit, _IN, rate, channels) if inputs else 0
        out_channels = _negotiate(unit, _OUT, rate, in_channels or channels)
        _set_rate_of_other_elements(unit, rate)
        if inputs:
            unit.attach_feed()
        unit.set_fast(0.0, 0, 0, 0)
        unit.initialize()
        object.__setattr__(self, "_config", (key, (in_channels, out_channels)))
        if not self._isolated and not self.is_instrument:
            unit.set_fast(rate, channels, block, out_channels)
        return in_channels, out_channels

    def _check_fault(self):
        if self._isolated:
            fault = self._unit.fault()
            if fault:
                try:
                    self._unit.restart()
                except _native.AUHostError:
                    pass
                raise PluginCrashed(fault, _native.kAudioComponentErr_InstanceInvalidated)

    def process(self, audio, sample_rate, buffer_size=8192, reset=True):
        """Processes `audio` (float32/float64, (channels, frames) or (frames,)) at `sample_rate`
        and returns float32 shaped the same way ((frames,) in, (frames,) out for a mono unit).

        buffer_size frames are rendered a call. reset=True clears the unit first and compensates
        its latency (the output lines up with the input, same length); reset=False continues
        from the last call (streaming): no reset and no latency compensation, so chunks in a row
        give the samples of one call. NaN or infinite input raises ValueError and resets the
        unit. Thread class: setup (the GIL is released while rendering).
        """
        out = self._unit.fast(audio, sample_rate, buffer_size, reset)  # the plain case, all in C
        if out is not NotImplemented:
            return out
        if self._component.type == _INSTRUMENT:
            raise TypeError(f"{self.name!r} is an instrument: call it with MIDI messages and a duration")
        rate = check_rate(sample_rate)
        block = check_block(buffer_size)
        samples, mono = planar(audio, check_finite=False)  # the render refuses NaN and infinities
        with self._exclusive():
            self._configure(rate, samples.shape[0], block)
        if not self._isolated:
            out = self._unit.fast(samples if not mono else samples[0], rate, block, reset)
            if out is NotImplemented:
                raise RuntimeError("auhost: the configured fast path refused its own arguments (a bug; please report)")
            return out
        with self._exclusive():
            return self._process_isolated(samples, mono, rate, block, reset)

    def _process_isolated(self, samples, mono, rate, block, reset):
        """The path of an out-of-process unit: as fast(), then asks the child for its fault."""
        _, out_channels = self._config[1]
        unit = self._unit
        latency = 0
        if reset:
            unit.reset()
            latency = _frames(unit.get_f64(_LATENCY), rate)
        output = np.empty((out_channels, samples.shape[1] + latency), dtype=np.float32)
        unit.process(samples, output, block)
        self._check_fault()
        if latency:
            output = np.ascontiguousarray(output[:, latency:])
        return output[0] if mono and out_channels == 1 else output

    def _exclusive(self):
        """The unit's busy flag for a with-block (RuntimeError when another thread has it)."""
        try:
            self._unit.claim()
        except RuntimeError:
            raise RuntimeError(f"{self.name!r} is already processing on another thread; give each thread its own plug-in") from None
        return _Release(self._unit)

    def render_midi(self, messages, duration, sample_rate, num_channels=2, buffer_size=8192, reset=True):
        """An instrument's output for `messages` (mido messages with .time in seconds, or
        (bytes, seconds) pairs) over `duration` seconds, as float32 (channels, frames).
        Thread class: setup (the GIL is released while rendering)."""
        if not self.is_instrument:
            raise TypeError(f"{self.name!r} is not an instrument; process audio with plugin(audio, sample_rate)")
        rate = check_rate(sample_rate)
        block = check_block(buffer_size)
        if isinstance(duration, bool) or not isinstance(duration, (int, float)) or not 0 < duration <= 3600:
            raise ValueError(f"duration must be more than 0 and at most 3600 seconds, not {duration!r}")
        frames = int(round(duration * rate))
        if frames < 1:
            raise ValueError(f"duration {duration} s is less than one frame at {rate:g} Hz")
        events = events_to_frames(messages, rate)
        if isinstance(num_channels, bool) or not isinstance(num_channels, int) or not 1 <= num_channels <= 64:
            raise ValueError(f"num_channels must be 1 … 64, not {num_channels!r}")
        with self._exclusive():
            _, out_channels = self._configure(rate, num_channels, block)
            if reset:
                self._unit.reset()
            output = np.empty((out_channels, frames), dtype=np.float32)
            self._unit.process(None, output, block, events)
            self._check_fault()
            return output

    def __call__(self, audio_or_messages, *args, **kwargs):
        """plugin(audio, sample_rate, buffer_size=8192, reset=True) for effects;
        instrument(messages, duration, sample_rate, num_channels=2, buffer_size=8192, reset=True)
        for instruments — pedalboard's two signatures. Thread class: setup."""
        if self._component.type == _INSTRUMENT:
            return self.render_midi(audio_or_messages, *args, **kwargs)
        return self.process(audio_or_messages, *args, **kwargs)

    def reset(self):
        """Clears the unit's memory (delay lines, envelopes). Thread class: setup."""
        self._unit.reset()


class _Release:
    """Releases a unit claimed with claim() when the with-block ends."""

    def __init__(self, unit):
        self._unit = unit

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._unit.release()


def _frames(seconds, rate):
    if not (seconds > 0) or seconds != seconds:
        return 0
    return int(round(min(seconds, 60.0) * rate))


def _element_count(unit, scope):
    try:
        return unit.get_u32(_native.kAudioUnitProperty_ElementCount, scope)
    except _native.AUHostError:
        return 0


def _negotiate(unit, scope, rate, channels):
    """Sets `channels` at `rate` on bus 0 of `scope`, or the unit's own count when it refuses."""
    if unit.set_format(scope, 0, rate, channels) == 0:
        return channels
    _, own = unit.format(scope, 0)
    status = unit.set_format(scope, 0, rate, own)
    if status != 0:
        raise _native.AUHostError(f"the unit takes no {rate:g} Hz stream on its {'input' if scope == _IN else 'output'} (status {status})")
    return own


def _set_rate_of_other_elements(unit, rate):
    for scope in (_IN, _OUT):
        for element in range(1, _element_count(unit, scope)):
            _, own = unit.format(scope, element)
            unit.set_format(scope, element, rate, own)
