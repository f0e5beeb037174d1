/*
 * host.c — a C host written exactly as on Apple's platforms: find an effect by description (with
 * a wildcard manufacturer), set its formats and MaximumFramesPerSlice, attach a render callback,
 * initialize, render 3 slices of 512 frames, check every sample, dispose.
 * Prints "PASS" and exits 0 when every sample is as expected.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>

AudioComponentPlugInInterface *GainUnitFactory(const AudioComponentDescription *desc);

#define CHECK(call) do { OSStatus s_ = (call); if (s_ != noErr) { fprintf(stderr, "%s failed: %d\n", #call, (int)s_); return 1; } } while (0)

/* Input: frame numbers, continuing across calls; channel c is offset by 1000 c. */
static OSStatus renderCallback(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                               UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    UInt32 *counter = inRefCon;
    for (UInt32 b = 0; b < ioData->mNumberBuffers; b++) {
        Float32 *samples = ioData->mBuffers[b].mData;
        for (UInt32 i = 0; i < inNumberFrames; i++) samples[i] = (Float32)(*counter + i + 1000 * b);
    }
    *counter += inNumberFrames;
    return noErr;
}

int main(void) {
    /* Loading AUHost leaves this program's floating point as IEEE has it (FloatMode.c): a
       dependency built with -ffast-math once switched subnormals off as it loaded. */
    volatile float smallest_normal = FLT_MIN;
    volatile float quarter = smallest_normal * 0.25f;
    if (quarter == 0.0f) {
        fprintf(stderr, "FLT_MIN / 4 was flushed to zero: loading AUHost changed the float mode\n");
        return 1;
    }

    AudioComponentDescription registration = { kAudioUnitType_Effect, 'cgan', 'AUHt', 0, 0 };
    AudioComponentRegister(&registration, CFSTR("AUHost Tests: C Gain"), 0x00010000, GainUnitFactory);

    AudioComponentDescription desc;
    desc.componentType = kAudioUnitType_Effect;
    desc.componentSubType = 'cgan';
    desc.componentManufacturer = 0;          /* any manufacturer */
    desc.componentFlags = 0;
    desc.componentFlagsMask = 0;
    AudioComponent comp = AudioComponentFindNext(NULL, &desc);
    if (!comp) { fprintf(stderr, "no effect found\n"); return 1; }

    AudioUnit unit;
    CHECK(AudioComponentInstanceNew(comp, &unit));

    AudioStreamBasicDescription asbd = {0};
    asbd.mSampleRate = 44100.0;
    asbd.mFormatID = kAudioFormatLinearPCM;
    asbd.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved;
    asbd.mBytesPerPacket = 4;
    asbd.mFramesPerPacket = 1;
    asbd.mBytesPerFrame = 4;
    asbd.mChannelsPerFrame = 2;
    asbd.mBitsPerChannel = 32;
    CHECK(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &asbd, sizeof(asbd)));
    CHECK(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &asbd, sizeof(asbd)));
    UInt32 maxFrames = 512;
    CHECK(AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maxFrames, sizeof(maxFrames)));

    UInt32 counter = 0;
    AURenderCallbackStruct callbackStruct;
    callbackStruct.inputProc = &renderCallback;
    callbackStruct.inputProcRefCon = &counter;
    CHECK(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callbackStruct, sizeof(callbackStruct)));
    CHECK(AudioUnitInitialize(unit));

    AudioBufferList *bufferList = malloc(offsetof(AudioBufferList, mBuffers) + 2 * sizeof(AudioBuffer));
    bufferList->mNumberBuffers = 2;
    for (int b = 0; b < 2; b++) {
        bufferList->mBuffers[b].mNumberChannels = 1;
        bufferList->mBuffers[b].mDataByteSize = 512 * sizeof(Float32);
        bufferList->mBuffers[b].mData = malloc(512 * sizeof(Float32));
    }
    AudioTimeStamp timeStamp = {0};
    timeStamp.mFlags = kAudioTimeStampSampleTimeValid;
    int wrong = 0;
    for (int slice = 0; slice < 3; slice++) {
        AudioUnitRenderActionFlags flags = 0;
        CHECK(AudioUnitRender(unit, &flags, &timeStamp, 0, 512, bufferList));
        for (int b = 0; b < 2; b++) {
            Float32 *samples = bufferList->mBuffers[b].mData;
            for (int i = 0; i < 512; i++) {
                Float32 expected = 0.5f * (Float32)(slice * 512 + i + 1000 * b);
                if (samples[i] != expected) wrong++;
            }
        }
        timeStamp.mSampleTime += 512;
    }
    /* Misuse answers its documented code: too many frames. */
    AudioUnitRenderActionFlags flags = 0;
    if (AudioUnitRender(unit, &flags, &timeStamp, 0, 1024, bufferList) != kAudioUnitErr_TooManyFramesToProcess) wrong++;

    CHECK(AudioUnitUninitialize(unit));
    CHECK(AudioComponentInstanceDispose(unit));
    for (int b = 0; b < 2; b++) free(bufferList->mBuffers[b].mData);
    free(bufferList);

    CFStringRef name = NULL;
    CHECK(AudioComponentCopyName(comp, &name));
    char text[64];
    CFStringGetCString(name, text, sizeof text, kCFStringEncodingUTF8);
    CFRelease(name);
    printf("%s: %d wrong samples\n", text, wrong);
    if (wrong) return 1;
    printf("PASS\n");
    return 0;
}
