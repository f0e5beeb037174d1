/*
 * AudioFileStream.h — Audio File Stream Services: parse an audio file that arrives in pieces
 * (from a network, a pipe) into its properties and its audio packets (AudioFileStream.h in
 * Apple's SDK).
 *
 * Hand the bytes to AudioFileStreamParseBytes in pieces of any size; the parser buffers what a
 * header needs, calls the property listener as each property becomes known (ending with
 * kAudioFileStreamProperty_ReadyToProducePackets) and then the packets callback with every whole
 * packet the bytes complete. Cutting the same file differently gives the same packets and
 * properties. Formats: WAVE (PCM and float, WAVE_FORMAT_EXTENSIBLE), AIFF and AIFC (NONE, sowt,
 * fl32, fl64), CAF (linear PCM; other formats with their packet table before the audio data),
 * MP3 (MPEG-1/2/2.5 layer III, ID3v2 tags skipped), FLAC (native), Ogg Vorbis and Ogg Opus (the
 * first logical stream; libogg reads the pages).
 *
 * Magic cookies: FLAC "fLaC" + STREAMINFO; Vorbis the three header packets Xiph-laced; Opus the
 * OpusHead packet — the forms kAudioConverterDecompressionMagicCookie takes (AudioConverter.h).
 *
 * The last FLAC frame has no following frame to mark its end: it is delivered when its CRC
 * closes it and the STREAMINFO sample count says it is the last, or when AudioFileStreamParseBytes
 * is called with 0 bytes (AUHost: the end of the stream).
 *
 * Threads: every function is [setup]; the callbacks run inside AudioFileStreamParseBytes on the
 * calling thread. One stream is used by one thread at a time.
 */
#ifndef AUHOST_AUDIOFILESTREAM_H
#define AUHOST_AUDIOFILESTREAM_H

#include <AudioToolbox/MacTypes.h>
#include <AudioToolbox/CoreAudioTypes.h>
#include <AudioToolbox/AudioFile.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

typedef struct OpaqueAudioFileStreamID *AudioFileStreamID;

typedef AU_OPTIONS(UInt32, AudioFileStreamPropertyFlags) {
    kAudioFileStreamPropertyFlag_PropertyIsCached = 1,
    kAudioFileStreamPropertyFlag_CacheProperty = 2
};

typedef AU_OPTIONS(UInt32, AudioFileStreamParseFlags) {
    kAudioFileStreamParseFlag_Discontinuity = 1
};

typedef AU_OPTIONS(UInt32, AudioFileStreamSeekFlags) {
    kAudioFileStreamSeekFlag_OffsetIsEstimated = 1
};

typedef UInt32 AudioFileStreamPropertyID;
AU_ENUM(AudioFileStreamPropertyID) {
    kAudioFileStreamProperty_ReadyToProducePackets = 'redy', /* UInt32: 1 once packets follow */
    kAudioFileStreamProperty_FileFormat = 'ffmt',            /* AudioFileTypeID ('MPG3' for MP3) */
    kAudioFileStreamProperty_DataFormat = 'dfmt',            /* AudioStreamBasicDescription */
    kAudioFileStreamProperty_MagicCookieData = 'mgic',       /* bytes */
    kAudioFileStreamProperty_AudioDataByteCount = 'bcnt',    /* UInt64, when the container says */
    kAudioFileStreamProperty_AudioDataPacketCount = 'pcnt',  /* UInt64, when the container says */
    kAudioFileStreamProperty_MaximumPacketSize = 'psze',     /* UInt32, largest packet seen so far */
    kAudioFileStreamProperty_DataOffset = 'doff',            /* SInt64, where the audio data starts */
    kAudioFileStreamProperty_PacketToFrame = 'pkfr',         /* AudioFramePacketTranslation (constant frames per packet) */
    kAudioFileStreamProperty_FrameToPacket = 'frpk',         /* AudioFramePacketTranslation (constant frames per packet;
                                                                a negative mPacket/mFrame, or a frame past SInt64:
                                                                kAudioFileStreamError_InvalidPacketOffset) */
    kAudioFileStreamProperty_PacketSizeUpperBound = 'pkub',  /* UInt32, the largest packet the format allows */
    kAudioFileStreamProperty_AverageBytesPerPacket = 'abpp', /* Float64, over the packets so far */
    kAudioFileStreamProperty_BitRate = 'brat'                /* UInt32 bits per second */
};

typedef struct AudioFramePacketTranslation {
    SInt64 mFrame;
    SInt64 mPacket;
    UInt32 mFrameOffsetInPacket;
} AudioFramePacketTranslation;

