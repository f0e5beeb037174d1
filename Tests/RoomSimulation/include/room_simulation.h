/*
 * room_simulation.h — deterministic test signals for voice processing: speech-like signals
 * (band-limited noise under a syllable envelope), a room impulse response (exponentially decaying
 * noise) and its convolution. C, compiled optimised, because a 0.3 s room at 48 kHz over 14 s of
 * audio is 8·10^9 multiply-adds, too slow for a debug-built Swift loop. Thread class: any (pure
 * functions over caller-owned memory).
 */
#ifndef AUHOST_ROOM_SIMULATION_H
#define AUHOST_ROOM_SIMULATION_H

#include <stdint.h>

/**
 * Writes `frames` of a speech-like signal: white noise band-limited to about 200…3400 Hz (speech's
 * telephone band), shaped by a syllable envelope (raised-cosine bursts of 120…320 ms separated by
 * gaps of 40…250 ms), scaled to `rms` while a burst is fully on. `seed` makes it reproducible.
 */
void room_speech_like(float *out, int64_t frames, double rate, uint64_t seed, double rms);

/** Writes white noise band-limited like room_speech_like's but without an envelope, at `rms`. */
void room_noise(float *out, int64_t frames, double rate, uint64_t seed, double rms);

/**
 * Writes a room impulse response of `taps` frames: Gaussian-like noise under the envelope
 * 10^(-3 t / rt60) (60 dB of decay in rt60 seconds), normalised to unit energy, then scaled by
 * `gain`.
 */
void room_impulse_response(float *out, int64_t taps, double rate, double rt60, uint64_t seed, double gain);

/** out[n] += sum_k h[k] x[n - k - delay] for n in 0..<frames (x is zero before its start). */
void room_convolve_add(const float *x, int64_t frames, const float *h, int64_t taps, int64_t delay, float *out);

#endif
