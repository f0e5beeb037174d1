/*
 * parallel-capacity.c — how much of two cores the machine gives right now. Runs a fixed
 * floating-point kernel (no memory traffic beyond L1, nothing shared) on one thread, then the
 * same work on each of two threads at once, and prints one number: 2 × one thread's time / the
 * pair's time. Two free cores read ≈ 2.0; a VM whose neighbour takes a core reads toward 1.0.
 * Benchmarks/compare-parallel-run.sh runs it between rounds, so that a speed-up measured while
 * the machine had one core to give is seen as such.
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

enum { samples = 4096, passes = 30000, trials = 5 };
static float buffers[2][samples];

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A polynomial waveshaper over one buffer, over and over (about 30 ms on this VM). */
static void *shape(void *argument) {
    float *b = argument;
    for (int pass = 0; pass < passes; pass++) {
        for (int i = 0; i < samples; i++) {
            float x = b[i];
            b[i] = x * 0.5f + x * x * 0.25f - x * x * x * 0.125f + 0.001f;
        }
    }
    return NULL;
}

/* 2 × one thread's time / two threads' time, for one trial. */
static double trial(void) {
    double started = now();
    shape(buffers[0]);
    double one = now() - started;
    pthread_t other;
    started = now();
    if (pthread_create(&other, NULL, shape, buffers[1]) != 0) return 0;
    shape(buffers[0]);
    pthread_join(other, NULL);
    return 2 * one / (now() - started);
}

int main(void) {
    double ratios[trials];
    for (int t = 0; t < trials; t++) {
        double ratio = trial();
        int i = t;
        for (; i > 0 && ratios[i - 1] > ratio; i--) ratios[i] = ratios[i - 1];
        ratios[i] = ratio;
    }
    printf("%.2f\n", ratios[trials / 2]);
    return 0;
}
