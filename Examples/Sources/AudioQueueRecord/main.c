/*
 * audio-queue-record PCM FRAMES FILE — the "record to a file" pattern of Apple's Audio Queue
 * guide: an input queue with three buffers of about half a second (DeriveBufferSize), a callback
 * that writes each filled buffer with AudioFileWritePackets and re-enqueues it while recording,
 * the magic cookie copied to the file (SetMagicCookieForFile; PCM has none), and Stop(true).
 * What changed for Linux: a NULL run loop (callbacks on the queue's thread); the input route is
 * an ALSA PCM set with kAudioQueueProperty_CurrentDevice; the recording stops after FRAMES frames
 * rather than on a button.
 */
#include "ExampleSupport.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int kNumberBuffers = 3;

struct AQRecorderState {
    AudioStreamBasicDescription mDataFormat;
    AudioQueueRef mQueue;
    AudioQueueBufferRef mBuffers[3];
    AudioFileID mAudioFile;
    UInt32 bufferByteSize;
    SInt64 mCurrentPacket;
    volatile bool mIsRunning;
    volatile SInt64 recorded;
};

/* The recording callback: write the buffer's packets, then hand the buffer back. */
static void HandleInputBuffer(void *aqData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer, const AudioTimeStamp *inStartTime,
                              UInt32 inNumPackets, const AudioStreamPacketDescription *inPacketDesc) {
    struct AQRecorderState *pAqData = (struct AQRecorderState *)aqData;
    (void)inStartTime;
    if (inNumPackets == 0 && pAqData->mDataFormat.mBytesPerPacket != 0)
        inNumPackets = inBuffer->mAudioDataByteSize / pAqData->mDataFormat.mBytesPerPacket;
    if (inNumPackets > 0 && AudioFileWritePackets(pAqData->mAudioFile, false, inBuffer->mAudioDataByteSize, inPacketDesc,
                                                  pAqData->mCurrentPacket, &inNumPackets, inBuffer->mAudioData) == noErr) {
        pAqData->mCurrentPacket += inNumPackets;
        __atomic_store_n(&pAqData->recorded, pAqData->mCurrentPacket, __ATOMIC_RELEASE);
    }
    if (pAqData->mIsRunning == 0) return;
    AudioQueueEnqueueBuffer(pAqData->mQueue, inBuffer, 0, NULL);
}

/* DeriveBufferSize: bytes for `seconds` of audio, at most 320 KiB. */
static void DeriveBufferSize(AudioQueueRef audioQueue, AudioStreamBasicDescription *ASBDescription, Float64 seconds,
                             UInt32 *outBufferSize) {
    static const int maxBufferSize = 0x50000;
    int maxPacketSize = (int)ASBDescription->mBytesPerPacket;
    if (maxPacketSize == 0) {
        UInt32 maxVBRPacketSize = sizeof(maxPacketSize);
        AudioQueueGetProperty(audioQueue, kAudioQueueProperty_MaximumOutputPacketSize, &maxPacketSize, &maxVBRPacketSize);
    }
    Float64 numBytesForTime = ASBDescription->mSampleRate * maxPacketSize * seconds;
    *outBufferSize = (UInt32)(numBytesForTime < maxBufferSize ? numBytesForTime : maxBufferSize);
}

