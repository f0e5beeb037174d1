/*
 * AUComponent.h — audio units: types, scopes, errors, callbacks and the unit calls.
 */
#ifndef AUHOST_AUCOMPONENT_H
#define AUHOST_AUCOMPONENT_H

#include <AudioToolbox/AudioComponent.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

typedef AudioComponentInstance AudioUnit;

AU_ENUM(OSType) {
    kAudioUnitType_Output = 'auou',
    kAudioUnitType_MusicDevice = 'aumu',
    kAudioUnitType_MusicEffect = 'aumf',
    kAudioUnitType_FormatConverter = 'aufc',
    kAudioUnitType_Effect = 'aufx',
    kAudioUnitType_Mixer = 'aumx',
    kAudioUnitType_Panner = 'aupn',
    kAudioUnitType_Generator = 'augn',
    kAudioUnitType_OfflineEffect = 'auol',
    kAudioUnitType_MIDIProcessor = 'aumi'
};

AU_ENUM(OSType) {
    kAudioUnitManufacturer_Apple = 'appl',
    /* AUHost's own units answer to this manufacturer (and to Apple's, for ported code). */
    kAudioUnitManufacturer_AUHost = 'AUHs'
};

typedef UInt32 AudioUnitPropertyID;
typedef UInt32 AudioUnitScope;
typedef UInt32 AudioUnitElement;
typedef UInt32 AudioUnitParameterID;
typedef Float32 AudioUnitParameterValue;

AU_ENUM(AudioUnitScope) {
    kAudioUnitScope_Global = 0,
    kAudioUnitScope_Input = 1,
    kAudioUnitScope_Output = 2,
    kAudioUnitScope_Group = 3,
    kAudioUnitScope_Part = 4,
    kAudioUnitScope_Note = 5,
    kAudioUnitScope_Layer = 6,
    kAudioUnitScope_LayerItem = 7
};

typedef AU_OPTIONS(UInt32, AudioUnitRenderActionFlags) {
    kAudioUnitRenderAction_PreRender = (1U << 2),
    kAudioUnitRenderAction_PostRender = (1U << 3),
    kAudioUnitRenderAction_OutputIsSilence = (1U << 4),
    kAudioOfflineUnitRenderAction_Preflight = (1U << 5),
    kAudioOfflineUnitRenderAction_Render = (1U << 6),
    kAudioOfflineUnitRenderAction_Complete = (1U << 7),
    kAudioUnitRenderAction_PostRenderError = (1U << 8),
    kAudioUnitRenderAction_DoNotCheckRenderArgs = (1U << 9)
};

AU_ENUM(OSStatus) {
    kAudioUnitErr_InvalidProperty = -10879,
    kAudioUnitErr_InvalidParameter = -10878,
    kAudioUnitErr_InvalidElement = -10877,
    kAudioUnitErr_NoConnection = -10876,
    kAudioUnitErr_FailedInitialization = -10875,
    kAudioUnitErr_TooManyFramesToProcess = -10874,
    kAudioUnitErr_InvalidFile = -10871,
    kAudioUnitErr_UnknownFileType = -10870,
    kAudioUnitErr_FileNotSpecified = -10869,
    kAudioUnitErr_FormatNotSupported = -10868,
    kAudioUnitErr_Uninitialized = -10867,
    kAudioUnitErr_InvalidScope = -10866,
    kAudioUnitErr_PropertyNotWritable = -10865,
    kAudioUnitErr_CannotDoInCurrentContext = -10863,
    kAudioUnitErr_InvalidPropertyValue = -10851,
    kAudioUnitErr_PropertyNotInUse = -10850,
    kAudioUnitErr_Initialized = -10849,
    kAudioUnitErr_InvalidOfflineRender = -10848,
    kAudioUnitErr_Unauthorized = -10847,
    kAudioUnitErr_MIDIOutputBufferFull = -66753,
    kAudioUnitErr_RenderTimeout = -66745,
    kAudioUnitErr_ExtensionNotFound = -66744,
    kAudioUnitErr_InvalidParameterValue = -66743,
    kAudioUnitErr_InvalidFilePath = -66742,
    kAudioUnitErr_MissingKey = -66741
};

/* A render callback: fill ioData with inNumberFrames frames for bus inBusNumber. Runs on the
   render thread: allocate nothing, take no lock, never wait. */
