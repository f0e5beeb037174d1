/*
 * AudioConverter.h — Audio Converter Services: convert linear PCM between layouts, bit depths,
 * byte orders, interleavings, channel maps and sample rates, and decode compressed packets
 * (MP3, FLAC, Vorbis, Opus) to linear PCM (AudioConverter.h in Apple's SDK).
 *
 * AUHost's converter: PCM to PCM through the same pipeline as the format converter unit (samples
 * pass through Float32: 16-bit and 24-bit integers and Float32 round-trip exactly; 32-bit
 * integers keep 24 bits), rates through libsoxr; decoding through libmpg123, libFLAC, libvorbis
 * and libopus. Encoding is not offered (kAudioConverterErr_FormatNotSupported).
 *
 * Magic cookies (kAudioConverterDecompressionMagicCookie) as AudioFileStream hands them out:
 *   FLAC   "fLaC" followed by the STREAMINFO metadata block (header included);
 *   Vorbis the identification, comment and setup header packets in Xiph lacing (Matroska's
 *          A_VORBIS codec private data: packet count − 1, then the first two sizes laced);
 *   Opus   the OpusHead packet (RFC 7845 §5.1); its pre-skip is dropped from the output;
 *   MP3    none.
 *
 * Threads: every function is [setup]: the converter allocates, and the codecs may too. The input
 * procedure runs on the thread that called AudioConverterFillComplexBuffer, inside that call.
 */
#ifndef AUHOST_AUDIOCONVERTER_H
#define AUHOST_AUDIOCONVERTER_H

#include <AudioToolbox/MacTypes.h>
#include <AudioToolbox/CoreAudioTypes.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

typedef struct OpaqueAudioConverter *AudioConverterRef;

typedef UInt32 AudioConverterPropertyID;
AU_ENUM(AudioConverterPropertyID) {
    kAudioConverterPropertyMinimumInputBufferSize = 'mibs',   /* UInt32 bytes, read-only */
    kAudioConverterPropertyMinimumOutputBufferSize = 'mobs',  /* UInt32 bytes, read-only */
    kAudioConverterPropertyMaximumInputPacketSize = 'xips',   /* UInt32 bytes, read-only */
    kAudioConverterPropertyMaximumOutputPacketSize = 'xops',  /* UInt32 bytes, read-only */
    kAudioConverterPropertyCalculateInputBufferSize = 'cibs', /* UInt32: in output bytes, out input bytes */
    kAudioConverterPropertyCalculateOutputBufferSize = 'cobs',/* UInt32: in input bytes, out output bytes */
    kAudioConverterSampleRateConverterComplexity = 'srca',    /* OSType (Linear, Normal, Mastering) */
    kAudioConverterSampleRateConverterQuality = 'srcq',       /* UInt32 kAudioConverterQuality_* */
    kAudioConverterCodecQuality = 'cdqu',                     /* UInt32, accepted and ignored (no encoders) */
    kAudioConverterPrimeMethod = 'prmm',                      /* UInt32 kConverterPrimeMethod_* */
    kAudioConverterPrimeInfo = 'prim',                        /* AudioConverterPrimeInfo, read-only */
    kAudioConverterChannelMap = 'chmp',                       /* SInt32[output channels]: input index or -1 */
    kAudioConverterDecompressionMagicCookie = 'dmgc',         /* bytes (see above) */
    kAudioConverterCompressionMagicCookie = 'cmgc',           /* not offered: no encoders */
    kAudioConverterEncodeBitRate = 'brat',                    /* not offered: no encoders */
    kAudioConverterCurrentOutputStreamDescription = 'acod',   /* AudioStreamBasicDescription, read-only */
    kAudioConverterCurrentInputStreamDescription = 'acid',    /* AudioStreamBasicDescription, read-only */
    kAudioConverterPropertyBitDepthHint = 'acbd'              /* SInt32, accepted and ignored */
};

/* kAudioConverterSampleRateConverterQuality values: Max and High use libsoxr's 28-bit recipe
   (THD+N below -120 dB), Medium its 20-bit recipe, Low and Min its 16-bit recipes. */
AU_ENUM(UInt32) {
    kAudioConverterQuality_Max = 0x7F,
    kAudioConverterQuality_High = 0x60,
    kAudioConverterQuality_Medium = 0x40,
    kAudioConverterQuality_Low = 0x20,
    kAudioConverterQuality_Min = 0
};

AU_ENUM(UInt32) {
    kAudioConverterSampleRateConverterComplexity_Linear = 'line',
    kAudioConverterSampleRateConverterComplexity_Normal = 'norm',
    kAudioConverterSampleRateConverterComplexity_Mastering = 'bats',
    kAudioConverterSampleRateConverterComplexity_MinimumPhase = 'minp'
};

