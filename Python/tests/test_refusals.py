"""Bad input raises an exception that names the problem; nothing reaches a unit unchecked."""
import numpy as np
import pytest

import auhost
from conftest import EG_AMP


@pytest.fixture(scope="module")
def amp():
    return auhost.load_plugin(EG_AMP)


@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.float16, np.complex64, object])
def test_wrong_dtype(amp, dtype):
    with pytest.raises(TypeError, match="float32 or float64"):
        amp(np.zeros((1, 16), dtype=dtype), 48000)


def test_not_an_array(amp):
    with pytest.raises(TypeError, match="NumPy array"):
        amp([0.0] * 16, 48000)


@pytest.mark.parametrize("shape", [(), (1, 2, 16)])
def test_wrong_rank(amp, shape):
    with pytest.raises(ValueError, match=r"shaped \(channels, frames\)"):
        amp(np.zeros(shape, np.float32), 48000)


def test_transposed_audio_is_named(amp):
    with pytest.raises(ValueError, match="pass audio.T"):
        amp(np.zeros((4800, 2), np.float32), 48000)


def test_zero_frames(amp):
    with pytest.raises(ValueError, match="0 frames"):
        amp(np.zeros((1, 0), np.float32), 48000)


@pytest.mark.parametrize("rate", [0, -1, 0.5, 1_536_001, float("nan"), float("inf")])
def test_sample_rate_outside_the_engine_range(amp, rate):
    with pytest.raises(ValueError, match="outside the engine's range"):
        amp(np.zeros((1, 16), np.float32), rate)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_input_is_refused(amp, bad):
    audio = np.zeros((1, 64), np.float32)
    audio[0, 10] = bad
    with pytest.raises(ValueError, match="1 NaN or infinite samples"):
        amp(audio, 48000)


def test_non_contiguous_input_is_copied_not_refused(amp, noise):
    amp.gain = -6.0
    strided = noise[:, ::2]
    assert not strided.flags.c_contiguous
    assert np.array_equal(amp(strided, 48000), amp(np.ascontiguousarray(strided), 48000))


def test_input_array_is_never_written(amp, noise):
    before = noise.copy()
    amp(noise, 48000)
    assert np.array_equal(noise, before)


@pytest.mark.parametrize("size", [0, -5, 65537, 1.5])
def test_bad_buffer_size(amp, size):
    with pytest.raises((ValueError, TypeError), match="buffer_size"):
        amp(np.zeros((1, 16), np.float32), 48000, buffer_size=size)


def test_unknown_unit_suggests_the_nearest_names():
    with pytest.raises(LookupError, match="Nearest names") as caught:
        auhost.load_plugin("Simple Amplifer")
    assert "lv2plug.in: Simple Amplifier" in str(caught.value)


def test_unknown_uri_and_triple():
    with pytest.raises(LookupError):
        auhost.load_plugin("http://example.org/no-such-plugin")
    with pytest.raises(LookupError, match="no unit is aufx zzzz"):
        auhost.load_plugin("aufx zzzz AUHs")


def test_effect_called_like_an_instrument_and_back():
    with pytest.raises(TypeError, match="not an instrument"):
        auhost.load_plugin(EG_AMP).render_midi([], 1.0, 48000)
    with pytest.raises(TypeError, match="is an instrument"):
        auhost.load_plugin("aumu sins AUSd").process(np.zeros((1, 16), np.float32), 48000)


@pytest.mark.parametrize("events", [[(b"\xf0\x01\xf7", 0.0)], [(b"\x90\x3c\x80", 0.0)], [(b"\x90\x3c\x40", -1.0)], [("x", 0)]])
def test_bad_midi_is_refused(events):
    synth = auhost.load_plugin("aumu sins AUSd")
    with pytest.raises((ValueError, TypeError)):
        synth(events, sample_rate=48000, duration=0.1)


def test_one_plugin_on_two_threads_at_once_is_refused():
    import threading
    amp = auhost.load_plugin(EG_AMP)
    long = np.zeros((1, 48000 * 60), np.float32)
    errors = []

    def render():
        while not errors:
            try:
                amp(long, 48000, buffer_size=16)
                return
            except RuntimeError as e:  # the main thread got there first: try again
                if "another thread" not in str(e):
                    raise

    worker = threading.Thread(target=render)
    worker.start()
    while worker.is_alive() and not errors:
        try:
            amp(np.zeros((1, 16), np.float32), 48000, buffer_size=16)
        except RuntimeError as e:
            errors.append(str(e))
    worker.join()
    assert errors and "another thread" in errors[0]


def _short_delay():
    delay = auhost.load_plugin("delay")
    delay.delay_time, delay.feedback = 0.01, 50.0
    return delay


@pytest.mark.parametrize("board", [False, True], ids=["plugin", "board"])
def test_non_finite_anywhere_is_refused_and_counted(noise, board):
    """Blocks are checked as they are fed (the unit's) or before they are pulled (the board's):
    a bad sample in the first, a middle or the last, partial block is found, and all are counted."""
    unit = auhost.Pedalboard([_short_delay()]) if board else _short_delay()
    for places in ([(0, 0)], [(1, 700)], [(0, 14_399), (1, 14_398), (0, 5)]):
        audio = noise.copy()
        for channel, frame in places:
            audio[channel, frame] = np.nan
        with pytest.raises(ValueError, match=f"{len(places)} NaN or infinite samples"):
            unit.process(audio, 48000, buffer_size=512)


@pytest.mark.parametrize("board", [False, True], ids=["plugin", "board"])
def test_a_refused_call_leaves_a_stream_as_after_reset(noise, board):
    """The unit may have rendered the blocks before the bad one: it is reset, so the next chunk of
    a stream (reset=False) comes out as from a fresh unit, not from half a refused chunk."""
    make = (lambda: auhost.Pedalboard([_short_delay()])) if board else _short_delay
    streamed, fresh = make(), make()
    first, bad, following = noise[:, :4800], noise[:, 4800:9600].copy(), noise[:, 9600:]
    bad[:, -1] = np.inf
    streamed.process(first, 48000, buffer_size=512, reset=False)
    with pytest.raises(ValueError, match="2 NaN or infinite samples"):
        streamed.process(bad, 48000, buffer_size=512, reset=False)
    after = streamed.process(np.ascontiguousarray(following), 48000, buffer_size=512, reset=False)
    assert np.array_equal(after, fresh.process(np.ascontiguousarray(following), 48000, buffer_size=512))
