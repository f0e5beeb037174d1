/* The UI fixture's DSP: out = in * gain. Thread classes as in lv2.h (run: audio). */
#include <lv2/core/lv2.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    const float *in;
    float *out;
    const float *gain;
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
}

static void cleanup(LV2_Handle h) { free(h); }

static const LV2_Descriptor descriptor = {
    "urn:auhost:fixture:ui-gain", instantiate, connect_port, NULL, run, NULL, cleanup, NULL,
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) { return index == 0 ? &descriptor : NULL; }
