/*
 * graph-floor.c — what the pull contract costs, and what AUHost adds on top (issue 35).
 *
 * A chain of CHAIN gain units written in plain C against the documented plug-in interface
 * (AudioComponentPlugInInterface, registered with AudioComponentRegister), FRAMES stereo frames
 * a cycle, rendered four ways side by side in one run:
 *   loop       a hand-written loop: fill, then CHAIN gains in place on each channel;
 *   direct     the units wired by hand, each input callback calling the previous unit's render
 *              function directly (the floor of the pull contract);
 *   render     the same wiring through AUHost's AudioUnitRender (the C dispatch);
 *   graph      the same units in an AUGraph with a generic output head.
 * Each is timed over ROUNDS rounds of CYCLES cycles, interleaved; the medians per cycle and their
 * ratios are printed. Every way must produce the same samples (checked before timing).
 *
 * Built against the release install: make bench-graph-floor.
 */
#define _POSIX_C_SOURCE 200809L
#include <AudioToolbox/AudioToolbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { CHAIN = 32, FRAMES = 256, CHANNELS = 2, CYCLES = 2000, ROUNDS = 41 };
static const Float32 kGain = 1.0001f;

/* ---- the unit: an in-place gain, as small as the documents allow ---- */

typedef struct {
    AudioComponentPlugInInterface interface; /* first: the host passes a pointer to it as self */
    AudioStreamBasicDescription format;
    AURenderCallbackStruct input;
    UInt32 maxFrames;
    Float32 gain;
} Gain;

static const AudioStreamBasicDescription canonical = {48000, kAudioFormatLinearPCM,
    kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved, 4, 1, 4, CHANNELS, 32, 0};
static Gain *created[3 * CHAIN + 8];
static int createdCount;

static OSStatus Open(void *self, AudioComponentInstance instance) { return noErr; }
static OSStatus Close(void *self) { free(self); return noErr; }
static OSStatus Initialize(void *self) { return noErr; }
static OSStatus Uninitialize(void *self) { return noErr; }

static OSStatus GetPropertyInfo(void *self, AudioUnitPropertyID id, AudioUnitScope scope, AudioUnitElement element,
                                UInt32 *outSize, Boolean *outWritable) {
    UInt32 size;
    switch (id) {
    case kAudioUnitProperty_StreamFormat: size = sizeof(AudioStreamBasicDescription); break;
    case kAudioUnitProperty_MaximumFramesPerSlice: size = sizeof(UInt32); break;
    case kAudioUnitProperty_SetRenderCallback: size = sizeof(AURenderCallbackStruct); break;
    default: return kAudioUnitErr_InvalidProperty;
    }
    if (element != 0) return kAudioUnitErr_InvalidElement;
    if (outSize) *outSize = size;
    if (outWritable) *outWritable = 1;
    return noErr;
}

static OSStatus GetProperty(void *self, AudioUnitPropertyID id, AudioUnitScope scope, AudioUnitElement element,
                            void *outData, UInt32 *ioSize) {
    Gain *unit = self;
    UInt32 size;
    OSStatus status = GetPropertyInfo(self, id, scope, element, &size, NULL);
    if (status != noErr) return status;
    if (!outData || !ioSize || *ioSize < size) return kAudio_ParamError;
    if (id == kAudioUnitProperty_StreamFormat) memcpy(outData, &unit->format, size);
    else if (id == kAudioUnitProperty_MaximumFramesPerSlice) memcpy(outData, &unit->maxFrames, size);
    else return kAudioUnitErr_InvalidProperty;
    *ioSize = size;
    return noErr;
}

static OSStatus SetProperty(void *self, AudioUnitPropertyID id, AudioUnitScope scope, AudioUnitElement element,
                            const void *inData, UInt32 inSize) {
    Gain *unit = self;
    UInt32 size;
    OSStatus status = GetPropertyInfo(self, id, scope, element, &size, NULL);
    if (status != noErr) return status;
    if (!inData || inSize != size) return kAudio_ParamError;
    if (id == kAudioUnitProperty_StreamFormat) memcpy(&unit->format, inData, size);
    else if (id == kAudioUnitProperty_MaximumFramesPerSlice) memcpy(&unit->maxFrames, inData, size);
    else memcpy(&unit->input, inData, size);
    return noErr;
}

static void scale(Float32 *restrict samples, UInt32 frames, Float32 gain) {
    for (UInt32 i = 0; i < frames; i++) samples[i] *= gain;
}

