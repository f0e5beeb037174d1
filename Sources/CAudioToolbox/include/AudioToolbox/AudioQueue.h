/*
 * AudioQueue.h — Audio Queue Services: play and record buffers of audio through a queue that
 * owns the device, written from Apple's documentation (names, values and signatures as there).
 *
 * AUHost's queue: playback runs on the ALSA I/O unit (AUHostALSA.h) and recording on its input
 * element; offline render (AudioQueueSetOfflineRenderFormat) runs on a generic output unit.
 * kAudioQueueProperty_CurrentDevice names the ALSA PCM ("default" unless set).
 *   - Formats: linear PCM, interleaved, signed integer 16/24/32 bits or Float32/Float64
 *     (big- or little-endian as the flags say); playback queues also take MP3, FLAC, Vorbis and
 *     Opus (kAudioFormatMPEGLayer3, _FLAC, _Vorbis, _Opus), decoded through Audio Converter
 *     Services when each buffer is enqueued (the device thread only sees PCM). Their packets need
 *     descriptions (passed to Enqueue, or the buffer's own mPacketDescriptions when 0 and NULL
 *     are passed: kAudio_ParamError otherwise) and the cookie goes in kAudioQueueProperty_MagicCookie
 *     (checked when set: kAudioQueueErr_InvalidPropertyValue). Other formats, and compressed
 *     recording (nothing encodes), answer 'fmt?' (kAudioFileUnsupportedDataFormatError, Apple's
 *     kAudioFormatUnsupportedDataFormatError) from AudioQueueNewOutput/NewInput.
 *   - Callbacks run on a thread the queue owns, never on the device thread: the device thread
 *     only copies from buffers handed over through a lock-free queue and hands finished ones
 *     back through another. A queue created with a run loop (inCallbackRunLoop, e.g.
 *     CFRunLoopGetCurrent()) calls its buffer callbacks on that run loop instead, while it runs
 *     in inCallbackRunLoopMode (NULL: kCFRunLoopCommonModes, as Apple documents): the queue's
 *     thread hands each returned buffer to a run-loop source, so callbacks arrive in order and
 *     only while the app runs its loop (CFRunLoopRun / CFRunLoopRunInMode). Dispose drops
 *     callbacks not yet made. In offline render mode the output callback is called from
 *     AudioQueueOfflineRender, on the thread that calls it.
 *   - Volume multiplies samples exactly (Float32); VolumeRampTime ramps linearly over that many
 *     seconds; Pan is a balance (-1 left … +1 right: the far side is scaled by 1 - |pan|).
 *   - PlayRate and Pitch run through SoundTouch (LGPL) once kAudioQueueProperty_EnableTimePitch
 *     is 1 (set while stopped): Spectral and TimeDomain change speed keeping pitch (both use
 *     SoundTouch's time-domain stretcher), Varispeed changes both as tape does (Pitch is then
 *     ignored). Without EnableTimePitch they answer kAudioQueueErr_InvalidParameter.
 *   - Level meters: per channel, the peak and the RMS ("average power") of the samples played
 *     (or recorded) since the meter was last read, after Volume and Pan; CurrentLevelMeter in
 *     linear amplitude, CurrentLevelMeterDB in dBFS (20·log10; silence is -inf clipped to -120).
 *
 * Thread class: [setup] for every function, unless noted.
 */
#ifndef AUHOST_AUDIOQUEUE_H
#define AUHOST_AUDIOQUEUE_H

#include <AudioToolbox/MacTypes.h>
#include <AudioToolbox/CoreFoundationLite.h>
#include <AudioToolbox/CoreAudioTypes.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

