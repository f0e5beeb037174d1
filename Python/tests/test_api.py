"""The API in pedalboard's shape: parameters, presets, state, boards, mixes, streaming."""
import numpy as np
import pytest

import auhost
from conftest import EG_AMP


def test_parameters_are_attributes_with_range_unit_and_default():
    amp = auhost.load_plugin(EG_AMP)
    gain = amp.parameters["gain"]
    assert (gain.min, gain.max, gain.unit) == (-90.0, 24.0, "dB")
    assert amp.gain == gain.default
    amp.gain = -12
    assert amp.gain == -12.0


@pytest.mark.parametrize("value", [24.5, -91, float("nan"), float("inf")])
def test_out_of_range_parameter_raises_value_error_and_keeps_the_old_value(value):
    amp = auhost.load_plugin(EG_AMP, gain=-3.0)
    with pytest.raises(ValueError, match="Gain must be within -90 … 24 dB"):
        amp.gain = value
    assert amp.gain == -3.0


def test_unknown_parameter_names_the_real_ones():
    amp = auhost.load_plugin(EG_AMP)
    with pytest.raises(AttributeError, match="its parameters: gain"):
        amp.volume = 1


def test_value_strings_are_accepted_for_indexed_parameters():
    found = None
    for component in auhost.list_plugins("effect"):
        if component.origin == "built-in" or component.uri is None:
            continue
        plugin = auhost.Plugin(component)
        strings = [p for p in plugin.parameters.values() if p.value_strings]
        if strings:
            found = plugin, strings[0]
            break
    if found is None:
        pytest.skip("no effect in the test set has value strings")
    plugin, parameter = found
    setattr(plugin, parameter.python_name, parameter.value_strings[-1])
    assert getattr(plugin, parameter.python_name) == parameter.min + len(parameter.value_strings) - 1
    with pytest.raises(ValueError, match="is not one of"):
        setattr(plugin, parameter.python_name, "no such value")


def test_state_round_trips_into_a_new_instance(noise):
    first = auhost.load_plugin("http://drobilla.net/plugins/mda/Delay")
    for p in first.parameters.values():
        if p.writable:
            setattr(first, p.python_name, p.min + (p.max - p.min) * 0.3)
    data = first.state
    assert isinstance(data, bytes) and data
    second = auhost.load_plugin("http://drobilla.net/plugins/mda/Delay")
    second.state = data
    for name in first.parameters:
        assert getattr(second, name) == getattr(first, name)
    assert np.array_equal(first(noise, 48000), second(noise, 48000))


@pytest.mark.parametrize("junk", [b"", b"not a plist", b"bplist00" + b"\x00" * 40])
def test_bad_state_raises(junk):
    amp = auhost.load_plugin(EG_AMP)
    with pytest.raises((ValueError, auhost.AUHostError)):
        amp.state = junk


def test_factory_presets_by_name_change_the_sound(noise):
    eq = auhost.IPodEQ()
    flat = eq(noise, 48000)
    eq.preset = "Bass Booster"
    assert eq.preset == "Bass Booster"
    assert not np.array_equal(eq(noise, 48000), flat)
    with pytest.raises(ValueError, match="no factory preset"):
        eq.preset = "Bass Boosterr"


def test_mono_in_mono_out_and_float64_in_float32_out(noise):
    amp = auhost.load_plugin(EG_AMP, gain=-6.0)
    out = amp(noise[0].astype(np.float64), 48000)
    assert out.shape == noise[0].shape and out.dtype == np.float32
    assert np.array_equal(out, amp(noise[0], 48000))


def test_pedalboard_is_a_list_and_equals_plugins_in_turn(noise):
    delay, eq = auhost.Delay(delay_time=0.01), auhost.IPodEQ()
    eq.preset = "Treble Booster"
    board = auhost.Pedalboard([delay])
    board.append(eq)
    assert len(board) == 2 and board[1] is eq
    assert np.array_equal(board(noise, 48000), eq(delay(noise, 48000), 48000))
    del board[0]
    assert np.array_equal(board(noise, 48000), eq(noise, 48000))


