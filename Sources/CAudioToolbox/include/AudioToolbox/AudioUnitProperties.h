/*
 * AudioUnitProperties.h — property IDs with their value types, parameter info, and the subtypes
 * of the units AUHost ships.
 */
#ifndef AUHOST_AUDIOUNITPROPERTIES_H
#define AUHOST_AUDIOUNITPROPERTIES_H

#include <AudioToolbox/AUComponent.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

/*
 * Checked at the boundary (AudioUnitSetProperty, for every unit): a StreamFormat or SampleRate
 * must have a sample rate inside kAUHostMinimumSampleRate…kAUHostMaximumSampleRate
 * (1 Hz … 1 536 000 Hz: every real device and file rate), and a StreamFormat must be linear
 * PCM with 1…1024 channels, 1…64 bits per channel, one frame per packet and byte counts that
 * agree with them; otherwise kAudioUnitErr_FormatNotSupported (StreamFormat) or
 * kAudioUnitErr_InvalidPropertyValue (SampleRate, or a value of the wrong size). Every property's
 * value must have exactly its documented size (array properties: whole entries, bounded).
 */
#define kAUHostMinimumSampleRate 1.0
#define kAUHostMaximumSampleRate 1536000.0

AU_ENUM(AudioUnitPropertyID) {
    kAudioUnitProperty_ClassInfo = 0,                  /* CFPropertyListRef (CFDictionary), global */
    kAudioUnitProperty_MakeConnection = 1,             /* AudioUnitConnection, input scope */
    kAudioUnitProperty_SampleRate = 2,                 /* Float64 */
    kAudioUnitProperty_ParameterList = 3,              /* AudioUnitParameterID[] */
    kAudioUnitProperty_ParameterInfo = 4,              /* AudioUnitParameterInfo; element = parameter ID */
    kAudioUnitProperty_CPULoad = 6,                    /* Float64, 0…1 */
    kAudioUnitProperty_StreamFormat = 8,               /* AudioStreamBasicDescription */
    kAudioUnitProperty_ElementCount = 11,              /* UInt32 */
    kAudioUnitProperty_Latency = 12,                   /* Float64 seconds, read-only */
    kAudioUnitProperty_SupportedNumChannels = 13,      /* AUChannelInfo[] */
    kAudioUnitProperty_MaximumFramesPerSlice = 14,     /* UInt32 */
    kAudioUnitProperty_ParameterValueStrings = 16,     /* CFArrayRef of CFStringRef; element = parameter ID */
    kAudioUnitProperty_AudioChannelLayout = 19,        /* AudioChannelLayout */
    kAudioUnitProperty_TailTime = 20,                  /* Float64 seconds */
    kAudioUnitProperty_BypassEffect = 21,              /* UInt32 */
    kAudioUnitProperty_LastRenderError = 22,           /* OSStatus */
    kAudioUnitProperty_SetRenderCallback = 23,         /* AURenderCallbackStruct, input scope */
    kAudioUnitProperty_FactoryPresets = 24,            /* CFArrayRef of AUPreset* */
    kAudioUnitProperty_ContextName = 25,               /* CFStringRef */
    kAudioUnitProperty_RenderQuality = 26,             /* UInt32 */
    kAudioUnitProperty_HostCallbacks = 27,             /* HostCallbackInfo, global (set by the host, read by the unit) */
    kAudioUnitProperty_InPlaceProcessing = 29,         /* UInt32 */
    kAudioUnitProperty_ElementName = 30,               /* CFStringRef */
    kAudioUnitProperty_SupportedChannelLayoutTags = 32, /* AudioChannelLayoutTag[] */
    kAudioUnitProperty_ParameterStringFromValue = 33,  /* AudioUnitParameterStringFromValue */
    kAudioUnitProperty_ParameterIDName = 34,
    kAudioUnitProperty_ParameterClumpName = 35,
    kAudioUnitProperty_PresentPreset = 36,             /* AUPreset */
    kAudioUnitProperty_OfflineRender = 37,             /* UInt32 */
    kAudioUnitProperty_ParameterValueFromString = 38,  /* AudioUnitParameterValueFromString */
    kAudioUnitProperty_IconLocation = 39,
    kAudioUnitProperty_PresentationLatency = 40,       /* Float64 seconds */
    kAudioUnitProperty_DependentParameters = 45,
    kAudioUnitProperty_AUHostIdentifier = 46,
    kAudioUnitProperty_MIDIOutputCallbackInfo = 47,
    kAudioUnitProperty_MIDIOutputCallback = 48,
    kAudioUnitProperty_InputSamplesInOutput = 49,
    kAudioUnitProperty_ClassInfoFromDocument = 50,
    kAudioUnitProperty_ShouldAllocateBuffer = 51,      /* UInt32, input or output scope */
    kAudioUnitProperty_FrequencyResponse = 52,
    kAudioUnitProperty_ParameterHistoryInfo = 53,
    kAudioUnitProperty_NickName = 54,                  /* CFStringRef */
    kAudioUnitProperty_MeteringMode = 3007             /* UInt32, mixers */
};