AU_ENUM(OSStatus) {
    kAudioQueueErr_InvalidBuffer = -66687,
    kAudioQueueErr_BufferEmpty = -66686,
    kAudioQueueErr_DisposalPending = -66685,
    kAudioQueueErr_InvalidProperty = -66684,
    kAudioQueueErr_InvalidPropertySize = -66683,
    kAudioQueueErr_InvalidParameter = -66682,
    kAudioQueueErr_CannotStart = -66681,
    kAudioQueueErr_InvalidDevice = -66680,
    kAudioQueueErr_BufferInQueue = -66679,
    kAudioQueueErr_InvalidRunState = -66678,
    kAudioQueueErr_InvalidQueueType = -66677,
    kAudioQueueErr_Permissions = -66676,
    kAudioQueueErr_InvalidPropertyValue = -66675,
    kAudioQueueErr_PrimeTimedOut = -66674,
    kAudioQueueErr_CodecNotFound = -66673,
    kAudioQueueErr_InvalidCodecAccess = -66672,
    kAudioQueueErr_QueueInvalidated = -66671,
    kAudioQueueErr_TooManyTaps = -66670,
    kAudioQueueErr_InvalidTapContext = -66669,
    kAudioQueueErr_RecordUnderrun = -66668,
    kAudioQueueErr_InvalidTapType = -66667,
    kAudioQueueErr_BufferEnqueuedTwice = -66666,
    kAudioQueueErr_CannotStartYet = -66665,
    kAudioQueueErr_EnqueueDuringReset = -66632,
    kAudioQueueErr_InvalidOfflineMode = -66626
};

typedef UInt32 AudioQueuePropertyID;
AU_ENUM(AudioQueuePropertyID) {
    kAudioQueueProperty_IsRunning = 'aqrn',               /* UInt32, read-only; listeners fire on start and stop */
    kAudioQueueDeviceProperty_SampleRate = 'aqsr',        /* Float64, read-only (the granted rate once started) */
    kAudioQueueDeviceProperty_NumberChannels = 'aqdc',    /* UInt32, read-only */
    kAudioQueueProperty_CurrentDevice = 'aqcd',           /* CFStringRef: the ALSA PCM name; set while stopped;
                                                             reading returns a new string (CFRelease it) */
    kAudioQueueProperty_MagicCookie = 'aqmc',             /* void *: the decoder's cookie (PCM needs none) */
    kAudioQueueProperty_MaximumOutputPacketSize = 'xops', /* UInt32, read-only */
    kAudioQueueProperty_StreamDescription = 'aqft',       /* AudioStreamBasicDescription, read-only */
    kAudioQueueProperty_ChannelLayout = 'aqcl',           /* AudioChannelLayout: stored and returned */
    kAudioQueueProperty_EnableLevelMetering = 'aqme',     /* UInt32 0/1 */
    kAudioQueueProperty_CurrentLevelMeter = 'aqmv',       /* AudioQueueLevelMeterState[channels], read-only */
    kAudioQueueProperty_CurrentLevelMeterDB = 'aqmd',     /* AudioQueueLevelMeterState[channels], read-only */
    kAudioQueueProperty_DecodeBufferSizeFrames = 'dcbf',  /* UInt32 */
    kAudioQueueProperty_ConverterError = 'qcve',          /* SInt32, read-only */
    kAudioQueueProperty_EnableTimePitch = 'q_tp',         /* UInt32 0/1; set while stopped */
    kAudioQueueProperty_TimePitchAlgorithm = 'qtpa',      /* UInt32, one of kAudioQueueTimePitchAlgorithm_* */
    kAudioQueueProperty_TimePitchBypass = 'qtpb'          /* UInt32 0/1; set while stopped, after EnableTimePitch */
};

AU_ENUM(UInt32) {
    kAudioQueueTimePitchAlgorithm_Spectral = 'spec',
    kAudioQueueTimePitchAlgorithm_TimeDomain = 'tido',
    kAudioQueueTimePitchAlgorithm_Varispeed = 'vspd'
};

