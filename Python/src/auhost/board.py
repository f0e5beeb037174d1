"""Pedalboard (a chain) and Mix (parallel branches summed), rendered as one AUGraph with a
generic-output head: each plug-in becomes a node holding a copy of its state, and parameter
writes on the plug-in reach the node. Independent branches render on the graph's worker threads
(AUGraphSetRenderThreadCount), bit-identical to the serial order."""
import threading
from collections.abc import MutableSequence

import numpy as np

from . import _native
from .audio import check_block, check_rate, planar
from .errors import PluginCrashed
from .plugin import Plugin, _negotiate, _set_rate_of_other_elements, _element_count, _frames

_IN, _OUT = _native.kAudioUnitScope_Input, _native.kAudioUnitScope_Output
_MIXER = (_native.kAudioUnitType_Mixer, _native.kAudioUnitSubType_MultiChannelMixer, _native.kAudioUnitManufacturer_Apple)


class _Units(list):
    """The graph's plug-in units, and which of them are isolated (plugin, unit)."""

    def __init__(self):
        super().__init__()
        self.isolated = []


class _Built:
    """A compiled graph for one (structure, rate, channels, block)."""

    def __init__(self, graph, key, out_channels, units):
        self.graph, self.key, self.out_channels, self.units = graph, key, out_channels, units


class _Group(MutableSequence):
    """What Pedalboard and Mix share: a list of plug-ins and groups that renders as a graph."""

    def __init__(self, plugins=(), threads=None):
        # Thread class: setup.
        self._items = []
        self._threads = threads
        self._built = None
        self._busy = threading.Lock()
        for p in plugins:
            self.append(p)

    # list behaviour; every change recompiles the graph at the next process()
    def __getitem__(self, i):
        return self._items[i]

    def __setitem__(self, i, value):
        if isinstance(i, slice):
            value = [_check_item(v) for v in value]
        else:
            value = _check_item(value)
        self._items[i] = value
        self._built = None

    def __delitem__(self, i):
        del self._items[i]
        self._built = None

    def __len__(self):
        return len(self._items)

    def insert(self, i, value):
        # Thread class: setup (the list methods all are; the graph is recompiled at the next call).
        self._items.insert(i, _check_item(value))
        self._built = None

    def __repr__(self):
        return f"{type(self).__name__}({self._items!r})"

    def _structure(self):
        return (type(self), tuple(item._structure() if isinstance(item, _Group) else id(item) for item in self._items))

    def _compile(self, rate, channels, block):
        key = (self._structure(), rate, channels, block)
        if self._built is not None and self._built.key == key:
            return self._built
        graph = _native.Graph()
        if self._threads is not None:
            graph.set_threads(self._threads)
        graph.set_latency_compensation(True)
        units = _Units()
        last, out_channels = self._add(graph, None, rate, channels, block, units)
        head = graph.unit(graph.head())
        head.set_u32(_native.kAudioUnitProperty_MaximumFramesPerSlice, block)
        _require(head.set_format(_IN, 0, rate, out_channels), "the output", out_channels)
        _require(head.set_format(_OUT, 0, rate, out_channels), "the output", out_channels)
        if last is None:
            graph.feed(graph.head(), 0)
        else:
            graph.connect(last, 0, graph.head(), 0)
        graph.initialize()
        self._built = _Built(graph, key, out_channels, units)
        return self._built

    def _check_faults(self, built):
        """PluginCrashed for the first isolated node that crashed, hung or wrote NaN (restarted
        for the next call). Thread class: setup."""
        for plugin, unit in built.units.isolated:
            fault = unit.fault()
            if fault:
                try:
                    unit.restart()
                except _native.AUHostError:
                    pass
                raise PluginCrashed(fault, _native.kAudioComponentErr_InstanceInvalidated)

    def process(self, audio, sample_rate, buffer_size=8192, reset=True):
        """As Plugin.process, through the whole board. Thread class: setup (the GIL is released
        while the graph renders); one board processes on one thread at a time."""
        rate = check_rate(sample_rate)
        block = check_block(buffer_size)
        samples, mono = planar(audio, check_finite=False)  # the C render refuses NaN and infinities
        if not self._busy.acquire(blocking=False):
            raise RuntimeError("this board is already processing on another thread; give each thread its own")
        try:
            return self._process(samples, mono, rate, block, reset)
        finally:
            self._busy.release()

    def _process(self, samples, mono, rate, block, reset):
        built = self._compile(rate, samples.shape[0], block)
        latency = 0
        if reset:
            for unit in built.units:
                unit.reset()
            built.graph.rewind()
            latency = _frames(built.graph.latency(), rate)
        output = np.empty((built.out_channels, samples.shape[1] + latency), dtype=np.float32)
        try:
            built.graph.process(samples, output, block)
        except ValueError:  # NaN or infinity: the nodes may have rendered the blocks before it
            self.reset()
            raise
        self._check_faults(built)
        if latency:
            output = np.ascontiguousarray(output[:, latency:])
        return output[0] if mono and built.out_channels == 1 else output

    def __call__(self, audio, sample_rate, *args, **kwargs):
        """board(audio, sample_rate): process(). Thread class: setup."""
        return self.process(audio, sample_rate, *args, **kwargs)

    def reset(self):
        """Clears every node's memory. Thread class: setup."""
        if self._built:
            for unit in self._built.units:
                unit.reset()
            self._built.graph.rewind()


