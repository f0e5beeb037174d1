/*
 * AudioFile.h — audio file identities and status codes (AudioFile.h in Apple's SDK), and Audio
 * File Services for the patterns hosts use: open or create a file, read its properties, read and
 * write packets or bytes of linear PCM (a PCM packet is one frame; bytes come in the byte order
 * kAudioFilePropertyDataFormat states), as the Audio Queue playback and recording patterns do.
 * Files are read and written through libsndfile: WAV, AIFF, CAF, FLAC and Ogg/Vorbis. Packet and
 * byte access to compressed data (FLAC, Vorbis) answers kAudioFileOperationNotSupportedError:
 * read those with ExtAudioFile. Files are written in order (appending; any other starting packet
 * answers kAudioFileInvalidPacketOffsetError).
 *
 * Thread class: [setup] for every function here (they open files and allocate).
 */
#ifndef AUHOST_AUDIOFILE_H
#define AUHOST_AUDIOFILE_H

#include <AudioToolbox/MacTypes.h>
#include <AudioToolbox/CoreFoundationLite.h>
#include <AudioToolbox/CoreAudioTypes.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

typedef UInt32 AudioFileTypeID;
AU_ENUM(AudioFileTypeID) {
    kAudioFileAIFFType = 'AIFF',
    kAudioFileAIFCType = 'AIFC',
    kAudioFileWAVEType = 'WAVE',
    kAudioFileRF64Type = 'RF64',
    kAudioFileCAFType = 'caff',
    kAudioFileFLACType = 'flac',
    /* Apple's other documented IDs. AUHost reads MP3 ('MPG3') through Audio File Stream Services
       and the Audio Converter; the others are named so that code spelling them compiles. */
    kAudioFileSoundDesigner2Type = 'Sd2f',
    kAudioFileNextType = 'NeXT',
    kAudioFileMP3Type = 'MPG3',
    kAudioFileMP2Type = 'MPG2',
    kAudioFileMP1Type = 'MPG1',
    kAudioFileAC3Type = 'ac-3',
    kAudioFileAAC_ADTSType = 'adts',
    kAudioFileMPEG4Type = 'mp4f',
    kAudioFileM4AType = 'm4af',
    kAudioFileM4BType = 'm4bf',
    kAudioFile3GPType = '3gpp',
    kAudioFile3GP2Type = '3gp2',
    kAudioFileAMRType = 'amrf',
    kAudioFileLATMInLOASType = 'loas',
    /* Not one of Apple's documented IDs (Apple has no Ogg writer): AUHost's code for Ogg/Vorbis. */
    kAudioFileOggType = 'Oggs'
};

AU_ENUM(OSStatus) {
    kAudioFileUnspecifiedError = 'wht?',
    kAudioFileUnsupportedFileTypeError = 'typ?',
    kAudioFileUnsupportedDataFormatError = 'fmt?',
    kAudioFileUnsupportedPropertyError = 'pty?',
    kAudioFileBadPropertySizeError = '!siz',
    kAudioFilePermissionsError = 'prm?',
    kAudioFileNotOptimizedError = 'optm',
    kAudioFileInvalidChunkError = 'chk?',
    kAudioFileDoesNotAllow64BitDataSizeError = 'off?',
    kAudioFileInvalidPacketOffsetError = 'pck?',
    kAudioFileInvalidPacketDependencyError = 'dep?',
    kAudioFileInvalidFileError = 'dta?',
    kAudioFileOperationNotSupportedError = 0x6F703F3F, /* 'op??' */
    kAudioFileNotOpenError = -38,
    kAudioFileEndOfFileError = -39,
    kAudioFilePositionError = -40,
    kAudioFileFileNotFoundError = -43
};

/* An option set, as on Apple (CF_OPTIONS): AudioFileFlags.eraseFile.rawValue in Swift. */
typedef AU_OPTIONS(UInt32, AudioFileFlags) {
    kAudioFileFlags_EraseFile = 1,
    kAudioFileFlags_DontPageAlignAudioData = 2
};

/* A Swift enum, as on Apple (CF_ENUM): AudioFileOpenURL(url, .readPermission, 0, &file). */
typedef AU_NAMED_ENUM(SInt8, AudioFilePermissions) {
    kAudioFileReadPermission = 0x01,
    kAudioFileWritePermission = 0x02,
    kAudioFileReadWritePermission = 0x03
};

typedef UInt32 AudioFilePropertyID;
AU_ENUM(AudioFilePropertyID) {
    kAudioFilePropertyFileFormat = 'ffmt',             /* AudioFileTypeID */
    kAudioFilePropertyDataFormat = 'dfmt',             /* AudioStreamBasicDescription */
    kAudioFilePropertyAudioDataPacketCount = 'pcnt',   /* UInt64 (one frame per packet for PCM) */
    kAudioFilePropertyAudioDataByteCount = 'bcnt',     /* UInt64 (PCM files) */
    kAudioFilePropertyMaximumPacketSize = 'psze',      /* UInt32: bytes of the largest packet (PCM: one frame) */
    kAudioFilePropertyPacketSizeUpperBound = 'pkub',   /* UInt32: the most a packet can take (PCM: one frame) */
    kAudioFilePropertyMagicCookieData = 'mgic',        /* bytes: PCM files have none (size 0) unless one is set */
    kAudioFilePropertyChannelLayout = 'cmap'           /* AudioChannelLayout: the one set, else mono, stereo or
                                                          DiscreteInOrder | channels; settable */
};