typedef UInt32 AudioQueueParameterID;
typedef Float32 AudioQueueParameterValue;
AU_ENUM(AudioQueueParameterID) {
    kAudioQueueParam_Volume = 1,         /* 0 … 1, default 1 */
    kAudioQueueParam_PlayRate = 2,       /* 0.5 … 2, default 1; needs EnableTimePitch */
    kAudioQueueParam_Pitch = 3,          /* -2400 … 2400 cents, default 0; needs EnableTimePitch */
    kAudioQueueParam_VolumeRampTime = 4, /* seconds, default 0 */
    kAudioQueueParam_Pan = 13            /* -1 … 1, default 0 */
};

typedef struct OpaqueAudioQueue *AudioQueueRef;
typedef struct OpaqueAudioQueueTimeline *AudioQueueTimelineRef;

/* A buffer the queue allocated. mAudioDataByteSize says how many bytes of mAudioData are valid. */
typedef struct AudioQueueBuffer {
    const UInt32 mAudioDataBytesCapacity;
    void *const mAudioData;
    UInt32 mAudioDataByteSize;
    void *_Nullable mUserData;
    const UInt32 mPacketDescriptionCapacity;
    AudioStreamPacketDescription *const _Nullable mPacketDescriptions;
    UInt32 mPacketDescriptionCount;
} AudioQueueBuffer;
typedef AudioQueueBuffer *AudioQueueBufferRef;

typedef struct AudioQueueParameterEvent {
    AudioQueueParameterID mID;
    AudioQueueParameterValue mValue;
} AudioQueueParameterEvent;

typedef struct AudioQueueLevelMeterState {
    Float32 mAveragePower;
    Float32 mPeakPower;
} AudioQueueLevelMeterState;

/* Called (on the queue's thread) with each buffer the queue has finished playing. */
typedef void (*AudioQueueOutputCallback)(void *_Nullable inUserData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer);
/* Called (on the queue's thread) with each buffer the queue has filled. */
typedef void (*AudioQueueInputCallback)(void *_Nullable inUserData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer,
                                        const AudioTimeStamp *inStartTime, UInt32 inNumberPacketDescriptions,
                                        const AudioStreamPacketDescription *_Nullable inPacketDescs);
/* Called when a property changes (IsRunning: on the thread that started or stopped the queue, or
   on the queue's thread when a Stop(false) finishes or the device fails; a failed device stops
   the queue and returns its buffers, and the next Start reopens the device). */
typedef void (*AudioQueuePropertyListenerProc)(void *_Nullable inUserData, AudioQueueRef inAQ, AudioQueuePropertyID inID);

/* Creates a playback queue for inFormat on the ALSA I/O unit. inFlags must be 0. Callbacks run on
   inCallbackRunLoop in inCallbackRunLoopMode when a run loop is given, else on the queue's thread. */
OSStatus AudioQueueNewOutput(const AudioStreamBasicDescription *inFormat, AudioQueueOutputCallback inCallbackProc,
                             void *_Nullable inUserData, CFRunLoopRef _Nullable inCallbackRunLoop,
                             CFStringRef _Nullable inCallbackRunLoopMode, UInt32 inFlags,
                             AudioQueueRef _Nullable *_Nonnull outAQ);
/* Creates a recording queue for inFormat on the ALSA I/O unit's input. inFlags must be 0. Callbacks
   as for AudioQueueNewOutput. */
OSStatus AudioQueueNewInput(const AudioStreamBasicDescription *inFormat, AudioQueueInputCallback inCallbackProc,
                            void *_Nullable inUserData, CFRunLoopRef _Nullable inCallbackRunLoop,
                            CFStringRef _Nullable inCallbackRunLoopMode, UInt32 inFlags,
                            AudioQueueRef _Nullable *_Nonnull outAQ);
/* Stops the queue at once and frees it with its buffers (inImmediate = false is treated the same:
   callbacks in progress finish first). */
OSStatus AudioQueueDispose(AudioQueueRef inAQ, Boolean inImmediate);

