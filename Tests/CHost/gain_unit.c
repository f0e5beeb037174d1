/*
 * gain_unit.c — a gain effect written in C against the plug-in ABI (AudioComponentPlugInInterface),
 * registered in-process with AudioComponentRegister. Identity 'aufx' 'cgan' 'AUHt'. Output is input
 * times parameter 0 (default 0.5). It checks its arguments the way the documents say a unit must.
 */
#include <AudioToolbox/AudioToolbox.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    AudioComponentPlugInInterface interface;   /* first: the host passes a pointer to it as self */
    AudioComponentInstance instance;
    AudioStreamBasicDescription format[2];     /* [0] input, [1] output */
    UInt32 maxFrames;
    AURenderCallbackStruct input;
    Float32 gain;
    Boolean initialized;
} GainUnit;

static OSStatus Open(void *self, AudioComponentInstance instance) { ((GainUnit *)self)->instance = instance; return noErr; }
static OSStatus Close(void *self) { free(self); return noErr; }
static OSStatus Initialize(void *self) { ((GainUnit *)self)->initialized = 1; return noErr; }
static OSStatus Uninitialize(void *self) { ((GainUnit *)self)->initialized = 0; return noErr; }

static OSStatus GetPropertyInfo(void *self, AudioUnitPropertyID id, AudioUnitScope scope, AudioUnitElement element,
                                UInt32 *outSize, Boolean *outWritable) {
    UInt32 size;
    switch (id) {
    case kAudioUnitProperty_StreamFormat:
        if (scope != kAudioUnitScope_Input && scope != kAudioUnitScope_Output) return kAudioUnitErr_InvalidScope;
        if (element != 0) return kAudioUnitErr_InvalidElement;
        size = sizeof(AudioStreamBasicDescription);
        break;
    case kAudioUnitProperty_MaximumFramesPerSlice:
        if (scope != kAudioUnitScope_Global) return kAudioUnitErr_InvalidScope;
        size = sizeof(UInt32);
        break;
    case kAudioUnitProperty_SetRenderCallback:
        if (scope != kAudioUnitScope_Input) return kAudioUnitErr_InvalidScope;
        size = sizeof(AURenderCallbackStruct);
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
    GainUnit *unit = self;
    UInt32 size;
    OSStatus status = GetPropertyInfo(self, id, scope, element, &size, NULL);
    if (status != noErr) return status;
    if (!outData || !ioSize || *ioSize < size) return kAudio_ParamError;
    if (id == kAudioUnitProperty_StreamFormat) memcpy(outData, &unit->format[scope == kAudioUnitScope_Output], size);
    else if (id == kAudioUnitProperty_MaximumFramesPerSlice) memcpy(outData, &unit->maxFrames, size);
    else return kAudioUnitErr_InvalidProperty;   /* SetRenderCallback is write-only */
    *ioSize = size;
    return noErr;
}

static OSStatus SetProperty(void *self, AudioUnitPropertyID id, AudioUnitScope scope, AudioUnitElement element,
                            const void *inData, UInt32 inSize) {
    GainUnit *unit = self;
    UInt32 size;
    OSStatus status = GetPropertyInfo(self, id, scope, element, &size, NULL);
    if (status != noErr) return status;
    if (!inData) return kAudio_ParamError;
    if (inSize != size) return kAudioUnitErr_InvalidPropertyValue;
    if (id == kAudioUnitProperty_StreamFormat) {
        const AudioStreamBasicDescription *f = inData;
        if (f->mFormatID != kAudioFormatLinearPCM || !(f->mFormatFlags & kAudioFormatFlagIsFloat)
            || !(f->mFormatFlags & kAudioFormatFlagIsNonInterleaved) || f->mBitsPerChannel != 32)
            return kAudioUnitErr_FormatNotSupported;
        unit->format[scope == kAudioUnitScope_Output] = *f;
    } else if (id == kAudioUnitProperty_MaximumFramesPerSlice) {
        if (unit->initialized) return kAudioUnitErr_Initialized;
        unit->maxFrames = *(const UInt32 *)inData;
    } else {
        unit->input = *(const AURenderCallbackStruct *)inData;
    }
    return noErr;
}

static OSStatus GetParameter(void *self, AudioUnitParameterID id, AudioUnitScope scope, AudioUnitElement element,
                             AudioUnitParameterValue *outValue) {
    if (id != 0 || scope != kAudioUnitScope_Global) return kAudioUnitErr_InvalidParameter;
    *outValue = ((GainUnit *)self)->gain;
    return noErr;
}

static OSStatus SetParameter(void *self, AudioUnitParameterID id, AudioUnitScope scope, AudioUnitElement element,
                             AudioUnitParameterValue value, UInt32 offset) {
    if (id != 0 || scope != kAudioUnitScope_Global) return kAudioUnitErr_InvalidParameter;
    ((GainUnit *)self)->gain = value;
    return noErr;
}

static OSStatus Render(void *self, AudioUnitRenderActionFlags *flags, const AudioTimeStamp *timeStamp,
                       UInt32 bus, UInt32 frames, AudioBufferList *ioData) {
    GainUnit *unit = self;
    if (!unit->initialized) return kAudioUnitErr_Uninitialized;
    if (frames > unit->maxFrames) return kAudioUnitErr_TooManyFramesToProcess;
    if (bus != 0) return kAudioUnitErr_InvalidElement;
    if (!unit->input.inputProc) return kAudioUnitErr_NoConnection;
    OSStatus status = unit->input.inputProc(unit->input.inputProcRefCon, flags, timeStamp, 0, frames, ioData);
    if (status != noErr) return status;
    for (UInt32 b = 0; b < ioData->mNumberBuffers; b++) {
        Float32 *samples = ioData->mBuffers[b].mData;
        for (UInt32 i = 0; i < frames; i++) samples[i] *= unit->gain;
    }
    return noErr;
}

static AudioComponentMethod Lookup(SInt16 selector) {
    switch (selector) {
    case kAudioUnitInitializeSelect: return (AudioComponentMethod)Initialize;
    case kAudioUnitUninitializeSelect: return (AudioComponentMethod)Uninitialize;
    case kAudioUnitGetPropertyInfoSelect: return (AudioComponentMethod)GetPropertyInfo;
    case kAudioUnitGetPropertySelect: return (AudioComponentMethod)GetProperty;
    case kAudioUnitSetPropertySelect: return (AudioComponentMethod)SetProperty;
    case kAudioUnitGetParameterSelect: return (AudioComponentMethod)GetParameter;
    case kAudioUnitSetParameterSelect: return (AudioComponentMethod)SetParameter;
    case kAudioUnitRenderSelect: return (AudioComponentMethod)Render;
    default: return NULL;
    }
}

AudioComponentPlugInInterface *GainUnitFactory(const AudioComponentDescription *desc) {
    GainUnit *unit = calloc(1, sizeof(GainUnit));
    unit->interface.Open = Open;
    unit->interface.Close = Close;
    unit->interface.Lookup = Lookup;
    unit->maxFrames = 1156;
    unit->gain = 0.5f;
    return &unit->interface;
}
