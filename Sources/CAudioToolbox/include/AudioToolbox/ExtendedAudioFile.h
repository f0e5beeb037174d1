/*
 * ExtendedAudioFile.h — Extended Audio File Services: read and write audio files in a client
 * data format of the caller's choosing (ExtendedAudioFile.h in Apple's SDK).
 *
 * The file data format is what the file holds (WAV, AIFF, CAF: 16/24/32-bit integer or 32/64-bit
 * float PCM; FLAC 16/24-bit; Ogg/Vorbis). The client data format is linear PCM the caller reads
 * and writes (any sample type of CoreAudioTypes.h, interleaved or not, either byte order, at the
 * file's rate and channel count); it defaults to the file's own PCM layout. Integer PCM round-trips
 * bit-exactly when the client uses the same or a wider integer type or Float32.
 *
 * Threads: [setup] unless marked. ExtAudioFileWriteAsync is [render]: it copies the frames into
 * a ring allocated by the first (priming) call and returns at once; a writer thread writes them.
 * A full ring drops the frames, counts them (kExtAudioFileProperty_AUHostAsyncOverflowFrames)
 * and returns kExtAudioFileError_AsyncWriteBufferOverflow. ExtAudioFileDispose writes whatever is
 * pending, then closes the file.
 */
#ifndef AUHOST_EXTENDEDAUDIOFILE_H
#define AUHOST_EXTENDEDAUDIOFILE_H

#include <AudioToolbox/MacTypes.h>
#include <AudioToolbox/CoreFoundationLite.h>
#include <AudioToolbox/CoreAudioTypes.h>
#include <AudioToolbox/AudioFile.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

typedef struct OpaqueExtAudioFile *ExtAudioFileRef;

typedef UInt32 ExtAudioFilePropertyID;
AU_ENUM(ExtAudioFilePropertyID) {
    kExtAudioFileProperty_FileDataFormat = 'ffmt',      /* AudioStreamBasicDescription, read-only */
    kExtAudioFileProperty_FileChannelLayout = 'fclo',   /* AudioChannelLayout, read-only here */
    kExtAudioFileProperty_ClientDataFormat = 'cfmt',    /* AudioStreamBasicDescription, writable */
    kExtAudioFileProperty_ClientChannelLayout = 'cclo',
    kExtAudioFileProperty_CodecManufacturer = 'cman',
    kExtAudioFileProperty_AudioConverter = 'acnv',
    kExtAudioFileProperty_AudioFile = 'afil',
    kExtAudioFileProperty_FileMaxPacketSize = 'fmps',
    kExtAudioFileProperty_ClientMaxPacketSize = 'cmps',
    kExtAudioFileProperty_FileLengthFrames = '#frm',    /* SInt64, read-only */
    kExtAudioFileProperty_ConverterConfig = 'accf',
    kExtAudioFileProperty_IOBufferSizeBytes = 'iobs',
    kExtAudioFileProperty_IOBuffer = 'iobf',
    kExtAudioFileProperty_PacketTable = 'xpti',
    /* AUHost: frames ExtAudioFileWriteAsync dropped because its ring was full (UInt64, read-only). */
    kExtAudioFileProperty_AUHostAsyncOverflowFrames = 'AUof',
    /* AUHost: frames of the async ring (UInt32; set before the priming call; default 131072). */
    kExtAudioFileProperty_AUHostAsyncBufferFrames = 'AUab'
};

AU_ENUM(OSStatus) {
    kExtAudioFileError_InvalidProperty = -66561,
    kExtAudioFileError_InvalidPropertySize = -66562,
    kExtAudioFileError_NonPCMClientFormat = -66563,
    kExtAudioFileError_InvalidChannelMap = -66564,       /* channel count does not match the format */
    kExtAudioFileError_InvalidOperationOrder = -66565,
    kExtAudioFileError_InvalidDataFormat = -66566,
    kExtAudioFileError_MaxPacketSizeUnknown = -66567,
    kExtAudioFileError_InvalidSeek = -66568,             /* writing, or offset out of bounds */
    kExtAudioFileError_AsyncWriteTooLarge = -66569,
    kExtAudioFileError_AsyncWriteBufferOverflow = -66570 /* an async write could not be completed in time */
};

/* Opens a file for reading. [setup] */
OSStatus ExtAudioFileOpenURL(CFURLRef inURL, ExtAudioFileRef _Nullable *_Nonnull outExtAudioFile);
/* Creates a file of inFileType holding inStreamDesc (the file data format). Without
   kAudioFileFlags_EraseFile an existing file is refused (kAudioFilePermissionsError).
   inChannelLayout may be NULL. [setup] */
OSStatus ExtAudioFileCreateWithURL(CFURLRef inURL, AudioFileTypeID inFileType,
                                   const AudioStreamBasicDescription *inStreamDesc,
                                   const AudioChannelLayout *_Nullable inChannelLayout, UInt32 inFlags,
                                   ExtAudioFileRef _Nullable *_Nonnull outExtAudioFile);
/* AUHost: the same by path. [setup] */
OSStatus ExtAudioFileOpenPath(const char *inPath, ExtAudioFileRef _Nullable *_Nonnull outExtAudioFile);
OSStatus ExtAudioFileCreateWithPath(const char *inPath, AudioFileTypeID inFileType,
                                    const AudioStreamBasicDescription *inStreamDesc,
                                    const AudioChannelLayout *_Nullable inChannelLayout, UInt32 inFlags,
                                    ExtAudioFileRef _Nullable *_Nonnull outExtAudioFile);
/* Flushes pending async writes, finalises the header, closes and frees. [setup] */
OSStatus ExtAudioFileDispose(ExtAudioFileRef inExtAudioFile);
/* Reads up to *ioNumberFrames frames in the client format; *ioNumberFrames becomes the count
   read (0 at the end). [setup] */
OSStatus ExtAudioFileRead(ExtAudioFileRef inExtAudioFile, UInt32 *ioNumberFrames, AudioBufferList *ioData);
/* Writes frames in the client format, synchronously. [setup] */
OSStatus ExtAudioFileWrite(ExtAudioFileRef inExtAudioFile, UInt32 inNumberFrames, const AudioBufferList *ioData);
/* Hands frames to the writer thread. The first call (which may pass 0 frames and NULL) allocates
   the ring and starts the thread: make it from a setup thread. Later calls are [render]. */
OSStatus ExtAudioFileWriteAsync(ExtAudioFileRef inExtAudioFile, UInt32 inNumberFrames, const AudioBufferList *_Nullable ioData);
/* Moves to a frame (client frames; the client rate equals the file's). [setup] */
OSStatus ExtAudioFileSeek(ExtAudioFileRef inExtAudioFile, SInt64 inFrameOffset);
OSStatus ExtAudioFileTell(ExtAudioFileRef inExtAudioFile, SInt64 *outFrameOffset);
/* Properties. [setup] */
OSStatus ExtAudioFileGetPropertyInfo(ExtAudioFileRef inExtAudioFile, ExtAudioFilePropertyID inPropertyID,
                                     UInt32 *_Nullable outSize, Boolean *_Nullable outWritable);
OSStatus ExtAudioFileGetProperty(ExtAudioFileRef inExtAudioFile, ExtAudioFilePropertyID inPropertyID,
                                 UInt32 *ioPropertyDataSize, void *outPropertyData);
OSStatus ExtAudioFileSetProperty(ExtAudioFileRef inExtAudioFile, ExtAudioFilePropertyID inPropertyID,
                                 UInt32 inPropertyDataSize, const void *inPropertyData);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