AU_ENUM(OSStatus) {
    kAudioFileStreamError_UnsupportedFileType = 'typ?',
    kAudioFileStreamError_UnsupportedDataFormat = 'fmt?',
    kAudioFileStreamError_UnsupportedProperty = 'pty?',
    kAudioFileStreamError_BadPropertySize = '!siz',
    kAudioFileStreamError_NotOptimized = 'optm',
    kAudioFileStreamError_InvalidPacketOffset = 'pck?',
    kAudioFileStreamError_InvalidFile = 'dta?',
    kAudioFileStreamError_ValueUnknown = 'unk?',
    kAudioFileStreamError_DataUnavailable = 'more',
    kAudioFileStreamError_IllegalOperation = 'nope',
    kAudioFileStreamError_UnspecifiedError = 'wht?',
    kAudioFileStreamError_DiscontinuityCantRecover = 'dsc!'
};

/* Called as each property becomes known. */
typedef void (*AudioFileStream_PropertyListenerProc)(void *_Nullable inClientData, AudioFileStreamID inAudioFileStream,
                                                     AudioFileStreamPropertyID inPropertyID,
                                                     AudioFileStreamPropertyFlags *ioFlags);
/* Called with whole packets: inInputData holds inNumberBytes bytes; for formats whose packets vary
   in size inPacketDescriptions gives each packet's offset into inInputData and size (NULL for
   linear PCM, whose packets are frames). */
typedef void (*AudioFileStream_PacketsProc)(void *_Nullable inClientData, UInt32 inNumberBytes, UInt32 inNumberPackets,
                                            const void *inInputData,
                                            AudioStreamPacketDescription *_Nullable inPacketDescriptions);

/* inFileTypeHint may be 0; the type is recognised from the bytes (the hint decides only between
   formats the bytes do not tell apart: none here). */
OSStatus AudioFileStreamOpen(void *_Nullable inClientData, AudioFileStream_PropertyListenerProc inPropertyListenerProc,
                             AudioFileStream_PacketsProc inPacketsProc, AudioFileTypeID inFileTypeHint,
                             AudioFileStreamID _Nullable *_Nonnull outAudioFileStream);
/* Parses inDataByteSize bytes. kAudioFileStreamParseFlag_Discontinuity: these bytes do not follow
   the previous ones (after a seek): partial data is dropped and the parser finds the next packet.
   Errors: kAudioFileStreamError_UnsupportedFileType, _UnsupportedDataFormat, _InvalidFile; after
   one the stream is unusable (close it). AUHost: 0 bytes mark the end of the stream. */
OSStatus AudioFileStreamParseBytes(AudioFileStreamID inAudioFileStream, UInt32 inDataByteSize,
                                   const void *_Nullable inData, AudioFileStreamParseFlags inFlags);
/* The byte offset (from DataOffset) to read from to parse from packet inPacketOffset; then pass
   those bytes with kAudioFileStreamParseFlag_Discontinuity. VBR offsets are estimated from the
   average packet size (kAudioFileStreamSeekFlag_OffsetIsEstimated). A negative packet offset, one
   past a known packet count, or one whose byte offset would pass 2^62 (4 EiB) answers
   kAudioFileStreamError_InvalidPacketOffset. */
OSStatus AudioFileStreamSeek(AudioFileStreamID inAudioFileStream, SInt64 inPacketOffset, SInt64 *outDataByteOffset,
                             AudioFileStreamSeekFlags *ioFlags);
OSStatus AudioFileStreamGetPropertyInfo(AudioFileStreamID inAudioFileStream, AudioFileStreamPropertyID inPropertyID,
                                        UInt32 *_Nullable outPropertyDataSize, Boolean *_Nullable outWritable);
/* kAudioFileStreamError_DataUnavailable until the property is known. */
OSStatus AudioFileStreamGetProperty(AudioFileStreamID inAudioFileStream, AudioFileStreamPropertyID inPropertyID,
                                    UInt32 *ioPropertyDataSize, void *outPropertyData);
/* No property is writable here: kAudioFileStreamError_IllegalOperation (known ones) or
   kAudioFileStreamError_UnsupportedProperty. */
OSStatus AudioFileStreamSetProperty(AudioFileStreamID inAudioFileStream, AudioFileStreamPropertyID inPropertyID,
                                    UInt32 inPropertyDataSize, const void *inPropertyData);
OSStatus AudioFileStreamClose(AudioFileStreamID inAudioFileStream);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
