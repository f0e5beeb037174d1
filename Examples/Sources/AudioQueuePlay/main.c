/*
 * audio-queue-play FILE PCM VOLUME — seed 002's Audio Queue listings and the "play a file with
 * three buffers" pattern of Apple's Audio Queue guide, in order:
 *   2-1/2-2/2-3  a property listener on kAudioQueueProperty_IsRunning;
 *   2-7          the file's magic cookie copied to the queue (PCM has none: size 0);
 *   2-8          the buffer size from PacketSizeUpperBound (0.5 s, bounded 16 KiB … 64 KiB);
 *   2-14         the queue, its callback (AudioFileReadPackets, enqueue, Stop(false) at the end);
 *   2-15         the playback level set with kAudioQueueParam_Volume;
 *   2-16         the level read back as AudioQueueLevelMeterState from CurrentLevelMeterDB.
 * What changed for Linux: no CFRunLoop exists here, so the queue is created with a NULL run loop
 * (callbacks arrive on the queue's own thread, as documented for NULL); the route is an ALSA PCM
 * name set with kAudioQueueProperty_CurrentDevice (the iOS audio session has no counterpart);
 * CAStreamBasicDescription is a plain AudioStreamBasicDescription; the Objective-C methods are C
 * functions; the run loop wait is a wait on the listener's counter.
 */
#include "ExampleSupport.h"
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int kNumberBuffers = 3;

/* Listing 2-14's structure (CAStreamBasicDescription → AudioStreamBasicDescription). */
struct myAQStruct {
    AudioFileID mAudioFile;
    AudioStreamBasicDescription mDataFormat;
    AudioQueueRef mQueue;
    AudioQueueBufferRef mBuffers[3];
    SInt64 mCurrentPacket;
    UInt32 mNumPacketsToRead;
    AudioStreamPacketDescription *mPacketDescs;
    bool mDone;
    UInt32 bufferByteSize;
    volatile SInt64 stops; /* counted by the IsRunning listener */
};

/* Listing 2-14: the playback callback. */
static void AQTestBufferCallback(void *inUserData, AudioQueueRef inAQ, AudioQueueBufferRef inCompleteAQBuffer) {
    struct myAQStruct *myInfo = (struct myAQStruct *)inUserData;
    if (myInfo->mDone) return;
    UInt32 numBytes;
    UInt32 nPackets = myInfo->mNumPacketsToRead;
    AudioFileReadPackets(myInfo->mAudioFile, false, &numBytes, myInfo->mPacketDescs, myInfo->mCurrentPacket, &nPackets,
                         inCompleteAQBuffer->mAudioData);
    if (nPackets > 0) {
        inCompleteAQBuffer->mAudioDataByteSize = numBytes;
        AudioQueueEnqueueBuffer(inAQ, inCompleteAQBuffer, (myInfo->mPacketDescs ? nPackets : 0), myInfo->mPacketDescs);
        myInfo->mCurrentPacket += nPackets;
    } else {
        AudioQueueStop(myInfo->mQueue, false);
        myInfo->mDone = true;
    }
}

/* Listing 2-2: the property listener (the UI update becomes a counter of stops). */
static void propertyListenerCallback(void *inUserData, AudioQueueRef queueObject, AudioQueuePropertyID propertyID) {
    struct myAQStruct *player = (struct myAQStruct *)inUserData;
    UInt32 running = 0, size = sizeof running;
    AudioQueueGetProperty(queueObject, propertyID, &running, &size);
    if (!running) __atomic_add_fetch(&player->stops, 1, __ATOMIC_RELEASE);
}

/* Listing 2-7: the magic cookie from the file to the queue. */
static void copyMagicCookieToQueue(AudioQueueRef queue, AudioFileID file) {
    UInt32 propertySize = sizeof(UInt32);
    OSStatus result = AudioFileGetPropertyInfo(file, kAudioFilePropertyMagicCookieData, &propertySize, NULL);
    if (!result && propertySize) {
        char *cookie = (char *)malloc(propertySize);
        AudioFileGetProperty(file, kAudioFilePropertyMagicCookieData, &propertySize, cookie);
        AudioQueueSetProperty(queue, kAudioQueueProperty_MagicCookie, cookie, propertySize);
        free(cookie);
    }
}

