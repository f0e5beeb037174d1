/*
 * AudioFile.h — audio file identities and status codes (AudioFile.h in Apple's SDK), and the
 * small part of Audio File Services that scheduling files into the file player needs
 * (AudioFileOpenURL, AudioFileClose, AudioFileGetProperty of the data format and length).
 * Files are read and written through libsndfile: WAV, AIFF, CAF, FLAC and Ogg/Vorbis.
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
    kAudioFilePropertyAudioDataPacketCount = 'pcnt'    /* UInt64 (one frame per packet for PCM) */
};

/* An open audio file. */
typedef struct OpaqueAudioFileID *AudioFileID;

/* Opens the file at inFileRef for reading (inPermissions must include read; writing through this
   API is not offered: use ExtAudioFileCreateWithURL). inFileTypeHint is ignored (the type is
   read from the file). [setup] */
OSStatus AudioFileOpenURL(CFURLRef inFileRef, AudioFilePermissions inPermissions,
                          AudioFileTypeID inFileTypeHint, AudioFileID _Nullable *_Nonnull outAudioFile);
/* Closes a file opened by AudioFileOpenURL. [setup] */
OSStatus AudioFileClose(AudioFileID inAudioFile);
/* Size of a property (and whether it can be set: never, here). [setup] */
OSStatus AudioFileGetPropertyInfo(AudioFileID inAudioFile, AudioFilePropertyID inPropertyID,
                                  UInt32 *_Nullable outDataSize, UInt32 *_Nullable isWritable);
/* Reads a property: FileFormat, DataFormat, AudioDataPacketCount. [setup] */
OSStatus AudioFileGetProperty(AudioFileID inAudioFile, AudioFilePropertyID inPropertyID,
                              UInt32 *ioDataSize, void *outPropertyData);

/* AUHost: opens a file by path, as AudioFileOpenURL does. [setup] */
OSStatus AudioFileOpenPath(const char *inPath, AudioFilePermissions inPermissions, AudioFileID _Nullable *_Nonnull outAudioFile);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
