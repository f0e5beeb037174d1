/*
 * AUHostALSA.h — the ALSA I/O unit: AUHost's RemoteIO / HAL output unit on Linux.
 *
 * Identity: 'auou' 'alsa' 'AUHs'. Descriptions with kAudioUnitSubType_RemoteIO, _HALOutput or
 * _DefaultOutput and manufacturer kAudioUnitManufacturer_Apple (or 0) find it too.
 *
 * Elements, as the hosting guide documents: element 0 is output (to the playback device),
 * element 1 is input (from the capture device).
 *   - EnableIO: output scope element 0 (default 1), input scope element 1 (default 0); set
 *     before AudioUnitInitialize.
 *   - StreamFormat, app side: input scope element 0 (what your render callback supplies) and
 *     output scope element 1 (what AudioUnitRender on element 1 gives you). Any linear PCM
 *     (16/24/32-bit signed, 8.24, Float32/64, interleaved or not); the unit converts.
 *   - StreamFormat, device side: output scope element 0 and input scope element 1. After
 *     AudioUnitInitialize they describe what the device granted. Setting one beforehand asks
 *     for that ALSA format exactly (S16_LE, S24_LE, S24_3LE, S32_LE or FLOAT_LE, interleaved or
 *     not, its channel count); left alone, the device's first of FLOAT_LE, S32_LE, S24_LE,
 *     S24_3LE, S16_LE is used with the app side's channel count. Differing channel counts are
 *     matched channel by channel (extra device channels get silence, extra app channels are
 *     dropped).
 *   - Sample rate. The device is asked for kAUHostALSAProperty_PreferredSampleRate, else the
 *     rate of the device-side format you set, else the app side's rate (capture's when input is
 *     enabled). Each direction alone converts when the device runs at another rate than its app
 *     side (libsoxr, 20-bit; 28-bit with RenderQuality >= 127), and kAudioUnitProperty_Latency
 *     reports the resampler's delay in seconds. Playback: your render callback is pulled in
 *     app-rate frames, up to MaximumFramesPerSlice per call and not once per period. Capture:
 *     the input callback is offered the converted frames in chunks of up to
 *     MaximumFramesPerSlice (inNumberFrames varies); render them there, or they are dropped.
 *     Full duplex does not convert rates: both app sides must be at the device's rate, else
 *     AudioUnitInitialize answers kAudioUnitErr_FormatNotSupported naming the formats (a plug
 *     PCM such as "default" or "plughw:…" resamples). Rates more than 64 times apart are refused.
 *   - SetRenderCallback (input scope, element 0): the device thread pulls it once per period.
 *   - kAudioOutputUnitProperty_SetInputCallback (global scope): called once per period with
 *     ioData NULL after a period was captured; call AudioUnitRender on element 1 there (or in
 *     the render callback) to get it. Frames per call = the granted period size (the converted
 *     count when capture converts rates, see above).
 *   - kAudioOutputUnitProperty_CurrentDevice: a CFStringRef ALSA PCM name ("default",
 *     "hw:1,0", "plughw:…", a PCM of ~/.asoundrc). Global scope names the device of both
 *     directions; output scope element 0 only the playback PCM, input scope element 1 only the
 *     capture PCM. Reading returns a new string (CFRelease it). Set while uninitialized.
 *   - kAudioOutputUnitProperty_IsRunning: UInt32. Listeners fire on Start and Stop (on the
 *     calling thread) and when a failing device stops the unit (on a non-real-time thread).
 *
 * Lifecycle: AudioUnitInitialize opens and configures the PCMs (a missing device fails with
 * kAudioUnitErr_InvalidPropertyValue, a busy one with kAudioUnitErr_CannotDoInCurrentContext,
 * AUHostCopyLastErrorMessage says which and why). AudioOutputUnitStart initializes first if
 * needed, then runs the device thread (SCHED_FIFO when permitted). Xruns are recovered and
 * counted. A device that fails stops the unit: LastRenderError becomes kAudioUnitErr_NoConnection,
 * kAUHostALSAProperty_StreamError holds ALSA's reason, IsRunning listeners fire.
 *
 * Full duplex: capture and playback run from one thread, one period at a time. The playback
 * file or device receives kAUHostALSAProperty_DuplexLatencyFrames frames of silence before the
 * first captured frame (the prefilled playback buffer), and keeps that offset after xruns.
 */
#ifndef AUHOST_AUHOSTALSA_H
#define AUHOST_AUHOSTALSA_H

#include <AudioToolbox/AudioOutputUnit.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

AU_ENUM(OSType) {
    kAudioUnitSubType_AUHostALSAIO = 'alsa'
};

/* AUHost properties of the ALSA I/O unit, all in global scope, element 0.
   "Ask, then read back": set the Preferred values before AudioUnitInitialize (the Linux stand-in
   for the iOS audio session's preferred sample rate and I/O buffer duration) and read the
   Granted values after it. */
