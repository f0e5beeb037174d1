/*
 * AUHost's extensions as a C host uses them (AUHostIsolation.h, AUGraph.h):
 *
 * 1. A unit out of process: AudioComponentInstantiate with
 *    kAudioComponentInstantiation_LoadOutOfProcess gives an AudioUnit whose unit lives in a child
 *    process; every C call works on it. The built-in delay renders the test signal in and out of
 *    process; the two outputs must be the same samples.
 * 2. A graph rendered on two threads: a source fanned out to two delays, summed by a mixer into a
 *    generic output, pulled with AUGraphSetRenderThreadCount 0 (serial) and 2; the two outputs
 *    must be the same samples.
 *
 * Prints "name value" lines that examples-check reads.
 * Usage: isolated-parallel
 */
#include <AudioToolbox/AUHostIsolation.h>
#include <ExampleSupport.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { kChannels = 2, kSliceFrames = 512, kSlices = 16, kFrames = kSliceFrames * kSlices };
static const Float64 kSampleRate = 48000;

/* [render thread] The test signal, frame numbers taken from the time stamp. */
static OSStatus renderSignal(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                             UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    SInt64 first = (SInt64)inTimeStamp->mSampleTime;
    for (UInt32 c = 0; c < ioData->mNumberBuffers; ++c) {
        Float32 *samples = ioData->mBuffers[c].mData;
        for (UInt32 i = 0; i < inNumberFrames; ++i) samples[i] = ExampleSignal(first + i, c);
    }
    return noErr;
}

/* Pulls kFrames frames from output bus 0 of `unit` into `out` (channel-major). [setup] */
static void pull(AudioUnit unit, Float32 *out) {
    AudioBufferList *slice = calloc(1, sizeof(AudioBufferList) + (kChannels - 1) * sizeof(AudioBuffer));
    AudioTimeStamp timeStamp = {0};
    timeStamp.mFlags = kAudioTimeStampSampleTimeValid;
    for (int s = 0; s < kSlices; ++s) {
        slice->mNumberBuffers = kChannels;
        for (UInt32 c = 0; c < kChannels; ++c)
            slice->mBuffers[c] = (AudioBuffer){1, kSliceFrames * sizeof(Float32), out + c * kFrames + s * kSliceFrames};
        AudioUnitRenderActionFlags flags = 0;
        timeStamp.mSampleTime = (Float64)(s * kSliceFrames);
        CheckStatus(AudioUnitRender(unit, &flags, &timeStamp, 0, kSliceFrames, slice), "AudioUnitRender");
    }
    free(slice);
}

static double largestDifference(const Float32 *a, const Float32 *b) {
    double largest = 0;
    for (int i = 0; i < kChannels * kFrames; ++i) largest = fmax(largest, fabs((double)a[i] - b[i]));
    return largest;
}

static void setFormats(AudioUnit unit, AudioUnitScope scope, UInt32 elements) {
    AudioStreamBasicDescription format = ExampleCanonicalFormat(kSampleRate, kChannels);
    for (UInt32 e = 0; e < elements; ++e)
        CheckStatus(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, e, &format, sizeof format), "set a stream format");
}

/* A delay fed by the test signal, 10 ms, half wet, initialized. [setup] */
static void setUpDelay(AudioUnit delay) {
    UInt32 maximumFrames = kSliceFrames;
    CheckStatus(AudioUnitSetProperty(delay, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maximumFrames,
                                     sizeof maximumFrames), "set MaximumFramesPerSlice");
    setFormats(delay, kAudioUnitScope_Input, 1);
    setFormats(delay, kAudioUnitScope_Output, 1);
    AURenderCallbackStruct source = {renderSignal, NULL};
    CheckStatus(AudioUnitSetProperty(delay, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &source, sizeof source),
                "set the render callback");
    CheckStatus(AudioUnitSetParameter(delay, kDelayParam_DelayTime, kAudioUnitScope_Global, 0, 0.01f, 0), "set the delay time");
    CheckStatus(AudioUnitSetParameter(delay, kDelayParam_WetDryMix, kAudioUnitScope_Global, 0, 50, 0), "set the mix");
    CheckStatus(AudioUnitInitialize(delay), "AudioUnitInitialize(delay)");
}

/* AudioComponentInstantiate's completion handler: here it is called before the call returns. */
static void instantiated(AudioComponentInstance instance, OSStatus status, void *userData) {
    CheckStatus(status, "AudioComponentInstantiate(out of process)");
    *(AudioComponentInstance *)userData = instance;
}

static void outOfProcess(void) {
    AudioComponentDescription description = {kAudioUnitType_Effect, kAudioUnitSubType_Delay, kAudioUnitManufacturer_Apple, 0, 0};
    AudioComponent component = AudioComponentFindNext(NULL, &description);
    if (!component) CheckStatus(kAudioComponentErr_UnsupportedType, "AudioComponentFindNext(delay)");
    AudioUnit inProcess, isolated = NULL;
    CheckStatus(AudioComponentInstanceNew(component, &inProcess), "AudioComponentInstanceNew(delay)");
    AudioComponentInstantiate(component, kAudioComponentInstantiation_LoadOutOfProcess, instantiated, &isolated);
    setUpDelay(inProcess);
    setUpDelay(isolated);
    UInt32 processID = 0, size = sizeof processID;
    CheckStatus(AudioUnitGetProperty(isolated, kAUHostIsolatedUnitProperty_ProcessID, kAudioUnitScope_Global, 0, &processID, &size),
                "get the child's process ID");

    Float32 *here = calloc(kChannels * kFrames, sizeof(Float32)), *there = calloc(kChannels * kFrames, sizeof(Float32));
    pull(inProcess, here);
    pull(isolated, there);
    printf("out-of-process %d\n", AUHostIsolatedUnitIsOutOfProcess(isolated) ? 1 : 0);
    printf("child-is-another-process %d\n", processID != 0 && processID != (UInt32)getpid());
    printf("isolated-frames %d\n", kFrames);
    printf("isolated-difference %g\n", largestDifference(here, there));
    AudioComponentInstanceDispose(isolated);
    AudioComponentInstanceDispose(inProcess);
    free(here);
    free(there);
}

