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

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