static OSStatus Render(void *self, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *timeStamp, UInt32 bus,
                       UInt32 frames, AudioBufferList *ioData) {
    Gain *unit = self;
    if (frames > unit->maxFrames) return kAudioUnitErr_TooManyFramesToProcess;
    if (!unit->input.inputProc) return kAudioUnitErr_NoConnection;
    OSStatus status = unit->input.inputProc(unit->input.inputProcRefCon, flags, timeStamp, 0, frames, ioData);
    if (status != noErr) return status;
    for (UInt32 b = 0; b < ioData->mNumberBuffers; b++) scale(ioData->mBuffers[b].mData, frames, unit->gain);
    return noErr;
}

static AudioComponentMethod Lookup(SInt16 selector) {
    switch (selector) {
    case kAudioUnitInitializeSelect: return (AudioComponentMethod)Initialize;
    case kAudioUnitUninitializeSelect: return (AudioComponentMethod)Uninitialize;
    case kAudioUnitGetPropertyInfoSelect: return (AudioComponentMethod)GetPropertyInfo;
    case kAudioUnitGetPropertySelect: return (AudioComponentMethod)GetProperty;
    case kAudioUnitSetPropertySelect: return (AudioComponentMethod)SetProperty;
    case kAudioUnitRenderSelect: return (AudioComponentMethod)Render;
    default: return NULL;
    }
}

static AudioComponentPlugInInterface *GainFactory(const AudioComponentDescription *desc) {
    Gain *unit = calloc(1, sizeof(Gain));
    unit->interface.Open = Open;
    unit->interface.Close = Close;
    unit->interface.Lookup = Lookup;
    unit->maxFrames = 4096;
    unit->gain = kGain;
    unit->format = canonical;
    created[createdCount++] = unit;
    return &unit->interface;
}

/* ---- the source and the four ways ---- */

static void fill(Float32 *samples, UInt32 frames) {
    for (UInt32 i = 0; i < frames; i++) samples[i] = 0.25f;
}

static OSStatus FillCallback(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *timeStamp,
                             UInt32 bus, UInt32 frames, AudioBufferList *ioData) {
    for (UInt32 b = 0; b < ioData->mNumberBuffers; b++) fill(ioData->mBuffers[b].mData, frames);
    return noErr;
}

/* Hand-wired, direct: the previous unit's render function, called as a host written in C would. */
static OSStatus DirectPull(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *timeStamp,
                           UInt32 bus, UInt32 frames, AudioBufferList *ioData) {
    return Render(refCon, flags, timeStamp, 0, frames, ioData);
}

/* Hand-wired through AUHost's dispatch. */
static OSStatus RenderPull(void *refCon, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *timeStamp,
                           UInt32 bus, UInt32 frames, AudioBufferList *ioData) {
    return AudioUnitRender((AudioUnit)refCon, flags, timeStamp, 0, frames, ioData);
}

typedef struct {
    _Alignas(64) Float32 left[FRAMES];
    _Alignas(64) Float32 right[FRAMES];
    struct { UInt32 mNumberBuffers; AudioBuffer mBuffers[CHANNELS]; } list;
    AudioTimeStamp time;
} Output;

static void resetOutput(Output *o) {
    o->list.mNumberBuffers = CHANNELS;
    o->list.mBuffers[0] = (AudioBuffer){1, sizeof o->left, o->left};
    o->list.mBuffers[1] = (AudioBuffer){1, sizeof o->right, o->right};
}

static void advance(Output *o) {
    o->time.mSampleTime += FRAMES;
    o->time.mFlags = kAudioTimeStampSampleTimeValid;
    resetOutput(o);
}

static void check(OSStatus status, const char *what) {
    if (status != noErr) {
        fprintf(stderr, "graph-floor: %s failed: %d\n", what, (int)status);
        exit(1);
    }
}

static _Alignas(64) Float32 loopLeft[FRAMES];
static _Alignas(64) Float32 loopRight[FRAMES];

static void loopCycle(void) {
    Float32 *channels[CHANNELS] = {loopLeft, loopRight};
    for (int c = 0; c < CHANNELS; c++) {
        fill(channels[c], FRAMES);
        for (int n = 0; n < CHAIN; n++) scale(channels[c], FRAMES, kGain);
    }
}

static AudioComponentDescription gainIdentity = {kAudioUnitType_Effect, 'flgn', 'AUHb', 0, 0};

