/*
 * AUHostTime.h — AUHost extension (not part of Apple's API): where the tempo changes inside the
 * render cycle, beside kAudioUnitProperty_HostCallbacks.
 *
 * Apple's host callbacks answer for the first frame of a cycle, so a tempo change inside a cycle
 * reaches a unit at the next one. A host that knows its tempo map (MusicPlayer sets this on every
 * node of its sequence's graph together with the host callbacks) also sets
 * kAUHostProperty_TempoChangeCallback; a unit asks it during a render for the first tempo change
 * after frame inAfterFrame and before frame inFrames of the cycle, and splits its work there. LV2
 * units send the plug-in a time:Position at that frame and run it in two pieces (a plug-in reads
 * time:Position at the start of its run in most frameworks), so the change is sample-accurate.
 *
 * The callback answers noErr and the change's frame offset in *outOffset (the first frame that
 * plays at the new tempo), with the beat (quarter notes from the timeline's start) and tempo
 * (beats per minute) from there; *outOffset == inFrames when no tempo changes in the range; an
 * error when the host has no answer (nothing playing). It is called on the render thread, for
 * the cycle the host callbacks describe: it must not allocate, lock or wait.
 *
 * Thread classes: the property is set [setup] (global scope, element 0; NULL procedure to
 * remove); the callback runs on the [render] thread.
 */
#ifndef AUHOST_AUHOSTTIME_H
#define AUHOST_AUHOSTTIME_H

#include <AudioToolbox/AUComponent.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

typedef OSStatus (*AUHostCallback_GetTempoChange)(void *_Nullable inHostUserData, UInt32 inAfterFrame, UInt32 inFrames,
                                                  UInt32 *outOffset, Float64 *outBeat, Float64 *outTempo);

typedef struct AUHostTempoChangeInfo {
    void *_Nullable hostUserData;
    AUHostCallback_GetTempoChange _Nullable tempoChangeProc;
} AUHostTempoChangeInfo;

AU_ENUM(AudioUnitPropertyID) {
    /* AUHostTempoChangeInfo, global (set by the host, read by the unit). */
    kAUHostProperty_TempoChangeCallback = 0x41480030
};

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
