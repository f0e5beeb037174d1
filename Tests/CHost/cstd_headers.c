/* Ported C leans on what <AudioToolbox/AudioToolbox.h> brings in on Apple: CFBase.h includes
 * <stdint.h> and <stdbool.h>, CoreFoundation.h the C standard headers unless the includer defines
 * CF_EXCLUDE_CSTD_HEADERS. check-c builds this file with gcc and clang, -Wall -Werror, with only
 * that header, and runs it; built again with -DCF_EXCLUDE_CSTD_HEADERS it proves the opt-out. */
#include <AudioToolbox/AudioToolbox.h>

#ifdef CF_EXCLUDE_CSTD_HEADERS
/* Only CFBase.h's share remains: bool and the fixed-width integers. */
#if defined(assert) || defined(EXIT_SUCCESS) || defined(HUGE_VALF) || defined(CHAR_BIT)
#error "CF_EXCLUDE_CSTD_HEADERS must keep <assert.h>, <stdlib.h>, <math.h> and <limits.h> out"
#endif
int main(void) {
    bool found = false;
    uint32_t type = kAudioUnitType_Effect;
    return (found || type == 0) ? 1 : 0;
}
#else
int main(void) {
    enum { frames = 64 };
    float *samples = malloc(frames * sizeof *samples);           /* <stdlib.h> */
    assert(samples != NULL);                                      /* <assert.h> */
    memset(samples, 0, frames * sizeof *samples);                 /* <string.h> */
    const float twoPi = (float)(2.0 * acos(-1.0));                /* <math.h> */
    float peak = 0;
    for (int i = 0; i < frames; i++) {
        samples[i] = sinf(twoPi * (float)i / (float)frames);
        peak = fmaxf(peak, fabsf(samples[i]));
    }
    bool loud = peak > 0.99f && peak <= 1.0f;                     /* <stdbool.h> */
    AudioComponentDescription desc = {kAudioUnitType_Output, kAudioUnitSubType_GenericOutput, kAudioUnitManufacturer_Apple, 0, 0};
    bool hasOutput = AudioComponentFindNext(NULL, &desc) != NULL;
    errno = 0;                                                    /* <errno.h> */
    long parsed = strtol("48000", NULL, 10);
    int ok = loud && hasOutput && errno == 0 && parsed == 48000 && isdigit('4') && INT_MAX > 0 && FLT_MAX > 1.0f
        && time(NULL) > 0;                                        /* <ctype.h> <limits.h> <float.h> <time.h> */
    printf("C standard headers through AudioToolbox.h: sine peak %.4f, generic output %s: %s\n", peak,
           hasOutput ? "found" : "missing", ok ? "ok" : "FAILED");  /* <stdio.h> */
    free(samples);
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
#endif
