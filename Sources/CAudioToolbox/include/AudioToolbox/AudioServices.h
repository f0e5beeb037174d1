/*
 * AudioServices.h — System Sound Services: short sounds played with one call, written from
 * Apple's documentation (names, values and signatures as there).
 *
 * AUHost's system sounds, and what each part means on Linux:
 *   - AudioServicesCreateSystemSoundID reads the whole file at once through ExtAudioFile (any
 *     format it reads: WAV, AIFF, CAF, FLAC, Ogg Vorbis/Opus, MP3 …) into Float32 stereo at
 *     48 kHz (mono is played on both channels; other rates are converted by ExtAudioFile; more
 *     than two channels keep the first two). Apple limits system sounds to 30 seconds: a longer
 *     file answers kAudioServicesSystemSoundExceededMaximumDurationError.
 *   - Every sound playing at once is summed (Float32, no limiter) into one shared output: an
 *     ALSA I/O unit (AUHostALSA.h) on the PCM "default", opened when a sound starts and closed
 *     once none has played for the device's buffer length. Up to
 *     kAUHostSystemSoundMaximumVoices plays sound at once; a play beyond them is dropped (its
 *     completion still runs, so code that frees memory there keeps working).
 *   - PlayAlertSound plays as PlaySystemSound does (Linux has no alert volume or vibration);
 *     kSystemSoundID_Vibrate, kSystemSoundID_FlashScreen and kSystemSoundID_UserPreferredAlert
 *     play nothing and complete at once.
 *   - Completions registered with AudioServicesAddSystemSoundCompletion run on the run loop
 *     given (NULL: the main run loop, CFRunLoopGetMain) in the mode given (NULL:
 *     kCFRunLoopDefaultMode), once per play, when the play's last sample has been handed to the
 *     device, and only while that run loop runs. The *WithCompletion forms take a function and
 *     user data where Apple's take a block (C has no blocks without -fblocks), called on
 *     AUHost's system-sound thread.
 *   - kAudioServicesPropertyIsUISound (default 1): Linux has no "play user interface sound
 *     effects" setting, so it is kept and reported but changes nothing.
 *     kAudioServicesPropertyCompletePlaybackIfAppDies (default 0): kept and reported; on Linux
 *     the output belongs to the process, so a sound ends with it either way.
 *
 * Thread class: [setup] for every function (they may allocate, lock, open the device).
 */
#ifndef AUHOST_AUDIOSERVICES_H
#define AUHOST_AUDIOSERVICES_H

#include <AudioToolbox/MacTypes.h>
#include <AudioToolbox/CoreFoundationLite.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

typedef UInt32 SystemSoundID;
typedef UInt32 AudioServicesPropertyID;

AU_ENUM(OSStatus) {
    kAudioServicesNoError = 0,
    kAudioServicesUnsupportedPropertyError = 'pty?',
    kAudioServicesBadPropertySizeError = '!siz',
    kAudioServicesBadSpecifierSizeError = '!spc',
    kAudioServicesSystemSoundUnspecifiedError = -1500,
    kAudioServicesSystemSoundClientTimedOutError = -1501,
    kAudioServicesSystemSoundExceededMaximumDurationError = -1502
};

AU_ENUM(SystemSoundID) {
    kSystemSoundID_UserPreferredAlert = 0x00001000,
    kSystemSoundID_FlashScreen = 0x00000FFE,
    kSystemSoundID_Vibrate = 0x00000FFF,
    kUserPreferredAlert = kSystemSoundID_UserPreferredAlert
};

AU_ENUM(AudioServicesPropertyID) {
    kAudioServicesPropertyIsUISound = 'isui',
    kAudioServicesPropertyCompletePlaybackIfAppDies = 'ifdi'
};

/* AUHost: how many plays sound at once. */
enum { kAUHostSystemSoundMaximumVoices = 32 };

/* Called when a play of inSystemSound ends (see AddSystemSoundCompletion for where). */
typedef void (*AudioServicesSystemSoundCompletionProc)(SystemSoundID ssid, void *_Nullable clientData);
/* AUHost's stand-in for Apple's completion block: a function and its user data. */
typedef void (*AUHostSystemSoundPlayCompletion)(void *_Nullable userData);

/* Reads the file at inFileURL (a file CFURL) and returns a new sound's ID (never 0 or one of the
   kSystemSoundID_ constants). A file that cannot be read: kAudioServicesSystemSoundUnspecifiedError. */
OSStatus AudioServicesCreateSystemSoundID(CFURLRef inFileURL, SystemSoundID *outSystemSoundID);
/* Frees the sound and unregisters its completion routine (completions not yet run are dropped).
   Plays in progress finish. */
OSStatus AudioServicesDisposeSystemSoundID(SystemSoundID inSystemSoundID);

/* Plays the sound once on the shared output and returns at once. */
void AudioServicesPlaySystemSound(SystemSoundID inSystemSoundID);
/* As AudioServicesPlaySystemSound (Linux has no alert behaviour). */
void AudioServicesPlayAlertSound(SystemSoundID inSystemSoundID);
/* Plays the sound and calls inCompletion(inUserData) on the system-sound thread when it ends
   (at once when it plays nothing). inCompletion may be NULL. */
void AudioServicesPlaySystemSoundWithCompletion(SystemSoundID inSystemSoundID,
                                                AUHostSystemSoundPlayCompletion _Nullable inCompletion,
                                                void *_Nullable inUserData);
void AudioServicesPlayAlertSoundWithCompletion(SystemSoundID inSystemSoundID,
                                               AUHostSystemSoundPlayCompletion _Nullable inCompletion,
                                               void *_Nullable inUserData);

/* Registers inCompletionRoutine for the sound's plays (one per sound: a second registration
   answers kAudioServicesSystemSoundUnspecifiedError). inRunLoop NULL: the main run loop;
   inRunLoopMode NULL: kCFRunLoopDefaultMode. */
OSStatus AudioServicesAddSystemSoundCompletion(SystemSoundID inSystemSoundID, CFRunLoopRef _Nullable inRunLoop,
                                               CFStringRef _Nullable inRunLoopMode,
                                               AudioServicesSystemSoundCompletionProc inCompletionRoutine,
                                               void *_Nullable inClientData);
/* Unregisters it: completions not yet run are dropped. */
void AudioServicesRemoveSystemSoundCompletion(SystemSoundID inSystemSoundID);

/* Properties take the SystemSoundID as their specifier (inSpecifierSize 4: else
   kAudioServicesBadSpecifierSizeError); values are UInt32 (else kAudioServicesBadPropertySizeError).
   Other IDs: kAudioServicesUnsupportedPropertyError. An unknown sound: kAudioServicesSystemSoundUnspecifiedError. */
OSStatus AudioServicesGetPropertyInfo(AudioServicesPropertyID inPropertyID, UInt32 inSpecifierSize,
                                      const void *_Nullable inSpecifier, UInt32 *_Nullable outPropertyDataSize,
                                      Boolean *_Nullable outWritable);
OSStatus AudioServicesGetProperty(AudioServicesPropertyID inPropertyID, UInt32 inSpecifierSize,
                                  const void *_Nullable inSpecifier, UInt32 *ioPropertyDataSize,
                                  void *_Nullable outPropertyData);
OSStatus AudioServicesSetProperty(AudioServicesPropertyID inPropertyID, UInt32 inSpecifierSize,
                                  const void *_Nullable inSpecifier, UInt32 inPropertyDataSize,
                                  const void *inPropertyData);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
