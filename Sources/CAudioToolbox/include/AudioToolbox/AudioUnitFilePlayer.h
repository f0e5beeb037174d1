/*
 * AudioUnitFilePlayer.h — the properties of the scheduled sound player and the audio file player
 * ('augn' 'afpl'), with their documented numbers (AudioUnitProperties.h in Apple's SDK).
 *
 * The file player plays regions of files opened with AudioFileOpenURL: set ScheduledFileIDs
 * (an array of AudioFileID), schedule one or more ScheduledAudioFileRegion records, prime, then
 * set ScheduleStartTimeStamp (mSampleTime −1 means "at the next render"). A reader thread
 * fills a lock-free ring from the file; the render thread only copies out of it.
 */
#ifndef AUHOST_AUDIOUNITFILEPLAYER_H
#define AUHOST_AUDIOUNITFILEPLAYER_H

#include <AudioToolbox/AudioUnitProperties.h>
#include <AudioToolbox/AudioFile.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

AU_ENUM(AudioUnitPropertyID) {
    kAudioUnitProperty_ScheduleAudioSlice = 3300,
    kAudioUnitProperty_ScheduleStartTimeStamp = 3301,     /* AudioTimeStamp, global */
    kAudioUnitProperty_CurrentPlayTime = 3302,            /* AudioTimeStamp, global, read-only */
    kAudioUnitProperty_ScheduledFileIDs = 3310,           /* AudioFileID[], global */
    kAudioUnitProperty_ScheduledFileRegion = 3311,        /* ScheduledAudioFileRegion, global */
    kAudioUnitProperty_ScheduledFilePrime = 3312,         /* UInt32 frames to prime (0 = default) */
    kAudioUnitProperty_ScheduledFileBufferSizeFrames = 3313, /* UInt32 */
    kAudioUnitProperty_ScheduledFileNumberBuffers = 3314  /* UInt32 */
};

typedef struct ScheduledAudioFileRegion ScheduledAudioFileRegion;
/* Called when a region has played out (on a non-real-time thread here). */
typedef void (*ScheduledAudioFileRegionCompletionProc)(void *_Nullable userData, ScheduledAudioFileRegion *fileRegion,
                                                       OSStatus result);

struct ScheduledAudioFileRegion {
    AudioTimeStamp mTimeStamp;          /* sample time in the player's timeline where the region starts */
    ScheduledAudioFileRegionCompletionProc _Nullable mCompletionProc;
    void *_Nullable mCompletionProcUserData;
    struct OpaqueAudioFileID *_Nullable mAudioFile;   /* non-null on Apple; nullable here so the struct zero-initialises in Swift */
    UInt32 mLoopCount;                  /* extra repetitions after the first play */
    SInt64 mStartFrame;                 /* first file frame */
    UInt32 mFramesToPlay;               /* frames per repetition; 0xFFFFFFFF = to the end of the file */
};

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
