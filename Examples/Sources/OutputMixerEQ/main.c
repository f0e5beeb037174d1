/*
 * Pattern 4, extended (figure 2-5): two generated sounds mixed and played. Source A goes through
 * an iPod EQ into mixer input 1; source B goes straight into mixer input 0; the mixer feeds the
 * I/O unit. Formats are set where the guide says: mixer input 0 explicitly; mixer input 1 gets
 * its format from the iPod EQ's output through the connection; the mixer's output sample rate.
 * Volumes: input 0 x 0.5, input 1 x 0.25. The EQ's preset stays "Flat".
 *
 * Linux: the audio session is replaced by the I/O unit's device and period properties.
 * Usage: output-mixer-eq PCM FRAMES
 */
#include <ExampleSupport.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    Float32 (*generate)(SInt64 frame, UInt32 channel);
    SInt64 nextFrame;
    volatile SInt64 framesRendered;
} Source;

/* [render thread] */
static OSStatus renderSource(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                             UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    Source *source = inRefCon;
    for (UInt32 channel = 0; channel < ioData->mNumberBuffers; ++channel) {
        Float32 *samples = ioData->mBuffers[channel].mData;
        for (UInt32 i = 0; i < inNumberFrames; ++i) samples[i] = source->generate(source->nextFrame + i, channel);
    }
    source->nextFrame += inNumberFrames;
    __atomic_store_n(&source->framesRendered, source->nextFrame, __ATOMIC_RELEASE);
    return noErr;
}

static Float32 sourceA(SInt64 frame, UInt32 channel) { return ExampleSignal(frame, channel); }
static Float32 sourceB(SInt64 frame, UInt32 channel) { return ExampleSignal2(frame, channel); }

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: output-mixer-eq PCM FRAMES\n"); return 2; }
    SInt64 frames = atoll(argv[2]);
    Float64 graphSampleRate = 48000.0;
    static Source a = {sourceA}, b = {sourceB};

    AudioComponentDescription ioUnitDescription = {kAudioUnitType_Output, kAudioUnitSubType_RemoteIO, kAudioUnitManufacturer_Apple, 0, 0};
    AudioComponentDescription mixerDescription = {kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer, kAudioUnitManufacturer_Apple, 0, 0};
    AudioComponentDescription eqDescription = {kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ, kAudioUnitManufacturer_Apple, 0, 0};
    AUGraph processingGraph;
    AUNode ioNode, mixerNode, eqNode;
    AudioUnit ioUnit, mixerUnit, eqUnit;
    CheckStatus(NewAUGraph(&processingGraph), "NewAUGraph");
    CheckStatus(AUGraphAddNode(processingGraph, &ioUnitDescription, &ioNode), "AUGraphAddNode(I/O)");
    CheckStatus(AUGraphAddNode(processingGraph, &mixerDescription, &mixerNode), "AUGraphAddNode(mixer)");
    CheckStatus(AUGraphAddNode(processingGraph, &eqDescription, &eqNode), "AUGraphAddNode(iPod EQ)");
    CheckStatus(AUGraphOpen(processingGraph), "AUGraphOpen");
    CheckStatus(AUGraphNodeInfo(processingGraph, ioNode, NULL, &ioUnit), "AUGraphNodeInfo(I/O)");
    CheckStatus(AUGraphNodeInfo(processingGraph, mixerNode, NULL, &mixerUnit), "AUGraphNodeInfo(mixer)");
    CheckStatus(AUGraphNodeInfo(processingGraph, eqNode, NULL, &eqUnit), "AUGraphNodeInfo(iPod EQ)");

    // Linux counterpart of the audio session.
    CheckStatus(ExampleSetDevice(ioUnit, argv[1]), "set CurrentDevice");
    UInt32 periodFrames = 64, periodCount = 4;
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0,
                                     &periodFrames, sizeof periodFrames), "set PreferredPeriodFrames");
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0,
                                     &periodCount, sizeof periodCount), "set PreferredPeriodCount");

    AudioStreamBasicDescription stereoFormat = ExampleCanonicalFormat(graphSampleRate, 2);
    UInt32 busCount = 2, maximumFramesPerSlice = 4096;
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0,
                                     &busCount, sizeof busCount), "set mixer bus count");
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0,
                                     &maximumFramesPerSlice, sizeof maximumFramesPerSlice), "set mixer MaximumFramesPerSlice");
    CheckStatus(AudioUnitSetProperty(eqUnit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0,
                                     &maximumFramesPerSlice, sizeof maximumFramesPerSlice), "set EQ MaximumFramesPerSlice");
    // Mixer input 0: set explicitly. Mixer input 1: comes from the EQ's output through the connection.
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0,
                                     &stereoFormat, sizeof stereoFormat), "set mixer input 0 format");
    CheckStatus(AudioUnitSetProperty(eqUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0,
                                     &stereoFormat, sizeof stereoFormat), "set EQ input format");
    CheckStatus(AudioUnitSetProperty(eqUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0,
                                     &stereoFormat, sizeof stereoFormat), "set EQ output format");
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0,
                                     &graphSampleRate, sizeof graphSampleRate), "set mixer output sample rate");
    CheckStatus(AudioUnitSetParameter(mixerUnit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0.5, 0), "set input 0 volume");
    CheckStatus(AudioUnitSetParameter(mixerUnit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 1, 0.25, 0), "set input 1 volume");

    AURenderCallbackStruct callbackA = {renderSource, &a}, callbackB = {renderSource, &b};
    CheckStatus(AUGraphSetNodeInputCallback(processingGraph, eqNode, 0, &callbackA), "attach source A to the EQ");
    CheckStatus(AUGraphSetNodeInputCallback(processingGraph, mixerNode, 0, &callbackB), "attach source B to mixer input 0");
    CheckStatus(AUGraphConnectNodeInput(processingGraph, eqNode, 0, mixerNode, 1), "connect EQ to mixer input 1");
    CheckStatus(AUGraphConnectNodeInput(processingGraph, mixerNode, 0, ioNode, 0), "connect mixer to I/O output");

    CheckStatus(AUGraphInitialize(processingGraph), "AUGraphInitialize");
    CheckStatus(AUGraphStart(processingGraph), "AUGraphStart");
    int ran = ExampleWaitFor(&b.framesRendered, frames, 30);
    CheckStatus(AUGraphStop(processingGraph), "AUGraphStop");
    AUGraphUninitialize(processingGraph);
    DisposeAUGraph(processingGraph);
    if (!ran) { fprintf(stderr, "error: the graph rendered %lld of %lld frames\n", (long long)b.framesRendered, (long long)frames); return 1; }
    printf("rendered %lld\n", (long long)b.framesRendered);
    return 0;
}
