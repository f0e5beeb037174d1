// The playback program of Apple's Audio Queue Services Programming Guide ("Playing Audio") as
// third-party C++ ports write it: AudioQueueNewOutput with CFRunLoopGetCurrent() and
// kCFRunLoopCommonModes, then CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.25, false) until the
// callback has read the whole file; the file's URL string read back in MacRoman.
// scripts/check-guide-player.sh builds it with g++, clang++ and clang++ -fblocks and checks that
// every callback ran on this (the run loop's) thread and the device received the file exactly.
#include <AudioToolbox/AudioToolbox.h>
#include <CoreFoundation/CoreFoundation.h>
#include <pthread.h>

static const int kNumberBuffers = 3;
struct AQPlayerState {
    AudioStreamBasicDescription mDataFormat;
    AudioQueueRef mQueue;
    AudioQueueBufferRef mBuffers[kNumberBuffers];
    AudioFileID mAudioFile;
    UInt32 bufferByteSize;
    SInt64 mCurrentPacket;
    UInt32 mNumPacketsToRead;
    AudioStreamPacketDescription *mPacketDescs;
    bool mIsRunning;
};

static pthread_t runLoopThread;
static int callbacksElsewhere;

static void HandleOutputBuffer(void *aqData, AudioQueueRef inAQ, AudioQueueBufferRef inBuffer) {
    AQPlayerState *pAqData = (AQPlayerState *)aqData;
    if (!pthread_equal(pthread_self(), runLoopThread)) callbacksElsewhere++;
    if (!pAqData->mIsRunning) return;
    UInt32 numBytesReadFromFile = inBuffer->mAudioDataBytesCapacity;
    UInt32 numPackets = pAqData->mNumPacketsToRead;
    AudioFileReadPacketData(pAqData->mAudioFile, false, &numBytesReadFromFile, pAqData->mPacketDescs, pAqData->mCurrentPacket,
                            &numPackets, inBuffer->mAudioData);
    if (numPackets > 0) {
        inBuffer->mAudioDataByteSize = numBytesReadFromFile;
        AudioQueueEnqueueBuffer(pAqData->mQueue, inBuffer, (pAqData->mPacketDescs ? numPackets : 0), pAqData->mPacketDescs);
        pAqData->mCurrentPacket += numPackets;
    } else {
        AudioQueueStop(pAqData->mQueue, false);
        pAqData->mIsRunning = false;
    }
}

int main(int argc, const char *argv[]) {
    if (argc < 2) return 2;
    runLoopThread = pthread_self();
    AQPlayerState aqData = {};
    CFURLRef audioFileURL = CFURLCreateFromFileSystemRepresentation(NULL, (const UInt8 *)argv[1], (CFIndex)strlen(argv[1]), false);
    char url[1024];
    CFStringGetCString(CFURLGetString(audioFileURL), url, sizeof url, kCFStringEncodingMacRoman);
    OSStatus result = AudioFileOpenURL(audioFileURL, kAudioFileReadPermission, 0, &aqData.mAudioFile);
    CFRelease(audioFileURL);
    if (result != noErr) return 1;
    UInt32 dataFormatSize = sizeof(aqData.mDataFormat);
    AudioFileGetProperty(aqData.mAudioFile, kAudioFilePropertyDataFormat, &dataFormatSize, &aqData.mDataFormat);
    result = AudioQueueNewOutput(&aqData.mDataFormat, HandleOutputBuffer, &aqData, CFRunLoopGetCurrent(), kCFRunLoopCommonModes, 0,
                                 &aqData.mQueue);
    if (result != noErr) return 1;
    aqData.mNumPacketsToRead = 8192;  // PCM: one frame per packet; the three buffers hold the check's file
    aqData.bufferByteSize = aqData.mNumPacketsToRead * aqData.mDataFormat.mBytesPerPacket;
    aqData.mIsRunning = true;
    for (int i = 0; i < kNumberBuffers; ++i) {
        AudioQueueAllocateBuffer(aqData.mQueue, aqData.bufferByteSize, &aqData.mBuffers[i]);
        HandleOutputBuffer(&aqData, aqData.mQueue, aqData.mBuffers[i]);
    }
    AudioQueueSetParameter(aqData.mQueue, kAudioQueueParam_Volume, 1.0);
    AudioQueueStart(aqData.mQueue, NULL);
    do {
        CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.25, false);
    } while (aqData.mIsRunning);
    CFRunLoopRunInMode(kCFRunLoopDefaultMode, 1, false);
    AudioQueueDispose(aqData.mQueue, true);
    AudioFileClose(aqData.mAudioFile);
    printf("url %s\npackets %lld\ncallbacks-elsewhere %d\n", url, (long long)aqData.mCurrentPacket, callbacksElsewhere);
    return callbacksElsewhere == 0 ? 0 : 1;
}
