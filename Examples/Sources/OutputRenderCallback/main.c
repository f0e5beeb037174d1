/*
 * Pattern 4 of the hosting guide ("Output-only with a render callback", figure 2-4): a render
 * callback attached directly to the input scope of the I/O unit's output element generates the
 * sound (the examples' test signal, two channels).
 *
 * Linux: the audio session is replaced by the I/O unit's device and period properties.
 * Usage: output-render-callback PCM FRAMES
 */
#include <ExampleSupport.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    SInt64 nextFrame;                 /* render thread only */
    volatile SInt64 framesRendered;   /* read by main */
} ToneState;

/* [render thread] Fill every channel buffer with the next frames of the test signal. */
static OSStatus renderCallback(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                               UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    ToneState *tone = inRefCon;
    for (UInt32 channel = 0; channel < ioData->mNumberBuffers; ++channel) {
        Float32 *samples = ioData->mBuffers[channel].mData;
        for (UInt32 i = 0; i < inNumberFrames; ++i) samples[i] = ExampleSignal(tone->nextFrame + i, channel);
    }
    tone->nextFrame += inNumberFrames;
    __atomic_store_n(&tone->framesRendered, tone->nextFrame, __ATOMIC_RELEASE);
    return noErr;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: output-render-callback PCM FRAMES\n"); return 2; }
    SInt64 frames = atoll(argv[2]);
    static ToneState tone;

    AudioComponentDescription ioUnitDescription = {kAudioUnitType_Output, kAudioUnitSubType_RemoteIO, kAudioUnitManufacturer_Apple, 0, 0};
    AudioUnit ioUnit;
    CheckStatus(AudioComponentInstanceNew(AudioComponentFindNext(NULL, &ioUnitDescription), &ioUnit), "AudioComponentInstanceNew");

    // Linux counterpart of the audio session: device, preferred rate and I/O buffer duration.
    CheckStatus(ExampleSetDevice(ioUnit, argv[1]), "set CurrentDevice");
    Float64 preferredRate = 48000;
    UInt32 periodFrames = 64, periodCount = 4;
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0,
                                     &preferredRate, sizeof preferredRate), "set PreferredSampleRate");
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0,
                                     &periodFrames, sizeof periodFrames), "set PreferredPeriodFrames");
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0,
                                     &periodCount, sizeof periodCount), "set PreferredPeriodCount");

    AudioStreamBasicDescription stereoFormat = ExampleCanonicalFormat(preferredRate, 2);
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0,
                                     &stereoFormat, sizeof stereoFormat), "set the output element's format");

    AURenderCallbackStruct callbackStruct;
    callbackStruct.inputProc = &renderCallback;
    callbackStruct.inputProcRefCon = &tone;
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                                     &callbackStruct, sizeof callbackStruct), "set the render callback");

    CheckStatus(AudioUnitInitialize(ioUnit), "AudioUnitInitialize");
    CheckStatus(AudioOutputUnitStart(ioUnit), "AudioOutputUnitStart");
    int ran = ExampleWaitFor(&tone.framesRendered, frames, 30);
    CheckStatus(AudioOutputUnitStop(ioUnit), "AudioOutputUnitStop");
    AudioUnitUninitialize(ioUnit);
    AudioComponentInstanceDispose(ioUnit);
    if (!ran) { fprintf(stderr, "error: the device pulled %lld of %lld frames\n", (long long)tone.framesRendered, (long long)frames); return 1; }
    printf("rendered %lld\n", (long long)tone.framesRendered);
    return 0;
}
