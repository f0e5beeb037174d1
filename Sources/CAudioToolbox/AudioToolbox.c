/* Compile-time checks that the documented structures have the layout C and Swift code expect. */
#include <stddef.h>
#include <AudioToolbox/AudioToolbox.h>

_Static_assert(sizeof(AudioStreamBasicDescription) == 40, "ASBD is 40 bytes");
_Static_assert(sizeof(AudioComponentDescription) == 20, "AudioComponentDescription is 20 bytes");
_Static_assert(sizeof(AudioTimeStamp) == 64, "AudioTimeStamp is 64 bytes");
_Static_assert(sizeof(AudioBuffer) == 16, "AudioBuffer is 16 bytes");
_Static_assert(sizeof(AudioBufferList) == 24, "AudioBufferList is 24 bytes");
_Static_assert(sizeof(AudioUnitParameterEvent) == 32, "AudioUnitParameterEvent is 32 bytes");
_Static_assert(sizeof(AUChannelInfo) == 4, "AUChannelInfo is 4 bytes");
_Static_assert(sizeof(MIDINoteMessage) == 8, "MIDINoteMessage is 8 bytes");
_Static_assert(sizeof(MIDIChannelMessage) == 4, "MIDIChannelMessage is 4 bytes");
_Static_assert(sizeof(MusicTrackLoopInfo) == 16, "MusicTrackLoopInfo is 16 bytes");
_Static_assert(sizeof(ParameterEvent) == 16, "ParameterEvent is 16 bytes");

#include <CoreMIDI/CoreMIDI.h>
_Static_assert(sizeof(MIDIPacket) == 268, "MIDIPacket is 268 bytes (packed to 4, as Apple's)");
_Static_assert(offsetof(MIDIPacket, data) == 10, "MIDIPacket's data starts at byte 10");
_Static_assert(offsetof(MIDIPacketList, packet) == 4, "a packet list's first packet starts at byte 4");
_Static_assert(sizeof(MIDIObjectAddRemoveNotification) == 24, "MIDIObjectAddRemoveNotification is 24 bytes");
