/*
 * MusicPlayer.h — Music Sequencing Services: sequences of tracks of time-stamped events (in beats),
 * Standard MIDI Files in and out, and a player that sends a sequence's events to the instrument
 * units of an AUGraph with the exact sample offset inside each render cycle.
 *
 * A sequence's tempo track maps beats to seconds (120 BPM until its first tempo event). The player
 * follows the render cycles of the graph's head (its output unit): a device head plays in real
 * time, a generic output head plays as fast as its caller renders (offline). The player's clock
 * is the frames the head has rendered since the first cycle after MusicPlayerStart (or SetTime,
 * or a rate change): an event at frame S = round(seconds from the start × sample rate ÷ play
 * rate) of that clock (the head's input sample rate) reaches its unit through
 * MusicDeviceMIDIEvent in the cycle covering S, at offset S minus the cycle's first frame.
 *
 * Thread classes: every function here is [setup] (it may allocate, lock and wait) unless noted.
 * The user callback runs on the render thread.
 */
#ifndef AUHOST_MUSICPLAYER_H
#define AUHOST_MUSICPLAYER_H

#include <float.h>
#include <AudioToolbox/MusicDevice.h>
#include <AudioToolbox/AUGraph.h>
#include <CoreMIDI/MIDIServices.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

AU_ENUM(UInt32) {
    kMusicEventType_NULL = 0,
    kMusicEventType_ExtendedNote = 1,
    kMusicEventType_ExtendedTempo = 3,
    kMusicEventType_User = 4,
    kMusicEventType_Meta = 5,
    kMusicEventType_MIDINoteMessage = 6,
    kMusicEventType_MIDIChannelMessage = 7,
    kMusicEventType_MIDIRawData = 8,
    kMusicEventType_Parameter = 9,
    kMusicEventType_AUPreset = 10
};
typedef UInt32 MusicEventType;

/* PreserveTracks (the default): a tempo track, then one track per track of the file.
   ChannelsToTracks: a tempo track, one track per MIDI channel used (in channel order), then one
   track for the system-exclusive and meta events, if there are any. */
typedef AU_OPTIONS(UInt32, MusicSequenceLoadFlags) {
    kMusicSequenceLoadSMF_PreserveTracks = 0,
    kMusicSequenceLoadSMF_ChannelsToTracks = (1U << 0)
};

typedef AU_NAMED_ENUM(UInt32, MusicSequenceType) {
    kMusicSequenceType_Beats = 'beat',
    kMusicSequenceType_Seconds = 'secs',
    kMusicSequenceType_Samples = 'samp'
};

/* AUHost reads and writes Standard MIDI Files; iMelody is refused (kAudioFileUnsupportedFileTypeError). */
typedef AU_NAMED_ENUM(UInt32, MusicSequenceFileTypeID) {
    kMusicSequenceFile_AnyType = 0,
    kMusicSequenceFile_MIDIType = 'midi',
    kMusicSequenceFile_iMelodyType = 'imel'
};

/* Default refuses to replace an existing file (kAudio_FilePermissionError). */
typedef AU_OPTIONS(UInt32, MusicSequenceFileFlags) {
    kMusicSequenceFileFlags_Default = 0,
    kMusicSequenceFileFlags_EraseFile = 1
};

typedef Float64 MusicTimeStamp;
/* A time after the last event of any track. */
#define kMusicTimeStamp_EndOfTrack DBL_MAX

typedef struct MIDINoteMessage {
    UInt8 channel;
    UInt8 note;
    UInt8 velocity;
    UInt8 releaseVelocity; /* 0 when unknown */
    Float32 duration;      /* beats */
} MIDINoteMessage;

typedef struct MIDIChannelMessage {
    UInt8 status; /* message and channel */
    UInt8 data1;
    UInt8 data2;
    UInt8 reserved;
} MIDIChannelMessage;

/* Usually a system-exclusive message (F0 … F7). */
typedef struct MIDIRawData {
    UInt32 length;
    UInt8 data[1];
} MIDIRawData;

typedef struct MIDIMetaEvent {
    UInt8 metaEventType;
    UInt8 unused1;
    UInt8 unused2;
    UInt8 unused3;
    UInt32 dataLength;
    UInt8 data[1];
} MIDIMetaEvent;

typedef struct MusicEventUserData {
    UInt32 length;
    UInt8 data[1];
} MusicEventUserData;

typedef struct ParameterEvent {
    AudioUnitParameterID parameterID;
    AudioUnitScope scope;
    AudioUnitElement element;
    AudioUnitParameterValue value;
} ParameterEvent;

typedef struct ExtendedTempoEvent {
    Float64 bpm;
} ExtendedTempoEvent;

