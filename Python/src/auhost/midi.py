"""MIDI for instruments: mido messages (their .time is seconds from the start, as
mido.MidiFile.play() / pedalboard take them) or (bytes, seconds) pairs, turned into
(frame, status, data1, data2) sorted by frame. Thread class: any."""
import math


def _message_bytes(message):
    if isinstance(message, (tuple, list)) and len(message) == 2:
        data, seconds = message
        return bytes(data), seconds
    if hasattr(message, "bytes") and hasattr(message, "time"):
        return bytes(message.bytes()), message.time
    raise TypeError(f"a MIDI event is a mido message or a (bytes, seconds) pair, not {message!r}")


def events_to_frames(messages, sample_rate):
    """[(frame, status, data1, data2)] for channel messages (system messages such as SysEx are
    refused with ValueError: the door carries channel messages only). Thread class: any."""
    events = []
    for index, message in enumerate(messages):
        data, seconds = _message_bytes(message)
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"MIDI event {index}: its time must be seconds ≥ 0, not {seconds!r}")
        if not 1 <= len(data) <= 3 or not 0x80 <= data[0] < 0xF0 or any(b > 0x7F for b in data[1:]):
            raise ValueError(f"MIDI event {index}: {data.hex(' ')} is not a channel message (1–3 bytes, status 0x80–0xEF)")
        padded = list(data) + [0] * (3 - len(data))
        events.append((int(round(seconds * sample_rate)), padded[0], padded[1], padded[2]))
    events.sort(key=lambda e: e[0])
    return events
