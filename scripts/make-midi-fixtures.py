#!/usr/bin/python3
"""Writes the MIDI fixtures of Tests/MusicPlayerServicesTests/Fixtures with python3-mido (an
independent implementation), and beside each file the times mido itself computes for its notes.

  /usr/bin/python3 scripts/make-midi-fixtures.py

tempo-changes.mid: type 1, 480 ticks per beat, a conductor track with four tempo changes and a
time signature, two note tracks (channels 0 and 1) whose notes never overlap in time, a
control change and a program change. tempo-changes.json: for every note (in time order) the
seconds of its note-on and note-off as mido's MidiFile iteration gives them (it converts each
delta with the tempo in force and sums), with channel and note.
"""
import json
import os

import mido

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "MusicPlayerServicesTests", "Fixtures")
os.makedirs(here, exist_ok=True)


def absolute_to_delta(events):
    """(tick, message) in time order -> messages with delta times."""
    out, now = [], 0
    for tick, message in sorted(events, key=lambda e: e[0]):
        out.append(message.copy(time=tick - now))
        now = tick
    return out


mid = mido.MidiFile(type=1, ticks_per_beat=480)
conductor = [
    (0, mido.MetaMessage("time_signature", numerator=4, denominator=4)),
    (0, mido.MetaMessage("set_tempo", tempo=500000)),  # 120 BPM
    (1920, mido.MetaMessage("set_tempo", tempo=428571)),  # ~140 BPM from beat 4
    (4080, mido.MetaMessage("set_tempo", tempo=666667)),  # ~90 BPM from beat 8.5
    (5771, mido.MetaMessage("set_tempo", tempo=301234)),  # ~199 BPM from an odd tick
    (7000, mido.MetaMessage("set_tempo", tempo=1000001)),  # ~60 BPM
]
mid.tracks.append(mido.MidiTrack(absolute_to_delta(conductor) + [mido.MetaMessage("end_of_track", time=0)]))

# Onsets at irregular ticks; each note lasts 100 ticks and the next starts at least 140 ticks later.
# Some sit just after a tempo change (1921, 4081, 5772, 7001).
onsets = [7, 250, 601, 999, 1300, 1640, 1921, 2300, 2711, 3100, 3555, 3939, 4081, 4500, 4999, 5400,
          5629, 5772, 6100, 6555, 6859, 7001, 7400, 7777, 8200]
tracks = {0: [], 1: []}
for i, tick in enumerate(onsets):
    channel = i % 2
    note = 48 + (i * 5) % 36
    velocity = 40 + (i * 13) % 87
    tracks[channel].append((tick, mido.Message("note_on", channel=channel, note=note, velocity=velocity)))
    # Channel 1 ends its notes with note-on velocity 0, as many files do.
    off = (mido.Message("note_off", channel=channel, note=note, velocity=64) if channel == 0
           else mido.Message("note_on", channel=channel, note=note, velocity=0))
    tracks[channel].append((tick + 100, off))
tracks[0].append((0, mido.Message("program_change", channel=0, program=5)))
tracks[1].append((3000, mido.Message("control_change", channel=1, control=7, value=100)))
for channel in (0, 1):
    mid.tracks.append(mido.MidiTrack(absolute_to_delta(tracks[channel]) + [mido.MetaMessage("end_of_track", time=0)]))
path = os.path.join(here, "tempo-changes.mid")
mid.save(path)

# mido's own timing: iterate the file (merged tracks, deltas in seconds) and sum.
notes, now, sounding = [], 0.0, {}
for message in mido.MidiFile(path):
    now += message.time
    if message.type == "note_on" and message.velocity > 0:
        sounding[(message.channel, message.note)] = len(notes)
        notes.append({"channel": message.channel, "note": message.note, "velocity": message.velocity, "on": now})
    elif message.type in ("note_off", "note_on"):
        notes[sounding.pop((message.channel, message.note))]["off"] = now
with open(os.path.join(here, "tempo-changes.json"), "w") as f:
    json.dump({"notes": notes}, f, indent=1)
print(path, len(notes), "notes")

# Seeds for the MIDIFile fuzz harness (Tests/Fuzz/Corpus/MIDIFile): small files written byte by
# byte to reach what mido's writer does not produce (running status, SMPTE division, F7 escapes).
seeds = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fuzz", "Corpus", "MIDIFile")
os.makedirs(seeds, exist_ok=True)


def smf(fmt, division, tracks):
    out = b"MThd" + (6).to_bytes(4, "big") + fmt.to_bytes(2, "big") + len(tracks).to_bytes(2, "big") + division
    for body in tracks:
        out += b"MTrk" + len(body).to_bytes(4, "big") + body
    return out


eot = bytes([0x00, 0xFF, 0x2F, 0x00])
# Type 0, 96 ticks per beat: running status note-ons (velocity 0 as note-off), a pitch bend, a
# program change, a system-exclusive message, an F7 escape, a text meta event, two channels.
type0 = bytes([0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20, 0x00, 0xF0, 0x05, 0x7E, 0x7F, 0x09, 0x01, 0xF7,
               0x00, 0xC3, 0x10, 0x00, 0x93, 0x3C, 0x64, 0x30, 0x40, 0x50, 0x30, 0x3C, 0x00, 0x00, 0x40, 0x00,
               0x10, 0xE3, 0x00, 0x40, 0x00, 0x90, 0x24, 0x7F, 0x60, 0x80, 0x24, 0x40,
               0x00, 0xF7, 0x02, 0xF3, 0x01, 0x00, 0xFF, 0x01, 0x04]) + b"text" + eot
with open(os.path.join(seeds, "type0-running-status.mid"), "wb") as f:
    f.write(smf(0, (96).to_bytes(2, "big"), [type0]))
# SMPTE division: 25 frames per second, 40 ticks per frame (milliseconds).
smpte = bytes([0x00, 0x90, 0x40, 0x50, 0x83, 0x60, 0x80, 0x40, 0x00]) + eot
with open(os.path.join(seeds, "smpte-25fps.mid"), "wb") as f:
    f.write(smf(1, bytes([0xE7, 40]), [eot, smpte]))
# Format 2 (independent patterns), one overlapping pair of the same note, an unmatched note-off.
pattern = bytes([0x00, 0x91, 0x45, 0x40, 0x10, 0x91, 0x45, 0x41, 0x10, 0x81, 0x45, 0x00, 0x10, 0x81, 0x45, 0x00,
                 0x10, 0x81, 0x47, 0x00]) + eot
with open(os.path.join(seeds, "format2-overlaps.mid"), "wb") as f:
    f.write(smf(2, (480).to_bytes(2, "big"), [pattern, pattern]))
