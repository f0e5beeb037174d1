/* Fault fixtures for UnitIsolationTests: mono LV2 effects that copy their input for their first
   four run() calls and then fail in one way a host must survive out of process. Built by the tests
   (cc) into auhost-faults.lv2/faults.so. */
#include <lv2/core/lv2.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>

#define GOOD_RUNS 4

typedef struct { float *in; float *out; unsigned runs; } Plugin;

static LV2_Handle instantiate(const LV2_Descriptor *d, double rate, const char *path, const LV2_Feature *const *f) {
    (void)d; (void)rate; (void)path; (void)f;
    return calloc(1, sizeof(Plugin));
}
static void connect(LV2_Handle h, uint32_t port, void *data) {
    Plugin *p = h;
    if (port == 0) p->in = data; else if (port == 1) p->out = data;
}
/* Copies in → out; true while the plug-in is still good. */
static int copy(Plugin *p, uint32_t n) {
    if (p->runs++ >= GOOD_RUNS) return 0;
    for (uint32_t i = 0; i < n; ++i) p->out[i] = p->in[i];
    return 1;
}
static void run_crash(LV2_Handle h, uint32_t n) {
    if (!copy(h, n)) *(volatile int *)0 = 1; /* a real segmentation fault */
}
static void run_abort(LV2_Handle h, uint32_t n) {
    if (!copy(h, n)) abort();
}
static void run_hang(LV2_Handle h, uint32_t n) {
    if (!copy(h, n)) for (volatile int spin = 1; spin;) {}
}
static void run_nan(LV2_Handle h, uint32_t n) {
    Plugin *p = h;
    if (!copy(p, n)) for (uint32_t i = 0; i < n; ++i) p->out[i] = i == n / 3 ? NAN : p->in[i];
}
static void cleanup(LV2_Handle h) { free(h); }

#define PREFIX "urn:auhost:fault:"
static const LV2_Descriptor descriptors[] = {
    {PREFIX "crash", instantiate, connect, NULL, run_crash, NULL, cleanup, NULL},
    {PREFIX "abort", instantiate, connect, NULL, run_abort, NULL, cleanup, NULL},
    {PREFIX "hang", instantiate, connect, NULL, run_hang, NULL, cleanup, NULL},
    {PREFIX "nan", instantiate, connect, NULL, run_nan, NULL, cleanup, NULL},
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    return index < sizeof descriptors / sizeof descriptors[0] ? &descriptors[index] : NULL;
}