/* source (a mixer fed by the signal) -> two delays -> mixer -> generic output, on `threads` threads. */
static void renderGraph(UInt32 threads, Float32 *out) {
    AudioComponentDescription outputDescription = {kAudioUnitType_Output, kAudioUnitSubType_GenericOutput, kAudioUnitManufacturer_Apple, 0, 0};
    AudioComponentDescription mixerDescription = {kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer, kAudioUnitManufacturer_Apple, 0, 0};
    AudioComponentDescription delayDescription = {kAudioUnitType_Effect, kAudioUnitSubType_Delay, kAudioUnitManufacturer_Apple, 0, 0};
    AUGraph graph;
    AUNode outputNode, sourceNode, sumNode, delayNodes[2];
    CheckStatus(NewAUGraph(&graph), "NewAUGraph");
    CheckStatus(AUGraphAddNode(graph, &outputDescription, &outputNode), "AUGraphAddNode(generic output)");
    CheckStatus(AUGraphAddNode(graph, &mixerDescription, &sourceNode), "AUGraphAddNode(source mixer)");
    CheckStatus(AUGraphAddNode(graph, &mixerDescription, &sumNode), "AUGraphAddNode(summing mixer)");
    for (int i = 0; i < 2; ++i) CheckStatus(AUGraphAddNode(graph, &delayDescription, &delayNodes[i]), "AUGraphAddNode(delay)");
    CheckStatus(AUGraphOpen(graph), "AUGraphOpen");
    CheckStatus(AUGraphSetRenderThreadCount(graph, threads), "AUGraphSetRenderThreadCount");

    AudioUnit output, source, sum;
    CheckStatus(AUGraphNodeInfo(graph, outputNode, NULL, &output), "AUGraphNodeInfo(generic output)");
    CheckStatus(AUGraphNodeInfo(graph, sourceNode, NULL, &source), "AUGraphNodeInfo(source)");
    CheckStatus(AUGraphNodeInfo(graph, sumNode, NULL, &sum), "AUGraphNodeInfo(sum)");
    UInt32 one = 1, two = 2, maximumFrames = kSliceFrames;
    CheckStatus(AudioUnitSetProperty(source, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &one, sizeof one), "source buses");
    CheckStatus(AudioUnitSetProperty(sum, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &two, sizeof two), "sum buses");
    AudioUnit units[] = {output, source, sum};
    for (int i = 0; i < 3; ++i) {
        setFormats(units[i], kAudioUnitScope_Input, units[i] == sum ? 2 : 1);
        setFormats(units[i], kAudioUnitScope_Output, 1);
        CheckStatus(AudioUnitSetProperty(units[i], kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maximumFrames,
                                         sizeof maximumFrames), "set MaximumFramesPerSlice");
    }
    for (int i = 0; i < 2; ++i) {
        AudioUnit delay;
        CheckStatus(AUGraphNodeInfo(graph, delayNodes[i], NULL, &delay), "AUGraphNodeInfo(delay)");
        setFormats(delay, kAudioUnitScope_Input, 1);
        setFormats(delay, kAudioUnitScope_Output, 1);
        CheckStatus(AudioUnitSetProperty(delay, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maximumFrames,
                                         sizeof maximumFrames), "set MaximumFramesPerSlice");
        CheckStatus(AudioUnitSetParameter(delay, kDelayParam_DelayTime, kAudioUnitScope_Global, 0, i ? 0.02f : 0.005f, 0), "delay time");
        CheckStatus(AUGraphConnectNodeInput(graph, sourceNode, 0, delayNodes[i], 0), "connect the source to a delay");
        CheckStatus(AUGraphConnectNodeInput(graph, delayNodes[i], 0, sumNode, (UInt32)i), "connect a delay to the sum");
    }
    AURenderCallbackStruct signal = {renderSignal, NULL};
    CheckStatus(AUGraphSetNodeInputCallback(graph, sourceNode, 0, &signal), "attach the signal");
    CheckStatus(AUGraphConnectNodeInput(graph, sumNode, 0, outputNode, 0), "connect the sum to the generic output");
    CheckStatus(AUGraphInitialize(graph), "AUGraphInitialize");
    CheckStatus(AUGraphStart(graph), "AUGraphStart");
    pull(output, out);
    AUGraphStop(graph);
    DisposeAUGraph(graph);
}

int main(void) {
    outOfProcess();
    Float32 *serial = calloc(kChannels * kFrames, sizeof(Float32)), *parallel = calloc(kChannels * kFrames, sizeof(Float32));
    renderGraph(0, serial);
    renderGraph(2, parallel);
    double loudest = 0;
    for (int i = 0; i < kChannels * kFrames; ++i) loudest = fmax(loudest, fabs(serial[i]));
    printf("parallel-frames %d\n", kFrames);
    printf("parallel-peak %g\n", loudest);
    printf("parallel-difference %g\n", largestDifference(serial, parallel));
    free(serial);
    free(parallel);
    return 0;
}