/* Keys of the ClassInfo dictionary. */
#define kAUPresetVersionKey "version"
#define kAUPresetTypeKey "type"
#define kAUPresetSubtypeKey "subtype"
#define kAUPresetManufacturerKey "manufacturer"
#define kAUPresetDataKey "data"
#define kAUPresetNameKey "name"
#define kAUPresetNumberKey "preset-number"
#define kAUPresetRenderQualityKey "render-quality"
#define kAUPresetElementNameKey "element-name"
#define kAUPresetPartKey "part"

typedef struct AURenderCallbackStruct {
    AURenderCallback _Nullable inputProc;
    void *_Nullable inputProcRefCon;
} AURenderCallbackStruct;

/* Host callbacks (kAudioUnitProperty_HostCallbacks): a unit asks where the music is. Every
   answer describes the start of the buffer being rendered; NULL out-parameters are not wanted.
   A callback the host does not provide is NULL; one without an answer returns
   kAudioUnitErr_CannotDoInCurrentContext. Called on the render thread: they do not block.
   A MusicPlayer hands them to every node of its sequence's graph (answers from the sequence's
   tempo map and the player's position); LV2 units pass them on as time:Position. */
typedef OSStatus (*HostCallback_GetBeatAndTempo)(
    void *_Nullable inHostUserData, Float64 *_Nullable outCurrentBeat, Float64 *_Nullable outCurrentTempo);
typedef OSStatus (*HostCallback_GetMusicalTimeLocation)(
    void *_Nullable inHostUserData, UInt32 *_Nullable outDeltaSampleOffsetToNextBeat, Float32 *_Nullable outTimeSig_Numerator,
    UInt32 *_Nullable outTimeSig_Denominator, Float64 *_Nullable outCurrentMeasureDownBeat);
typedef OSStatus (*HostCallback_GetTransportState)(
    void *_Nullable inHostUserData, Boolean *_Nullable outIsPlaying, Boolean *_Nullable outTransportStateChanged,
    Float64 *_Nullable outCurrentSampleInTimeLine, Boolean *_Nullable outIsCycling, Float64 *_Nullable outCycleStartBeat,
    Float64 *_Nullable outCycleEndBeat);
typedef OSStatus (*HostCallback_GetTransportState2)(
    void *_Nullable inHostUserData, Boolean *_Nullable outIsPlaying, Boolean *_Nullable outIsRecording,
    Boolean *_Nullable outTransportStateChanged, Float64 *_Nullable outCurrentSampleInTimeLine, Boolean *_Nullable outIsCycling,
    Float64 *_Nullable outCycleStartBeat, Float64 *_Nullable outCycleEndBeat);

typedef struct HostCallbackInfo {
    void *_Nullable hostUserData;
    HostCallback_GetBeatAndTempo _Nullable beatAndTempoProc;
    HostCallback_GetMusicalTimeLocation _Nullable musicalTimeLocationProc;
    HostCallback_GetTransportState _Nullable transportStateProc;
    HostCallback_GetTransportState2 _Nullable transportStateProc2;
} HostCallbackInfo;

typedef struct AudioUnitConnection {
    AudioUnit _Nullable sourceAudioUnit;
    UInt32 sourceOutputNumber;
    UInt32 destInputNumber;
} AudioUnitConnection;

/* A supported channel configuration. -1 in both means "any, as long as in == out"; -1 in one
   means "any"; -2 … -N means "up to N". */
typedef struct AUChannelInfo {
    SInt16 inChannels;
    SInt16 outChannels;
} AUChannelInfo;

typedef struct AUPreset {
    SInt32 presetNumber;
    CFStringRef _Nullable presetName;
} AUPreset;

AU_ENUM(UInt32) {
    kRenderQuality_Max = 127,
    kRenderQuality_High = 96,
    kRenderQuality_Medium = 64,
    kRenderQuality_Low = 32,
    kRenderQuality_Min = 0
};

