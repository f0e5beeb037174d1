/*
 * ExampleSupport.h — the few helpers the C examples share, in the spirit of the seed's
 * CheckOSStatus and the Core Audio utility classes (CAStreamBasicDescription::SetAUCanonical).
 * Every function is [setup]-thread only except ExampleSignal, which is [any thread].
 */
#ifndef EXAMPLE_SUPPORT_H
#define EXAMPLE_SUPPORT_H

#include <AudioToolbox/AudioToolbox.h>

/* Exits with a sentence naming the call, its status and AUHost's last error message when
   status is not noErr. [setup] */
void CheckStatus(OSStatus status, const char *what);

/* The canonical format: Float32, non-interleaved, one buffer per channel. [any thread] */
AudioStreamBasicDescription ExampleCanonicalFormat(Float64 sampleRate, UInt32 channels);

/* Sets kAudioOutputUnitProperty_CurrentDevice (global scope) to an ALSA PCM name. [setup] */
OSStatus ExampleSetDevice(AudioUnit ioUnit, const char *pcmName);

/* The examples' test signal: a multiple of 1/1024 in [-0.49, 0.49], so sums and power-of-two
   gains of it are exact in Float32. Frame f of channel c. [any thread, allocates nothing] */
static inline Float32 ExampleSignal(SInt64 frame, UInt32 channel) {
    return (Float32)((frame * 37 + channel * 500) % 1001 - 500) / 1024.0f;
}

/* A second, independent signal for two-source examples. [any thread] */
static inline Float32 ExampleSignal2(SInt64 frame, UInt32 channel) {
    return (Float32)((frame * 11 + channel * 300) % 499 - 249) / 512.0f;
}

/* Waits (sleeping 1 ms at a time) until *counter reaches target or seconds pass; returns
   whether it did. [setup] */
int ExampleWaitFor(volatile SInt64 *counter, SInt64 target, double seconds);

#endif
