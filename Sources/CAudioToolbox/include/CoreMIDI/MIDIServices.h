/*
 * MIDIServices.h — Core MIDI: clients, ports, sources and destinations, devices and entities,
 * their properties, and packet lists, with Apple's names, types and numbers.
 *
 * Where MIDI goes on Linux (docs/PORTING.md, "Core MIDI"):
 *   - In process, always: virtual endpoints (MIDISourceCreate / MIDIDestinationCreate) and the
 *     ports connected to them. MIDIReceived on a virtual source reaches every input port connected
 *     to it; MIDISend to a virtual destination calls its read proc.
 *   - JACK MIDI, when the program links the JACK backend (the Swift `CoreMIDI` product does; C
 *     programs linked only against libauhost do not) and a JACK server answers at the first
 *     MIDIClientCreate: the sources are the other JACK clients' MIDI output ports, the
 *     destinations their MIDI input ports (one device per JACK client, one entity per device);
 *     MIDISourceCreate / MIDIDestinationCreate also register a JACK MIDI port of this process's
 *     client ("auhost-coremidi"), so other JACK programs see the virtual endpoints.
 *   - The ALSA sequencer is not a backend yet (docs/PORTING.md).
 *
 * MIDITimeStamp is host time: CLOCK_MONOTONIC nanoseconds (AudioGetCurrentHostTime, HostTime.h),
 * where Apple's is mach_absolute_time. 0 means "now". Through JACK a timestamp maps to the frame of
 * the JACK cycle it falls in (jack_time_to_frames), and incoming events carry the time of their frame.
 *
 * Threads: read procs are called on a Core MIDI thread (one per client: "the MIDI thread"), never on
 * the caller's; in process, MIDIReceived / MIDISend queue the packets and return at once. Notify
 * procs are called on the run loop that was current on the thread that called MIDIClientCreate (as
 * Apple does), when that thread runs it. Every function here is [setup] (it may allocate and lock),
 * except the packet-list helpers (MIDIPacketListInit, MIDIPacketListAdd, MIDIPacketNext), which are
 * [any thread], render threads included.
 */
#ifndef AUHOST_MIDISERVICES_H
#define AUHOST_MIDISERVICES_H

#include <stddef.h>
#include <AudioToolbox/MacTypes.h>
#include <AudioToolbox/CoreFoundationLite.h>
#include <AudioToolbox/HostTime.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

/* Error codes (Apple's numbers). */
AU_ENUM(OSStatus) {
    kMIDIInvalidClient = -10830,
    kMIDIInvalidPort = -10831,
    kMIDIWrongEndpointType = -10832,
    kMIDINoConnection = -10833,
    kMIDIUnknownEndpoint = -10834,
    kMIDIUnknownProperty = -10835,
    kMIDIWrongPropertyType = -10836,
    kMIDINoCurrentSetup = -10837,
    kMIDIMessageSendErr = -10838,
    kMIDIServerStartErr = -10839,
    kMIDISetupFormatErr = -10840,
    kMIDIWrongThread = -10841,
    kMIDIObjectNotFound = -10842,
    kMIDIIDNotUnique = -10843,
    kMIDINotPermitted = -10844,
    kMIDIUnknownError = -10845
};

typedef UInt32 MIDIObjectRef;
typedef MIDIObjectRef MIDIClientRef;
typedef MIDIObjectRef MIDIPortRef;
typedef MIDIObjectRef MIDIDeviceRef;
typedef MIDIObjectRef MIDIEntityRef;
typedef MIDIObjectRef MIDIEndpointRef;
typedef UInt64 MIDITimeStamp;
typedef SInt32 MIDIUniqueID;

typedef AU_NAMED_ENUM(SInt32, MIDIObjectType) {
    kMIDIObjectType_Other = -1,
    kMIDIObjectType_Device = 0,
    kMIDIObjectType_Entity = 1,
    kMIDIObjectType_Source = 2,
    kMIDIObjectType_Destination = 3,
    kMIDIObjectType_ExternalDevice = 0x10 | kMIDIObjectType_Device,
    kMIDIObjectType_ExternalEntity = 0x10 | kMIDIObjectType_Entity,
    kMIDIObjectType_ExternalSource = 0x10 | kMIDIObjectType_Source,
    kMIDIObjectType_ExternalDestination = 0x10 | kMIDIObjectType_Destination
};
AU_ENUM(SInt32) { kMIDIObjectType_ExternalMask = 0x10 };

AU_ENUM(MIDIUniqueID) { kMIDIInvalidUniqueID = 0 };

typedef AU_NAMED_ENUM(SInt32, MIDINotificationMessageID) {
    kMIDIMsgSetupChanged = 1,
    kMIDIMsgObjectAdded = 2,
    kMIDIMsgObjectRemoved = 3,
    kMIDIMsgPropertyChanged = 4,
    kMIDIMsgThruConnectionsChanged = 5,
    kMIDIMsgSerialPortOwnerChanged = 6,
    kMIDIMsgIOError = 7
};