typedef OSStatus (*AURenderCallback)(void *inRefCon, AudioUnitRenderActionFlags *ioActionFlags,
                                     const AudioTimeStamp *inTimeStamp, UInt32 inBusNumber,
                                     UInt32 inNumberFrames, AudioBufferList *_Nullable ioData);

/* Called on a non-real-time thread after a property changed (never on the render thread). */
typedef void (*AudioUnitPropertyListenerProc)(void *inRefCon, AudioUnit inUnit, AudioUnitPropertyID inID,
                                              AudioUnitScope inScope, AudioUnitElement inElement);

/* A Swift enum, as on Apple (CF_ENUM): .parameterEvent_Immediate, .parameterEvent_Ramped. */
typedef AU_NAMED_ENUM(UInt32, AUParameterEventType) {
    kParameterEvent_Immediate = 1,
    kParameterEvent_Ramped = 2
};

/* A parameter change at a frame offset in the next render call (or a linear ramp across frames). */
typedef struct AudioUnitParameterEvent {
    AudioUnitScope scope;
    AudioUnitElement element;
    AudioUnitParameterID parameter;
    AUParameterEventType eventType;
    union {
        struct {
            SInt32 startBufferOffset;
            UInt32 durationInFrames;
            AudioUnitParameterValue startValue;
            AudioUnitParameterValue endValue;
        } ramp;
        struct {
            UInt32 bufferOffset;
            AudioUnitParameterValue value;
        } immediate;
    } eventValues;
} AudioUnitParameterEvent;

typedef struct AudioUnitParameter {
    AudioUnit mAudioUnit;
    AudioUnitParameterID mParameterID;
    AudioUnitScope mScope;
    AudioUnitElement mElement;
} AudioUnitParameter;

typedef struct AudioUnitProperty {
    AudioUnit mAudioUnit;
    AudioUnitPropertyID mPropertyID;
    AudioUnitScope mScope;
    AudioUnitElement mElement;
} AudioUnitProperty;

/* Selectors a unit answers in Lookup. */
AU_ENUM(SInt16) {
    kAudioUnitRange = 0x0000,
    kAudioUnitInitializeSelect = 0x0001,
    kAudioUnitUninitializeSelect = 0x0002,
    kAudioUnitGetPropertyInfoSelect = 0x0003,
    kAudioUnitGetPropertySelect = 0x0004,
    kAudioUnitSetPropertySelect = 0x0005,
    kAudioUnitAddPropertyListenerSelect = 0x000A,
    kAudioUnitRemovePropertyListenerSelect = 0x000B,
    kAudioUnitRemovePropertyListenerWithUserDataSelect = 0x0012,
    kAudioUnitAddRenderNotifySelect = 0x000F,
    kAudioUnitRemoveRenderNotifySelect = 0x0010,
    kAudioUnitGetParameterSelect = 0x0006,
    kAudioUnitSetParameterSelect = 0x0007,
    kAudioUnitScheduleParametersSelect = 0x0011,
    kAudioUnitRenderSelect = 0x000E,
    kAudioUnitResetSelect = 0x0009,
    kAudioUnitComplexRenderSelect = 0x0013,
    kAudioUnitProcessSelect = 0x0014,
    kAudioUnitProcessMultipleSelect = 0x0015,
    kAudioOutputUnitRange = 0x0200,
    kAudioOutputUnitStartSelect = 0x0201,
    kAudioOutputUnitStopSelect = 0x0202
};

/* The method types behind each selector (the first argument is the plug-in's self). Every pointer
   is nullable here on purpose: a unit's methods may be reached by C callers passing NULL, so Swift
   implementations see optionals and check them. */
typedef OSStatus (*AudioUnitInitializeProc)(void *_Nullable self);
typedef OSStatus (*AudioUnitUninitializeProc)(void *_Nullable self);
typedef OSStatus (*AudioUnitGetPropertyInfoProc)(void *_Nullable self, AudioUnitPropertyID prop, AudioUnitScope scope,
                                                 AudioUnitElement elem, UInt32 *_Nullable outDataSize, Boolean *_Nullable outWritable);
