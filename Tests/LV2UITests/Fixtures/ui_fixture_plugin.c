/* The UI fixture's DSP: out = in * gain. Its extension data "#applied" tells the gain the last
   run applied, for the UI that reads the instance (instance-access and data-access). Thread
   classes as in lv2.h (run: audio). */
#include "ui_fixture_applied.h"

#include <lv2/core/lv2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const float *in;
    float *out;
    const float *gain;
    volatile float applied; /* written by run, read by the UI's thread (a torn read is impossible for a float) */
} Gain;

static LV2_Handle instantiate(const LV2_Descriptor *d, double rate, const char *path, const LV2_Feature *const *f) {
    (void)d; (void)rate; (void)path; (void)f;
    return calloc(1, sizeof(Gain));
}

static void connect_port(LV2_Handle h, uint32_t port, void *data) {
    Gain *g = h;
    if (port == 0) g->in = data;
    else if (port == 1) g->out = data;
    else if (port == 2) g->gain = data;
}

static void run(LV2_Handle h, uint32_t frames) {
    Gain *g = h;
    for (uint32_t i = 0; i < frames; i++) g->out[i] = g->in[i] * *g->gain;
    g->applied = *g->gain;
}

static void cleanup(LV2_Handle h) { free(h); }

static float applied(LV2_Handle h) { return ((Gain *)h)->applied; }

static const FixtureApplied applied_interface = {applied};

static const void *extension_data(const char *uri) {
    return strcmp(uri, FIXTURE_APPLIED_URI) ? NULL : &applied_interface;
}

static const LV2_Descriptor descriptor = {
    "urn:auhost:fixture:ui-gain", instantiate, connect_port, NULL, run, NULL, cleanup, extension_data,
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) { return index == 0 ? &descriptor : NULL; }