typedef struct OpaqueMusicPlayer *MusicPlayer;
typedef struct OpaqueMusicSequence *MusicSequence;
typedef struct OpaqueMusicTrack *MusicTrack;
typedef struct OpaqueMusicEventIterator *MusicEventIterator;

/* [render] Called for each user event as the player reaches it (inStartSliceBeat/inEndSliceBeat:
   the beats of the cycle). Must not allocate, lock or wait. */
typedef void (*MusicSequenceUserCallback)(void *_Nullable inClientData, MusicSequence inSequence, MusicTrack inTrack,
                                          MusicTimeStamp inEventTime, const MusicEventUserData *inEventData,
                                          MusicTimeStamp inStartSliceBeat, MusicTimeStamp inEndSliceBeat);

AU_ENUM(OSStatus) {
    kAudioToolboxErr_InvalidSequenceType = -10846,
    kAudioToolboxErr_TrackIndexError = -10859,
    kAudioToolboxErr_TrackNotFound = -10858,
    kAudioToolboxErr_EndOfTrack = -10857,
    kAudioToolboxErr_StartOfTrack = -10856,
    kAudioToolboxErr_IllegalTrackDestination = -10855,
    kAudioToolboxErr_NoSequence = -10854,
    kAudioToolboxErr_InvalidEventType = -10853,
    kAudioToolboxErr_InvalidPlayerState = -10852,
    kAudioToolboxErr_CannotDoInCurrentContext = -10863,
    kAudioToolboxError_NoTrackDestination = -66720
};

/* Track properties, always passed by reference. LoopInfo: MusicTrackLoopInfo (the last
   loopDuration beats of the track play numberOfLoops times in all; 0 repeats them for ever (10,000
   times, or until 500,000 events are scheduled, in AUHost); loopDuration 0: no loop). A player
   schedules at most 1,000,000 events (every looped pass counts): more answers kAudio_MemFullError
   from MusicPlayerStart, and from SetTime and SetPlayRateScalar while playing.
   OffsetTime: MusicTimeStamp. Mute/Solo: Boolean. AutomatedParameters: UInt32.
   TrackLength: MusicTimeStamp (the larger of the set length and the end of the last event).
   TimeResolution (tempo track, read only): SInt16, the ticks per beat of the loaded file (480). */
AU_ENUM(UInt32) {
    kSequenceTrackProperty_LoopInfo = 0,
    kSequenceTrackProperty_OffsetTime = 1,
    kSequenceTrackProperty_MuteStatus = 2,
    kSequenceTrackProperty_SoloStatus = 3,
    kSequenceTrackProperty_AutomatedParameters = 4,
    kSequenceTrackProperty_TrackLength = 5,
    kSequenceTrackProperty_TimeResolution = 6
};

typedef struct MusicTrackLoopInfo {
    MusicTimeStamp loopDuration;
    SInt32 numberOfLoops;
} MusicTrackLoopInfo;

/* ---- Music player. */
OSStatus NewMusicPlayer(MusicPlayer _Nullable *_Nonnull outPlayer);
/* Stops the player (notes sounding are released) and frees it. */
OSStatus DisposeMusicPlayer(MusicPlayer inPlayer);
OSStatus MusicPlayerSetSequence(MusicPlayer inPlayer, MusicSequence _Nullable inSequence);
OSStatus MusicPlayerGetSequence(MusicPlayer inPlayer, MusicSequence _Nullable *_Nonnull outSequence);
/* Beats; while playing, playback continues from there in the next cycle. */
OSStatus MusicPlayerSetTime(MusicPlayer inPlayer, MusicTimeStamp inTime);
/* The beat reached by the last rendered cycle (or the time set, before any cycle). */
OSStatus MusicPlayerGetTime(MusicPlayer inPlayer, MusicTimeStamp *outTime);
/* Resolves every track's destination and prepares the event list (Start does it when needed).
   A track with events and no destination fails with kAudioToolboxError_NoTrackDestination. */
OSStatus MusicPlayerPreroll(MusicPlayer inPlayer);
/* Starts playback at the player's time; starts the graph if it is not running. Track edits made
   while playing take effect at the next Start or SetTime. Events beyond what a unit queues in one
   cycle (mda and other LV2 units: 512) are refused by the unit and lost. */
OSStatus MusicPlayerStart(MusicPlayer inPlayer);
/* Stops playback; notes sounding are released in the next cycle. The graph keeps running. */
OSStatus MusicPlayerStop(MusicPlayer inPlayer);
OSStatus MusicPlayerIsPlaying(MusicPlayer inPlayer, Boolean *outIsPlaying);
/* Greater than 0 (kAudio_ParamError otherwise): 2 plays twice as fast. */
OSStatus MusicPlayerSetPlayRateScalar(MusicPlayer inPlayer, Float64 inScaleRate);
OSStatus MusicPlayerGetPlayRateScalar(MusicPlayer inPlayer, Float64 *outScaleRate);

