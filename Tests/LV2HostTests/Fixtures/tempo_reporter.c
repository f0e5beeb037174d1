/* tempo-reporter: writes the tempo of the last time:Position it was sent (beats per minute) as
   every sample of its output, reading its events at the start of each run as DPF and JUCE read
   time:Position (frame offsets ignored): where its output changes is the first frame of the run
   that received the change, so a test sees where the host split its run. 0 before any position. */
#include <lv2/atom/atom.h>
#include <lv2/atom/util.h>
#include <lv2/core/lv2.h>
#include <lv2/time/time.h>
#include <lv2/urid/urid.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const LV2_Atom_Sequence *control;
    float *out;
    float bpm;
    LV2_URID object, blank, position, beats_per_minute, float_type;
} TempoReporter;

static LV2_Handle instantiate(const LV2_Descriptor *d, double rate, const char *bundle, const LV2_Feature *const *features) {
    (void)d; (void)rate; (void)bundle;
    const LV2_URID_Map *map = NULL;
    for (int i = 0; features && features[i]; i++)
        if (!strcmp(features[i]->URI, LV2_URID__map)) map = features[i]->data;
    if (!map) return NULL;
    TempoReporter *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    self->object = map->map(map->handle, LV2_ATOM__Object);
    self->blank = map->map(map->handle, LV2_ATOM__Blank);
    self->position = map->map(map->handle, LV2_TIME__Position);
    self->beats_per_minute = map->map(map->handle, LV2_TIME__beatsPerMinute);
    self->float_type = map->map(map->handle, LV2_ATOM__Float);
    return self;
}

static void connect_port(LV2_Handle h, uint32_t port, void *data) {
    TempoReporter *self = h;
    if (port == 0) self->control = data;
    else if (port == 1) self->out = data;
}

static void run(LV2_Handle h, uint32_t frames) {
    TempoReporter *self = h;
    LV2_ATOM_SEQUENCE_FOREACH(self->control, event) {
        const LV2_Atom_Object *object = (const LV2_Atom_Object *)&event->body;
        if ((object->atom.type != self->object && object->atom.type != self->blank) || object->body.otype != self->position) continue;
        const LV2_Atom *bpm = NULL;
        lv2_atom_object_get(object, self->beats_per_minute, &bpm, 0);
        if (bpm && bpm->type == self->float_type) self->bpm = ((const LV2_Atom_Float *)bpm)->body;
    }
    for (uint32_t i = 0; i < frames; i++) self->out[i] = self->bpm;
}

static void cleanup(LV2_Handle h) { free(h); }

static const LV2_Descriptor descriptor = {
    "urn:auhost:fixture:tempo-reporter", instantiate, connect_port, NULL, run, NULL, cleanup, NULL,
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) { return index == 0 ? &descriptor : NULL; }