/* CHAIN instances wired by hand: unit i pulls unit i-1 with `pull`; unit 0 pulls the fill. */
static AudioUnit handChain(AURenderCallback pull, int direct) {
    AudioComponent component = AudioComponentFindNext(NULL, &gainIdentity);
    AudioUnit units[CHAIN];
    for (int i = 0; i < CHAIN; i++) {
        check(AudioComponentInstanceNew(component, &units[i]), "AudioComponentInstanceNew");
        AURenderCallbackStruct input = {FillCallback, NULL};
        if (i > 0) input = (AURenderCallbackStruct){pull, direct ? (void *)created[createdCount - 2] : (void *)units[i - 1]};
        check(AudioUnitSetProperty(units[i], kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &input,
                                   sizeof input), "SetRenderCallback");
        check(AudioUnitInitialize(units[i]), "AudioUnitInitialize");
    }
    return units[CHAIN - 1];
}

static AUGraph graph;
static AudioUnit graphHead;

static void buildGraph(void) {
    check(NewAUGraph(&graph), "NewAUGraph");
    AudioComponentDescription output = {kAudioUnitType_Output, kAudioUnitSubType_GenericOutput, kAudioUnitManufacturer_Apple, 0, 0};
    AUNode head, previous = 0;
    check(AUGraphAddNode(graph, &output, &head), "AUGraphAddNode");
    check(AUGraphOpen(graph), "AUGraphOpen");
    for (int i = 0; i < CHAIN; i++) {
        AUNode node;
        check(AUGraphAddNode(graph, &gainIdentity, &node), "AUGraphAddNode");
        if (i == 0) {
            AURenderCallbackStruct input = {FillCallback, NULL};
            check(AUGraphSetNodeInputCallback(graph, node, 0, &input), "AUGraphSetNodeInputCallback");
        } else {
            check(AUGraphConnectNodeInput(graph, previous, 0, node, 0), "AUGraphConnectNodeInput");
        }
        previous = node;
    }
    check(AUGraphConnectNodeInput(graph, previous, 0, head, 0), "AUGraphConnectNodeInput");
    check(AUGraphNodeInfo(graph, head, NULL, &graphHead), "AUGraphNodeInfo");
    check(AudioUnitSetProperty(graphHead, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &canonical,
                               sizeof canonical), "StreamFormat");
    check(AUGraphInitialize(graph), "AUGraphInitialize");
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); /* CPU time: a busy machine preempts, it does not inflate this */
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int compareDoubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { LOOP, DIRECT, RENDER, GRAPH, WAYS };
static const char *names[WAYS] = {"hand-written loop", "hand-wired, direct calls", "hand-wired, AudioUnitRender",
                                  "AUGraph"};
static AudioUnit heads[WAYS];
static Output outputs[WAYS];

static void cycle(int way) {
    AudioUnitRenderActionFlags flags = 0;
    if (way == LOOP) { loopCycle(); return; }
    advance(&outputs[way]);
    check(AudioUnitRender(heads[way], &flags, &outputs[way].time, 0, FRAMES, (AudioBufferList *)&outputs[way].list),
          names[way]);
}

int main(void) {
    AudioComponentRegister(&gainIdentity, CFSTR("Bench: C Gain"), 1, GainFactory);
    heads[DIRECT] = handChain(DirectPull, 1);
    heads[RENDER] = handChain(RenderPull, 0);
    buildGraph();
    heads[GRAPH] = graphHead;

    for (int way = 0; way < WAYS; way++) { resetOutput(&outputs[way]); cycle(way); }
    for (int way = DIRECT; way < WAYS; way++) {
        if (memcmp(outputs[way].left, loopLeft, sizeof loopLeft) || memcmp(outputs[way].right, loopRight, sizeof loopRight)) {
            fprintf(stderr, "graph-floor: %s renders other samples than the loop\n", names[way]);
            return 1;
        }
    }

    static double samples[WAYS][ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        for (int way = 0; way < WAYS; way++) {
            double start = now();
            for (int i = 0; i < CYCLES; i++) cycle(way);
            samples[way][r] = (now() - start) / CYCLES;
        }
    }
    double median[WAYS], best[WAYS];
    for (int way = 0; way < WAYS; way++) {
        qsort(samples[way], ROUNDS, sizeof(double), compareDoubles);
        median[way] = samples[way][ROUNDS / 2];
        best[way] = samples[way][0];
    }
    printf("%d C gain units, %d stereo frames a cycle, %d rounds of %d cycles (ns per cycle)\n", CHAIN, FRAMES, ROUNDS,
           CYCLES);
    printf("%-30s %10s %10s %12s %12s\n", "", "best", "median", "÷ loop", "÷ direct");
    for (int way = 0; way < WAYS; way++) {
        printf("%-30s %10.0f %10.0f %11.2f× %11.2f×\n", names[way], best[way], median[way], median[way] / median[LOOP],
               median[way] / median[DIRECT]);
    }
    printf("graph over hand-wired (AudioUnitRender): %.1f ns a node\n", (median[GRAPH] - median[RENDER]) / CHAIN);
    return 0;
}
