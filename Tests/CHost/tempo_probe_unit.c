/*
 * tempo_probe_unit.c — an instrument written in C against the plug-in ABI that asks its host where
 * the music is (kAudioUnitProperty_HostCallbacks) in every render call, as tempo-synced units
 * do, and logs the answers; it outputs silence. Identity 'aumu' 'tprb' 'AUHt'.
 */
#include "tempo_probe_unit.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
    AudioComponentPlugInInterface interface;   /* first: the host passes a pointer to it as self */
    AudioStreamBasicDescription format;        /* output */
    UInt32 maxFrames;
    HostCallbackInfo host;
    Boolean initialized;
} TempoProbe;

static TempoProbeEntry probeLog[TEMPO_PROBE_CAPACITY];
static int probeCount;

void TempoProbeReset(void) { probeCount = 0; }
int TempoProbeCount(void) { return probeCount; }
TempoProbeEntry TempoProbeGet(int index) { return probeLog[index]; }

static OSStatus Open(void *self, AudioComponentInstance instance) { return noErr; }
static OSStatus Close(void *self) { free(self); return noErr; }
static OSStatus Initialize(void *self) { ((TempoProbe *)self)->initialized = 1; return noErr; }
static OSStatus Uninitialize(void *self) { ((TempoProbe *)self)->initialized = 0; return noErr; }

static OSStatus GetPropertyInfo(void *self, AudioUnitPropertyID id, AudioUnitScope scope, AudioUnitElement element,
                                UInt32 *outSize, Boolean *outWritable) {
    UInt32 size;
    switch (id) {
    case kAudioUnitProperty_StreamFormat:
        if (scope != kAudioUnitScope_Output) return kAudioUnitErr_InvalidScope;
        if (element != 0) return kAudioUnitErr_InvalidElement;
        size = sizeof(AudioStreamBasicDescription);
        break;
    case kAudioUnitProperty_MaximumFramesPerSlice:
        size = sizeof(UInt32);
        break;
    case kAudioUnitProperty_HostCallbacks:
        if (scope != kAudioUnitScope_Global) return kAudioUnitErr_InvalidScope;
        size = sizeof(HostCallbackInfo);
        break;
    default:
        return kAudioUnitErr_InvalidProperty;
    }
    if (outSize) *outSize = size;
    if (outWritable) *outWritable = 1;
    return noErr;
}

static OSStatus GetProperty(void *self, AudioUnitPropertyID id, AudioUnitScope scope, AudioUnitElement element,
                            void *outData, UInt32 *ioSize) {
    TempoProbe *unit = self;
    UInt32 size;
    OSStatus status = GetPropertyInfo(self, id, scope, element, &size, NULL);
    if (status != noErr) return status;
    if (!outData || !ioSize || *ioSize < size) return kAudio_ParamError;
    if (id == kAudioUnitProperty_StreamFormat) memcpy(outData, &unit->format, size);
    else if (id == kAudioUnitProperty_MaximumFramesPerSlice) memcpy(outData, &unit->maxFrames, size);
    else memcpy(outData, &unit->host, size);
    *ioSize = size;
    return noErr;
}

static OSStatus SetProperty(void *self, AudioUnitPropertyID id, AudioUnitScope scope, AudioUnitElement element,
                            const void *inData, UInt32 inSize) {
    TempoProbe *unit = self;
    UInt32 size;
    OSStatus status = GetPropertyInfo(self, id, scope, element, &size, NULL);
    if (status != noErr) return status;
    if (id == kAudioUnitProperty_HostCallbacks && !inData) {   /* the host takes its callbacks back */
        memset(&unit->host, 0, sizeof unit->host);
        return noErr;
    }
    if (!inData) return kAudio_ParamError;
    if (inSize != size) return kAudioUnitErr_InvalidPropertyValue;
    if (id == kAudioUnitProperty_StreamFormat) unit->format = *(const AudioStreamBasicDescription *)inData;
    else if (id == kAudioUnitProperty_MaximumFramesPerSlice) unit->maxFrames = *(const UInt32 *)inData;
    else unit->host = *(const HostCallbackInfo *)inData;
    return noErr;
}

static OSStatus Render(void *self, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *timeStamp,
                       UInt32 bus, UInt32 frames, AudioBufferList *ioData) {
    TempoProbe *unit = self;
    if (!unit->initialized) return kAudioUnitErr_Uninitialized;
    if (frames > unit->maxFrames) return kAudioUnitErr_TooManyFramesToProcess;
    for (UInt32 b = 0; b < ioData->mNumberBuffers; b++) memset(ioData->mBuffers[b].mData, 0, frames * sizeof(Float32));
    if (probeCount == TEMPO_PROBE_CAPACITY) return noErr;
    TempoProbeEntry entry = {0};
    entry.frames = frames;
    if (unit->host.beatAndTempoProc)
        entry.beatStatus = unit->host.beatAndTempoProc(unit->host.hostUserData, &entry.beat, &entry.tempo);
    else
        entry.beatStatus = kAudioUnitErr_InvalidProperty;
    if (unit->host.musicalTimeLocationProc)
        unit->host.musicalTimeLocationProc(unit->host.hostUserData, &entry.samplesToNextBeat, &entry.numerator,
                                           &entry.denominator, &entry.downBeat);
    if (unit->host.transportStateProc2)
        unit->host.transportStateProc2(unit->host.hostUserData, &entry.playing, NULL, &entry.changed,
                                       &entry.sampleInTimeLine, NULL, NULL, NULL);
    probeLog[probeCount++] = entry;
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

AudioComponentPlugInInterface *TempoProbeFactory(const AudioComponentDescription *desc) {
    TempoProbe *unit = calloc(1, sizeof(TempoProbe));
    unit->interface.Open = Open;
    unit->interface.Close = Close;
    unit->interface.Lookup = Lookup;
    unit->maxFrames = 1156;
    return &unit->interface;
}
