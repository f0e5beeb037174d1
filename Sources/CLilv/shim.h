#include <lilv/lilv.h>

#include <lv2/core/lv2.h>
#include <lv2/atom/atom.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/log/log.h>
#include <lv2/midi/midi.h>
#include <lv2/options/options.h>
#include <lv2/parameters/parameters.h>
#include <lv2/port-groups/port-groups.h>
#include <lv2/port-props/port-props.h>
#include <lv2/presets/presets.h>
#include <lv2/resize-port/resize-port.h>
#include <lv2/state/state.h>
#include <lv2/units/units.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>

#include <stdarg.h>
#include <stdio.h>

/* LV2_Log_Log's functions are variadic or take a va_list, which Swift cannot implement. The host's
   log feature is this struct: `log.handle` points at the struct itself, both log functions are the
   C trampolines below, which format into a stack buffer (no allocation; messages longer than
   1023 bytes are cut) and hand the text to `deliver`, written in Swift. `context` is the host's. */
typedef struct AUHostLV2LogFeature {
    LV2_Log_Log log;
    void (*deliver)(struct AUHostLV2LogFeature *feature, LV2_URID type, const char *text);
    void *context;
} AUHostLV2LogFeature;

static inline int auhost_lv2_log_vprintf(LV2_Log_Handle handle, LV2_URID type, const char *fmt, va_list args) {
    AUHostLV2LogFeature *feature = (AUHostLV2LogFeature *)handle;
    char text[1024];
    int written = vsnprintf(text, sizeof text, fmt, args);
    feature->deliver(feature, type, text);
    return written;
}

static inline int auhost_lv2_log_printf(LV2_Log_Handle handle, LV2_URID type, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int written = auhost_lv2_log_vprintf(handle, type, fmt, args);
    va_end(args);
    return written;
}

/* Fills in the feature's LV2_Log_Log (Swift cannot name the variadic functions). */
static inline void auhost_lv2_log_feature_init(AUHostLV2LogFeature *feature,
        void (*deliver)(AUHostLV2LogFeature *, LV2_URID, const char *), void *context) {
    feature->log.handle = feature;
    feature->log.printf = auhost_lv2_log_printf;
    feature->log.vprintf = auhost_lv2_log_vprintf;
    feature->deliver = deliver;
    feature->context = context;
}
