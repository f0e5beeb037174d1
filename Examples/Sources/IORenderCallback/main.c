/*
 * Pattern 3 of the hosting guide ("Simultaneous I/O with a render callback", figure 2-3): a
 * render callback sits between the I/O unit's input and output elements. It pulls the captured
 * audio with AudioUnitRender on element 1 and adjusts its volume (x 0.25) before it reaches the
 * output hardware.
 *
 * Linux: the audio session is replaced by the I/O unit's device and period properties.
 * Usage: io-render-callback PCM FRAMES
 */
#include <ExampleSupport.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    AudioUnit ioUnit;
    Float32 volume;
    volatile SInt64 framesPlayed;
} PassThroughState;

/* [render thread] Pull the input element into the output buffers, then scale them in place. */
static OSStatus renderCallback(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                               UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    PassThroughState *state = inRefCon;
    OSStatus status = AudioUnitRender(state->ioUnit, ioActionFlags, inTimeStamp, 1, inNumberFrames, ioData);
    if (status != noErr) return status;
    for (UInt32 b = 0; b < ioData->mNumberBuffers; ++b) {
        Float32 *samples = ioData->mBuffers[b].mData;
        for (UInt32 i = 0; i < inNumberFrames; ++i) samples[i] *= state->volume;
    }
    __atomic_add_fetch(&state->framesPlayed, inNumberFrames, __ATOMIC_RELEASE);
    return noErr;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: io-render-callback PCM FRAMES\n"); return 2; }
    SInt64 frames = atoll(argv[2]);
    static PassThroughState state = {.volume = 0.25f};

    AudioComponentDescription ioUnitDescription = {kAudioUnitType_Output, kAudioUnitSubType_RemoteIO, kAudioUnitManufacturer_Apple, 0, 0};
    CheckStatus(AudioComponentInstanceNew(AudioComponentFindNext(NULL, &ioUnitDescription), &state.ioUnit), "AudioComponentInstanceNew");
    AudioUnit ioUnit = state.ioUnit;

    // Linux counterpart of the audio session.
    CheckStatus(ExampleSetDevice(ioUnit, argv[1]), "set CurrentDevice");
    UInt32 periodFrames = 64, periodCount = 3;
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0,
                                     &periodFrames, sizeof periodFrames), "set PreferredPeriodFrames");
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0,
                                     &periodCount, sizeof periodCount), "set PreferredPeriodCount");

    UInt32 enableInput = 1;
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1,
                                     &enableInput, sizeof enableInput), "enable input");
    AudioStreamBasicDescription stereoFormat = ExampleCanonicalFormat(48000, 2);
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1,
                                     &stereoFormat, sizeof stereoFormat), "set the input element's format");
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0,
                                     &stereoFormat, sizeof stereoFormat), "set the output element's format");

    AURenderCallbackStruct callbackStruct;
    callbackStruct.inputProc = &renderCallback;
    callbackStruct.inputProcRefCon = &state;
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                                     &callbackStruct, sizeof callbackStruct), "set the render callback");

    CheckStatus(AudioUnitInitialize(ioUnit), "AudioUnitInitialize");
    UInt32 latency = 0, size = sizeof latency;
    CheckStatus(AudioUnitGetProperty(ioUnit, kAUHostALSAProperty_DuplexLatencyFrames, kAudioUnitScope_Global, 0, &latency, &size),
                "get DuplexLatencyFrames");
    CheckStatus(AudioOutputUnitStart(ioUnit), "AudioOutputUnitStart");
    int ran = ExampleWaitFor(&state.framesPlayed, frames + latency, 30);
    CheckStatus(AudioOutputUnitStop(ioUnit), "AudioOutputUnitStop");
    AudioUnitUninitialize(ioUnit);
    AudioComponentInstanceDispose(ioUnit);
    if (!ran) { fprintf(stderr, "error: the device played %lld of %lld frames\n", (long long)state.framesPlayed, (long long)frames); return 1; }
    printf("latency %u\n", latency);
    return 0;
}
