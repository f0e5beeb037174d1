/*
 * MusicDevice.h — sending MIDI to instruments and MIDI-driven effects ('aumu', 'aumf').
 */
#ifndef AUHOST_MUSICDEVICE_H
#define AUHOST_MUSICDEVICE_H

#include <AudioToolbox/AUComponent.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

typedef AudioComponentInstance MusicDeviceComponent;

AU_ENUM(SInt16) {
    kMusicDeviceRange = 0x0100,
    kMusicDeviceMIDIEventSelect = 0x0101,
    kMusicDeviceSysExSelect = 0x0102
};

typedef OSStatus (*MusicDeviceMIDIEventProc)(void *self, UInt32 inStatus, UInt32 inData1, UInt32 inData2,
                                             UInt32 inOffsetSampleFrame);
typedef OSStatus (*MusicDeviceSysExProc)(void *self, const UInt8 *_Nullable inData, UInt32 inLength);

/* [render] Queues a MIDI channel message for the next render call, at inOffsetSampleFrame frames
   into it (a setup thread may call it too; the event then lands in the next render). */
OSStatus MusicDeviceMIDIEvent(MusicDeviceComponent inUnit, UInt32 inStatus, UInt32 inData1, UInt32 inData2,
                              UInt32 inOffsetSampleFrame);
/* [render] Queues a system-exclusive message for the next render call. */
OSStatus MusicDeviceSysEx(MusicDeviceComponent inUnit, const UInt8 *inData, UInt32 inLength);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