typedef UInt32 AudioUnitParameterUnit;
AU_ENUM(AudioUnitParameterUnit) {
    kAudioUnitParameterUnit_Generic = 0,
    kAudioUnitParameterUnit_Indexed = 1,
    kAudioUnitParameterUnit_Boolean = 2,
    kAudioUnitParameterUnit_Percent = 3,
    kAudioUnitParameterUnit_Seconds = 4,
    kAudioUnitParameterUnit_SampleFrames = 5,
    kAudioUnitParameterUnit_Phase = 6,
    kAudioUnitParameterUnit_Rate = 7,
    kAudioUnitParameterUnit_Hertz = 8,
    kAudioUnitParameterUnit_Cents = 9,
    kAudioUnitParameterUnit_RelativeSemiTones = 10,
    kAudioUnitParameterUnit_MIDINoteNumber = 11,
    kAudioUnitParameterUnit_MIDIController = 12,
    kAudioUnitParameterUnit_Decibels = 13,
    kAudioUnitParameterUnit_LinearGain = 14,
    kAudioUnitParameterUnit_Degrees = 15,
    kAudioUnitParameterUnit_EqualPowerCrossfade = 16,
    kAudioUnitParameterUnit_MixerFaderCurve1 = 17,
    kAudioUnitParameterUnit_Pan = 18,
    kAudioUnitParameterUnit_Meters = 19,
    kAudioUnitParameterUnit_AbsoluteCents = 20,
    kAudioUnitParameterUnit_Octaves = 21,
    kAudioUnitParameterUnit_BPM = 22,
    kAudioUnitParameterUnit_Beats = 23,
    kAudioUnitParameterUnit_Milliseconds = 24,
    kAudioUnitParameterUnit_Ratio = 25,
    kAudioUnitParameterUnit_CustomUnit = 26
};

typedef AU_OPTIONS(UInt32, AudioUnitParameterOptions) {
    kAudioUnitParameterFlag_CFNameRelease = (1U << 4),
    kAudioUnitParameterFlag_OmitFromPresets = (1U << 13),
    kAudioUnitParameterFlag_PlotHistory = (1U << 14),
    kAudioUnitParameterFlag_MeterReadOnly = (1U << 15),
    kAudioUnitParameterFlag_DisplayMask = (7U << 16) | (1U << 22),
    kAudioUnitParameterFlag_DisplaySquareRoot = (1U << 16),
    kAudioUnitParameterFlag_DisplaySquared = (2U << 16),
    kAudioUnitParameterFlag_DisplayCubed = (3U << 16),
    kAudioUnitParameterFlag_DisplayCubeRoot = (4U << 16),
    kAudioUnitParameterFlag_DisplayExponential = (5U << 16),
    kAudioUnitParameterFlag_HasClump = (1U << 20),
    kAudioUnitParameterFlag_ValuesHaveStrings = (1U << 21),
    kAudioUnitParameterFlag_DisplayLogarithmic = (1U << 22),
    kAudioUnitParameterFlag_IsHighResolution = (1U << 23),
    kAudioUnitParameterFlag_NonRealTime = (1U << 24),
    kAudioUnitParameterFlag_CanRamp = (1U << 25),
    kAudioUnitParameterFlag_ExpertMode = (1U << 26),
    kAudioUnitParameterFlag_HasCFNameString = (1U << 27),
    kAudioUnitParameterFlag_IsGlobalMeta = (1U << 28),
    kAudioUnitParameterFlag_IsElementMeta = (1U << 29),
    kAudioUnitParameterFlag_IsReadable = (1U << 30),
    kAudioUnitParameterFlag_IsWritable = (1U << 31)
};

typedef struct AudioUnitParameterInfo {
    char name[52];
    CFStringRef _Nullable unitName;
    UInt32 clumpID;
    CFStringRef _Nullable cfNameString;
    AudioUnitParameterUnit unit;
    AudioUnitParameterValue minValue;
    AudioUnitParameterValue maxValue;
    AudioUnitParameterValue defaultValue;
    AudioUnitParameterOptions flags;
} AudioUnitParameterInfo;

typedef struct AudioUnitParameterStringFromValue {
    AudioUnitParameterID inParamID;
    const AudioUnitParameterValue *_Nullable inValue;
    CFStringRef _Nullable outString;
} AudioUnitParameterStringFromValue;

typedef struct AudioUnitParameterValueFromString {
    AudioUnitParameterID inParamID;
    CFStringRef inString;
    AudioUnitParameterValue outValue;
} AudioUnitParameterValueFromString;

typedef struct AudioUnitParameterNameInfo {
    AudioUnitParameterID inID;
    SInt32 inDesiredLength;
    CFStringRef _Nullable outName;
} AudioUnitParameterNameInfo;

/* Subtypes of the documented units. A lookup with kAudioUnitManufacturer_Apple and one of these
   finds AUHost's equivalent, so ported code runs unchanged. */
