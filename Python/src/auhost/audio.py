"""Checking audio arrays at the door: shape, dtype, layout, rate and values, once, before any
unit sees them. Every refusal names the problem."""
import math

import numpy as np

#: The sample rates the engine's stream formats accept (AudioUnitProperties.h: 1 … 1 536 000 Hz).
MIN_RATE = 1.0
MAX_RATE = 1_536_000.0
#: The most channels one array may carry (the C layer's bound).
MAX_CHANNELS = 64
#: The largest block a render call takes (as `auhost render --block`).
MAX_BLOCK = 65536


_PLAIN = (int, float)


def check_rate(sample_rate) -> float:
    """The sample rate as a float; ValueError outside 1 … 1 536 000 Hz. Thread class: any."""
    if type(sample_rate) in _PLAIN and MIN_RATE <= sample_rate <= MAX_RATE:  # the common case, fast
        return float(sample_rate)
    if isinstance(sample_rate, bool) or not isinstance(sample_rate, (int, float, np.integer, np.floating)):
        raise TypeError(f"sample_rate must be a number of Hz, not {type(sample_rate).__name__}")
    rate = float(sample_rate)
    if not (math.isfinite(rate) and MIN_RATE <= rate <= MAX_RATE):
        raise ValueError(f"sample_rate {sample_rate!r} is outside the engine's range {MIN_RATE:g} … {MAX_RATE:g} Hz")
    return rate


def check_block(buffer_size) -> int:
    """buffer_size as an int in 1 … 65536. Thread class: any."""
    if type(buffer_size) is int and 1 <= buffer_size <= MAX_BLOCK:
        return buffer_size
    if isinstance(buffer_size, bool) or not isinstance(buffer_size, (int, np.integer)):
        raise TypeError(f"buffer_size must be an int, not {type(buffer_size).__name__}")
    if not 1 <= buffer_size <= MAX_BLOCK:
        raise ValueError(f"buffer_size must be 1 … {MAX_BLOCK} frames, not {buffer_size}")
    return int(buffer_size)


def planar(audio, *, check_finite=True):  # noqa: C901 (one check per refusal)
    """The array as C-contiguous float32 (channels, frames), and whether it was 1-D (mono).

    Accepts NumPy float32 or float64 arrays shaped (channels, frames) or (frames,). float64 is
    converted (a copy); a non-contiguous float32 array is copied too (never refused). Refuses:
    other dtypes (TypeError), other ranks, 0 frames, more than 64 channels, and — with
    check_finite — NaN or infinity (ValueError: units answer NaN differently, so the door stops
    it; the render calls check it in C, faster, and pass check_finite=False). Thread class: any.
    """
    if type(audio) is np.ndarray and audio.dtype.char == "f" and audio.flags.c_contiguous and not check_finite:
        if audio.ndim == 2 and audio.shape[1] and 1 <= audio.shape[0] <= MAX_CHANNELS:
            return audio, False
        if audio.ndim == 1 and audio.shape[0]:
            return audio.reshape(1, -1), True
    if not isinstance(audio, np.ndarray):
        raise TypeError(f"audio must be a NumPy array (float32 or float64), not {type(audio).__name__}")
    if audio.dtype not in (np.float32, np.float64):
        raise TypeError(f"audio must be float32 or float64, not {audio.dtype}")
    if audio.ndim == 1:
        mono = True
        audio = audio.reshape(1, -1)
    elif audio.ndim == 2:
        mono = False
    else:
        raise ValueError(f"audio must be shaped (channels, frames) or (frames,), not {audio.shape}")
    channels, frames = audio.shape
    if frames == 0:
        raise ValueError("audio has 0 frames; give at least one")
    if not 1 <= channels <= MAX_CHANNELS:
        raise ValueError(
            f"audio has {channels} channels (shape {audio.shape}); expected 1 … {MAX_CHANNELS}"
            + (" — is it (frames, channels)? pass audio.T" if frames <= MAX_CHANNELS < channels else ""))
    if audio.dtype == np.float64:
        with np.errstate(over="ignore"):  # beyond float32's range becomes inf, refused as non-finite
            out = np.ascontiguousarray(audio, dtype=np.float32)
    else:
        out = np.ascontiguousarray(audio)
    if check_finite and not np.isfinite(out).all():
        bad = int(np.count_nonzero(~np.isfinite(out)))
        raise ValueError(
            f"audio holds {bad} NaN or infinite samples (as float32); clean them (numpy.nan_to_num) before processing")
    return out, mono