typedef OSStatus (*AudioUnitGetPropertyProc)(void *_Nullable self, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                             AudioUnitElement inElement, void *_Nullable outData, UInt32 *_Nullable ioDataSize);
typedef OSStatus (*AudioUnitSetPropertyProc)(void *_Nullable self, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                             AudioUnitElement inElement, const void *_Nullable inData, UInt32 inDataSize);
typedef OSStatus (*AudioUnitAddPropertyListenerProc)(void *_Nullable self, AudioUnitPropertyID prop,
                                                     AudioUnitPropertyListenerProc _Nullable proc, void *_Nullable userData);
typedef OSStatus (*AudioUnitRemovePropertyListenerProc)(void *_Nullable self, AudioUnitPropertyID prop,
                                                        AudioUnitPropertyListenerProc _Nullable proc);
typedef OSStatus (*AudioUnitRemovePropertyListenerWithUserDataProc)(void *_Nullable self, AudioUnitPropertyID prop,
                                                                    AudioUnitPropertyListenerProc _Nullable proc, void *_Nullable userData);
typedef OSStatus (*AudioUnitAddRenderNotifyProc)(void *_Nullable self, AURenderCallback _Nullable proc, void *_Nullable userData);
typedef OSStatus (*AudioUnitRemoveRenderNotifyProc)(void *_Nullable self, AURenderCallback _Nullable proc, void *_Nullable userData);
typedef OSStatus (*AudioUnitGetParameterProc)(void *_Nullable inComponentStorage, AudioUnitParameterID inID,
                                              AudioUnitScope inScope, AudioUnitElement inElement,
                                              AudioUnitParameterValue *_Nullable outValue);
typedef OSStatus (*AudioUnitSetParameterProc)(void *_Nullable inComponentStorage, AudioUnitParameterID inID,
                                              AudioUnitScope inScope, AudioUnitElement inElement,
                                              AudioUnitParameterValue inValue, UInt32 inBufferOffsetInFrames);
typedef OSStatus (*AudioUnitScheduleParametersProc)(void *_Nullable self, const AudioUnitParameterEvent *_Nullable events, UInt32 numEvents);
typedef OSStatus (*AudioUnitRenderProc)(void *_Nullable inComponentStorage, AudioUnitRenderActionFlags *_Nullable ioActionFlags,
                                        const AudioTimeStamp *_Nullable inTimeStamp, UInt32 inOutputBusNumber,
                                        UInt32 inNumberFrames, AudioBufferList *_Nullable ioData);
typedef OSStatus (*AudioUnitResetProc)(void *_Nullable self, AudioUnitScope inScope, AudioUnitElement inElement);
typedef OSStatus (*AudioUnitProcessProc)(void *_Nullable self, AudioUnitRenderActionFlags *_Nullable ioActionFlags,
                                         const AudioTimeStamp *_Nullable inTimeStamp, UInt32 inNumberFrames,
                                         AudioBufferList *_Nullable ioData);
typedef OSStatus (*AudioUnitProcessMultipleProc)(void *_Nullable self, AudioUnitRenderActionFlags *_Nullable ioActionFlags,
                                                 const AudioTimeStamp *_Nullable inTimeStamp, UInt32 inNumberFrames,
                                                 UInt32 inNumberInputBufferLists, const AudioBufferList *_Nullable *_Nullable inInputBufferLists,
                                                 UInt32 inNumberOutputBufferLists, AudioBufferList *_Nullable *_Nullable ioOutputBufferLists);
typedef OSStatus (*AudioOutputUnitStartProc)(void *_Nullable self);
typedef OSStatus (*AudioOutputUnitStopProc)(void *_Nullable self);

/* AUHost extension. A unit living in another image (a plug-in loaded at run time) keeps the sentence
   explaining its last failed setup call in that image; the host asks for it with this selector so
   that AUHostCopyLastErrorMessage can return it. The method writes a NUL-terminated UTF-8 sentence
   (truncated to inSize bytes) and returns noErr, or returns kAudio_ParamError when it has none. */
AU_ENUM(SInt16) { kAUHostCopyLastErrorMessageSelect = 0x7F01 };
typedef OSStatus (*AUHostCopyLastErrorMessageProc)(void *_Nullable self, char *_Nullable outMessage, UInt32 inSize);

/* [setup] Allocates render resources and checks formats. Errors: Initialized is never returned
   (initializing twice is a no-op, as documented); FormatNotSupported, FailedInitialization. */