class Pedalboard(_Group):
    """Plug-ins in series: Pedalboard([load_plugin("delay"), load_plugin("eg-amp")])."""

    def _add(self, graph, source, rate, channels, block, units):
        for item in self._items:
            source, channels = _add_item(item, graph, source, rate, channels, block, units)
        return source, channels


class Mix(_Group):
    """Branches fed the same input, summed (a multichannel mixer at unity gain). Branches must
    give the same channel count. Their latencies are aligned (AUGraphSetLatencyCompensation)."""

    def _add(self, graph, source, rate, channels, block, units):
        if not self._items:
            raise ValueError("a Mix needs at least one branch")
        ends = [_add_item(item, graph, source, rate, channels, block, units) for item in self._items]
        counts = {c for _, c in ends}
        if len(counts) != 1:
            raise ValueError(f"the branches of a Mix give different channel counts {sorted(counts)}; make them agree")
        out_channels = counts.pop()
        mixer = graph.add_node(*_MIXER)
        unit = graph.unit(mixer)
        units.append(unit)
        unit.set_u32(_native.kAudioUnitProperty_MaximumFramesPerSlice, block)
        unit.set_u32(_native.kAudioUnitProperty_ElementCount, len(ends), _IN)
        for bus, (end, _) in enumerate(ends):
            _require(unit.set_format(_IN, bus, rate, out_channels), "the Mix", out_channels)
            if end is None:
                graph.feed(mixer, bus)
            else:
                graph.connect(end, 0, mixer, bus)
        _require(unit.set_format(_OUT, 0, rate, out_channels), "the Mix", out_channels)
        return mixer, out_channels


def _check_item(item):
    if isinstance(item, (Plugin, _Group)):
        if isinstance(item, Plugin) and item.is_instrument:
            raise TypeError(f"{item.name!r} is an instrument; boards hold effects")
        return item
    raise TypeError(f"a board holds Plugins, Pedalboards and Mixes, not {type(item).__name__}")


def _require(status, what, channels):
    if status != 0:
        raise ValueError(f"{what} does not take {channels} channel(s) (status {status})")


def _add_item(item, graph, source, rate, channels, block, units):
    isolated = units.isolated
    if isinstance(item, _Group):
        return item._add(graph, source, rate, channels, block, units)
    c = item.component
    node = graph.add_node(c.type, c.subtype, c.manufacturer, item._isolated)
    unit = graph.unit(node)
    if item._isolated:
        # Offline, a slow cycle is no fault: only a child stuck for 10 s counts as hung.
        unit.set_f64(_native.kAUHostIsolatedUnitProperty_RenderDeadline, 10.0)
    unit.set_state(item.state)
    unit.set_u32(_native.kAudioUnitProperty_MaximumFramesPerSlice, block)
    if _element_count(unit, _IN) == 0:
        raise ValueError(f"{item.name!r} has no input; boards hold effects")
    in_channels = _negotiate(unit, _IN, rate, channels)
    if source is not None and in_channels != channels:
        raise ValueError(f"{item.name!r} takes {in_channels} channel(s) but the unit before it gives {channels}")
    out_channels = _negotiate(unit, _OUT, rate, in_channels)
    _set_rate_of_other_elements(unit, rate)
    if source is None:
        graph.feed(node, 0)
    else:
        graph.connect(source, 0, node, 0)
    item._mirrors.add(unit)
    units.append(unit)
    if item._isolated:
        isolated.append((item, unit))
    return node, out_channels


def _plugins(group):
    for item in group._items:
        if isinstance(item, _Group):
            yield from _plugins(item)
        else:
            yield item
