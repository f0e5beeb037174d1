/*
 * CoreMIDI.h — Core MIDI, the header ported code includes (C: #include <CoreMIDI/CoreMIDI.h>;
 * Swift: import CoreMIDI). Everything is in MIDIServices.h; docs/PORTING.md lists the differences.
 */
#ifndef AUHOST_COREMIDI_H
#define AUHOST_COREMIDI_H

#include <CoreMIDI/MIDIServices.h>

#endif