/* Every notification starts with these two fields; messageSize is the whole structure's size. */
typedef struct MIDINotification {
    MIDINotificationMessageID messageID;
    UInt32 messageSize;
} MIDINotification;

/* kMIDIMsgObjectAdded / kMIDIMsgObjectRemoved. */
typedef struct MIDIObjectAddRemoveNotification {
    MIDINotificationMessageID messageID;
    UInt32 messageSize;
    MIDIObjectRef parent;
    MIDIObjectType parentType;
    MIDIObjectRef child;
    MIDIObjectType childType;
} MIDIObjectAddRemoveNotification;

/* kMIDIMsgPropertyChanged (propertyName is valid during the call only). */
typedef struct MIDIObjectPropertyChangeNotification {
    MIDINotificationMessageID messageID;
    UInt32 messageSize;
    MIDIObjectRef object;
    MIDIObjectType objectType;
    CFStringRef propertyName;
} MIDIObjectPropertyChangeNotification;

/* Packets: as Apple's, packed to 4 bytes (timeStamp at offset 0, length at 8, data at 10; a packet
   list's first packet at offset 4). A packet's data may run past 256 bytes (length says how far). */
#pragma pack(push, 4)
typedef struct MIDIPacket {
    MIDITimeStamp timeStamp;
    UInt16 length;
    Byte data[256];
} MIDIPacket;

typedef struct MIDIPacketList {
    UInt32 numPackets;
    MIDIPacket packet[1];
} MIDIPacketList;
#pragma pack(pop)

/* The packet after `pkt` in a packet list. As Apple's: packets follow each other unaligned on
   x86-64, on 4-byte boundaries on ARM. [any thread] */
#if defined(__arm__) || defined(__aarch64__)
#define MIDIPacketNext(pkt) ((MIDIPacket *)(((uintptr_t)(&(pkt)->data[(pkt)->length]) + 3) & ~(uintptr_t)3))
#else
#define MIDIPacketNext(pkt) ((MIDIPacket *)&(pkt)->data[(pkt)->length])
#endif

typedef void (*MIDINotifyProc)(const MIDINotification *message, void *_Nullable refCon);
typedef void (*MIDIReadProc)(const MIDIPacketList *pktlist, void *_Nullable readProcRefCon, void *_Nullable srcConnRefCon);

/* Properties (CFStringRef keys; in C these are CFSTR expressions, not addressable variables). */
#define kMIDIPropertyName CFSTR("name")
#define kMIDIPropertyManufacturer CFSTR("manufacturer")
#define kMIDIPropertyModel CFSTR("model")
#define kMIDIPropertyUniqueID CFSTR("uniqueID")
#define kMIDIPropertyDeviceID CFSTR("deviceID")
#define kMIDIPropertyReceiveChannels CFSTR("receiveChannels")
#define kMIDIPropertyTransmitChannels CFSTR("transmitChannels")
#define kMIDIPropertyOffline CFSTR("offline")
#define kMIDIPropertyPrivate CFSTR("private")
#define kMIDIPropertyDriverOwner CFSTR("driver")
#define kMIDIPropertyDisplayName CFSTR("displayName")
#define kMIDIPropertyIsEmbeddedEntity CFSTR("embedded")
#define kMIDIPropertyAdvanceScheduleTimeMuSec CFSTR("advanceScheduleTimeMuSec")

/* Clients. The notify proc (may be NULL) gets kMIDIMsgSetupChanged, ObjectAdded/Removed and
   PropertyChanged on the run loop current at creation. Errors: kMIDIServerStartErr. */
OSStatus MIDIClientCreate(CFStringRef name, MIDINotifyProc _Nullable notifyProc, void *_Nullable notifyRefCon,
                          MIDIClientRef *outClient);
/* Disposes the client, its ports and its virtual endpoints. Errors: kMIDIInvalidClient. */
OSStatus MIDIClientDispose(MIDIClientRef client);

/* Ports. An input port's read proc runs on the client's MIDI thread. Errors: kMIDIInvalidClient. */
OSStatus MIDIInputPortCreate(MIDIClientRef client, CFStringRef portName, MIDIReadProc readProc, void *_Nullable refCon,
                             MIDIPortRef *outPort);
OSStatus MIDIOutputPortCreate(MIDIClientRef client, CFStringRef portName, MIDIPortRef *outPort);
OSStatus MIDIPortDispose(MIDIPortRef port);
/* Connects a source to an input port; connRefCon comes back as the read proc's srcConnRefCon.
   Errors: kMIDIInvalidPort, kMIDIUnknownEndpoint, kMIDIWrongEndpointType (a destination). */
OSStatus MIDIPortConnectSource(MIDIPortRef port, MIDIEndpointRef source, void *_Nullable connRefCon);
OSStatus MIDIPortDisconnectSource(MIDIPortRef port, MIDIEndpointRef source);

