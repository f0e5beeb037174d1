/*
 * AUHostIsolation.h — AUHost extension (not part of Apple's API): units out of process.
 *
 * AudioComponentInstantiate(component, kAudioComponentInstantiation_LoadOutOfProcess, …) makes
 * the unit live in a child process (`auhost-unit-host`: $AUHOST_UNIT_HOST, else beside the
 * running program, else PREFIX/libexec/auhost/ for an installed libauhost) that loads that one component only: an LV2 plug-in from its own bundle, an
 * SDK plug-in from its own folder, or a built-in unit. The AudioUnit handle works with every call
 * of the C API. Setup calls travel over a socket; audio, parameter changes and MIDI through one
 * shared-memory block, with one futex wake each way per render cycle.
 *
 * Children are forked by one `auhost-unit-host --fork-server` that the host starts on first use
 * (a new child in about 4 ms, a restart in under 3, instead of 15-40 ms each to execute it); each
 * is still the host's own child, and gets the environment and working directory the host has when
 * the unit is made. AUHOST_UNIT_HOST_FORK_SERVER=0 executes each child instead.
 *
 * The child's render thread takes the scheduling policy and priority of the host thread that
 * renders the unit (a SCHED_FIFO I/O thread gets a SCHED_FIFO child when the process may use it).
 *
 * Faults are contained: when the child crashes (a signal, abort), hangs past the render deadline,
 * or outputs a non-finite sample, the unit outputs silence from that cycle on and AudioUnitRender
 * still answers noErr (the rest of a graph renders on), kAudioUnitProperty_LastRenderError
 * becomes the fault's code (listeners fire) and AUHostIsolatedUnitCopyFaultDescription says what
 * happened, naming the unit. AUHostIsolatedUnitRestart brings the unit back.
 *
 * What crosses the process boundary: stream formats (canonical Float32 non-interleaved, sent at
 * AudioUnitInitialize), MaximumFramesPerSlice, global-scope parameters (their list, info and
 * values; changes reach the child sample-accurately at the next render cycle), MIDI channel
 * messages, Reset, factory presets (FactoryPresets, PresentPreset) and ClassInfo (the parameters
 * and the child unit's own state, in the same form as in process, so state moves either way).
 * BypassEffect (effects) is the proxy's own: bypassed, input 0 passes to output 0 without the
 * child (also while it is faulted); parameter changes made meanwhile reach the child afterwards.
 * Not forwarded: other properties (a unit's custom ones, element-scope parameters, SysEx); such a
 * unit answers as a plain AUBase would.
 */
#ifndef AUHOST_AUHOSTISOLATION_H
#define AUHOST_AUHOSTISOLATION_H

#include <AudioToolbox/AUComponent.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

/* Properties of an out-of-process unit, global scope, element 0. */
AU_ENUM(AudioUnitPropertyID) {
    /* Float64 seconds, read/write. How long a render call waits for the child before the unit is
       declared hung. 0 (default): three quarters of the cycle (frames / sample rate), at least 2 ms.
       The first cycle after AudioUnitInitialize (or a restart) gets at least 1 s: the child's
       thread, page faults and the plug-in's lazy set-up are paid there. Offline hosts set a
       longer one. */
    kAUHostIsolatedUnitProperty_RenderDeadline = 0x41490000,
    /* UInt32, read-only. The process ID of the child (0 when it has ended). */
    kAUHostIsolatedUnitProperty_ProcessID = 0x41490001,
    /* Float64 seconds, read/write (0…0.01, default 0.0002). How long a render call may spin for
       the child's answer before it sleeps: it spins about as long as the child took last time
       (plus 20 µs), up to this. Sleeping on an idle machine costs tens of microseconds of wake-up
       (a halted virtual CPU); spinning costs the render thread's CPU time while it waits. 0 never
       spins. (The child likewise polls 30 µs for the next cycle before it sleeps.) */
    kAUHostIsolatedUnitProperty_SpinLimit = 0x41490002
};

/* The LastRenderError of a unit whose child wrote a NaN or an infinity. (A crash reports
   kAudioComponentErr_InstanceInvalidated, a hang kAudioUnitErr_RenderTimeout.) */
AU_ENUM(OSStatus) {
    kAUHostIsolatedUnitErr_NonFiniteOutput = -66790
};

/* Whether `inUnit` lives out of process. [any thread] */
Boolean AUHostIsolatedUnitIsOutOfProcess(AudioUnit inUnit);

/* A sentence naming the unit and its fault ("… crashed: its process ended on signal 11
   (Segmentation fault)…"), or NULL when the unit has none (or is not out of process). The caller
   releases it. [setup] */
CFStringRef _Nullable AUHostIsolatedUnitCopyFaultDescription(AudioUnit inUnit);

/* Starts a fresh child for the unit: the old one (faulted or not) is ended, the new one is given
   the unit's formats, MaximumFramesPerSlice and parameter values, and initialized when the unit
   is; the fault is cleared and LastRenderError returns to noErr. Callable while a graph renders
   (the unit outputs silence until the new child is ready). kAudio_ParamError for a unit that is
   not out of process; the child's own error when it cannot be restarted. [setup] */
OSStatus AUHostIsolatedUnitRestart(AudioUnit inUnit);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
