// The LADSPA and DSSI plug-in interfaces as ladspa-sdk and dssi-dev install them
// (/usr/include/ladspa.h, /usr/include/dssi.h), for Swift. ladspa.h's port and hint tests are
// function-like macros, which Swift does not import; the flags themselves (LADSPA_PORT_*,
// LADSPA_HINT_*) are plain constants and are used directly.
#ifndef CLADSPA_H
#define CLADSPA_H

#include <ladspa.h>
#include <dssi.h>
#include <stdint.h>

/// The names libraries export their descriptor functions under. Thread: any.
static inline const char *auhost_ladspa_descriptor_symbol(void) { return "ladspa_descriptor"; }
static inline const char *auhost_dssi_descriptor_symbol(void) { return "dssi_descriptor"; }

/// Fills `event` with the ALSA sequencer form of a MIDI channel message at frame `frame` of the
/// run_synth call (DSSI's event time is the frame, in time.tick). Returns 1, or 0 for a message a
/// DSSI host does not send as an event (program change: the host selects programs itself; system
/// messages). Thread: any (render: no allocation, no locks).
int auhost_dssi_event_from_midi(snd_seq_event_t *event, uint32_t frame, uint8_t status, uint8_t data1, uint8_t data2);

#endif