/* Devices, entities and endpoints. Indices past the count give 0 (NULL), as on Apple. */
ItemCount MIDIGetNumberOfDevices(void);
MIDIDeviceRef MIDIGetDevice(ItemCount deviceIndex0);
ItemCount MIDIDeviceGetNumberOfEntities(MIDIDeviceRef device);
MIDIEntityRef MIDIDeviceGetEntity(MIDIDeviceRef device, ItemCount entityIndex0);
ItemCount MIDIEntityGetNumberOfSources(MIDIEntityRef entity);
MIDIEndpointRef MIDIEntityGetSource(MIDIEntityRef entity, ItemCount sourceIndex0);
ItemCount MIDIEntityGetNumberOfDestinations(MIDIEntityRef entity);
MIDIEndpointRef MIDIEntityGetDestination(MIDIEntityRef entity, ItemCount destIndex0);
OSStatus MIDIEntityGetDevice(MIDIEntityRef inEntity, MIDIDeviceRef *_Nullable outDevice);
OSStatus MIDIEndpointGetEntity(MIDIEndpointRef inEndpoint, MIDIEntityRef *_Nullable outEntity);
/* Every source (destination) this process can use: virtual ones and those of the backend. Ones
   with kMIDIPropertyPrivate set are left out, as on Apple. */
ItemCount MIDIGetNumberOfSources(void);
MIDIEndpointRef MIDIGetSource(ItemCount sourceIndex0);
ItemCount MIDIGetNumberOfDestinations(void);
MIDIEndpointRef MIDIGetDestination(ItemCount destIndex0);

/* Virtual endpoints of a client. A virtual source's MIDIReceived reaches the input ports connected
   to it; a virtual destination's read proc gets what is sent to it (on the client's MIDI thread). */
OSStatus MIDISourceCreate(MIDIClientRef client, CFStringRef name, MIDIEndpointRef *outSrc);
OSStatus MIDIDestinationCreate(MIDIClientRef client, CFStringRef name, MIDIReadProc readProc, void *_Nullable refCon,
                               MIDIEndpointRef *outDest);
OSStatus MIDIEndpointDispose(MIDIEndpointRef endpt);

/* Properties of any object. String properties come back +1 (CFRelease them). Errors:
   kMIDIObjectNotFound, kMIDIUnknownProperty, kMIDIWrongPropertyType; setting the UniqueID of one
   object to another's: kMIDIIDNotUnique; setting a backend endpoint's property: kMIDINotPermitted. */
OSStatus MIDIObjectGetStringProperty(MIDIObjectRef obj, CFStringRef propertyID, CFStringRef _Nullable *_Nonnull str);
OSStatus MIDIObjectSetStringProperty(MIDIObjectRef obj, CFStringRef propertyID, CFStringRef str);
OSStatus MIDIObjectGetIntegerProperty(MIDIObjectRef obj, CFStringRef propertyID, SInt32 *outValue);
OSStatus MIDIObjectSetIntegerProperty(MIDIObjectRef obj, CFStringRef propertyID, SInt32 value);
/* The object with `inUniqueID`, and its type. Errors: kMIDIObjectNotFound. */
OSStatus MIDIObjectFindByUniqueID(MIDIUniqueID inUniqueID, MIDIObjectRef *_Nullable outObject,
                                  MIDIObjectType *_Nullable outObjectType);

/* Sending. MIDISend: from an output port to a destination (a virtual one's read proc, or the
   backend's port at the packets' timestamps). MIDIReceived: a virtual source's packets to every
   input port connected to it. MIDIFlushOutput: drops packets not yet delivered to `dest` (0: all).
   Errors: kMIDIInvalidPort, kMIDIUnknownEndpoint, kMIDIWrongEndpointType, kMIDIMessageSendErr
   (a malformed packet list: more than 65536 bytes, or a packet's length past its end). */
OSStatus MIDISend(MIDIPortRef port, MIDIEndpointRef dest, const MIDIPacketList *pktlist);
OSStatus MIDIReceived(MIDIEndpointRef src, const MIDIPacketList *pktlist);
OSStatus MIDIFlushOutput(MIDIEndpointRef dest);
/* Looks at the backend's endpoints again (JACK ports that came or went) and notifies clients. */
OSStatus MIDIRestart(void);

/* Packet lists [any thread]. Init gives the first packet (numPackets = 0). Add appends `nData` bytes
   at `time`: to curPacket when the list has packets, curPacket has the same time and neither it nor
   the new data is system-exclusive (0xF0); else as a new packet after curPacket. Returns the packet
   written to, or NULL when the list (listSize bytes, at most 65536) has no room or `time` is before
   curPacket's. */
MIDIPacket *MIDIPacketListInit(MIDIPacketList *pktlist);
MIDIPacket *_Nullable MIDIPacketListAdd(MIDIPacketList *pktlist, ByteCount listSize, MIDIPacket *curPacket,
                                        MIDITimeStamp time, ByteCount nData, const Byte *data);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
