/*
 * Listings 2-1 ... 2-8 of "Constructing Audio Unit Apps" (Audio Unit Hosting Guide for iOS),
 * in order, as one program:
 *   2-1  the audio session: preferred sample rate and I/O buffer duration, then the granted
 *        rate read back (Linux: the I/O unit's kAUHostALSAProperty_* properties);
 *   2-2  building the graph (I/O node + Multichannel Mixer node), opening it, getting the units;
 *   2-3  attaching a render callback immediately (AudioUnitSetProperty, mixer input 0);
 *   2-5  connecting mixer -> I/O output element with AUGraphConnectNodeInput;
 *   2-7  initializing and starting the graph (and stopping it later);
 *   2-4  attaching a second callback thread-safely while audio runs (AUGraphSetNodeInputCallback
 *        on mixer input 1, then AUGraphUpdate);
 *   2-6  connecting two units directly with kAudioUnitProperty_MakeConnection (a second mixer
 *        into a Generic Output, pulled offline into direct.raw);
 *   2-8  printing an AudioStreamBasicDescription (the mixer's output format).
 * Usage: guide-listings PCM FRAMES DIRECT.raw
 */
#include <ExampleSupport.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Float64 firstSampleTime;          /* the first cycle's sample time = output frame 0 */
    volatile SInt64 framesRendered;
} SoundState;

static SoundState soundStructArray[1] = {{-1, 0}};

/* [render thread] Input 0: the test signal, by output frame number. */
static OSStatus renderCallback(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                               UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    SoundState *sound = inRefCon;
    if (sound->firstSampleTime < 0) sound->firstSampleTime = inTimeStamp->mSampleTime;
    SInt64 first = (SInt64)(inTimeStamp->mSampleTime - sound->firstSampleTime);
    for (UInt32 c = 0; c < ioData->mNumberBuffers; ++c) {
        Float32 *samples = ioData->mBuffers[c].mData;
        for (UInt32 i = 0; i < inNumberFrames; ++i) samples[i] = ExampleSignal(first + i, c);
    }
    __atomic_store_n(&sound->framesRendered, first + inNumberFrames, __ATOMIC_RELEASE);
    return noErr;
}

/* [render thread] Input 1, attached while running: the second signal, same frame numbering. */
static OSStatus secondRenderCallback(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags, const AudioTimeStamp *inTimeStamp,
                                     UInt32 inBusNumber, UInt32 inNumberFrames, AudioBufferList *ioData) {
    SoundState *sound = inRefCon;
    SInt64 first = (SInt64)(inTimeStamp->mSampleTime - sound->firstSampleTime);
    for (UInt32 c = 0; c < ioData->mNumberBuffers; ++c) {
        Float32 *samples = ioData->mBuffers[c].mData;
        for (UInt32 i = 0; i < inNumberFrames; ++i) samples[i] = ExampleSignal2(first + i, c);
    }
    return noErr;
}

/* Listing 2-8, with printf for NSLog. */
static void printASBD(AudioStreamBasicDescription asbd) {
    char formatIDString[5];
    UInt32 formatID = CFSwapInt32HostToBig(asbd.mFormatID);
    memcpy(formatIDString, &formatID, 4);   /* bcopy in the listing */
    formatIDString[4] = '\0';
    printf("  Sample Rate:         %10.0f\n", asbd.mSampleRate);
    printf("  Format ID:           %10s\n", formatIDString);
    printf("  Format Flags:        %10X\n", (unsigned)asbd.mFormatFlags);
    printf("  Bytes per Packet:    %10d\n", (int)asbd.mBytesPerPacket);
    printf("  Frames per Packet:   %10d\n", (int)asbd.mFramesPerPacket);
    printf("  Bytes per Frame:     %10d\n", (int)asbd.mBytesPerFrame);
    printf("  Channels per Frame:  %10d\n", (int)asbd.mChannelsPerFrame);
    printf("  Bits per Channel:    %10d\n", (int)asbd.mBitsPerChannel);
}

