/*
 * AudioUnitParameters.h — parameter IDs of the documented units AUHost ships.
 */
#ifndef AUHOST_AUDIOUNITPARAMETERS_H
#define AUHOST_AUDIOUNITPARAMETERS_H

#include <AudioToolbox/AUComponent.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

AU_ENUM(AudioUnitParameterID) {
    /* Multichannel mixer: input scope (per bus) and output scope. */
    kMultiChannelMixerParam_Volume = 0,
    kMultiChannelMixerParam_Enable = 1,
    kMultiChannelMixerParam_Pan = 2,
    kMultiChannelMixerParam_PreAveragePower = 1000,
    kMultiChannelMixerParam_PrePeakHoldLevel = 2000,
    kMultiChannelMixerParam_PostAveragePower = 3000,
    kMultiChannelMixerParam_PostPeakHoldLevel = 4000
};

AU_ENUM(AudioUnitParameterID) {
    /* Delay, global scope. */
    kDelayParam_WetDryMix = 0,      /* 0 … 100 % */
    kDelayParam_DelayTime = 1,      /* 0 … 2 s */
    kDelayParam_Feedback = 2,       /* -100 … 100 % */
    kDelayParam_LopassCutoff = 3    /* 10 … sampleRate/2 Hz */
};

AU_ENUM(AudioUnitParameterID) {
    /* N-band EQ: global gain, then one parameter per band at base + band index. */
    kAUNBandEQParam_GlobalGain = 0,
    kAUNBandEQParam_BypassBand = 1000,
    kAUNBandEQParam_FilterType = 2000,
    kAUNBandEQParam_Frequency = 3000,
    kAUNBandEQParam_Gain = 4000,
    kAUNBandEQParam_Bandwidth = 5000
};

AU_ENUM(UInt32) {
    kAUNBandEQFilterType_Parametric = 0,
    kAUNBandEQFilterType_2ndOrderButterworthLowPass = 1,
    kAUNBandEQFilterType_2ndOrderButterworthHighPass = 2,
    kAUNBandEQFilterType_ResonantLowPass = 3,
    kAUNBandEQFilterType_ResonantHighPass = 4,
    kAUNBandEQFilterType_BandPass = 5,
    kAUNBandEQFilterType_BandStop = 6,
    kAUNBandEQFilterType_LowShelf = 7,
    kAUNBandEQFilterType_HighShelf = 8,
    kAUNBandEQFilterType_ResonantLowShelf = 9,
    kAUNBandEQFilterType_ResonantHighShelf = 10
};

AU_ENUM(AudioUnitParameterID) {
    /* 3D mixer, input scope (per bus) unless noted. */
    k3DMixerParam_Azimuth = 0,
    k3DMixerParam_Elevation = 1,
    k3DMixerParam_Distance = 2,
    k3DMixerParam_Gain = 3,
    k3DMixerParam_PlaybackRate = 4,
    k3DMixerParam_Enable = 5,
    k3DMixerParam_MinGain = 6,
    k3DMixerParam_MaxGain = 7
};

AU_ENUM(AudioUnitParameterID) {
    /* Reverb2 ('rvb2'), global scope. */
    kReverb2Param_DryWetMix = 0,            /* 0 … 100 %, 100 */
    kReverb2Param_Gain = 1,                 /* -20 … 20 dB, 0 */
    kReverb2Param_MinDelayTime = 2,         /* 0.0001 … 1 s, 0.008 */
    kReverb2Param_MaxDelayTime = 3,         /* 0.0001 … 1 s, 0.050 */
    kReverb2Param_DecayTimeAt0Hz = 4,       /* 0.001 … 20 s, 1.0 */
    kReverb2Param_DecayTimeAtNyquist = 5,   /* 0.001 … 20 s, 0.5 */
    kReverb2Param_RandomizeReflections = 6  /* 1 … 1000, 1 */
};

AU_ENUM(AudioUnitParameterID) {
    /* Distortion ('dist'), global scope. */
    kDistortionParam_Delay = 0,             /* 0.1 … 500 ms, 0.1 */
    kDistortionParam_Decay = 1,             /* 0.1 … 50 (rate), 1 */
    kDistortionParam_DelayMix = 2,          /* 0 … 100 %, 50 */
    kDistortionParam_Decimation = 3,        /* 0 … 100 %, 50 */
    kDistortionParam_Rounding = 4,          /* 0 … 100 %, 0 */
    kDistortionParam_DecimationMix = 5,     /* 0 … 100 %, 50 */
    kDistortionParam_LinearTerm = 6,        /* 0 … 1 (linear gain), 1 */
    kDistortionParam_SquaredTerm = 7,       /* 0 … 20 (linear gain), 0 */
    kDistortionParam_CubicTerm = 8,         /* 0 … 20 (linear gain), 0 */
    kDistortionParam_PolynomialMix = 9,     /* 0 … 100 %, 50 */
    kDistortionParam_RingModFreq1 = 10,     /* 0.5 … 8000 Hz, 100 */
    kDistortionParam_RingModFreq2 = 11,     /* 0.5 … 8000 Hz, 100 */
    kDistortionParam_RingModBalance = 12,   /* 0 … 100 %, 50 */
    kDistortionParam_RingModMix = 13,       /* 0 … 100 %, 0 */
    kDistortionParam_SoftClipGain = 14,     /* -80 … 20 dB, -6 */
    kDistortionParam_FinalMix = 15          /* 0 … 100 %, 50 */
};

AU_ENUM(AudioUnitParameterID) {
    /* NewTimePitch ('aufc' 'nutp'), global scope. */
    kNewTimePitchParam_Rate = 0,            /* 1/32 … 32, 1 */
    kNewTimePitchParam_Pitch = 1,           /* -2400 … 2400 cents, 0 */
    kNewTimePitchParam_Overlap = 4,         /* 3 … 32, 8 */
    kNewTimePitchParam_EnablePeakLocking = 6 /* 0 … 1, 1 */
};

AU_ENUM(AudioUnitParameterID) {
    /* Varispeed ('aufc' 'vari'), global scope. */
    kVarispeedParam_PlaybackRate = 0,       /* 0.25 … 4, 1 */
    kVarispeedParam_PlaybackCents = 1       /* -2400 … 2400 cents, 0 */
};

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