/* ---- Music sequence. */
OSStatus NewMusicSequence(MusicSequence _Nullable *_Nonnull outSequence);
/* Refused with kAudioToolboxErr_InvalidPlayerState while a player uses the sequence. */
OSStatus DisposeMusicSequence(MusicSequence inSequence);
OSStatus MusicSequenceNewTrack(MusicSequence inSequence, MusicTrack _Nullable *_Nonnull outTrack);
OSStatus MusicSequenceDisposeTrack(MusicSequence inSequence, MusicTrack inTrack);
/* Not counting the tempo track. */
OSStatus MusicSequenceGetTrackCount(MusicSequence inSequence, UInt32 *outNumberOfTracks);
OSStatus MusicSequenceGetIndTrack(MusicSequence inSequence, UInt32 inTrackIndex, MusicTrack _Nullable *_Nonnull outTrack);
OSStatus MusicSequenceGetTrackIndex(MusicSequence inSequence, MusicTrack inTrack, UInt32 *outTrackIndex);
OSStatus MusicSequenceGetTempoTrack(MusicSequence inSequence, MusicTrack _Nullable *_Nonnull outTrack);
/* Tracks without a destination node play to the graph's first music device ('aumu') node. */
OSStatus MusicSequenceSetAUGraph(MusicSequence inSequence, AUGraph _Nullable inGraph);
/* NULL when none was set (AUHost creates no default graph). */
OSStatus MusicSequenceGetAUGraph(MusicSequence inSequence, AUGraph _Nullable *_Nonnull outGraph);
/* Every track but the tempo track plays to `inEndpoint` (MusicTrackSetDestMIDIEndpoint). */
OSStatus MusicSequenceSetMIDIEndpoint(MusicSequence inSequence, MIDIEndpointRef inEndpoint);
OSStatus MusicSequenceSetSequenceType(MusicSequence inSequence, MusicSequenceType inType);
OSStatus MusicSequenceGetSequenceType(MusicSequence inSequence, MusicSequenceType *outType);
/* Replaces the sequence's tracks with the file's. A malformed file fails with
   kAudioFileInvalidFileError and a message naming the byte offset and the cause; files above
   64 MiB with kAudio_MemFullError; a sequence a player uses with kAudioToolboxErr_InvalidPlayerState. */
OSStatus MusicSequenceFileLoad(MusicSequence inSequence, CFURLRef inFileRef, MusicSequenceFileTypeID inFileTypeHint,
                               MusicSequenceLoadFlags inFlags);
OSStatus MusicSequenceFileLoadData(MusicSequence inSequence, CFDataRef inData, MusicSequenceFileTypeID inFileTypeHint,
                                   MusicSequenceLoadFlags inFlags);
/* A type-1 Standard MIDI File: the tempo track first, then each track. inResolution: ticks per
   beat (0: the sequence's TimeResolution). Written to a temporary file renamed on success. */
OSStatus MusicSequenceFileCreate(MusicSequence inSequence, CFURLRef inFileRef, MusicSequenceFileTypeID inFileType,
                                 MusicSequenceFileFlags inFlags, SInt16 inResolution);
/* *outData is retained: release it with CFRelease. */
OSStatus MusicSequenceFileCreateData(MusicSequence inSequence, MusicSequenceFileTypeID inFileType,
                                     MusicSequenceFileFlags inFlags, SInt16 inResolution,
                                     CFDataRef _Nullable *_Nonnull outData);
/* Through the tempo track. */
OSStatus MusicSequenceGetSecondsForBeats(MusicSequence inSequence, MusicTimeStamp inBeats, Float64 *outSeconds);
OSStatus MusicSequenceGetBeatsForSeconds(MusicSequence inSequence, Float64 inSeconds, MusicTimeStamp *outBeats);
OSStatus MusicSequenceSetUserCallback(MusicSequence inSequence, MusicSequenceUserCallback _Nullable inCallback,
                                      void *_Nullable inClientData);

/* ---- Music track. */
OSStatus MusicTrackGetSequence(MusicTrack inTrack, MusicSequence _Nullable *_Nonnull outSequence);
/* The node must be in the sequence's graph (kAudioToolboxErr_IllegalTrackDestination otherwise). */
OSStatus MusicTrackSetDestNode(MusicTrack inTrack, AUNode inNode);
/* kAudioToolboxError_NoTrackDestination when none was set. */
OSStatus MusicTrackGetDestNode(MusicTrack inTrack, AUNode *outNode);
/* AUHost extension: the track plays to `inUnit` (an instrument or MIDI-driven effect that renders
   in the cycles of the sequence's graph, e.g. one of its nodes' units, or a unit the graph pulls
   through a render callback), instead of a node. NULL returns the track to its node or the
   graph's first instrument. A unit that takes no MIDI: kAudioToolboxErr_IllegalTrackDestination. */