/* AUHost's bounds on one buffer (Apple documents none; its queues fail such sizes with a memory
   error too): inBufferByteSize 1 … kAUHostAudioQueueMaximumBufferByteSize (64 MiB: 174 s of
   48 kHz stereo Float32), inNumberPacketDescriptions 0 … kAUHostAudioQueueMaximumPacketDescriptions
   (1,048,576 = 16 MiB of descriptions: one per byte of a 1 MiB buffer). A size above them answers
   kAudio_MemFullError and *outBuffer = NULL; 0 bytes answer kAudio_ParamError. */
#define kAUHostAudioQueueMaximumBufferByteSize 67108864u
#define kAUHostAudioQueueMaximumPacketDescriptions 1048576u

OSStatus AudioQueueAllocateBuffer(AudioQueueRef inAQ, UInt32 inBufferByteSize, AudioQueueBufferRef _Nullable *_Nonnull outBuffer);
OSStatus AudioQueueAllocateBufferWithPacketDescriptions(AudioQueueRef inAQ, UInt32 inBufferByteSize,
                                                        UInt32 inNumberPacketDescriptions,
                                                        AudioQueueBufferRef _Nullable *_Nonnull outBuffer);
/* A buffer still enqueued answers kAudioQueueErr_BufferInQueue. */
OSStatus AudioQueueFreeBuffer(AudioQueueRef inAQ, AudioQueueBufferRef inBuffer);

/* Playback: plays mAudioDataByteSize bytes (whole frames; compressed: the packets, decoded now,
   a packet that does not decode answers the converter's status, also in
   kAudioQueueProperty_ConverterError); an empty buffer answers kAudioQueueErr_BufferEmpty.
   Recording: hands an empty buffer to be filled. [any thread but the device's; typically the
   callback] */
OSStatus AudioQueueEnqueueBuffer(AudioQueueRef inAQ, AudioQueueBufferRef inBuffer, UInt32 inNumPacketDescs,
                                 const AudioStreamPacketDescription *_Nullable inPacketDescs);
/* As AudioQueueEnqueueBuffer, skipping inTrimFramesAtStart and inTrimFramesAtEnd frames of the
   buffer and applying inParamValues when the buffer starts to play. inStartTime must be NULL or
   have no valid fields (scheduled starts are not offered: kAudioQueueErr_InvalidParameter). */
OSStatus AudioQueueEnqueueBufferWithParameters(AudioQueueRef inAQ, AudioQueueBufferRef inBuffer, UInt32 inNumPacketDescs,
                                               const AudioStreamPacketDescription *_Nullable inPacketDescs,
                                               UInt32 inTrimFramesAtStart, UInt32 inTrimFramesAtEnd,
                                               UInt32 inNumParamValues,
                                               const AudioQueueParameterEvent *_Nullable inParamValues,
                                               const AudioTimeStamp *_Nullable inStartTime,
                                               AudioTimeStamp *_Nullable outActualStartTime);

/* Starts (or resumes) the device now; inStartTime must be NULL. */
OSStatus AudioQueueStart(AudioQueueRef inAQ, const AudioTimeStamp *_Nullable inStartTime);
/* Readies the queue to start; buffers are decoded when enqueued, so this reports the frames enqueued
   (up to inNumberOfFramesToPrepare, or all of them when it is 0). */
OSStatus AudioQueuePrime(AudioQueueRef inAQ, UInt32 inNumberOfFramesToPrepare, UInt32 *_Nullable outNumberOfFramesPrepared);
/* inImmediate true: stops now; buffers still enqueued are returned to the callback before this
   returns (a recording queue returns the buffer it was filling with what it holds). false, on a
   playback queue: returns at once; the queue stops after playing what is enqueued (and the
   device's own buffer), then IsRunning listeners fire; called before Start with buffers enqueued
   (a short file's priming), Start plays them and then stops. false on a recording queue stops
   as true does. */
OSStatus AudioQueueStop(AudioQueueRef inAQ, Boolean inImmediate);
/* Stops the device, keeping the enqueued buffers and the play position (IsRunning stays 1);
   Start resumes. The device's own buffer (periods × period frames) is dropped, not replayed. */
