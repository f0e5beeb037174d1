"""auhost.io.AudioFile: read, write and stream audio files in chunks (Extended Audio File
Services underneath: WAV, AIFF, CAF, FLAC, Ogg Vorbis; MP3 and Opus read). Samples are float32
(channels, frames)."""
import os

import numpy as np

from . import _native
from .audio import check_rate, planar

_TYPES = {
    ".wav": _native.kAudioFileWAVEType, ".aif": _native.kAudioFileAIFFType, ".aiff": _native.kAudioFileAIFFType,
    ".caf": _native.kAudioFileCAFType, ".flac": _native.kAudioFileFLACType, ".ogg": _native.kAudioFileOggType,
}


def AudioFile(path, mode="r", samplerate=None, num_channels=1, bit_depth=None, encoding=None):
    """AudioFile(path) reads; AudioFile(path, "w", samplerate, num_channels) writes (float32 WAV /
    AIFF / CAF by default, bit_depth=16/24/32 for integers; FLAC 16 or 24 bits; Ogg Vorbis).
    Both are context managers. Thread class: setup."""
    path = os.fspath(path)
    if mode == "r":
        return ReadableAudioFile(path)
    if mode == "w":
        return WritableAudioFile(path, samplerate, num_channels, bit_depth, encoding)
    raise ValueError(f"mode must be 'r' or 'w', not {mode!r}")


class ReadableAudioFile:
    """A file opened for reading; read(n) returns up to n frames, read() the rest."""

    def __init__(self, path):
        # Thread class: setup.
        self.path = path
        self._reader = _native.FileReader(path)
        info = self._reader.info()
        self.samplerate = info["samplerate"]
        self.num_channels = info["channels"]
        self.frames = info["frames"]

    @property
    def duration(self):
        """Seconds. Thread class: any."""
        return self.frames / self.samplerate

    def read(self, num_frames=None):
        """Up to num_frames frames (all that remain when None) as float32 (channels, frames);
        fewer at the end, (channels, 0) past it. Thread class: setup (GIL released while reading)."""
        if num_frames is None:
            num_frames = max(self.frames - self.tell(), 0)
        if isinstance(num_frames, bool) or not isinstance(num_frames, (int, np.integer)) or num_frames < 0:
            raise ValueError(f"num_frames must be an int ≥ 0, not {num_frames!r}")
        out = np.empty((self.num_channels, int(num_frames)), dtype=np.float32)
        got = self._reader.read_into(out) if num_frames else 0
        return out if got == num_frames else np.ascontiguousarray(out[:, :got])

    def seek(self, frame):
        """Thread class: setup."""
        self._reader.seek(int(frame))

    def tell(self):
        """Thread class: setup."""
        return self._reader.tell()

    def chunks(self, num_frames):
        """Yields the file num_frames at a time. Thread class: setup."""
        while True:
            chunk = self.read(num_frames)
            if chunk.shape[1] == 0:
                return
            yield chunk

    def resampled_to(self, samplerate, quality="max"):
        """This file read at another rate (Audio Converter Services, libsoxr underneath), with the
        same read(n) / chunks(n) interface; reading in chunks gives the samples of one read.
        Thread class: setup."""
        rate = check_rate(samplerate)
        if rate == self.samplerate:
            return self
        return ResampledReadableAudioFile(self, rate, quality)

    def close(self):
        """Thread class: setup."""
        self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


_QUALITY = {"max": 0x7F, "high": 0x60, "medium": 0x40, "low": 0x20, "min": 0}


def _quality(name):
    if name not in _QUALITY:
        raise ValueError(f"quality must be one of {list(_QUALITY)}, not {name!r}")
    return _QUALITY[name]


def resample(audio, source_rate, target_rate, quality="max"):
    """audio (float32/float64, (channels, frames) or (frames,)) at target_rate, as float32.
    Thread class: setup (GIL released while converting)."""
    source, target = check_rate(source_rate), check_rate(target_rate)
    data, mono = planar(audio, check_finite=False)
    converter = _native.Resampler(data.shape[0], source, target, _quality(quality))
    out = np.frombuffer(converter.process(data, True), dtype=np.float32).reshape(data.shape[0], -1)
    return out[0] if mono else out


class ResampledReadableAudioFile:
    """A ReadableAudioFile read at another rate; made by resampled_to()."""

    _CHUNK = 65536

    def __init__(self, source, samplerate, quality):
        # Thread class: setup.
        self._source = source
        self.samplerate = samplerate
        self.num_channels = source.num_channels
        #: The expected length (the converter's own count may differ by a frame at the end).
        self.frames = int(round(source.frames * samplerate / source.samplerate))
        self._converter = _native.Resampler(source.num_channels, source.samplerate, samplerate, _quality(quality))
        self._pending = np.empty((self.num_channels, 0), np.float32)
        self._ended = False

    def _pull(self):
        chunk = self._source.read(self._CHUNK)
        final = chunk.shape[1] < self._CHUNK
        produced = self._converter.process(chunk, final)
        out = np.frombuffer(produced, dtype=np.float32).reshape(self.num_channels, -1)
        self._pending = np.concatenate([self._pending, out], axis=1) if self._pending.shape[1] else out
        self._ended = final

    def read(self, num_frames=None):
        """Up to num_frames frames at the new rate (all that remain when None). Thread class: setup."""
        if num_frames is not None and (isinstance(num_frames, bool) or not isinstance(num_frames, (int, np.integer)) or num_frames < 0):
            raise ValueError(f"num_frames must be an int ≥ 0, not {num_frames!r}")
        while not self._ended and (num_frames is None or self._pending.shape[1] < num_frames):
            self._pull()
        n = self._pending.shape[1] if num_frames is None else min(num_frames, self._pending.shape[1])
        out, self._pending = self._pending[:, :n], self._pending[:, n:]
        return np.ascontiguousarray(out)

    def chunks(self, num_frames):
        """Yields the file num_frames at a time. Thread class: setup."""
        while True:
            chunk = self.read(num_frames)
            if chunk.shape[1] == 0:
                return
            yield chunk

    def close(self):
        """Closes the underlying file. Thread class: setup."""
        self._source.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class WritableAudioFile:
    """A file opened for writing; write(samples) appends (channels, frames) or (frames,)."""

    def __init__(self, path, samplerate, num_channels=1, bit_depth=None, encoding=None):
        # Thread class: setup.
        rate = check_rate(samplerate)
        extension = os.path.splitext(path)[1].lower()
        if extension not in _TYPES:
            raise ValueError(f"cannot tell the file type from {path!r}; end it in {', '.join(sorted(_TYPES))}")
        if encoding is None:
            if extension == ".flac":
                encoding = f"flac{bit_depth or 24}"
            elif extension == ".ogg":
                encoding = "vorbis"
            else:
                encoding = "float32" if bit_depth in (None, "float32") else f"int{bit_depth}"
        self.path, self.samplerate, self.num_channels = path, rate, int(num_channels)
        self._writer = _native.FileWriter(path, _TYPES[extension], rate, self.num_channels, encoding)

    def write(self, samples):
        """Appends samples (float32/float64). Thread class: setup (GIL released while writing)."""
        data, _ = planar(samples, check_finite=False)
        if data.shape[0] != self.num_channels:
            raise ValueError(f"the file has {self.num_channels} channel(s); the samples have {data.shape[0]}")
        self._writer.write(data)

    def close(self):
        """Finishes the file. Thread class: setup."""
        self._writer.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
