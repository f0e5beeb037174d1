/*
 * AudioSession.h — Audio Session Services, the C API of iOS's audio session (deprecated by Apple in
 * favour of AVAudioSession, still what the seed documents use), written from Apple's documentation
 * (names, values and signatures as there).
 *
 * What each part means on Linux, where the session is the ALSA PCM "default":
 *   - AudioSessionInitialize stores the interruption listener (called on the run loop given, NULL:
 *     the main one). Nothing on Linux takes the device from a program the way a phone call does,
 *     so the listener is never called here. A second call: kAudioSessionAlreadyInitialized.
 *   - AudioSessionSetActive records the state; the session needs Initialize first
 *     (kAudioSessionNotInitialized), as do Get/SetProperty.
 *   - kAudioSessionProperty_AudioCategory (UInt32, default SoloAmbientSound) is kept and read back;
 *     ALSA has no categories, so it changes no routing.
 *   - kAudioSessionProperty_AudioInputAvailable (UInt32): 1 when "default" opens for capture or is
 *     busy (held by a program: the device is there), 0 otherwise (no capture device, or a
 *     playback-only PCM). Read when asked.
 *   - CurrentHardwareSampleRate (Float64): the rate ALSA grants "default" for playback when asked
 *     for PreferredHardwareSampleRate (48000 when none is set). CurrentHardwareIOBufferDuration
 *     (Float32): the period ALSA grants then when asked for PreferredHardwareIOBufferDuration
 *     (ALSA's own default when none is set), in seconds. CurrentHardwareOutputNumberChannels and
 *     InputNumberChannels (UInt32): the channels granted when asked for 2 (0 input channels when
 *     there is no capture device). The I/O units choose their own formats; these are what the
 *     device offers.
 *   - PreferredHardwareSampleRate (Float64) and PreferredHardwareIOBufferDuration (Float32) are
 *     kept and used by the queries above (the ALSA I/O unit takes its own
 *     kAUHostALSAProperty_Preferred… values, AUHostALSA.h).
 *   - Property listeners run on the run loop given to AudioSessionInitialize (NULL: the main one)
 *     in its mode (NULL: kCFRunLoopDefaultMode). AudioInputAvailable's are called when the answer
 *     changes (a capture device appears or goes away, or the ALSA configuration changes):
 *     ALSA sends no notification for that, so while such a listener exists a session thread
 *     opens "default" for capture every quarter second.
 *     Other properties' listeners are kept but not called (routes do not change on their own).
 *
 * Thread class: [setup] for every function (they open the ALSA device or take a lock).
 */
#ifndef AUHOST_AUDIOSESSION_H
#define AUHOST_AUDIOSESSION_H

#include <AudioToolbox/MacTypes.h>
#include <AudioToolbox/CoreFoundationLite.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

typedef UInt32 AudioSessionPropertyID;

AU_ENUM(OSStatus) {
    kAudioSessionNoError = 0,
    kAudioSessionNotInitialized = '!ini',
    kAudioSessionAlreadyInitialized = 'init',
    kAudioSessionInitializationError = 'ini?',
    kAudioSessionUnsupportedPropertyError = 'pty?',
    kAudioSessionBadPropertySizeError = '!siz',
    kAudioSessionNotActiveError = '!act',
    kAudioServicesNoHardwareError = 'nohw',
    kAudioSessionNoCategorySet = '?cat',
    kAudioSessionIncompatibleCategory = '!cat',
    kAudioSessionUnspecifiedError = 'what'
};

AU_ENUM(UInt32) {
    kAudioSessionBeginInterruption = 1,
    kAudioSessionEndInterruption = 0
};

AU_ENUM(UInt32) {
    kAudioSessionCategory_AmbientSound = 'ambi',
    kAudioSessionCategory_SoloAmbientSound = 'solo',
    kAudioSessionCategory_MediaPlayback = 'medi',
    kAudioSessionCategory_RecordAudio = 'reca',
    kAudioSessionCategory_PlayAndRecord = 'plar',
    kAudioSessionCategory_AudioProcessing = 'proc'
};

AU_ENUM(AudioSessionPropertyID) {
    kAudioSessionProperty_PreferredHardwareSampleRate = 'hwsr',        /* Float64 */
    kAudioSessionProperty_PreferredHardwareIOBufferDuration = 'iobd',  /* Float32 seconds */
    kAudioSessionProperty_AudioCategory = 'acat',                      /* UInt32 */
    kAudioSessionProperty_CurrentHardwareSampleRate = 'chsr',          /* Float64, read-only */
    kAudioSessionProperty_CurrentHardwareInputNumberChannels = 'chic', /* UInt32, read-only */
    kAudioSessionProperty_CurrentHardwareOutputNumberChannels = 'choc',/* UInt32, read-only */
    kAudioSessionProperty_CurrentHardwareIOBufferDuration = 'chbd',    /* Float32 seconds, read-only */
    kAudioSessionProperty_AudioInputAvailable = 'aiav'                 /* UInt32, read-only */
};

typedef void (*AudioSessionInterruptionListener)(void *_Nullable inClientData, UInt32 inInterruptionState);
typedef void (*AudioSessionPropertyListener)(void *_Nullable inClientData, AudioSessionPropertyID inID, UInt32 inDataSize,
                                             const void *_Nullable inData);

OSStatus AudioSessionInitialize(CFRunLoopRef _Nullable inRunLoop, CFStringRef _Nullable inRunLoopMode,
                                AudioSessionInterruptionListener _Nullable inInterruptionListener,
                                void *_Nullable inClientData);
OSStatus AudioSessionSetActive(Boolean active);
/* Reads a property (read-write ones and the Current… ones; unknown IDs: kAudioSessionUnsupportedPropertyError;
   *ioDataSize smaller than the value: kAudioSessionBadPropertySizeError). */
OSStatus AudioSessionGetProperty(AudioSessionPropertyID inID, UInt32 *ioDataSize, void *outData);
/* Sets AudioCategory or a Preferred… property (read-only ones: kAudioSessionUnsupportedPropertyError). */
OSStatus AudioSessionSetProperty(AudioSessionPropertyID inID, UInt32 inDataSize, const void *inData);
OSStatus AudioSessionGetPropertySize(AudioSessionPropertyID inID, UInt32 *outDataSize);
OSStatus AudioSessionAddPropertyListener(AudioSessionPropertyID inID, AudioSessionPropertyListener inProc,
                                         void *_Nullable inClientData);
OSStatus AudioSessionRemovePropertyListenerWithUserData(AudioSessionPropertyID inID, AudioSessionPropertyListener inProc,
                                                        void *_Nullable inClientData);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
