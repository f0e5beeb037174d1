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

    def resampled_to(self, samplerate, quality=None):
        """The whole file at another rate, through the engine's AudioConverter. Not yet: raises
        NotImplementedError (see docs/PYTHON.md). Thread class: setup."""
        raise NotImplementedError("resampling is not in the Python door yet; read at the file's rate")

    def close(self):
        """Thread class: setup."""
        self._reader.close()

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
