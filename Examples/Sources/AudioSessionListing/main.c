/*
 * Listing 2-10 of "Core Audio Essentials" (Core Audio Overview), "Determining if a mobile device
 * supports audio recording", as written there, inside the minimal program it needs: the session
 * initialized first (as the audio session's documentation requires) and the answer printed.
 * On Linux the session is the ALSA PCM "default" (AudioSession.h): input is available when it
 * opens for capture.
 */
#include <AudioToolbox/AudioToolbox.h>

int main(void) {
    OSStatus initialized = AudioSessionInitialize(NULL, NULL, NULL, NULL);
    UInt32 audioInputIsAvailable;
    UInt32 propertySize = sizeof (audioInputIsAvailable);
    OSStatus status = AudioSessionGetProperty (
        kAudioSessionProperty_AudioInputAvailable,
        &propertySize,
        &audioInputIsAvailable // A nonzero value on output means that
                               // audio input is available
    );
    printf("initialize-status %d\nstatus %d\naudio-input-available %u\n", (int)initialized, (int)status, audioInputIsAvailable);
    return initialized == noErr && status == noErr ? 0 : 1;
}
