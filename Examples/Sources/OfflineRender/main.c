/*
 * Pattern 5 of the hosting guide, offline side: a graph headed by a Generic Output unit, which
 * no device drives — the app pulls it with AudioUnitRender, as fast as it likes, and writes each
 * slice to a file. The graph: a render callback (the test signal) -> Multichannel Mixer (input
 * volume 0.25) -> Generic Output.
 *
 * Usage: offline-render FRAMES OUT.wav
 */
#include <ExampleSupport.h>
#include <stdio.h>
#include <stdlib.h>

enum { kChannels = 2, kSliceFrames = 512 };

/* [render thread] The source: the test signal, frame numbers taken from the time stamp. */
static OSStatus renderSignal(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                             UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    SInt64 first = (SInt64)inTimeStamp->mSampleTime;
    for (UInt32 c = 0; c < ioData->mNumberBuffers; ++c) {
        Float32 *samples = ioData->mBuffers[c].mData;
        for (UInt32 i = 0; i < inNumberFrames; ++i) samples[i] = ExampleSignal(first + i, c);
    }
    return noErr;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: offline-render FRAMES OUT.wav\n"); return 2; }
    SInt64 frames = atoll(argv[1]);
    Float64 sampleRate = 48000;

    AudioComponentDescription outputDescription = {kAudioUnitType_Output, kAudioUnitSubType_GenericOutput, kAudioUnitManufacturer_Apple, 0, 0};
    AudioComponentDescription mixerDescription = {kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer, kAudioUnitManufacturer_Apple, 0, 0};
    AUGraph graph;
    AUNode outputNode, mixerNode;
    AudioUnit outputUnit, mixerUnit;
    CheckStatus(NewAUGraph(&graph), "NewAUGraph");
    CheckStatus(AUGraphAddNode(graph, &outputDescription, &outputNode), "AUGraphAddNode(generic output)");
    CheckStatus(AUGraphAddNode(graph, &mixerDescription, &mixerNode), "AUGraphAddNode(mixer)");
    CheckStatus(AUGraphOpen(graph), "AUGraphOpen");
    CheckStatus(AUGraphNodeInfo(graph, outputNode, NULL, &outputUnit), "AUGraphNodeInfo(generic output)");
    CheckStatus(AUGraphNodeInfo(graph, mixerNode, NULL, &mixerUnit), "AUGraphNodeInfo(mixer)");

    AudioStreamBasicDescription stereoFormat = ExampleCanonicalFormat(sampleRate, kChannels);
    UInt32 busCount = 1, maximumFramesPerSlice = kSliceFrames;
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &busCount, sizeof busCount),
                "set mixer bus count");
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &stereoFormat, sizeof stereoFormat),
                "set mixer input format");
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &stereoFormat, sizeof stereoFormat),
                "set mixer output format");
    CheckStatus(AudioUnitSetProperty(outputUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &stereoFormat, sizeof stereoFormat),
                "set generic output input format");
    CheckStatus(AudioUnitSetProperty(outputUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &stereoFormat, sizeof stereoFormat),
                "set generic output output format");
    for (int i = 0; i < 2; ++i)
        CheckStatus(AudioUnitSetProperty(i ? outputUnit : mixerUnit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0,
                                         &maximumFramesPerSlice, sizeof maximumFramesPerSlice), "set MaximumFramesPerSlice");
    CheckStatus(AudioUnitSetParameter(mixerUnit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0.25, 0), "set input volume");

    AURenderCallbackStruct source = {renderSignal, NULL};
    CheckStatus(AUGraphSetNodeInputCallback(graph, mixerNode, 0, &source), "attach the source");
    CheckStatus(AUGraphConnectNodeInput(graph, mixerNode, 0, outputNode, 0), "connect mixer to generic output");
    CheckStatus(AUGraphInitialize(graph), "AUGraphInitialize");
    CheckStatus(AUGraphStart(graph), "AUGraphStart");

    AudioStreamBasicDescription fileFormat = {0};
    fileFormat.mSampleRate = sampleRate;
    fileFormat.mFormatID = kAudioFormatLinearPCM;
    fileFormat.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked;
    fileFormat.mChannelsPerFrame = kChannels;
    fileFormat.mFramesPerPacket = 1;
    fileFormat.mBitsPerChannel = 32;
    fileFormat.mBytesPerFrame = fileFormat.mBytesPerPacket = 4 * kChannels;
    ExtAudioFileRef file;
    CheckStatus(ExtAudioFileCreateWithPath(argv[2], kAudioFileWAVEType, &fileFormat, NULL, kAudioFileFlags_EraseFile, &file),
                "ExtAudioFileCreateWithPath");
    CheckStatus(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, sizeof stereoFormat, &stereoFormat),
                "set the client data format");

    // The pull loop: NULL mData asks the unit for its own buffers (no copy).
    AudioBufferList *slice = calloc(1, sizeof(AudioBufferList) + (kChannels - 1) * sizeof(AudioBuffer));
    AudioTimeStamp timeStamp = {0};
    timeStamp.mFlags = kAudioTimeStampSampleTimeValid;
    for (SInt64 done = 0; done < frames; done += kSliceFrames) {
        UInt32 count = (UInt32)(frames - done < kSliceFrames ? frames - done : kSliceFrames);
        slice->mNumberBuffers = kChannels;
        for (UInt32 c = 0; c < kChannels; ++c) slice->mBuffers[c] = (AudioBuffer){1, count * (UInt32)sizeof(Float32), NULL};
        AudioUnitRenderActionFlags flags = 0;
        timeStamp.mSampleTime = (Float64)done;
        CheckStatus(AudioUnitRender(outputUnit, &flags, &timeStamp, 0, count, slice), "AudioUnitRender(generic output)");
        CheckStatus(ExtAudioFileWrite(file, count, slice), "ExtAudioFileWrite");
    }
    CheckStatus(ExtAudioFileDispose(file), "ExtAudioFileDispose");
    AUGraphStop(graph);
    DisposeAUGraph(graph);
    free(slice);
    printf("rendered %lld\n", (long long)frames);
    return 0;
}
