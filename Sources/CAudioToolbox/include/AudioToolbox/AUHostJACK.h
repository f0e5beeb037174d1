/*
 * AUHostJACK.h — the JACK I/O unit: a graph's head as a client of a JACK server (jackd, or
 * PipeWire's JACK: pipewire-jack runs the same client unchanged).
 *
 * Identity: 'auou' 'jack' 'AUHs'.
 *
 * Elements, as the ALSA I/O unit's (AUHostALSA.h): element 0 is output (to the client's output
 * ports), element 1 input (from its input ports).
 *   - EnableIO: output scope element 0 (default 1), input scope element 1 (default 0); set
 *     before AudioUnitInitialize.
 *   - Ports: one per channel of the app side, named CLIENT:out_1 … out_N (N = channels of the
 *     input scope of element 0) and CLIENT:in_1 … in_N (channels of the output scope of element 1),
 *     JACK's own 32-bit float.
 *   - StreamFormat, app side (input scope element 0, output scope element 1): Float32,
 *     non-interleaved (canonical), 1…64 channels, at the server's sample rate. JACK clients run
 *     at the server's rate: AudioUnitInitialize answers kAudioUnitErr_FormatNotSupported naming
 *     the server's rate when the app side has another (put an AUConverter before the unit).
 *   - SetRenderCallback (input scope element 0) or a connection: pulled once per JACK cycle, with
 *     render notifications. kAudioOutputUnitProperty_SetInputCallback: called once per cycle with
 *     ioData NULL when input is enabled; AudioUnitRender on element 1 there gives the cycle's
 *     input. MaximumFramesPerSlice must be at least the server's buffer size.
 *   - kAudioOutputUnitProperty_CurrentDevice: a CFStringRef naming the JACK server ("default":
 *     $JACK_DEFAULT_SERVER, else JACK's default). Set while uninitialized.
 *
 * Lifecycle: AudioUnitInitialize opens the client (no server: kAudioUnitErr_NoConnection, with
 * AUHostCopyLastErrorMessage saying which server) and registers the ports; AudioOutputUnitStart
 * activates it and, with AutoConnect, connects the ports to the server's physical ports.
 * Uninitialize closes the client. A server that goes away stops the unit: LastRenderError becomes
 * kAudioUnitErr_NoConnection, kAUHostJACKProperty_StreamError holds JACK's reason, IsRunning
 * listeners fire.
 *
 * Transport: kAUHostJACKProperty_TransportHostCallbacks are callbacks (HostCallbackInfo) that
 * answer from the JACK transport as it was at the start of the cycle being rendered: playing or
 * stopped (jack_transport start/stop), the frame, and bar/beat/tempo when a timebase master
 * provides them (else 120 BPM in 4/4 counted from frame 0). A graph whose head is this unit and
 * which has no tempo of its own (AUGraphSetTempo) hands them to every node.
 */
#ifndef AUHOST_AUHOSTJACK_H
#define AUHOST_AUHOSTJACK_H

#include <AudioToolbox/AudioOutputUnit.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

AU_ENUM(OSType) {
    kAudioUnitSubType_AUHostJACKIO = 'jack'
};

/* AUHost properties of the JACK I/O unit, all in global scope, element 0. */
AU_ENUM(AudioUnitPropertyID) {
    /* CFStringRef, read/write (set while uninitialized; default "auhost"). The client name asked
       for; after AudioUnitInitialize it reads back as the server granted it (JACK appends "-01"
       and so on when the name is taken). CFRelease what you read. */
    kAUHostJACKProperty_ClientName = 0x41480020,
    /* UInt32, read/write (default 1). Connect the ports to the server's physical ports at Start. */
    kAUHostJACKProperty_AutoConnect = 0x41480021,
    /* Float64, read-only. The server's sample rate (0 while uninitialized). */
    kAUHostJACKProperty_ServerSampleRate = 0x41480022,
    /* UInt32, read-only. The server's buffer size in frames (0 while uninitialized). */
    kAUHostJACKProperty_ServerBufferFrames = 0x41480023,
    /* UInt32, read-only. Xruns the server reported since Start. */
    kAUHostJACKProperty_XrunCount = 0x41480024,
    /* UInt32, read/write while initialized. 1 asks the server to freewheel (run its cycles as
       fast as the clients allow, for faster-than-real-time export); reads whether it does. */
    kAUHostJACKProperty_Freewheel = 0x41480025,
    /* HostCallbackInfo, read-only: callbacks answering from the JACK transport (see above).
       Valid for as long as the unit exists; call them on the render thread only. */
    kAUHostJACKProperty_TransportHostCallbacks = 0x41480026,
    /* CFStringRef, read-only: why the server stopped the unit, or NULL. CFRelease it. */
    kAUHostJACKProperty_StreamError = 0x41480027,
    /* Float64, read/write: a tempo in BPM (quarter notes, 4/4; more than 0, at most 1000) makes the
       unit the JACK timebase master from AudioUnitInitialize on (or at once when initialized):
       every client, this unit's transport callbacks included, reads bar, beat and tick counted
       from frame 0 at that tempo. 0 (default) gives the role up. */
    kAUHostJACKProperty_TimebaseTempo = 0x41480028
};

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
