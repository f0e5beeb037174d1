/*
 * AudioFormat.h — Audio Format Services: facts about formats and channel layouts, written from
 * Apple's documentation (names, values and signatures as there).
 *
 * The formats are the ones AUHost reads or writes: linear PCM, MP3, FLAC, Opus and Vorbis
 * (Audio Converter Services decodes the four compressed ones; nothing encodes them). Where each
 * kAudioFormatProperty_FormatInfo field comes from:
 *   - Linear PCM: mFramesPerPacket 1; mBytesPerFrame = mBytesPerPacket = (bits + 7) / 8, times
 *     the channels unless non-interleaved, as Apple's FillOutASBDForLPCM (CoreAudioTypes.h)
 *     computes them; kAudioFormatFlagIsPacked is added when the bits fill those bytes. Fields
 *     already set are kept; mChannelsPerFrame and mBitsPerChannel must be set ('fmt?').
 *   - MP3 (no cookie): mFramesPerPacket 1152 (an MPEG-1 Layer III frame, ISO/IEC 11172-3), 576
 *     at the MPEG-2/2.5 rates (8, 11.025, 12, 16, 22.05, 24 kHz: ISO/IEC 13818-3); bytes and bits 0
 *     (variable, compressed). Rate and channels stay as given.
 *   - FLAC, cookie "fLaC" + STREAMINFO (as AudioFileStream and AudioConverter.h take it; the
 *     metadata block alone is accepted too): mSampleRate, mChannelsPerFrame from STREAMINFO,
 *     mFramesPerPacket = its maximum block size, mFormatFlags the source bit depth as Apple
 *     documents for kAudioFormatFLAC (kAppleLosslessFormatFlag_16/20/24/32BitSourceData; 0 for
 *     other depths), bytes and bits 0.
 *   - Opus, cookie OpusHead (RFC 7845 §5.1): mSampleRate 48000 (Opus always decodes at 48 kHz;
 *     the header's input rate is informational, RFC 7845), mChannelsPerFrame from the header,
 *     mFramesPerPacket kept if set, else 960 (20 ms, the frame size Opus encoders default to —
 *     the cookie does not say), flags, bytes and bits 0.
 *   - Vorbis (AUHost's 'vorb'; Apple has no Vorbis format), cookie = the three header packets in
 *     Xiph lacing: mSampleRate and mChannelsPerFrame from the identification header;
 *     mFramesPerPacket 0 (Vorbis packets vary between blocksize_0/2 and blocksize_1/2 frames).
 *
 * Thread class: [setup] for every function (answers are built in allocated memory; names are new
 * CFStrings).
 */
#ifndef AUHOST_AUDIOFORMAT_H
#define AUHOST_AUDIOFORMAT_H

#include <AudioToolbox/MacTypes.h>
#include <AudioToolbox/CoreFoundationLite.h>
#include <AudioToolbox/CoreAudioTypes.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

typedef UInt32 AudioFormatPropertyID;
AU_ENUM(AudioFormatPropertyID) {
    kAudioFormatProperty_FormatInfo = 'fmti',                 /* spec: cookie or NULL; data: ASBD in/out */
    kAudioFormatProperty_FormatName = 'fnam',                 /* spec: ASBD; data: CFStringRef (+1) */
    kAudioFormatProperty_EncodeFormatIDs = 'acof',            /* spec: none; data: UInt32[] */
    kAudioFormatProperty_DecodeFormatIDs = 'acif',            /* spec: none; data: UInt32[] */
    kAudioFormatProperty_FormatIsVBR = 'fvbr',                /* spec: ASBD; data: UInt32 */
    kAudioFormatProperty_FirstPlayableFormatFromList = 'fpfl',/* spec: AudioFormatListItem[]; data: UInt32 index */
    kAudioFormatProperty_NumberOfChannelsForLayout = 'nchm',  /* spec: AudioChannelLayout; data: UInt32 */
    kAudioFormatProperty_ChannelLayoutForTag = 'cmpl',        /* spec: AudioChannelLayoutTag; data: AudioChannelLayout */
    kAudioFormatProperty_ChannelLayoutForBitmap = 'cmpb',     /* spec: UInt32 bitmap; data: AudioChannelLayout */
    kAudioFormatProperty_ChannelLayoutName = 'lonm'           /* spec: AudioChannelLayout; data: CFStringRef (+1) */
};

AU_ENUM(OSStatus) {
    kAudioFormatUnspecifiedError = 'what',
    kAudioFormatUnsupportedPropertyError = 'prop',
    kAudioFormatBadPropertySizeError = '!siz',
    kAudioFormatBadSpecifierSizeError = '!spc',
    kAudioFormatUnsupportedDataFormatError = 'fmt?',
    kAudioFormatUnknownFormatError = '!fmt'
};

/* An ASBD with its cookie (Apple's kAudioFormatProperty_FormatList takes these). */
typedef struct AudioFormatInfo {
    AudioStreamBasicDescription mASBD;
    const void *_Nullable mMagicCookie;
    UInt32 mMagicCookieSize;
} AudioFormatInfo;

typedef struct AudioFormatListItem {
    AudioStreamBasicDescription mASBD;
    AudioChannelLayoutTag mChannelLayoutTag;
} AudioFormatListItem;

/* The size the property's value takes (kAudioFormatUnsupportedPropertyError for others). */
OSStatus AudioFormatGetPropertyInfo(AudioFormatPropertyID inPropertyID, UInt32 inSpecifierSize,
                                    const void *_Nullable inSpecifier, UInt32 *outPropertyDataSize);
/* Reads a property: see each ID above for its specifier and value. */
OSStatus AudioFormatGetProperty(AudioFormatPropertyID inPropertyID, UInt32 inSpecifierSize,
                                const void *_Nullable inSpecifier, UInt32 *_Nullable ioPropertyDataSize,
                                void *_Nullable outPropertyData);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
