/*
 * AUHostMIDI.h — AUHost extension (not part of Apple's API): a Core MIDI source, or a virtual
 * destination, playing an instrument unit at the samples its timestamps give.
 *
 * Each channel message reaches the instrument through MusicDeviceMIDIEvent in the render call that
 * covers its timestamp, at offset round((timestamp − render host time) × sample rate ÷ 1e9), where
 * the render host time is the render time stamp's mHostTime (kAudioTimeStampHostTimeValid; the I/O
 * units set it) or the clock at the call, and the rate is the instrument's output element 0's.
 * A timestamp of 0 or in the past plays at offset 0; messages keep their arrival order. Up to 4096
 * wait; more are dropped. (On Apple a read proc calls MusicDeviceMIDIEvent and picks the offset.)
 *
 * Thread classes: [setup]. The instrument's render thread does the work (a pre-render
 * notification: no allocation, no lock).
 */
#ifndef AUHOST_AUHOSTMIDI_H
#define AUHOST_AUHOSTMIDI_H

#include <AudioToolbox/AUComponent.h>
#include <CoreMIDI/MIDIServices.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

typedef struct OpaqueAUHostMIDIInstrumentConnection *AUHostMIDIInstrumentConnectionRef;

/* Connects `source` to `instrument` (an initialized unit). Errors: kMIDIUnknownEndpoint,
   kMIDIWrongEndpointType (a destination), the unit's status for its stream format. */
OSStatus AUHostMIDIInstrumentConnectSource(MIDIEndpointRef source, AudioUnit instrument,
                                           AUHostMIDIInstrumentConnectionRef _Nullable *_Nonnull outConnection);
/* Makes a virtual destination called `name` that plays `instrument` (a JACK MIDI input port too,
   with the JACK backend); *outDestination is it. */
OSStatus AUHostMIDIInstrumentDestinationCreate(CFStringRef name, AudioUnit instrument, MIDIEndpointRef *outDestination,
                                               AUHostMIDIInstrumentConnectionRef _Nullable *_Nonnull outConnection);
/* Disconnects (the destination goes too); no message reaches the instrument after this returns. */
OSStatus AUHostMIDIInstrumentConnectionDispose(AUHostMIDIInstrumentConnectionRef connection);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