/* Prime methods. Pre and Normal give output aligned with the input (the resampler's filter delay
   is trimmed and its tail flushed at the end of input); None gives the delay as leading silence
   (kAudioConverterPrimeInfo's leadingFrames, in input frames). */
AU_ENUM(UInt32) {
    kConverterPrimeMethod_Pre = 0,
    kConverterPrimeMethod_Normal = 1,
    kConverterPrimeMethod_None = 2
};

typedef struct AudioConverterPrimeInfo {
    UInt32 leadingFrames;
    UInt32 trailingFrames;
} AudioConverterPrimeInfo;

AU_ENUM(OSStatus) {
    kAudioConverterErr_FormatNotSupported = 'fmt?',
    kAudioConverterErr_OperationNotSupported = 0x6F703F3F, /* 'op??' */
    kAudioConverterErr_PropertyNotSupported = 'prop',
    kAudioConverterErr_InvalidInputSize = 'insz',
    kAudioConverterErr_InvalidOutputSize = 'otsz',
    kAudioConverterErr_UnspecifiedError = 'what',
    kAudioConverterErr_BadPropertySizeError = '!siz',
    kAudioConverterErr_RequiresPacketDescriptionsError = '!pkd',
    kAudioConverterErr_InputSampleRateOutOfRange = '!isr',
    kAudioConverterErr_OutputSampleRateOutOfRange = '!osr'
};

/* Supplies input. On entry *ioNumberDataPackets is how many packets the converter wants; set it
   to how many ioData now points at (0 means the end of the input). For compressed input also set
   *outDataPacketDescription to one description per packet (when it is not NULL). The data must
   stay valid until the next call of the procedure or the end of AudioConverterFillComplexBuffer.
   A status other than noErr ends the fill: it returns that status with the frames produced. */
typedef OSStatus (*AudioConverterComplexInputDataProc)(
    AudioConverterRef inAudioConverter, UInt32 *ioNumberDataPackets, AudioBufferList *ioData,
    AudioStreamPacketDescription *_Nullable *_Nullable outDataPacketDescription, void *_Nullable inUserData);

/* Creates a converter from inSourceFormat (linear PCM, or MP3/FLAC/Vorbis/Opus packets) to
   inDestinationFormat (linear PCM of the same channel count unless a channel map is set; rates
   up to 64 times apart). kAudioConverterErr_FormatNotSupported names what cannot be converted. */
OSStatus AudioConverterNew(const AudioStreamBasicDescription *inSourceFormat,
                           const AudioStreamBasicDescription *inDestinationFormat,
                           AudioConverterRef _Nullable *_Nonnull outAudioConverter);
OSStatus AudioConverterDispose(AudioConverterRef inAudioConverter);
/* Forgets buffered input and codec state (call it after a seek or a discontinuity). */
OSStatus AudioConverterReset(AudioConverterRef inAudioConverter);

OSStatus AudioConverterGetPropertyInfo(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
                                       UInt32 *_Nullable outSize, Boolean *_Nullable outWritable);
OSStatus AudioConverterGetProperty(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
                                   UInt32 *ioPropertyDataSize, void *outPropertyData);
OSStatus AudioConverterSetProperty(AudioConverterRef inAudioConverter, AudioConverterPropertyID inPropertyID,
                                   UInt32 inPropertyDataSize, const void *inPropertyData);

/* Converts one buffer of interleaved PCM at one rate (no resampling: kAudioConverterErr_InvalidInputSize
   when the rates differ, as Apple's converter refuses). *ioOutputDataSize: capacity in, bytes written out. */
OSStatus AudioConverterConvertBuffer(AudioConverterRef inAudioConverter, UInt32 inInputDataSize,
                                     const void *inInputData, UInt32 *ioOutputDataSize, void *outOutputData);

/* Fills outOutputData with up to *ioOutputDataPacketSize packets (frames, for PCM output), pulling
   input from inInputDataProc as needed; *ioOutputDataPacketSize becomes the frames written (fewer
   only at the end of the input or on the procedure's error). outPacketDescription may be NULL for
   PCM output. */
OSStatus AudioConverterFillComplexBuffer(AudioConverterRef inAudioConverter,
                                         AudioConverterComplexInputDataProc inInputDataProc,
                                         void *_Nullable inInputDataProcUserData, UInt32 *ioOutputDataPacketSize,
                                         AudioBufferList *outOutputData,
                                         AudioStreamPacketDescription *_Nullable outPacketDescription);

/* Converts inNumberPCMFrames frames of PCM at one rate from one buffer list to another. */
OSStatus AudioConverterConvertComplexBuffer(AudioConverterRef inAudioConverter, UInt32 inNumberPCMFrames,
                                            const AudioBufferList *inInputData, AudioBufferList *outOutputData);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
