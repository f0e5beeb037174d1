// Benchmarks/webrtc-alloc-check.cpp (run by scripts/webrtc-alloc-check.sh): counts heap allocations
// inside webrtc-audio-processing 0.3 — linked from its static archive so that the linker's --wrap
// reaches the library's own malloc/new calls — while the shim (Sources/CWebRTCProcessing) processes
// 10 ms chunks: at set-up (proves the counter counts), in steady state, and with AGC toggled.
#include <cstdio>
#include <cstdlib>
#include "webrtc_processing.h"

static long counting = 0, count = 0;
extern "C" void *__real_malloc(size_t);
extern "C" void *__wrap_malloc(size_t n) { if (counting) count++; return __real_malloc(n); }
extern "C" void *__real_calloc(size_t, size_t);
extern "C" void *__wrap_calloc(size_t a, size_t b) { if (counting) count++; return __real_calloc(a, b); }
extern "C" void *__real_realloc(void *, size_t);
extern "C" void *__wrap_realloc(void *p, size_t n) { if (counting) count++; return __real_realloc(p, n); }
extern "C" void *__wrap__Znwm(size_t n) { if (counting) count++; return malloc(n); }
extern "C" void *__wrap__Znam(size_t n) { if (counting) count++; return malloc(n); }

int main() {
    auhost_webrtc_config config = {1, 1, 1, 1, 1, 1};
    int error = 0;
    counting = 1;
    auhost_webrtc_processor *p = auhost_webrtc_create(48000, 1, 1, &config, &error);
    counting = 0;
    printf("set-up (the counter works): %ld allocations in auhost_webrtc_create\n", count);
    if (!p) { printf("create failed %d\n", error); return 1; }
    static float far[480], mic[480], out[480];
    const float *farp[1] = {far}; const float *micp[1] = {mic}; float *outp[1] = {out};
    unsigned x = 1;
    auto chunk = [&](int n) {
        for (int i = 0; i < 480; i++) {
            x = x * 1664525u + 1013904223u; far[i] = ((int)(x >> 8) / 8388608.0f - 1) * 0.1f * ((n / 25) % 2);
            mic[i] = far[i] * 0.3f + ((int)(x >> 9 & 0xff) / 2560.0f - 0.05f);
        }
        auhost_webrtc_process_reverse(p, farp);
        auhost_webrtc_process(p, micp, outp);
    };
    int n = 0;
    for (; n < 300; n++) chunk(n);  // steady state
    counting = 1; count = 0;
    for (int i = 0; i < 3000; i++, n++) chunk(n);  // 30 s, 30 metrics refreshes
    counting = 0;
    printf("steady: %ld allocations in 3000 chunks (30 s at 48 kHz, all stages)\n", count);
    counting = 1; count = 0;
    for (int i = 0; i < 3000; i++, n++) {
        if (i % 100 == 0) auhost_webrtc_request_gain_control(p, (i / 100) % 2 == 0 ? 0 : 1);
        chunk(n);
    }
    counting = 0;
    printf("AGC toggled every second: %ld allocations in 3000 chunks (30 toggles)\n", count);
    auhost_webrtc_destroy(p);
    return 0;
}
