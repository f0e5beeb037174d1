/*
 * Core MIDI in C as on a Mac: a client with a notify proc, a virtual destination whose read proc
 * counts what arrives, an output port that sends it a chord built with MIDIPacketListAdd, and a
 * virtual source whose MIDIReceived reaches an input port connected to it. The program runs its
 * run loop (the notifications arrive there) until both read procs have seen their packets, and
 * prints what it saw. On Linux the read procs run on Core MIDI's thread, as on Apple.
 */
#include <CoreMIDI/CoreMIDI.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int destinationBytes, inputBytes, notifications;
static MIDITimeStamp lastTimeStamp;

static void notify(const MIDINotification *message, void *refCon) {
    (void)refCon;
    if (message->messageID == kMIDIMsgObjectAdded) atomic_fetch_add(&notifications, 1);
}

static void readProc(const MIDIPacketList *list, void *refCon, void *connRefCon) {
    (void)connRefCon;
    const MIDIPacket *packet = &list->packet[0];
    for (UInt32 i = 0; i < list->numPackets; i++) {
        atomic_fetch_add((atomic_int *)refCon, packet->length);
        lastTimeStamp = packet->timeStamp;
        packet = MIDIPacketNext(packet);
    }
}

int main(void) {
    MIDIClientRef client;
    MIDIEndpointRef destination, source;
    MIDIPortRef outPort, inPort;
    if (MIDIClientCreate(CFSTR("example"), notify, NULL, &client) != noErr) return 1;
    if (MIDIDestinationCreate(client, CFSTR("example in"), readProc, &destinationBytes, &destination) != noErr) return 1;
    if (MIDISourceCreate(client, CFSTR("example out"), &source) != noErr) return 1;
    if (MIDIOutputPortCreate(client, CFSTR("out"), &outPort) != noErr) return 1;
    if (MIDIInputPortCreate(client, CFSTR("in"), readProc, &inputBytes, &inPort) != noErr) return 1;
    if (MIDIPortConnectSource(inPort, source, NULL) != noErr) return 1;

    Byte buffer[256];
    MIDIPacketList *list = (MIDIPacketList *)buffer;
    MIDIPacket *packet = MIDIPacketListInit(list);
    MIDITimeStamp now = AudioGetCurrentHostTime();
    const Byte c[3] = {0x90, 60, 100}, e[3] = {0x90, 64, 100}, g[3] = {0x90, 67, 100};
    packet = MIDIPacketListAdd(list, sizeof buffer, packet, now, 3, c);
    packet = MIDIPacketListAdd(list, sizeof buffer, packet, now, 3, e);       /* same time: same packet */
    packet = MIDIPacketListAdd(list, sizeof buffer, packet, now + 1000, 3, g); /* later: a new packet */
    if (!packet) return 1;
    printf("packets %u\nfirst-packet-bytes %u\n", (unsigned)list->numPackets, (unsigned)list->packet[0].length);

    OSStatus sent = MIDISend(outPort, destination, list);
    OSStatus received = MIDIReceived(source, list);
    for (int i = 0; i < 200 && (atomic_load(&destinationBytes) < 9 || atomic_load(&inputBytes) < 9 || atomic_load(&notifications) < 2); i++)
        CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.01, false);

    CFStringRef name = NULL;
    char text[64] = "";
    MIDIObjectGetStringProperty(destination, kMIDIPropertyName, &name);
    if (name) { CFStringGetCString(name, text, sizeof text, kCFStringEncodingUTF8); CFRelease(name); }
    SInt32 uniqueID = 0;
    MIDIObjectGetIntegerProperty(source, kMIDIPropertyUniqueID, &uniqueID);
    printf("send-status %d\nreceived-status %d\n", (int)sent, (int)received);
    printf("destination-bytes %d\ninput-bytes %d\nadded-notifications %d\n", atomic_load(&destinationBytes), atomic_load(&inputBytes),
           atomic_load(&notifications));
    printf("last-timestamp-offset %llu\ndestination-name %s\nunique-id-set %d\n", (unsigned long long)(lastTimeStamp - now), text,
           uniqueID != 0);
    printf("bad-client-status %d\n", (int)MIDIClientDispose(client + 12345));
    MIDIClientDispose(client);
    return 0;
}
