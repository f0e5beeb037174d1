/*
 * LV2SampleScan.h — the check a host makes on a plug-in's output before passing it on (LV2,
 * LADSPA and DSSI units, and the audio an isolated unit's child sends back): does a block of float
 * samples hold a NaN or an infinity? In C so that it can be compiled for several vector widths and
 * run with the widest the machine has, which Swift cannot do per function.
 * Thread class: any (real-time safe: no allocation, no lock).
 */
#ifndef AUHOST_LV2_SAMPLE_SCAN_H
#define AUHOST_LV2_SAMPLE_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* True if any of samples[0 ..< count] is NaN or infinite. */
bool auhost_samples_contain_non_finite(const float *_Nonnull samples, size_t count);

#endif