AU_ENUM(AudioUnitPropertyID) {
    /* Float64, read/write. The sample rate asked of the device; 0 (default) asks for the app
       side's stream format rate. */
    kAUHostALSAProperty_PreferredSampleRate = 0x41480000,
    /* UInt32, read/write. Frames per period asked of the device (default 256). */
    kAUHostALSAProperty_PreferredPeriodFrames = 0x41480001,
    /* UInt32, read/write. Periods per device buffer asked of the device (default 2). */
    kAUHostALSAProperty_PreferredPeriodCount = 0x41480002,
    /* Float64, read-only. The rate the device granted; 0 while uninitialized. */
    kAUHostALSAProperty_GrantedSampleRate = 0x41480003,
    /* UInt32, read-only. The period size granted = frames per render call; 0 while uninitialized. */
    kAUHostALSAProperty_GrantedPeriodFrames = 0x41480004,
    /* UInt32, read-only. The period count granted; 0 while uninitialized. */
    kAUHostALSAProperty_GrantedPeriodCount = 0x41480005,
    /* UInt32, read-only. Xruns recovered since the last start. */
    kAUHostALSAProperty_XrunCount = 0x41480006,
    /* CFStringRef, read-only. Why the device stopped the unit (the ALSA reason, the device name
       and what to do), or NULL if it did not since the last start. Release it. */
    kAUHostALSAProperty_StreamError = 0x41480007,
    /* Float64, read-only. The longest device-thread cycle (input callback + render) since the
       last start, as a fraction of one period (1.0 = a whole period). */
    kAUHostALSAProperty_WorstRenderFraction = 0x41480008,
    /* UInt32, read-only. In full duplex, frames of silence the playback side receives before
       the first captured frame (one playback buffer); 0 otherwise or while uninitialized. */
    kAUHostALSAProperty_DuplexLatencyFrames = 0x41480009,
    /* UInt32, read-only. 1 when the device thread runs with SCHED_FIFO, 0 when the system
       refused it (it then runs at normal priority and prints one warning line). */
    kAUHostALSAProperty_RealTimeScheduling = 0x4148000A
};

/* Voice processing (webrtc-audio-processing 0.3): echo cancellation, noise suppression, gain
   control and a high-pass filter on the microphone.
   - 'auou' 'vpio' 'appl' (kAudioUnitSubType_VoiceProcessingIO): the ALSA I/O unit with the
     processing on input element 1; the signal played through output element 0 is the echo
     reference. The delay between playback and capture handed to the canceller is the device's
     duplex latency (kAUHostALSAProperty_DuplexLatencyFrames); the canceller refines it itself.
     Processing (and MuteOutput) needs input enabled (EnableIO on input scope element 1), 1 or 2
     capture channels and a device rate divisible by 100; without input it is the plain unit.
   - 'auou' 'vpof' 'AUHs' (kAudioUnitSubType_AUHostVoiceProcessingOffline): the same processing
     rendered offline. Input scope element 0 takes the far end (what a loudspeaker would play),
     input scope element 1 the microphone, each from a render callback or a connection;
     AudioUnitRender on output element 1 pulls both and gives the processed microphone, on output
     element 0 the far end of the same time stamp (silent with MuteOutput). Formats: Float32
     non-interleaved, 1 or 2 channels, one rate divisible by 100 on every element; each output
     element has its input element's channel count.
   Both report kAudioUnitProperty_Latency: one 10 ms chunk plus webrtc's own delay (bypass: 0),
   and take the kAUVoiceIOProperty_ properties of AudioUnitProperties.h. */
AU_ENUM(OSType) {
    kAudioUnitSubType_AUHostVoiceProcessingOffline = 'vpof'
};

/* The canceller's figures (webrtc's own estimates, refreshed once a second of processing). */
typedef struct AUHostVoiceIOMetrics {
    /* Echo return loss enhancement, dB: the last second's and the long-term average. */
    Float64 mEchoReturnLossEnhancement;
    Float64 mAverageEchoReturnLossEnhancement;
    /* Echo return loss (far end to microphone echo), dB, long-term average. */
    Float64 mEchoReturnLoss;
    /* The canceller's delay estimate (median over the last second), seconds. */
    Float64 mEchoDelay;
    /* The delay handed to the canceller (the device's duplex latency; 0 offline), seconds. */
    Float64 mReportedDelay;
    /* 1 once the canceller has produced figures, 0 before (the values are then 0). */
    UInt32 mValid;
    UInt32 mReserved;
} AUHostVoiceIOMetrics;

AU_ENUM(AudioUnitPropertyID) {
    /* AUHostVoiceIOMetrics, read-only, global scope element 0; zeros while uninitialized. */
    kAUHostVoiceIOProperty_EchoMetrics = 0x41480010
};

/* How hard both voice units suppress what the canceller leaves of the echo, and the noise
   (AUHost's own: Apple's unit has no such property). UInt32, read/write, global scope element 0,
   one of the values below, each a pair of webrtc's (echo, noise) suppression levels: Low (low,
   low), Moderate (low, moderate; the default), High (high, high; the default before), VeryHigh
   (high, very high).
   Harder levels take more of a near-end talker in double talk. Set it while uninitialized: it
   takes effect at AudioUnitInitialize (kAudioUnitErr_Initialized otherwise); other values:
   kAudioUnitErr_InvalidPropertyValue. Thread class: setup (the thread that initializes). */
AU_ENUM(AudioUnitPropertyID) {
    kAUHostVoiceIOProperty_SuppressionLevel = 0x41480011
};

AU_ENUM(UInt32) {
    kAUHostVoiceIOSuppression_Low = 0,
    kAUHostVoiceIOSuppression_Moderate = 1,
    kAUHostVoiceIOSuppression_High = 2,
    kAUHostVoiceIOSuppression_VeryHigh = 3
};

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
