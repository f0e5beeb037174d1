/* room_simulation.c — see room_simulation.h. */
#include "room_simulation.h"

#include <math.h>

/* splitmix64: a small, well-known deterministic generator. */
static uint64_t next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [-1, 1). */
static double uniform(uint64_t *state) { return (double)(next(state) >> 11) * (2.0 / 9007199254740992.0) - 1.0; }

/* Approximately Gaussian (sum of four uniforms), unit variance. */
static double gaussian(uint64_t *state) {
    double s = uniform(state) + uniform(state) + uniform(state) + uniform(state);
    return s * sqrt(3.0 / 4.0);
}

/* A biquad (RBJ cookbook), direct form I. */
typedef struct { double b0, b1, b2, a1, a2, x1, x2, y1, y2; } biquad;

static biquad make_biquad(double rate, double frequency, int highpass) {
    double w = 2 * M_PI * frequency / rate, c = cos(w), alpha = sin(w) / (2 * 0.7071);
    double a0 = 1 + alpha;
    biquad f = {0};
    if (highpass) {
        f.b0 = (1 + c) / 2 / a0; f.b1 = -(1 + c) / a0; f.b2 = (1 + c) / 2 / a0;
    } else {
        f.b0 = (1 - c) / 2 / a0; f.b1 = (1 - c) / a0; f.b2 = (1 - c) / 2 / a0;
    }
    f.a1 = -2 * c / a0; f.a2 = (1 - alpha) / a0;
    return f;
}

static double run(biquad *f, double x) {
    double y = f->b0 * x + f->b1 * f->x1 + f->b2 * f->x2 - f->a1 * f->y1 - f->a2 * f->y2;
    f->x2 = f->x1; f->x1 = x; f->y2 = f->y1; f->y1 = y;
    return y;
}

/* Band-limited noise of unit RMS (measured over the signal, so the scale is exact). */
static void band_noise(float *out, int64_t frames, double rate, uint64_t *state) {
    biquad hp1 = make_biquad(rate, 200, 1), hp2 = make_biquad(rate, 200, 1);
    biquad lp1 = make_biquad(rate, 3400, 0), lp2 = make_biquad(rate, 3400, 0);
    double energy = 0;
    for (int64_t i = 0; i < frames; i++) {
        double v = run(&lp2, run(&lp1, run(&hp2, run(&hp1, gaussian(state)))));
        out[i] = (float)v;
        energy += v * v;
    }
    double scale = energy > 0 ? 1 / sqrt(energy / (double)frames) : 0;
    for (int64_t i = 0; i < frames; i++) out[i] = (float)(out[i] * scale);
}

void room_noise(float *out, int64_t frames, double rate, uint64_t seed, double rms) {
    uint64_t state = seed;
    band_noise(out, frames, rate, &state);
    for (int64_t i = 0; i < frames; i++) out[i] = (float)(out[i] * rms);
}

void room_speech_like(float *out, int64_t frames, double rate, uint64_t seed, double rms) {
    uint64_t state = seed;
    band_noise(out, frames, rate, &state);
    int64_t i = 0;
    while (i < frames) {
        int64_t burst = (int64_t)((0.12 + 0.2 * (uniform(&state) + 1) / 2) * rate);
        int64_t gap = (int64_t)((0.04 + 0.21 * (uniform(&state) + 1) / 2) * rate);
        double level = rms * (0.6 + 0.4 * (uniform(&state) + 1) / 2);
        for (int64_t k = 0; k < burst && i < frames; k++, i++) {
            double e = 0.5 - 0.5 * cos(2 * M_PI * (double)k / (double)burst);
            out[i] = (float)(out[i] * level * e * 1.6329931618554521); /* hann's RMS is sqrt(3/8) */
        }
        for (int64_t k = 0; k < gap && i < frames; k++, i++) out[i] = 0;
    }
}

void room_impulse_response(float *out, int64_t taps, double rate, double rt60, uint64_t seed, double gain) {
    uint64_t state = seed;
    double energy = 0;
    for (int64_t k = 0; k < taps; k++) {
        double t = (double)k / rate;
        double v = gaussian(&state) * pow(10.0, -3.0 * t / rt60);
        out[k] = (float)v;
        energy += v * v;
    }
    double scale = energy > 0 ? gain / sqrt(energy) : 0;
    for (int64_t k = 0; k < taps; k++) out[k] = (float)(out[k] * scale);
}

void room_convolve_add(const float *x, int64_t frames, const float *h, int64_t taps, int64_t delay, float *out) {
    /* One scaled, shifted copy of x per tap: the inner loop has no reduction, so it vectorises. */
    for (int64_t k = 0; k < taps; k++) {
        int64_t shift = k + delay;
        if (shift >= frames) break;
        float g = h[k];
        float *o = out + shift;
        int64_t count = frames - shift;
        for (int64_t n = 0; n < count; n++) o[n] += g * x[n];
    }
}