/* Listing 2-8: the buffer size for `seconds` of audio, from the largest packet. */
static void calculateSizesFor(struct myAQStruct *info, Float64 seconds) {
    UInt32 maxPacketSize;
    UInt32 propertySize = sizeof(maxPacketSize);
    CheckStatus(AudioFileGetProperty(info->mAudioFile, kAudioFilePropertyPacketSizeUpperBound, &propertySize, &maxPacketSize),
                "AudioFileGetProperty(PacketSizeUpperBound)");
    static const int maxBufferSize = 0x10000; /* limit maximum size to 64K */
    static const int minBufferSize = 0x4000;  /* limit minimum size to 16K */
    if (info->mDataFormat.mFramesPerPacket) {
        Float64 numPacketsForTime = info->mDataFormat.mSampleRate / info->mDataFormat.mFramesPerPacket * seconds;
        info->bufferByteSize = (UInt32)(numPacketsForTime * maxPacketSize);
    } else {
        /* if frames per packet is zero, then the codec doesn't know the relationship between
           packets and time: return a default buffer size */
        info->bufferByteSize = maxBufferSize > maxPacketSize ? maxBufferSize : maxPacketSize;
    }
    if (info->bufferByteSize > maxBufferSize && info->bufferByteSize > maxPacketSize) info->bufferByteSize = maxBufferSize;
    else if (info->bufferByteSize < minBufferSize) info->bufferByteSize = minBufferSize;
    info->mNumPacketsToRead = info->bufferByteSize / maxPacketSize;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: audio-queue-play FILE ALSA-PCM VOLUME\n");
        return 2;
    }
    struct myAQStruct myInfo = {0};
    CFURLRef url = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)argv[1], (CFIndex)strlen(argv[1]), false);
    CheckStatus(AudioFileOpenURL(url, kAudioFileReadPermission, 0, &myInfo.mAudioFile), "AudioFileOpenURL");
    CFRelease(url);
    UInt32 size = sizeof myInfo.mDataFormat;
    CheckStatus(AudioFileGetProperty(myInfo.mAudioFile, kAudioFilePropertyDataFormat, &size, &myInfo.mDataFormat),
                "AudioFileGetProperty(DataFormat)");

    /* Listing 2-14: instantiate the queue (NULL run loop: callbacks on the queue's thread). */
    CheckStatus(AudioQueueNewOutput(&myInfo.mDataFormat, AQTestBufferCallback, &myInfo, NULL, NULL, 0, &myInfo.mQueue),
                "AudioQueueNewOutput");
    CFStringRef device = CFStringCreateWithCString(NULL, argv[2], kCFStringEncodingUTF8);
    CheckStatus(AudioQueueSetProperty(myInfo.mQueue, kAudioQueueProperty_CurrentDevice, &device, sizeof device),
                "AudioQueueSetProperty(CurrentDevice)");
    CFRelease(device);
    /* Listing 2-3: register the property listener. */
    CheckStatus(AudioQueueAddPropertyListener(myInfo.mQueue, kAudioQueueProperty_IsRunning, propertyListenerCallback, &myInfo),
                "AudioQueueAddPropertyListener");
    copyMagicCookieToQueue(myInfo.mQueue, myInfo.mAudioFile);
    calculateSizesFor(&myInfo, 0.5);

    /* The guide's priming: allocate three buffers and fill each by calling the callback. */
    for (int i = 0; i < kNumberBuffers; ++i) {
        CheckStatus(AudioQueueAllocateBuffer(myInfo.mQueue, myInfo.bufferByteSize, &myInfo.mBuffers[i]), "AudioQueueAllocateBuffer");
        AQTestBufferCallback(&myInfo, myInfo.mQueue, myInfo.mBuffers[i]);
    }
    /* Listing 2-15: set the playback level directly. */
    Float32 volume = (Float32)atof(argv[3]);
    CheckStatus(AudioQueueSetParameter(myInfo.mQueue, kAudioQueueParam_Volume, volume), "AudioQueueSetParameter(Volume)");
    UInt32 metering = 1;
    CheckStatus(AudioQueueSetProperty(myInfo.mQueue, kAudioQueueProperty_EnableLevelMetering, &metering, sizeof metering),
                "AudioQueueSetProperty(EnableLevelMetering)");
    CheckStatus(AudioQueueStart(myInfo.mQueue, NULL), "AudioQueueStart");
    if (!ExampleWaitFor(&myInfo.stops, 1, 60)) {
        fprintf(stderr, "error: the queue did not stop after playing the file\n");
        return 1;
    }

    /* Listing 2-16: the playback level, one AudioQueueLevelMeterState per channel. */
    AudioQueueLevelMeterState levels[2] = {{0}};
    size = sizeof levels;
    CheckStatus(AudioQueueGetProperty(myInfo.mQueue, kAudioQueueProperty_CurrentLevelMeterDB, levels, &size),
                "AudioQueueGetProperty(CurrentLevelMeterDB)");
    printf("played %lld\n", (long long)myInfo.mCurrentPacket);
    printf("buffer-bytes %u\n", (unsigned)myInfo.bufferByteSize);
    for (UInt32 c = 0; c < size / sizeof levels[0]; ++c)
        printf("peak-db%u %.3f\naverage-db%u %.3f\n", (unsigned)c, levels[c].mPeakPower, (unsigned)c, levels[c].mAveragePower);
    CheckStatus(AudioQueueDispose(myInfo.mQueue, true), "AudioQueueDispose");
    CheckStatus(AudioFileClose(myInfo.mAudioFile), "AudioFileClose");
    return 0;
}
