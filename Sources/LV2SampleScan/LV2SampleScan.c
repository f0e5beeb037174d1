#include "LV2SampleScan.h"

#include <stdint.h>

/* Float bits read as integers (may_alias: the samples were written as floats). */
typedef uint32_t __attribute__((may_alias)) sample_bits;

/*
 * A sample is NaN or infinite exactly when its exponent bits are all ones; adding one to such an
 * exponent carries into bit 31. And, add and or only, so the loop vectorises on every x86 level;
 * target_clones builds it for AVX-512, AVX2 and baseline SSE2, and the loader picks one.
 */
#if defined(__x86_64__) && defined(__ELF__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
bool auhost_samples_contain_non_finite(const float *samples, size_t count) {
    const sample_bits *bits = (const sample_bits *)samples;
    uint32_t flagged = 0;
    for (size_t i = 0; i < count; i++) flagged |= (bits[i] & 0x7F800000u) + 0x00800000u;
    return (flagged & 0x80000000u) != 0;
}