OSStatus MusicTrackSetDestAudioUnit(MusicTrack inTrack, AudioUnit _Nullable inUnit);
OSStatus MusicTrackGetDestAudioUnit(MusicTrack inTrack, AudioUnit _Nullable *_Nonnull outUnit);
/* A track's channel messages and notes go to a Core MIDI destination (MIDISend) instead of a unit,
   each timestamped with the host time of its sample: the render cycle's mHostTime (or the clock at
   the cycle, when the head gives none) plus its offset at the head's rate. The player still follows
   the graph's head. 0 plays to units again. Errors: kMIDIUnknownEndpoint, kMIDIWrongEndpointType. */
OSStatus MusicTrackSetDestMIDIEndpoint(MusicTrack inTrack, MIDIEndpointRef inEndpoint);
/* kAudioToolboxError_NoTrackDestination when the track plays to units. */
OSStatus MusicTrackGetDestMIDIEndpoint(MusicTrack inTrack, MIDIEndpointRef *outEndpoint);
OSStatus MusicTrackSetProperty(MusicTrack inTrack, UInt32 inPropertyID, void *inData, UInt32 inLength);
/* outData NULL: *ioLength receives the size. */
OSStatus MusicTrackGetProperty(MusicTrack inTrack, UInt32 inPropertyID, void *_Nullable outData, UInt32 *ioLength);
/* Removes the events in [inStartTime, inEndTime). */
OSStatus MusicTrackClear(MusicTrack inTrack, MusicTimeStamp inStartTime, MusicTimeStamp inEndTime);

/* Adding events (times in beats, not negative; events at one time keep the order they were added). */
OSStatus MusicTrackNewMIDINoteEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp, const MIDINoteMessage *inMessage);
OSStatus MusicTrackNewMIDIChannelEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp, const MIDIChannelMessage *inMessage);
OSStatus MusicTrackNewMIDIRawDataEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp, const MIDIRawData *inRawData);
OSStatus MusicTrackNewParameterEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp, const ParameterEvent *inInfo);
/* Only on the tempo track (kAudioToolboxErr_InvalidEventType elsewhere); bpm > 0. */
OSStatus MusicTrackNewExtendedTempoEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp, Float64 inBPM);
OSStatus MusicTrackNewMetaEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp, const MIDIMetaEvent *inMetaEvent);
OSStatus MusicTrackNewUserEvent(MusicTrack inTrack, MusicTimeStamp inTimeStamp, const MusicEventUserData *inUserData);

/* ---- Event iterators. An iterator is positioned on an event or past the last one; the data
   pointer GetEventInfo returns stays valid until the event is changed or deleted. */
OSStatus NewMusicEventIterator(MusicTrack inTrack, MusicEventIterator _Nullable *_Nonnull outIterator);
OSStatus DisposeMusicEventIterator(MusicEventIterator inIterator);
/* To the first event at or after inTimeStamp (past the end for kMusicTimeStamp_EndOfTrack). */
OSStatus MusicEventIteratorSeek(MusicEventIterator inIterator, MusicTimeStamp inTimeStamp);
OSStatus MusicEventIteratorNextEvent(MusicEventIterator inIterator);
OSStatus MusicEventIteratorPreviousEvent(MusicEventIterator inIterator);
/* kAudioToolboxErr_EndOfTrack past the last event. Any out-pointer may be NULL. */
OSStatus MusicEventIteratorGetEventInfo(MusicEventIterator inIterator, MusicTimeStamp *_Nullable outTimeStamp,
                                        MusicEventType *_Nullable outEventType,
                                        const void *_Nullable *_Nullable outEventData, UInt32 *_Nullable outEventDataSize);
OSStatus MusicEventIteratorSetEventInfo(MusicEventIterator inIterator, MusicEventType inEventType, const void *inEventData);
OSStatus MusicEventIteratorSetEventTime(MusicEventIterator inIterator, MusicTimeStamp inTimeStamp);
OSStatus MusicEventIteratorDeleteEvent(MusicEventIterator inIterator);
OSStatus MusicEventIteratorHasPreviousEvent(MusicEventIterator inIterator, Boolean *outHasPrevEvent);
OSStatus MusicEventIteratorHasNextEvent(MusicEventIterator inIterator, Boolean *outHasNextEvent);
OSStatus MusicEventIteratorHasCurrentEvent(MusicEventIterator inIterator, Boolean *outHasCurEvent);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