AU_ENUM(OSType) {
    kAudioUnitSubType_GenericOutput = 'genr',
    kAudioUnitSubType_VoiceProcessingIO = 'vpio',
    kAudioUnitSubType_HALOutput = 'ahal',
    kAudioUnitSubType_DefaultOutput = 'def ',
    kAudioUnitSubType_SystemOutput = 'sys ',
    kAudioUnitSubType_RemoteIO = 'rioc',

    kAudioUnitSubType_AUConverter = 'conv',
    kAudioUnitSubType_Varispeed = 'vari',
    kAudioUnitSubType_DeferredRenderer = 'defr',
    kAudioUnitSubType_Splitter = 'splt',
    kAudioUnitSubType_MultiSplitter = 'mspl',
    kAudioUnitSubType_Merger = 'merg',
    kAudioUnitSubType_NewTimePitch = 'nutp',
    kAudioUnitSubType_AUiPodTimeOther = 'ipto',
    kAudioUnitSubType_RoundTripAAC = 'raac',
    kAudioUnitSubType_TimePitch = 'tmpt',

    kAudioUnitSubType_PeakLimiter = 'lmtr',
    kAudioUnitSubType_DynamicsProcessor = 'dcmp',
    kAudioUnitSubType_LowPassFilter = 'lpas',
    kAudioUnitSubType_HighPassFilter = 'hpas',
    kAudioUnitSubType_BandPassFilter = 'bpas',
    kAudioUnitSubType_HighShelfFilter = 'hshf',
    kAudioUnitSubType_LowShelfFilter = 'lshf',
    kAudioUnitSubType_ParametricEQ = 'pmeq',
    kAudioUnitSubType_Distortion = 'dist',
    kAudioUnitSubType_Delay = 'dely',
    kAudioUnitSubType_SampleDelay = 'sdly',
    kAudioUnitSubType_NBandEQ = 'nbeq',
    kAudioUnitSubType_Reverb2 = 'rvb2',
    kAudioUnitSubType_GraphicEQ = 'greq',
    kAudioUnitSubType_MultiBandCompressor = 'mcmp',
    kAudioUnitSubType_MatrixReverb = 'mrev',
    kAudioUnitSubType_AUFilter = 'filt',
    kAudioUnitSubType_NetSend = 'nsnd',
    kAudioUnitSubType_RogerBeep = 'rogr',
    kAudioUnitSubType_AUiPodEQ = 'ipeq',

    kAudioUnitSubType_MultiChannelMixer = 'mcmx',
    kAudioUnitSubType_MatrixMixer = 'mxmx',
    kAudioUnitSubType_AU3DMixerEmbedded = '3dem',
    kAudioUnitSubType_SpatialMixer = '3dem',
    kAudioUnitSubType_StereoMixer = 'smxr',

    kAudioUnitSubType_SphericalHeadPanner = 'sphr',
    kAudioUnitSubType_VectorPanner = 'vbas',
    kAudioUnitSubType_SoundFieldPanner = 'ambi',
    kAudioUnitSubType_HRTFPanner = 'hrtf',

    kAudioUnitSubType_ScheduledSoundPlayer = 'sspl',
    kAudioUnitSubType_AudioFilePlayer = 'afpl',
    kAudioUnitSubType_NetReceive = 'nrcv',

    kAudioUnitSubType_DLSSynth = 'dls ',
    kAudioUnitSubType_Sampler = 'samp',
    kAudioUnitSubType_MIDISynth = 'msyn'
};

/* Voice-processing I/O unit properties (kAudioUnitSubType_VoiceProcessingIO), global scope,
   element 0, each a UInt32 0 or 1, settable while the unit runs. */
AU_ENUM(AudioUnitPropertyID) {
    /* 1 bypasses all processing: the input element gives the microphone as the plain I/O unit
       does. Default 0. */
    kAUVoiceIOProperty_BypassVoiceProcessing = 2100,
    /* 1 turns automatic gain control on. Default 1. */
    kAUVoiceIOProperty_VoiceProcessingEnableAGC = 2101,
    /* 1 silences the output element (the echo reference is silenced with it). Default 0. */
    kAUVoiceIOProperty_MuteOutput = 2104
};

/* Apple's sampler bank numbers (AVAudioUnitSampler's loadSoundBankInstrument): the MSB of a
   melodic bank and of the percussion bank, and the LSB (variation) of the default bank. On Linux
   the sampler maps melodic MSB 0x79 to SoundFont bank LSB and percussion 0x78 to bank 128. */
enum {
    kAUSampler_DefaultPercussionBankMSB = 0x78,
    kAUSampler_DefaultMelodicBankMSB = 0x79,
    kAUSampler_DefaultBankLSB = 0x00
};

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
