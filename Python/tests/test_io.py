"""auhost.io.AudioFile over Extended Audio File Services: write, read, stream, refusals."""
import numpy as np
import pytest

import auhost
from wavfile import read_float, write_float


def test_float_wav_round_trips_bit_for_bit(noise, tmp_path):
    path = str(tmp_path / "a.wav")
    with auhost.io.AudioFile(path, "w", 44100, 2) as f:
        f.write(noise)
    theirs, rate = read_float(path)  # the tests' own reader
    assert rate == 44100 and np.array_equal(theirs, noise)
    with auhost.io.AudioFile(path) as f:
        assert (f.samplerate, f.num_channels, f.frames) == (44100, 2, noise.shape[1])
        assert np.array_equal(f.read(), noise)


def test_reads_a_file_written_by_the_tests_own_writer(noise, tmp_path):
    write_float(tmp_path / "b.wav", noise, 48000)
    with auhost.io.AudioFile(str(tmp_path / "b.wav")) as f:
        assert np.array_equal(f.read(f.frames), noise)


@pytest.mark.parametrize("bits,scale", [(16, 32768), (24, 8_388_608)])
def test_integer_flac_reads_back_as_exact_fractions(tmp_path, bits, scale):
    rng = np.random.default_rng(bits)
    ints = rng.integers(-scale, scale, size=(2, 50_000))
    ints[:, :4] = [[-scale, scale - 1, 0, 1], [1, -1, scale - 1, -scale]]
    audio = (ints / scale).astype(np.float32)
    path = str(tmp_path / "c.flac")
    with auhost.io.AudioFile(path, "w", 48000, 2, bit_depth=bits) as f:
        f.write(audio)
    with auhost.io.AudioFile(path) as f:
        back = f.read()
    assert np.array_equal(back, audio), "k / 2^(bits-1), exactly"


def test_streaming_reads_in_chunks_equal_one_read(noise, tmp_path):
    path = str(tmp_path / "d.wav")
    with auhost.io.AudioFile(path, "w", 48000, 2) as f:
        f.write(noise[:, :5000])
        f.write(noise[:, 5000:])
    with auhost.io.AudioFile(path) as f:
        chunks = list(f.chunks(4096))
        assert [c.shape[1] for c in chunks[:-1]] == [4096] * (len(chunks) - 1)
        f.seek(0)
        whole = f.read()
    assert np.array_equal(np.concatenate(chunks, axis=1), whole)
    assert np.array_equal(whole, noise)


def test_refusals(tmp_path):
    with pytest.raises(auhost.AUHostError):
        auhost.io.AudioFile(str(tmp_path / "missing.wav"))
    with pytest.raises(ValueError, match="file type"):
        auhost.io.AudioFile(str(tmp_path / "x.mp4"), "w", 48000, 1)
    with pytest.raises(ValueError, match="outside the engine's range"):
        auhost.io.AudioFile(str(tmp_path / "x.wav"), "w", 0, 1)
    with auhost.io.AudioFile(str(tmp_path / "y.wav"), "w", 48000, 2) as f:
        with pytest.raises(ValueError, match="2 channel"):
            f.write(np.zeros((3, 10), np.float32))
    with pytest.raises(ValueError, match="mode"):
        auhost.io.AudioFile(str(tmp_path / "y.wav"), "a")


def test_resampling_in_chunks_equals_one_call_and_keeps_a_tone(tmp_path):
    t = np.arange(96_000) / 48_000
    tone = (0.5 * np.sin(2 * np.pi * 1000 * t)).astype(np.float32)
    stereo = np.stack([tone, -tone])
    whole = auhost.io.resample(stereo, 48_000, 44_100)
    assert abs(whole.shape[1] - 88_200) <= 1
    path = str(tmp_path / "tone.wav")
    with auhost.io.AudioFile(path, "w", 48_000, 2) as f:
        f.write(stereo)
    with auhost.io.AudioFile(path) as f:
        resampled = f.resampled_to(44_100)
        pieces = list(resampled.chunks(10_000))
    joined = np.concatenate(pieces, axis=1)
    assert np.array_equal(joined, whole), "chunked reading gives the samples of one call"
    # Still a 1 kHz tone at 44.1 kHz: compare with the ideal one away from the edges.
    ideal = 0.5 * np.sin(2 * np.pi * 1000 * np.arange(whole.shape[1]) / 44_100)
    middle = slice(2000, whole.shape[1] - 2000)
    assert np.max(np.abs(whole[0, middle] - ideal[middle])) < 1e-3
    with pytest.raises(ValueError, match="quality"):
        auhost.io.resample(stereo, 48_000, 44_100, quality="best")
