/* Deliberately broken LV2 plug-ins for LV2HostTests: each misbehaves in one way a host must survive.
   Built by scripts/build-lv2-fixtures.sh into auhost-broken.lv2/broken.so. */
#include <lv2/core/lv2.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

typedef struct { float *in; float *out; uint32_t first_length; } Plugin;

static LV2_Handle instantiate(const LV2_Descriptor *d, double rate, const char *path, const LV2_Feature *const *f) {
    (void)d; (void)rate; (void)path; (void)f;
    return calloc(1, sizeof(Plugin));
}
static LV2_Handle instantiate_crash(const LV2_Descriptor *d, double rate, const char *path, const LV2_Feature *const *f) {
    (void)d; (void)rate; (void)path; (void)f;
    raise(SIGSEGV);  /* a null dereference the optimiser cannot remove */
    return NULL;
}
/* Loads only when the host passes lv2:isLive (a real-time host), as its Turtle data requires. */
static LV2_Handle instantiate_live(const LV2_Descriptor *d, double rate, const char *path, const LV2_Feature *const *f) {
    (void)d; (void)rate; (void)path;
    for (; f && *f; ++f) if (!strcmp((*f)->URI, LV2_CORE__isLive)) return calloc(1, sizeof(Plugin));
    return NULL;
}
static void connect(LV2_Handle h, uint32_t port, void *data) {
    Plugin *p = h;
    if (port == 0) p->in = data; else if (port == 1) p->out = data;
}
static void run_nan(LV2_Handle h, uint32_t n) {
    Plugin *p = h;
    for (uint32_t i = 0; i < n; ++i) p->out[i] = (i == n / 2) ? NAN : p->in[i];
}
static void run_copy(LV2_Handle h, uint32_t n) {
    Plugin *p = h;
    for (uint32_t i = 0; i < n; ++i) p->out[i] = p->in[i];
}
static void run_crash(LV2_Handle h, uint32_t n) { (void)h; (void)n; raise(SIGSEGV); }
/* Not broken: block-length fixtures that copy their input only when the host keeps the promise
   their required feature asks for (every run the same length / a power of two), else write NaN. */
static void run_fixed(LV2_Handle h, uint32_t n) {
    Plugin *p = h;
    if (p->first_length == 0) p->first_length = n;
    for (uint32_t i = 0; i < n; ++i) p->out[i] = n == p->first_length ? p->in[i] : NAN;
}
static void run_pow2(LV2_Handle h, uint32_t n) {
    Plugin *p = h;
    for (uint32_t i = 0; i < n; ++i) p->out[i] = (n & (n - 1)) == 0 ? p->in[i] : NAN;
}
static void cleanup(LV2_Handle h) { free(h); }

/* Not broken, but lazy: delays its input by 64 frames and writes that latency only in a run that
   processes audio (lv2.h asks plug-ins to update it on 0 frames too; some do not). */
#define LAZY_DELAY 64
typedef struct { float *in, *out, *latency; float line[LAZY_DELAY]; uint32_t pos; } Lazy;
static LV2_Handle instantiate_lazy(const LV2_Descriptor *d, double rate, const char *path, const LV2_Feature *const *f) {
    (void)d; (void)rate; (void)path; (void)f;
    return calloc(1, sizeof(Lazy));
}
static void connect_lazy(LV2_Handle h, uint32_t port, void *data) {
    Lazy *p = h;
    if (port == 0) p->in = data; else if (port == 1) p->out = data; else if (port == 2) p->latency = data;
}
static void activate_lazy(LV2_Handle h) {
    Lazy *p = h;
    memset(p->line, 0, sizeof p->line);
    p->pos = 0;
}
static void run_lazy(LV2_Handle h, uint32_t n) {
    Lazy *p = h;
    if (n == 0) return;
    for (uint32_t i = 0; i < n; ++i) {
        p->out[i] = p->line[p->pos];
        p->line[p->pos] = p->in[i];
        p->pos = (p->pos + 1) % LAZY_DELAY;
    }
    *p->latency = LAZY_DELAY;
}

#define PREFIX "urn:auhost:fixture:"
static const LV2_Descriptor descriptors[] = {
    {PREFIX "nan", instantiate, connect, NULL, run_nan, NULL, cleanup, NULL},
    {PREFIX "crash-instantiate", instantiate_crash, connect, NULL, run_copy, NULL, cleanup, NULL},
    {PREFIX "crash-run", instantiate, connect, NULL, run_crash, NULL, cleanup, NULL},
    {PREFIX "needs-feature", instantiate, connect, NULL, run_copy, NULL, cleanup, NULL},
    {PREFIX "port-gap", instantiate, connect, NULL, run_copy, NULL, cleanup, NULL},
    {PREFIX "fixed-block", instantiate, connect, NULL, run_fixed, NULL, cleanup, NULL},
    {PREFIX "pow2-block", instantiate, connect, NULL, run_pow2, NULL, cleanup, NULL},
    {PREFIX "needs-live", instantiate_live, connect, NULL, run_copy, NULL, cleanup, NULL},
    {PREFIX "lazy-latency", instantiate_lazy, connect_lazy, activate_lazy, run_lazy, NULL, cleanup, NULL},
    /* "urn:auhost:fixture:no-descriptor" is declared in the Turtle data but deliberately absent here. */
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    return index < sizeof descriptors / sizeof descriptors[0] ? &descriptors[index] : NULL;
}