/* An open audio file. */
typedef struct OpaqueAudioFileID *AudioFileID;

/* Opens the file at inFileRef for reading (inPermissions must be kAudioFileReadPermission: to
   write, create a file with AudioFileCreateWithURL). inFileTypeHint is ignored (the type is
   read from the file). [setup] */
OSStatus AudioFileOpenURL(CFURLRef inFileRef, AudioFilePermissions inPermissions,
                          AudioFileTypeID inFileTypeHint, AudioFileID _Nullable *_Nonnull outAudioFile);
/* Closes a file opened by AudioFileOpenURL. [setup] */
OSStatus AudioFileClose(AudioFileID inAudioFile);
/* Size of a property, and whether it can be set (ChannelLayout and MagicCookieData can). [setup] */
OSStatus AudioFileGetPropertyInfo(AudioFileID inAudioFile, AudioFilePropertyID inPropertyID,
                                  UInt32 *_Nullable outDataSize, UInt32 *_Nullable isWritable);
/* Reads a property: FileFormat, DataFormat, AudioDataPacketCount, AudioDataByteCount,
   MaximumPacketSize, PacketSizeUpperBound, MagicCookieData, ChannelLayout. [setup] */
OSStatus AudioFileGetProperty(AudioFileID inAudioFile, AudioFilePropertyID inPropertyID,
                              UInt32 *ioDataSize, void *outPropertyData);

/* Creates a file of inFileType (WAVE, AIFF, caff) holding inFormat (linear PCM; FLAC and Ogg files
   need ExtAudioFile) for writing. An existing file is replaced only with kAudioFileFlags_EraseFile.
   Close it with AudioFileClose to complete its header. [setup] */
OSStatus AudioFileCreateWithURL(CFURLRef inFileRef, AudioFileTypeID inFileType, const AudioStreamBasicDescription *inFormat,
                                AudioFileFlags inFlags, AudioFileID _Nullable *_Nonnull outAudioFile);
/* Sets a property: ChannelLayout and MagicCookieData are kept with the file's AudioFileID. [setup] */
OSStatus AudioFileSetProperty(AudioFileID inAudioFile, AudioFilePropertyID inPropertyID, UInt32 inDataSize,
                              const void *inPropertyData);
/* Reads up to *ioNumPackets packets from inStartingPacket, no more than *ioNumBytes bytes; sets both
   to what was read (0 packets, noErr, at the end). Packet descriptions are not needed for PCM and
   are left untouched. inUseCache is ignored. [setup] */
OSStatus AudioFileReadPacketData(AudioFileID inAudioFile, Boolean inUseCache, UInt32 *ioNumBytes,
                                 AudioStreamPacketDescription *_Nullable outPacketDescriptions, SInt64 inStartingPacket,
                                 UInt32 *ioNumPackets, void *_Nullable outBuffer);
/* The older form of AudioFileReadPacketData: outBuffer must hold *ioNumPackets packets;
   *outNumBytes says how many bytes were read. [setup] */
OSStatus AudioFileReadPackets(AudioFileID inAudioFile, Boolean inUseCache, UInt32 *outNumBytes,
                              AudioStreamPacketDescription *_Nullable outPacketDescriptions, SInt64 inStartingPacket,
                              UInt32 *ioNumPackets, void *_Nullable outBuffer);
/* Reads *ioNumBytes bytes of audio data from inStartingByte (sets it to what was read; 0 and
   kAudioFileEndOfFileError at the end). [setup] */
OSStatus AudioFileReadBytes(AudioFileID inAudioFile, Boolean inUseCache, SInt64 inStartingByte, UInt32 *ioNumBytes,
                            void *outBuffer);
/* Appends *ioNumPackets packets (inNumBytes bytes) at inStartingPacket, the file's current end. [setup] */
OSStatus AudioFileWritePackets(AudioFileID inAudioFile, Boolean inUseCache, UInt32 inNumBytes,
                               const AudioStreamPacketDescription *_Nullable inPacketDescriptions, SInt64 inStartingPacket,
                               UInt32 *ioNumPackets, const void *inBuffer);
/* Appends *ioNumBytes bytes (whole frames) at inStartingByte, the file's current end. [setup] */
OSStatus AudioFileWriteBytes(AudioFileID inAudioFile, Boolean inUseCache, SInt64 inStartingByte, UInt32 *ioNumBytes,
                             const void *inBuffer);

/* AUHost: opens a file by path, as AudioFileOpenURL does. [setup] */
OSStatus AudioFileOpenPath(const char *inPath, AudioFilePermissions inPermissions, AudioFileID _Nullable *_Nonnull outAudioFile);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