/* Listing 2-6 on a pair outside the graph: mixer -> generic output, pulled for `frames` frames. */
static void connectDirectlyAndPull(const char *path, UInt32 frames) {
    AudioComponentDescription mixerDesc = {kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer, kAudioUnitManufacturer_Apple, 0, 0};
    AudioComponentDescription outputDesc = {kAudioUnitType_Output, kAudioUnitSubType_GenericOutput, kAudioUnitManufacturer_Apple, 0, 0};
    AudioUnit mixerUnitInstance, ioUnitInstance;
    CheckStatus(AudioComponentInstanceNew(AudioComponentFindNext(NULL, &mixerDesc), &mixerUnitInstance), "new mixer");
    CheckStatus(AudioComponentInstanceNew(AudioComponentFindNext(NULL, &outputDesc), &ioUnitInstance), "new generic output");
    AudioStreamBasicDescription format = ExampleCanonicalFormat(44100, 2);
    UInt32 busCount = 1;
    CheckStatus(AudioUnitSetProperty(mixerUnitInstance, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &busCount, sizeof busCount), "bus count");
    CheckStatus(AudioUnitSetProperty(mixerUnitInstance, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof format), "mixer input format");
    CheckStatus(AudioUnitSetProperty(mixerUnitInstance, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, sizeof format), "mixer output format");
    CheckStatus(AudioUnitSetProperty(ioUnitInstance, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, sizeof format), "output input format");
    CheckStatus(AudioUnitSetProperty(ioUnitInstance, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, sizeof format), "output output format");
    CheckStatus(AudioUnitSetParameter(mixerUnitInstance, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0.5, 0), "volume");
    static SoundState direct = {-1, 0};
    AURenderCallbackStruct source = {renderCallback, &direct};
    CheckStatus(AudioUnitSetProperty(mixerUnitInstance, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &source, sizeof source),
                "mixer callback");

    AudioUnitElement mixerUnitOutputBus = 0;
    AudioUnitElement ioUnitOutputElement = 0;
    AudioUnitConnection mixerOutToIoUnitIn;
    mixerOutToIoUnitIn.sourceAudioUnit = mixerUnitInstance;
    mixerOutToIoUnitIn.sourceOutputNumber = mixerUnitOutputBus;
    mixerOutToIoUnitIn.destInputNumber = ioUnitOutputElement;
    CheckStatus(AudioUnitSetProperty(ioUnitInstance,                     // connection destination
                                     kAudioUnitProperty_MakeConnection,  // property key
                                     kAudioUnitScope_Input,              // destination scope
                                     ioUnitOutputElement,                // destination element
                                     &mixerOutToIoUnitIn,                // connection definition
                                     sizeof(mixerOutToIoUnitIn)), "listing 2-6: MakeConnection");
    CheckStatus(AudioUnitInitialize(mixerUnitInstance), "initialize mixer");
    CheckStatus(AudioUnitInitialize(ioUnitInstance), "initialize generic output");

    Float32 *left = calloc(frames, sizeof(Float32)), *right = calloc(frames, sizeof(Float32));
    AudioBufferList *list = calloc(1, sizeof(AudioBufferList) + sizeof(AudioBuffer));
    list->mNumberBuffers = 2;
    list->mBuffers[0] = (AudioBuffer){1, frames * (UInt32)sizeof(Float32), left};
    list->mBuffers[1] = (AudioBuffer){1, frames * (UInt32)sizeof(Float32), right};
    AudioUnitRenderActionFlags flags = 0;
    AudioTimeStamp timeStamp = {0};
    timeStamp.mFlags = kAudioTimeStampSampleTimeValid;
    CheckStatus(AudioUnitRender(ioUnitInstance, &flags, &timeStamp, 0, frames, list), "pull the generic output");
    FILE *file = fopen(path, "wb");
    if (!file) { perror(path); exit(1); }
    for (UInt32 i = 0; i < frames; ++i) { fwrite(&left[i], 4, 1, file); fwrite(&right[i], 4, 1, file); }
    fclose(file);
    free(left); free(right); free(list);
    AudioComponentInstanceDispose(ioUnitInstance);
    AudioComponentInstanceDispose(mixerUnitInstance);
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: guide-listings PCM FRAMES DIRECT.raw\n"); return 2; }
    SInt64 frames = atoll(argv[2]);
    Float64 graphSampleRate = 44100.0;   // Hertz
    Float64 ioBufferDuration = 0.005;    // seconds

    // Listing 2-2: build the graph.
    AudioComponentDescription ioUnitDesc = {kAudioUnitType_Output, kAudioUnitSubType_RemoteIO, kAudioUnitManufacturer_Apple, 0, 0};
    AudioComponentDescription mixerDesc = {kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer, kAudioUnitManufacturer_Apple, 0, 0};
    AUGraph processingGraph;
    CheckStatus(NewAUGraph(&processingGraph), "NewAUGraph");
    AUNode ioNode;
    AUNode mixerNode;
    CheckStatus(AUGraphAddNode(processingGraph, &ioUnitDesc, &ioNode), "AUGraphAddNode(I/O)");
    CheckStatus(AUGraphAddNode(processingGraph, &mixerDesc, &mixerNode), "AUGraphAddNode(mixer)");
    CheckStatus(AUGraphOpen(processingGraph), "AUGraphOpen");
    AudioUnit ioUnit;
    AudioUnit mixerUnit;
    CheckStatus(AUGraphNodeInfo(processingGraph, ioNode, NULL, &ioUnit), "AUGraphNodeInfo(I/O)");
    CheckStatus(AUGraphNodeInfo(processingGraph, mixerNode, NULL, &mixerUnit), "AUGraphNodeInfo(mixer)");

    // Listing 2-1, Linux: the I/O unit is the "session". Ask for the rate and buffer duration.
    CheckStatus(ExampleSetDevice(ioUnit, argv[1]), "set CurrentDevice");
    UInt32 preferredPeriod = (UInt32)(ioBufferDuration * graphSampleRate + 0.5);
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0,
                                     &graphSampleRate, sizeof graphSampleRate), "set PreferredSampleRate");
    CheckStatus(AudioUnitSetProperty(ioUnit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0,
                                     &preferredPeriod, sizeof preferredPeriod), "set PreferredPeriodFrames");

    // Configure the units: the mixer's buses, formats and output rate.
    AudioStreamBasicDescription stereoStreamFormat = ExampleCanonicalFormat(graphSampleRate, 2);
    UInt32 busCount = 2, maximumFramesPerSlice = 4096;
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &busCount, sizeof busCount),
                "set mixer bus count");
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0,
                                     &maximumFramesPerSlice, sizeof maximumFramesPerSlice), "set mixer MaximumFramesPerSlice");
    for (UInt32 bus = 0; bus < busCount; ++bus)
        CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, bus,
                                         &stereoStreamFormat, sizeof stereoStreamFormat), "set mixer input format");
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0,
                                     &graphSampleRate, sizeof graphSampleRate), "set mixer output sample rate");

    // Listing 2-3: attach a render callback immediately (audio is not flowing yet).
    AURenderCallbackStruct callbackStruct;
    callbackStruct.inputProc = &renderCallback;
    callbackStruct.inputProcRefCon = soundStructArray;
    CheckStatus(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input,
                                     0,   // mixer input 0
                                     &callbackStruct, sizeof(callbackStruct)), "listing 2-3: SetRenderCallback");

    // Listing 2-5: connect the mixer to the I/O unit's output element through the graph.
    AudioUnitElement mixerUnitOutputBus = 0;
    AudioUnitElement ioUnitOutputElement = 0;
    CheckStatus(AUGraphConnectNodeInput(processingGraph,
                                        mixerNode,           // source node
                                        mixerUnitOutputBus,  // source node bus
                                        ioNode,              // destination node
                                        ioUnitOutputElement  // destination node element
                                        ), "listing 2-5: AUGraphConnectNodeInput");

    // Listing 2-7: initialize, then start.
    OSStatus result = AUGraphInitialize(processingGraph);
    CheckStatus(result, "listing 2-7: AUGraphInitialize");
    Float64 grantedRate = 0;
    UInt32 grantedPeriod = 0, size = sizeof grantedRate;
    CheckStatus(AudioUnitGetProperty(ioUnit, kAUHostALSAProperty_GrantedSampleRate, kAudioUnitScope_Global, 0, &grantedRate, &size),
                "get GrantedSampleRate");
    size = sizeof grantedPeriod;
    CheckStatus(AudioUnitGetProperty(ioUnit, kAUHostALSAProperty_GrantedPeriodFrames, kAudioUnitScope_Global, 0, &grantedPeriod, &size),
                "get GrantedPeriodFrames");
    graphSampleRate = grantedRate;   // listing 2-1, step 5: use what the system granted
    printf("granted-rate %.0f\ngranted-period %u\n", grantedRate, grantedPeriod);
    CheckStatus(AUGraphStart(processingGraph), "listing 2-7: AUGraphStart");

    // Listing 2-4: while audio flows, attach a second callback in a thread-safe way.
    if (!ExampleWaitFor(&soundStructArray[0].framesRendered, frames / 2, 30)) { fprintf(stderr, "error: the graph did not run\n"); return 1; }
    AURenderCallbackStruct secondCallback;
    secondCallback.inputProc = &secondRenderCallback;
    secondCallback.inputProcRefCon = soundStructArray;
    CheckStatus(AUGraphSetNodeInputCallback(processingGraph, mixerNode, 1, &secondCallback), "listing 2-4: AUGraphSetNodeInputCallback");
    Boolean graphUpdated;
    CheckStatus(AUGraphUpdate(processingGraph, &graphUpdated), "listing 2-4: AUGraphUpdate");
    SInt64 attachedBy = soundStructArray[0].framesRendered;
    int ran = ExampleWaitFor(&soundStructArray[0].framesRendered, attachedBy + frames, 30);
    CheckStatus(AUGraphStop(processingGraph), "listing 2-7: AUGraphStop");
    printf("updated %d\n", graphUpdated ? 1 : 0);

    // Listing 2-8: print the mixer's output format.
    AudioStreamBasicDescription mixerOutput;
    size = sizeof mixerOutput;
    CheckStatus(AudioUnitGetProperty(mixerUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &mixerOutput, &size),
                "get mixer output format");
    printASBD(mixerOutput);
    AUGraphUninitialize(processingGraph);
    DisposeAUGraph(processingGraph);

    // Listing 2-6: a direct connection, outside any graph.
    connectDirectlyAndPull(argv[3], 1024);
    if (!ran) { fprintf(stderr, "error: the graph stopped early\n"); return 1; }
    return 0;
}