/* SetMagicCookieForFile: copies the queue's magic cookie, if it has one, to the file. */
static OSStatus SetMagicCookieForFile(AudioQueueRef inQueue, AudioFileID inFile) {
    OSStatus result = noErr;
    UInt32 cookieSize;
    if (AudioQueueGetPropertySize(inQueue, kAudioQueueProperty_MagicCookie, &cookieSize) == noErr && cookieSize > 0) {
        char *magicCookie = (char *)malloc(cookieSize);
        if (AudioQueueGetProperty(inQueue, kAudioQueueProperty_MagicCookie, magicCookie, &cookieSize) == noErr)
            result = AudioFileSetProperty(inFile, kAudioFilePropertyMagicCookieData, cookieSize, magicCookie);
        free(magicCookie);
    }
    return result;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: audio-queue-record ALSA-PCM FRAMES FILE.wav\n");
        return 2;
    }
    struct AQRecorderState aqData = {0};
    aqData.mDataFormat.mFormatID = kAudioFormatLinearPCM;
    aqData.mDataFormat.mSampleRate = 48000.0;
    aqData.mDataFormat.mChannelsPerFrame = 2;
    aqData.mDataFormat.mBitsPerChannel = 16;
    aqData.mDataFormat.mBytesPerPacket = aqData.mDataFormat.mBytesPerFrame =
        aqData.mDataFormat.mChannelsPerFrame * sizeof(SInt16);
    aqData.mDataFormat.mFramesPerPacket = 1;
    aqData.mDataFormat.mFormatFlags = kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked;

    CheckStatus(AudioQueueNewInput(&aqData.mDataFormat, HandleInputBuffer, &aqData, NULL, NULL, 0, &aqData.mQueue),
                "AudioQueueNewInput");
    CFStringRef device = CFStringCreateWithCString(NULL, argv[1], kCFStringEncodingUTF8);
    CheckStatus(AudioQueueSetProperty(aqData.mQueue, kAudioQueueProperty_CurrentDevice, &device, sizeof device),
                "AudioQueueSetProperty(CurrentDevice)");
    CFRelease(device);
    UInt32 dataFormatSize = sizeof(aqData.mDataFormat);
    CheckStatus(AudioQueueGetProperty(aqData.mQueue, kAudioQueueProperty_StreamDescription, &aqData.mDataFormat, &dataFormatSize),
                "AudioQueueGetProperty(StreamDescription)");

    CFURLRef audioFileURL = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)argv[3], (CFIndex)strlen(argv[3]), false);
    CheckStatus(AudioFileCreateWithURL(audioFileURL, kAudioFileWAVEType, &aqData.mDataFormat, kAudioFileFlags_EraseFile,
                                       &aqData.mAudioFile),
                "AudioFileCreateWithURL");
    CFRelease(audioFileURL);
    DeriveBufferSize(aqData.mQueue, &aqData.mDataFormat, 0.5, &aqData.bufferByteSize);
    for (int i = 0; i < kNumberBuffers; ++i) {
        CheckStatus(AudioQueueAllocateBuffer(aqData.mQueue, aqData.bufferByteSize, &aqData.mBuffers[i]), "AudioQueueAllocateBuffer");
        CheckStatus(AudioQueueEnqueueBuffer(aqData.mQueue, aqData.mBuffers[i], 0, NULL), "AudioQueueEnqueueBuffer");
    }
    CheckStatus(SetMagicCookieForFile(aqData.mQueue, aqData.mAudioFile), "SetMagicCookieForFile");

    SInt64 frames = atoll(argv[2]);
    aqData.mCurrentPacket = 0;
    aqData.mIsRunning = true;
    CheckStatus(AudioQueueStart(aqData.mQueue, NULL), "AudioQueueStart");
    if (!ExampleWaitFor(&aqData.recorded, frames, 60)) {
        fprintf(stderr, "error: recorded %lld of %lld frames\n", (long long)aqData.recorded, (long long)frames);
        return 1;
    }
    aqData.mIsRunning = false;
    CheckStatus(AudioQueueStop(aqData.mQueue, true), "AudioQueueStop");
    CheckStatus(SetMagicCookieForFile(aqData.mQueue, aqData.mAudioFile), "SetMagicCookieForFile");
    CheckStatus(AudioQueueDispose(aqData.mQueue, true), "AudioQueueDispose");
    CheckStatus(AudioFileClose(aqData.mAudioFile), "AudioFileClose");
    printf("recorded %lld\nbuffer-bytes %u\n", (long long)aqData.mCurrentPacket, (unsigned)aqData.bufferByteSize);
    return 0;
}