OSStatus AudioQueuePause(AudioQueueRef inAQ);
/* Makes sure everything enqueued will be played (nothing is held back: buffers are decoded when enqueued). */
OSStatus AudioQueueFlush(AudioQueueRef inAQ);
/* Returns every enqueued buffer to the callback and clears the play position and ramps. */
OSStatus AudioQueueReset(AudioQueueRef inAQ);

/* [any thread] */
OSStatus AudioQueueGetParameter(AudioQueueRef inAQ, AudioQueueParameterID inParamID, AudioQueueParameterValue *outValue);
/* Takes effect at the next device period. Out-of-range values answer kAudioQueueErr_InvalidParameter. [any thread but the device's] */
OSStatus AudioQueueSetParameter(AudioQueueRef inAQ, AudioQueueParameterID inParamID, AudioQueueParameterValue inValue);

OSStatus AudioQueueGetProperty(AudioQueueRef inAQ, AudioQueuePropertyID inID, void *outData, UInt32 *ioDataSize);
OSStatus AudioQueueSetProperty(AudioQueueRef inAQ, AudioQueuePropertyID inID, const void *inData, UInt32 inDataSize);
OSStatus AudioQueueGetPropertySize(AudioQueueRef inAQ, AudioQueuePropertyID inID, UInt32 *outDataSize);
OSStatus AudioQueueAddPropertyListener(AudioQueueRef inAQ, AudioQueuePropertyID inID, AudioQueuePropertyListenerProc inProc,
                                       void *_Nullable inUserData);
OSStatus AudioQueueRemovePropertyListener(AudioQueueRef inAQ, AudioQueuePropertyID inID,
                                          AudioQueuePropertyListenerProc inProc, void *_Nullable inUserData);

/* A timeline reports discontinuities (a Stop, Reset or device failure since it was last asked). */
OSStatus AudioQueueCreateTimeline(AudioQueueRef inAQ, AudioQueueTimelineRef _Nullable *_Nonnull outTimeline);
OSStatus AudioQueueDisposeTimeline(AudioQueueRef inAQ, AudioQueueTimelineRef inTimeline);
/* The queue's time: mSampleTime counts frames played (or recorded) since Start, in the queue's
   sample rate, with kAudioTimeStampSampleTimeValid. Before the first Start:
   kAudioQueueErr_InvalidRunState. [any thread] */
OSStatus AudioQueueGetCurrentTime(AudioQueueRef inAQ, AudioQueueTimelineRef _Nullable inTimeline,
                                  AudioTimeStamp *_Nullable outTimeStamp, Boolean *_Nullable outTimelineDiscontinuity);

/* Offline render: inFormat (linear PCM; NULL leaves offline mode) is what AudioQueueOfflineRender
   produces. Set it while the queue is stopped. */
OSStatus AudioQueueSetOfflineRenderFormat(AudioQueueRef inAQ, const AudioStreamBasicDescription *_Nullable inFormat,
                                          const AudioChannelLayout *_Nullable inLayout);
/* Renders inNumberFrames frames of the queue into ioBuffer in the offline format, setting its
   mAudioDataByteSize; the first call (made with 0 frames, as documented) renders nothing.
   Buffers that finish are returned to the output callback before this returns. Fewer frames than
   asked come back only when the queue was stopped with Stop(false) and its last buffer ends
   within the call (that call returns what is left; the queue then stops, and later calls return
   0 frames); otherwise a queue that runs out of buffers renders silence. Before the first Start:
   kAudioQueueErr_InvalidRunState; without an offline format: kAudioQueueErr_InvalidOfflineMode. */
OSStatus AudioQueueOfflineRender(AudioQueueRef inAQ, const AudioTimeStamp *inTimestamp, AudioQueueBufferRef ioBuffer,
                                 UInt32 inNumberFrames);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
