/*
 * Pattern 2 of the hosting guide ("Simultaneous I/O without a render callback", figure 2-2):
 * the I/O unit's input element feeds a Multichannel Mixer, whose output feeds the I/O unit's
 * output element. There is no callback; the mixer's input volume (0.5) shapes the audio. The
 * mixer's output sample rate is set, as the guide says. Built with an audio processing graph:
 * the I/O unit's input element (bus 1) -> mixer -> the I/O unit's output element (bus 0).
 *
 * Linux: the audio session is replaced by the I/O unit's device and period properties.
 * Usage: io-mixer PCM FRAMES
 */
#include <ExampleSupport.h>
#include <stdio.h>
#include <stdlib.h>

static volatile SInt64 framesPlayed;

static OSStatus CountFrames(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *timeStamp,
                            UInt32 bus, UInt32 frames, AudioBufferList *ioData) {
    // Output element only: rendering the input element (bus 1) notifies too.
    if ((*flags & kAudioUnitRenderAction_PostRender) && bus == 0) __atomic_add_fetch(&framesPlayed, frames, __ATOMIC_RELEASE);
    return noErr;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: io-mixer PCM FRAMES\n"); return 2; }
    SInt64 frames = atoll(argv[2]);
    Float64 graphSampleRate = 48000.0;

    AudioComponentDescription ioUnitDescription = {kAudioUnitType_Output, kAudioUnitSubType_RemoteIO, kAudioUnitManufacturer_Apple, 0, 0};
    AudioComponentDescription mixerDescription = {kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer, kAudioUnitManufacturer_Apple, 0, 0};
    AUGraph processingGraph;
    AUNode ioNode, mixerNode;
    AudioUnit ioUnit, mixerUnit;
    CheckStatus(NewAUGraph(&processingGraph), "NewAUGraph");
    CheckStatus(AUGraphAddNode(processingGraph, &ioUnitDescription, &ioNode), "AUGraphAddNode(I/O)");
    CheckStatus(AUGraphAddNode(processingGraph, &mixerDescription, &mixerNode), "AUGraphAddNode(mixer)");
    CheckStatus(AUGraphOpen(processingGraph), "AUGraphOpen");
    CheckStatus(AUGraphNodeInfo(processingGraph, ioNode, NULL, &ioUnit), "AUGraphNodeInfo(I/O)");
    CheckStatus(AUGraphNodeInfo(processingGraph, mixerNode, NULL, &mixerUnit), "AUGraphNodeInfo(mixer)");

    // Linux counterpart of the audio session.
    CheckStatus(ExampleSetDevice(ioUnit, argv[1]), "set CurrentDevice");
    UInt32 periodFrames = 64, periodCount = 3;
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0,
                                     &periodFrames, sizeof periodFrames), "set PreferredPeriodFrames");
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0,
                                     &periodCount, sizeof periodCount), "set PreferredPeriodCount");

    // Configure the I/O unit: input on, and the app-side format of the input element.
    UInt32 enableInput = 1;
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1,
                                     &enableInput, sizeof enableInput), "enable input");
    AudioStreamBasicDescription stereoFormat = ExampleCanonicalFormat(graphSampleRate, 2);
    CheckStatus(AudioUnitSetProperty(ioUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1,
                                     &stereoFormat, sizeof stereoFormat), "set the input element's format");

    // Configure the mixer: one input bus, its volume, and the output sample rate.
    UInt32 busCount = 1, maximumFramesPerSlice = 4096;
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0,
                                     &busCount, sizeof busCount), "set mixer bus count");
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0,
                                     &maximumFramesPerSlice, sizeof maximumFramesPerSlice), "set mixer MaximumFramesPerSlice");
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0,
                                     &graphSampleRate, sizeof graphSampleRate), "set mixer output sample rate");
    // A direct connection carries no format: the mixer's input takes the I/O input element's.
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0,
                                     &stereoFormat, sizeof stereoFormat), "set mixer input format");
    CheckStatus(AudioUnitSetParameter(mixerUnit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0.5, 0),
                "set mixer input volume");

    // I/O input element -> mixer input 0; mixer output -> I/O output element.
    CheckStatus(AUGraphConnectNodeInput(processingGraph, ioNode, 1, mixerNode, 0), "connect I/O input to mixer");
    CheckStatus(AUGraphConnectNodeInput(processingGraph, mixerNode, 0, ioNode, 0), "connect mixer to I/O output");
    CheckStatus(AudioUnitAddRenderNotify(ioUnit, CountFrames, NULL), "AudioUnitAddRenderNotify");

    CheckStatus(AUGraphInitialize(processingGraph), "AUGraphInitialize");
    UInt32 latency = 0, size = sizeof latency;
    CheckStatus(AudioUnitGetProperty(ioUnit, kAUHostALSAProperty_DuplexLatencyFrames, kAudioUnitScope_Global, 0, &latency, &size),
                "get DuplexLatencyFrames");
    CheckStatus(AUGraphStart(processingGraph), "AUGraphStart");
    int ran = ExampleWaitFor(&framesPlayed, frames + latency, 30);
    CheckStatus(AUGraphStop(processingGraph), "AUGraphStop");
    AUGraphUninitialize(processingGraph);
    DisposeAUGraph(processingGraph);
    if (!ran) { fprintf(stderr, "error: the device played %lld of %lld frames\n", (long long)framesPlayed, (long long)frames); return 1; }
    printf("latency %u\n", latency);
    return 0;
}
