"""A float32 WAV reader and writer written for the tests alone (the standard library and NumPy),
so comparisons with `auhost render` never go through the code under test."""
import struct

import numpy as np


def write_float(path, samples, rate):
    """samples: float32 (channels, frames)."""
    samples = np.asarray(samples, dtype="<f4")
    channels, frames = samples.shape
    data = samples.T.tobytes()
    fmt = struct.pack("<HHIIHH", 3, channels, int(rate), int(rate) * 4 * channels, 4 * channels, 32)
    with open(path, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", 4 + 8 + len(fmt) + 8 + len(data)) + b"WAVE")
        f.write(b"fmt " + struct.pack("<I", len(fmt)) + fmt)
        f.write(b"data" + struct.pack("<I", len(data)) + data)


def read_float(path):
    """(float32 (channels, frames), rate) of a float32 WAV (WAVE_FORMAT_IEEE_FLOAT or EXTENSIBLE)."""
    raw = open(path, "rb").read()
    assert raw[:4] == b"RIFF" and raw[8:12] == b"WAVE", path
    pos, channels, rate, data = 12, None, None, None
    while pos + 8 <= len(raw):
        tag, size = raw[pos:pos + 4], struct.unpack("<I", raw[pos + 4:pos + 8])[0]
        body = raw[pos + 8:pos + 8 + size]
        if tag == b"fmt ":
            tag_format, channels, rate, _, _, bits = struct.unpack("<HHIIHH", body[:16])
            assert bits == 32 and tag_format in (3, 0xFFFE), (tag_format, bits)
        elif tag == b"data":
            data = body
        pos += 8 + size + (size & 1)
    frames = np.frombuffer(data, dtype="<f4").reshape(-1, channels)
    return np.ascontiguousarray(frames.T), rate
