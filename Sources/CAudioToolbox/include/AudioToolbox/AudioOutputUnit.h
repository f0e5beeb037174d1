/*
 * AudioOutputUnit.h — I/O units: the head of a graph. Element 0 is output, element 1 is input.
 */
#ifndef AUHOST_AUDIOOUTPUTUNIT_H
#define AUHOST_AUDIOOUTPUTUNIT_H

#include <AudioToolbox/AudioUnitProperties.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

AU_ENUM(AudioUnitPropertyID) {
    kAudioOutputUnitProperty_CurrentDevice = 2000,         /* AUHost: a CFStringRef ALSA PCM name */
    kAudioOutputUnitProperty_IsRunning = 2001,             /* UInt32, read-only */
    kAudioOutputUnitProperty_ChannelMap = 2002,            /* SInt32[] */
    kAudioOutputUnitProperty_EnableIO = 2003,              /* UInt32 */
    kAudioOutputUnitProperty_StartTime = 2004,
    kAudioOutputUnitProperty_SetInputCallback = 2005,      /* AURenderCallbackStruct */
    kAudioOutputUnitProperty_HasIO = 2006,                 /* UInt32 */
    kAudioOutputUnitProperty_StartTimestampsAtZero = 2007  /* UInt32 */
};

/* [setup] Starts the unit's I/O (its render thread, or for a generic output, marks it running). */
OSStatus AudioOutputUnitStart(AudioUnit ci);
/* [setup] Stops the I/O; returns once the render thread has left the unit's render. */
OSStatus AudioOutputUnitStop(AudioUnit ci);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