OSStatus AudioUnitInitialize(AudioUnit inUnit);
/* [setup] Frees render resources; properties keep their values. */
OSStatus AudioUnitUninitialize(AudioUnit inUnit);
/* [setup] Size of a property's value and whether it can be set. Either out-pointer may be NULL. */
OSStatus AudioUnitGetPropertyInfo(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                                  AudioUnitElement inElement, UInt32 *_Nullable outDataSize, Boolean *_Nullable outWritable);
/* [setup] Copies a property's value; *ioDataSize is the buffer size in, the value size out. */
OSStatus AudioUnitGetProperty(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                              AudioUnitElement inElement, void *outData, UInt32 *ioDataSize);
/* [setup] Sets a property; a NULL inData removes a removable value. Listeners are told afterwards. */
OSStatus AudioUnitSetProperty(AudioUnit inUnit, AudioUnitPropertyID inID, AudioUnitScope inScope,
                              AudioUnitElement inElement, const void *_Nullable inData, UInt32 inDataSize);
/* [setup] Listeners are called on a non-real-time thread. */
OSStatus AudioUnitAddPropertyListener(AudioUnit inUnit, AudioUnitPropertyID inID,
                                      AudioUnitPropertyListenerProc inProc, void *_Nullable inProcUserData);
OSStatus AudioUnitRemovePropertyListener(AudioUnit inUnit, AudioUnitPropertyID inID,
                                         AudioUnitPropertyListenerProc inProc);
OSStatus AudioUnitRemovePropertyListenerWithUserData(AudioUnit inUnit, AudioUnitPropertyID inID,
                                                     AudioUnitPropertyListenerProc inProc, void *_Nullable inProcUserData);
/* [setup] Notifies are called on the render thread before (PreRender) and after (PostRender). */
OSStatus AudioUnitAddRenderNotify(AudioUnit inUnit, AURenderCallback inProc, void *_Nullable inProcUserData);
OSStatus AudioUnitRemoveRenderNotify(AudioUnit inUnit, AURenderCallback inProc, void *_Nullable inProcUserData);
/* [any thread] Reads a parameter's current value. */
OSStatus AudioUnitGetParameter(AudioUnit inUnit, AudioUnitParameterID inID, AudioUnitScope inScope,
                               AudioUnitElement inElement, AudioUnitParameterValue *outValue);
/* [any thread] Sets a parameter; a non-zero offset schedules it inside the next render call. */
OSStatus AudioUnitSetParameter(AudioUnit inUnit, AudioUnitParameterID inID, AudioUnitScope inScope,
                               AudioUnitElement inElement, AudioUnitParameterValue inValue,
                               UInt32 inBufferOffsetInFrames);
/* [render] Schedules immediate and ramped changes for the next render call, sample-accurately. */
OSStatus AudioUnitScheduleParameters(AudioUnit inUnit, const AudioUnitParameterEvent *inParameterEvent,
                                     UInt32 inNumParamEvents);
/* [render] Pulls inNumberFrames frames of output bus inOutputBusNumber into ioData. A buffer whose
   mData is NULL is pointed at the unit's own output. */
OSStatus AudioUnitRender(AudioUnit inUnit, AudioUnitRenderActionFlags *_Nullable ioActionFlags,
                         const AudioTimeStamp *inTimeStamp, UInt32 inOutputBusNumber,
                         UInt32 inNumberFrames, AudioBufferList *ioData);
/* [render] In-place processing for units that support it (ioData is input and output). */
OSStatus AudioUnitProcess(AudioUnit inUnit, AudioUnitRenderActionFlags *_Nullable ioActionFlags,
                          const AudioTimeStamp *inTimeStamp, UInt32 inNumberFrames, AudioBufferList *ioData);
OSStatus AudioUnitProcessMultiple(AudioUnit inUnit, AudioUnitRenderActionFlags *_Nullable ioActionFlags,
                                  const AudioTimeStamp *inTimeStamp, UInt32 inNumberFrames,
                                  UInt32 inNumberInputBufferLists, const AudioBufferList *_Nonnull *_Nonnull inInputBufferLists,
                                  UInt32 inNumberOutputBufferLists, AudioBufferList *_Nonnull *_Nonnull ioOutputBufferLists);
/* [setup] Clears delay lines, filters and tails; parameters keep their values. */
OSStatus AudioUnitReset(AudioUnit inUnit, AudioUnitScope inScope, AudioUnitElement inElement);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