def test_parameter_changes_reach_a_compiled_board(noise):
    amp = auhost.load_plugin(EG_AMP, gain=0.0)
    board = auhost.Pedalboard([amp])
    loud = board(noise[:1], 48000)
    amp.gain = -20.0
    quiet = board(noise[:1], 48000)
    assert np.array_equal(quiet, amp(noise[:1], 48000))
    assert np.abs(quiet).max() < np.abs(loud).max()


@pytest.mark.parametrize("threads", [1, 2])
def test_mix_sums_its_branches(noise, threads):
    a = auhost.Delay(delay_time=0.003, wet_dry_mix=100.0)
    b = auhost.IPodEQ()
    b.preset = "Bass Booster"
    mixed = auhost.Mix([a, b], threads=threads)(noise, 48000)
    expected = a(noise, 48000) + b(noise, 48000)
    assert np.array_equal(mixed, expected)


def test_mix_inside_a_pedalboard(noise):
    pre = auhost.IPodEQ()
    pre.preset = "Loudness"
    a, b = auhost.Delay(delay_time=0.002), auhost.Delay(delay_time=0.005)
    board = auhost.Pedalboard([pre, auhost.Mix([a, b])])
    shaped = pre(noise, 48000)
    assert np.array_equal(board(noise, 48000), a(shaped, 48000) + b(shaped, 48000))


@pytest.mark.parametrize("chunk", [1000, 4096, 5000])
def test_streaming_in_chunks_with_reset_false_equals_one_call(noise, chunk):
    delay = auhost.Delay(delay_time=0.02, feedback=50.0)
    whole = delay.process(noise, 48000, buffer_size=512, reset=True)
    delay.reset()
    parts = [delay.process(noise[:, i:i + chunk], 48000, buffer_size=512, reset=False) for i in range(0, noise.shape[1], chunk)]
    assert np.array_equal(np.concatenate(parts, axis=1), whole)


def test_streaming_a_file_through_a_board_equals_one_call(noise, tmp_path):
    with auhost.io.AudioFile(str(tmp_path / "in.wav"), "w", 48000, 2) as f:
        f.write(noise)
    board = auhost.Pedalboard([auhost.Delay(delay_time=0.01, feedback=30.0), auhost.IPodEQ()])
    whole = board(noise, 48000, buffer_size=256)
    board.reset()
    parts = []
    with auhost.io.AudioFile(str(tmp_path / "in.wav")) as f:
        assert f.num_channels == 2 and f.frames == noise.shape[1]
        for chunk in f.chunks(3000):
            parts.append(board(chunk, 48000, buffer_size=256, reset=False))
    assert np.array_equal(np.concatenate(parts, axis=1), whole)


def test_list_plugins_by_type():
    instruments = auhost.list_plugins("instrument")
    assert instruments and all(c.is_instrument for c in instruments)
    assert any(c.uri == EG_AMP for c in auhost.list_plugins("effect"))
    with pytest.raises(ValueError, match="unknown unit type"):
        auhost.list_plugins("effects!")


def test_find_by_triple_uri_and_fragment():
    assert auhost.find("aufx dely AUHs").name == "AUHost: Delay"
    assert auhost.find(EG_AMP).uri == EG_AMP
    assert auhost.find("simple amplifier").uri == EG_AMP


def test_load_plugin_by_bundle_path_as_pedalboard_users_write_it():
    import os
    bundle = next(p for p in os.environ["LV2_PATH"].split(":") if os.path.isdir(os.path.join(p, "mda.lv2")))
    amp = auhost.load_plugin(os.path.join(bundle, "eg-amp.lv2"))
    assert amp.component.uri == EG_AMP
    dx10 = auhost.load_plugin(os.path.join(bundle, "mda.lv2"), plugin_name="DX10")
    assert dx10.component.uri == "http://drobilla.net/plugins/mda/DX10"
    with pytest.raises(LookupError, match="choose one with plugin_name"):
        auhost.load_plugin(os.path.join(bundle, "mda.lv2"))
    sdk = auhost.load_plugin(os.path.join(os.environ["AUHOST_PLUGIN_PATH"], "libGain.so"))
    assert sdk.component.triple == "aufx gain AUSd"
