/*
 * Keeps IEEE subnormals for whoever loads AUHost. Debian builds libSoundTouchDll (time-pitch for
 * Audio Queues) with -ffast-math, which links GCC's crtfastmath.o: its constructor sets
 * flush-to-zero and denormals-are-zero in MXCSR as the library loads, so every C host, Swift
 * program and Python interpreter that loaded AUHost computed FLT_MIN / 4 as 0 on its main thread.
 * This constructor runs after the libraries AUHost depends on (theirs run first) and clears both
 * bits again; a program that wants them sets them itself later, in main or on its render thread.
 */
#include "AUHostFloatMode.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define AUHOST_MXCSR_FTZ 0x8000u
#define AUHOST_MXCSR_DAZ 0x0040u

__attribute__((constructor)) static void auhost_restore_ieee_subnormals(void) {
    _mm_setcsr(_mm_getcsr() & ~(AUHOST_MXCSR_FTZ | AUHOST_MXCSR_DAZ));
}
#elif defined(__aarch64__)
__attribute__((constructor)) static void auhost_restore_ieee_subnormals(void) {
    unsigned long fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    fpcr &= ~(1ul << 24); /* FZ */
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
}
#endif

void auhost_float_mode_flush_subnormals(void) {
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(_mm_getcsr() | AUHOST_MXCSR_FTZ | AUHOST_MXCSR_DAZ);
#elif defined(__aarch64__)
    unsigned long fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    fpcr |= 1ul << 24; /* FZ */
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
#endif
}

int auhost_float_mode_keeps_subnormals(void) {
    volatile float smallest_normal = 1.17549435e-38f;
    volatile float quarter = smallest_normal * 0.25f;
    return quarter != 0.0f;
}

unsigned int auhost_float_mode_save(void) {
#if defined(__x86_64__) || defined(__i386__)
    return _mm_getcsr() & (AUHOST_MXCSR_FTZ | AUHOST_MXCSR_DAZ);
#elif defined(__aarch64__)
    unsigned long fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    return (unsigned int)(fpcr & (1ul << 24));
#else
    return 0;
#endif
}

void auhost_float_mode_restore(unsigned int saved) {
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr((_mm_getcsr() & ~(AUHOST_MXCSR_FTZ | AUHOST_MXCSR_DAZ)) | saved);
#elif defined(__aarch64__)
    unsigned long fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    fpcr = (fpcr & ~(1ul << 24)) | saved;
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
#else
    (void)saved;
#endif
}
