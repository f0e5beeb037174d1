#!/usr/bin/python3
"""Writes the SineSynth check's MIDI twice: notes.mid (a Standard MIDI File for `auhost render
--midi`) and notes.txt (the same events as "FRAME STATUS DATA1 DATA2" lines for lv2-test-host).
120 BPM at 48 kHz: a beat is 24000 frames, so every event below lands on a whole frame.
Usage: make-notes.py OUT_DIR. Thread class: n/a (a test fixture writer)."""
import sys
import mido

out = sys.argv[1]
# (beat, status, data1, data2): overlapping notes, a controller, a release during another note.
events = [(0, 0x90, 60, 100), (1, 0x90, 64, 80), (2, 0x80, 60, 0), (2.5, 0x90, 67, 90),
          (3.25, 0xB0, 7, 100), (3.5, 0x90, 72, 127), (4, 0x80, 64, 0), (4, 0x80, 67, 0), (4, 0x80, 72, 0)]
midi = mido.MidiFile(ticks_per_beat=480)
track = mido.MidiTrack()
midi.tracks.append(track)
track.append(mido.MetaMessage('set_tempo', tempo=500000, time=0))
last = 0
with open(f"{out}/notes.txt", "w") as lines:
    for beat, status, d1, d2 in events:
        tick = int(beat * 480)
        if status == 0xB0:
            message = mido.Message('control_change', control=d1, value=d2, time=tick - last)
        else:
            message = mido.Message('note_on' if status == 0x90 else 'note_off', note=d1, velocity=d2, time=tick - last)
        track.append(message)
        last = tick
        lines.write(f"{int(beat * 24000)} {status} {d1} {d2}\n")
midi.save(f"{out}/notes.mid")
