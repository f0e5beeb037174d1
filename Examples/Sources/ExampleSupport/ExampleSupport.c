/* nanosleep is POSIX: declared under strict -std=c17 only with this. */
#define _POSIX_C_SOURCE 200809L
#include "ExampleSupport.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void CheckStatus(OSStatus status, const char *what) {
    if (status == noErr) return;
    char message[512] = "";
    CFStringRef text = AUHostCopyLastErrorMessage();
    if (text) {
        CFStringGetCString(text, message, sizeof message, kCFStringEncodingUTF8);
        CFRelease(text);
    }
    fprintf(stderr, "error: %s failed with status %d. %s\n", what, (int)status, message);
    exit(1);
}

AudioStreamBasicDescription ExampleCanonicalFormat(Float64 sampleRate, UInt32 channels) {
    AudioStreamBasicDescription format = {0};
    format.mSampleRate = sampleRate;
    format.mFormatID = kAudioFormatLinearPCM;
    format.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved;
    format.mChannelsPerFrame = channels;
    format.mFramesPerPacket = 1;
    format.mBytesPerFrame = sizeof(Float32);
    format.mBytesPerPacket = sizeof(Float32);
    format.mBitsPerChannel = 8 * sizeof(Float32);
    return format;
}

OSStatus ExampleSetDevice(AudioUnit ioUnit, const char *pcmName) {
    CFStringRef name = CFStringCreateWithCString(NULL, pcmName, kCFStringEncodingUTF8);
    OSStatus status = AudioUnitSetProperty(ioUnit, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0,
                                           &name, sizeof name);
    CFRelease(name);
    return status;
}

int ExampleWaitFor(volatile SInt64 *counter, SInt64 target, double seconds) {
    struct timespec millisecond = {0, 1000000};
    for (double waited = 0; waited < seconds; waited += 0.001) {
        if (__atomic_load_n(counter, __ATOMIC_ACQUIRE) >= target) return 1;
        nanosleep(&millisecond, NULL);
    }
    return __atomic_load_n(counter, __ATOMIC_ACQUIRE) >= target;
}
