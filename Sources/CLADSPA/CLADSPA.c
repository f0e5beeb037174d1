// The MIDI → ALSA sequencer event conversion for DSSI's run_synth (see include/CLADSPA.h); in C
// because snd_seq_event_t is a union Swift reaches only clumsily.
#include "CLADSPA.h"
#include <string.h>

int auhost_dssi_event_from_midi(snd_seq_event_t *event, uint32_t frame, uint8_t status, uint8_t data1, uint8_t data2) {
    memset(event, 0, sizeof *event);
    event->time.tick = frame;
    unsigned char channel = status & 0x0F;
    switch (status & 0xF0) {
    case 0x90:
        event->type = data2 == 0 ? SND_SEQ_EVENT_NOTEOFF : SND_SEQ_EVENT_NOTEON;
        event->data.note.channel = channel;
        event->data.note.note = data1;
        event->data.note.velocity = data2;
        return 1;
    case 0x80:
        event->type = SND_SEQ_EVENT_NOTEOFF;
        event->data.note.channel = channel;
        event->data.note.note = data1;
        event->data.note.velocity = data2;
        return 1;
    case 0xA0:
        event->type = SND_SEQ_EVENT_KEYPRESS;
        event->data.note.channel = channel;
        event->data.note.note = data1;
        event->data.note.velocity = data2;
        return 1;
    case 0xB0:
        event->type = SND_SEQ_EVENT_CONTROLLER;
        event->data.control.channel = channel;
        event->data.control.param = data1;
        event->data.control.value = data2;
        return 1;
    case 0xD0:
        event->type = SND_SEQ_EVENT_CHANPRESS;
        event->data.control.channel = channel;
        event->data.control.value = data1;
        return 1;
    case 0xE0:
        event->type = SND_SEQ_EVENT_PITCHBEND;
        event->data.control.channel = channel;
        event->data.control.value = ((int)data2 << 7 | data1) - 8192;
        return 1;
    default:
        return 0;
    }
}
