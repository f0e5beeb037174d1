"""Generated arguments (arrays, rates, block sizes, parameter values, states, MIDI) never crash
the interpreter: every call either answers a well-formed float32 array or raises an exception."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import auhost
from conftest import EG_AMP

REFUSALS = (ValueError, TypeError, LookupError, RuntimeError)  # AUHostError is a RuntimeError
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

dtypes = st.sampled_from([np.float32, np.float64, np.float16, np.int16, np.int32, np.uint8, np.complex64])
shapes = st.one_of(
    hnp.array_shapes(min_dims=1, max_dims=1, min_side=0, max_side=3000),
    st.tuples(st.integers(0, 4), st.integers(0, 2000)),
    hnp.array_shapes(min_dims=3, max_dims=3, max_side=4))
arrays = st.one_of(
    hnp.arrays(dtypes, shapes),  # each dtype's own values
    hnp.arrays(np.float32, shapes),  # any float32, NaN and infinities included
)
rates = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10, 2_000_000), st.sampled_from([44100, 48000, 1]))
blocks = st.one_of(st.integers(-5, 70_000), st.sampled_from([1, 64, 512, 8192]))
floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-200, 200), st.text(max_size=5))


def well_formed(out, audio):
    assert out.dtype == np.float32
    assert out.shape[-1] == (audio.shape[-1] if audio.ndim else 0)


@pytest.fixture(scope="module")
def plugins():
    return [auhost.load_plugin(EG_AMP), auhost.Delay(), auhost.load_plugin("http://drobilla.net/plugins/mda/Delay")]


@SETTINGS
@given(audio=arrays, rate=rates, block=blocks, which=st.integers(0, 2), reset=st.booleans())
def test_process_answers_or_raises(plugins, audio, rate, block, which, reset):
    try:
        out = plugins[which].process(audio, rate, buffer_size=block, reset=reset)
    except REFUSALS:
        return
    well_formed(out, audio)


@SETTINGS
@given(values=st.lists(st.tuples(st.integers(0, 10), floats), max_size=6), audio=hnp.arrays(np.float32, (2, 300), elements=st.floats(-1, 1, width=32)))
def test_parameter_values_answer_or_raise(plugins, values, audio):
    delay = plugins[1]
    names = list(delay.parameters)
    for index, value in values:
        name = names[index % len(names)]
        before = getattr(delay, name)
        try:
            setattr(delay, name, value)
        except REFUSALS:
            assert getattr(delay, name) == before, "a refused value leaves the parameter as it was"
            continue
        p = delay.parameters[name]
        assert p.min <= getattr(delay, name) <= p.max
    well_formed(delay(audio, 48000), audio)


@SETTINGS
@given(data=st.one_of(st.binary(max_size=300), st.builds(lambda cut, junk: (cut, junk), st.integers(0, 400), st.binary(max_size=20))))
def test_states_answer_or_raise(plugins, data):
    plugin = plugins[2]
    if isinstance(data, tuple):  # a real state, cut short or with bytes appended
        cut, junk = data
        good = plugin.state
        data = good[:cut] + junk
    try:
        plugin.state = data
    except REFUSALS:
        pass
    out = plugin(np.zeros((2, 64), np.float32), 48000)
    assert out.dtype == np.float32 and out.shape == (2, 64)


midi_events = st.lists(
    st.tuples(st.binary(min_size=0, max_size=4), st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 5))),
    max_size=20)


@SETTINGS
@given(events=midi_events, duration=st.one_of(st.floats(-1, 3), st.integers(-1, 3)), rate=st.sampled_from([8000, 48000, 0, float("nan")]))
def test_midi_answers_or_raises(events, duration, rate):
    synth = auhost.load_plugin("aumu sins AUSd")
    try:
        out = synth(events, sample_rate=rate, duration=duration, buffer_size=512)
    except REFUSALS:
        return
    assert out.dtype == np.float32 and out.shape[1] == int(round(duration * rate))


@SETTINGS
@given(audio=arrays, rate=rates, block=blocks, reset=st.booleans(), shape=st.sampled_from(["chain", "mix", "nested"]))
def test_boards_answer_or_raise(audio, rate, block, reset, shape):
    delay, eq = auhost.Delay(delay_time=0.01), auhost.IPodEQ()
    board = {"chain": lambda: auhost.Pedalboard([delay, eq]), "mix": lambda: auhost.Mix([delay, eq]),
             "nested": lambda: auhost.Pedalboard([eq, auhost.Mix([delay, auhost.Pedalboard([])])])}[shape]()
    try:
        out = board.process(audio, rate, buffer_size=block, reset=reset)
    except REFUSALS:
        return
    well_formed(out, audio)
