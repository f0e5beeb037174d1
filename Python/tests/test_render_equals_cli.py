"""Bars: the package's output is bit-identical to `auhost render` (same block, float32 WAV in and
out, latency compensated, no tail) for eg-amp, four more LV2 plug-ins of the test set, a chain of
built-in units and an SDK plug-in; an instrument from MIDI equals `auhost render --midi`."""
import json

import numpy as np
import pytest

import auhost
from conftest import EG_AMP
from wavfile import read_float, write_float

BLOCK = 4096


def bits(a):
    return np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)


def assert_identical(ours, theirs):
    ours = ours.reshape(1, -1) if ours.ndim == 1 else ours
    assert ours.shape == theirs.shape
    differing = int(np.count_nonzero(bits(ours) != bits(theirs)))
    assert differing == 0, f"{differing} samples differ; largest difference {np.max(np.abs(ours - theirs))}"


def render_with_cli(cli, tmp_path, audio, unit_args):
    write_float(tmp_path / "in.wav", audio, 48000)
    cli(["render", "-i", "in.wav", "-o", "out.wav", "--block", str(BLOCK), "--tail", "0", *unit_args])
    out, rate = read_float(tmp_path / "out.wav")
    assert rate == 48000
    return out


LV2_CASES = [
    (EG_AMP, {"gain": -6.0}, 1),
    ("http://drobilla.net/plugins/mda/Delay", {}, 2),
    ("http://plugin.org.uk/swh-plugins/sc4", {}, 2),
    ("http://plugin.org.uk/swh-plugins/fastLookaheadLimiter", {}, 2),  # 240 frames of latency, compensated
    ("http://plugin.org.uk/swh-plugins/plate", {}, 1),  # mono in, stereo out
]


@pytest.mark.parametrize("uri,settings,channels", LV2_CASES, ids=[c[0].rsplit("/", 1)[1] for c in LV2_CASES])
def test_lv2_plugin_matches_auhost_render(uri, settings, channels, noise, cli, tmp_path):
    plugin = auhost.load_plugin(uri)
    args = []
    for name, value in settings.items():
        setattr(plugin, name, value)
        args += ["-p", f"{plugin.parameters[name].id}={value}"]
    audio = noise[:channels]
    ours = plugin.process(audio, 48000, buffer_size=BLOCK)
    theirs = render_with_cli(cli, tmp_path, audio, args + [uri])
    assert np.abs(theirs).max() > 0, "the reference is not silence"
    assert_identical(ours, theirs)


def test_latency_is_compensated_from_the_first_call(cli, tmp_path):
    """The limiter delays by its lookahead (the engine reads the latency port at initialization,
    not after the first render): both the package and the CLI put the peak back in place."""
    impulse = np.zeros((2, 4800), np.float32)
    impulse[:, 100] = 0.5
    limiter = auhost.load_plugin("http://plugin.org.uk/swh-plugins/fastLookaheadLimiter")
    out = limiter.process(impulse, 48000)
    assert limiter.latency_seconds > 0
    assert limiter.reported_latency_samples == round(limiter.latency_seconds * 48000)
    assert out.shape == impulse.shape
    assert int(np.argmax(np.abs(out[0]))) == 100, "the peak stays where the input had it"
    theirs = render_with_cli(cli, tmp_path, impulse, ["http://plugin.org.uk/swh-plugins/fastLookaheadLimiter"])
    assert int(np.argmax(np.abs(theirs[0]))) == 100
    assert_identical(out, theirs)


def test_sdk_plugin_matches_auhost_render(noise, cli, tmp_path):
    gain = auhost.load_plugin("aufx gain AUSd")
    assert gain.component.origin.endswith("libGain.so")
    first = next(iter(gain.parameters.values()))
    value = first.min + (first.max - first.min) * 0.25
    setattr(gain, first.python_name, value)
    ours = gain.process(noise, 48000, buffer_size=BLOCK)
    theirs = render_with_cli(cli, tmp_path, noise, ["-p", f"{first.id}={value!r}", "aufx gain AUSd"])
    assert_identical(ours, theirs)


def test_builtin_chain_matches_auhost_render_graph(noise, cli, tmp_path):
    delay = auhost.Delay()
    delay.delay_time = 0.0625
    delay.wet_dry_mix = 40.0
    eq = auhost.IPodEQ()
    assert eq.presets, "the iPod EQ has factory presets"
    eq.preset = eq.presets[3]
    board = auhost.Pedalboard([delay, eq])
    ours = board.process(noise, 48000, buffer_size=BLOCK)
    graph = {
        "channels": 2,
        "nodes": [
            {"name": "delay", "unit": "aufx dely AUHs",
             "parameters": {str(delay.parameters["delay_time"].id): 0.0625, str(delay.parameters["wet_dry_mix"].id): 40.0}},
            {"name": "eq", "unit": "aufx ipeq AUHs", "preset": eq.presets[3]},
        ],
        "connections": [{"from": "delay", "to": "eq"}, {"from": "eq", "to": "output"}],
        "output": {"file": "unused.wav"},
    }
    (tmp_path / "chain.json").write_text(json.dumps(graph))
    theirs = render_with_cli(cli, tmp_path, noise, ["--graph", "chain.json"])
    assert_identical(ours, theirs)


def _write_midi(path):
    mido = pytest.importorskip("mido")
    song = mido.MidiFile(ticks_per_beat=480)
    track = mido.MidiTrack()
    song.tracks.append(track)
    track.append(mido.MetaMessage("set_tempo", tempo=500_000, time=0))
    # Whole ticks at 120 BPM are 1/960 s: 50 frames at 48 kHz, so every event falls on a frame.
    notes = [(60, 0, 240), (64, 120, 480), (67, 480, 960), (72, 1000, 1300)]
    timeline = sorted([(on, "note_on", n, 100) for n, on, _ in notes] + [(off, "note_off", n, 0) for n, _, off in notes])
    now = 0
    for tick, kind, note, velocity in timeline:
        track.append(mido.Message(kind, note=note, velocity=velocity, time=tick - now))
        now = tick
    track.append(mido.MetaMessage("end_of_track", time=0))
    song.save(path)
    return song


@pytest.mark.parametrize("instrument", ["aumu sins AUSd", "http://drobilla.net/plugins/mda/DX10"])
def test_instrument_from_midi_matches_auhost_render_midi(instrument, cli, tmp_path):
    song = _write_midi(tmp_path / "song.mid")
    cli(["render", "--midi", "song.mid", "--rate", "48000", "--block", str(BLOCK), "--tail", "1", "-o", "out.wav", instrument])
    theirs, _ = read_float(tmp_path / "out.wav")
    assert np.abs(theirs).max() > 0
    messages, now = [], 0.0
    for message in song:  # mido yields delta seconds; the door takes seconds from the start
        now += message.time
        if not message.is_meta:
            messages.append(message.copy(time=now))
    synth = auhost.load_plugin(instrument)
    ours = synth(messages, sample_rate=48000, duration=theirs.shape[1] / 48000, buffer_size=BLOCK)
    assert_identical(ours, theirs)
