import CoreMIDI
import CoreMIDIServices
import Foundation
import XCTest

/// Clients, ports, endpoints and properties: Apple's error codes for bad input, notifications on
/// the creating run loop, read procs off the caller's thread.
final class MIDIObjectTests: XCTestCase {
    var client: MIDIClientRef = 0

    override func setUp() { XCTAssertEqual(MIDIClientCreate(cf("objects"), nil, nil, &client), noErr) }
    override func tearDown() { MIDIClientDispose(client) }

    func testBadReferencesAnswerApplesErrorCodes() {
        var port: MIDIPortRef = 0
        var source: MIDIEndpointRef = 0
        var destination: MIDIEndpointRef = 0
        XCTAssertEqual(MIDIClientDispose(0), kMIDIInvalidClient)
        XCTAssertEqual(kMIDIInvalidClient, -10830)
        XCTAssertEqual(MIDIOutputPortCreate(12_345, cf("x"), &port), kMIDIInvalidClient)
        XCTAssertEqual(MIDIPortConnectSource(12_345, 1, nil), kMIDIInvalidPort)
        XCTAssertEqual(MIDISourceCreate(client, cf("s"), &source), noErr)
        XCTAssertEqual(MIDIDestinationCreate(client, cf("d"), { _, _, _ in }, nil, &destination), noErr)
        XCTAssertEqual(MIDIOutputPortCreate(client, cf("out"), &port), noErr)
        XCTAssertEqual(MIDIPortConnectSource(port, source, nil), kMIDIInvalidPort, "an output port takes no sources")
        var input: MIDIPortRef = 0
        XCTAssertEqual(MIDIInputPortCreate(client, cf("in"), { _, _, _ in }, nil, &input), noErr)
        XCTAssertEqual(MIDIPortConnectSource(input, destination, nil), kMIDIWrongEndpointType)
        XCTAssertEqual(MIDIPortConnectSource(input, 99, nil), kMIDIUnknownEndpoint)
        XCTAssertEqual(MIDIPortDisconnectSource(input, source), kMIDINoConnection)
        var list = MIDIPacketList()
        list.numPackets = 0
        XCTAssertEqual(MIDISend(input, destination, &list), kMIDIInvalidPort, "sending goes through output ports")
        XCTAssertEqual(MIDISend(port, source, &list), kMIDIWrongEndpointType)
        XCTAssertEqual(MIDIReceived(destination, &list), kMIDIWrongEndpointType)
        XCTAssertEqual(MIDIGetSource(1_000_000), 0)
        XCTAssertEqual(MIDIEndpointDispose(source), noErr)
        XCTAssertEqual(MIDIEndpointDispose(source), kMIDIUnknownEndpoint, "disposed once")
    }

    func testPropertiesHaveTheirTypesUniqueIDsAndPrivacy() {
        var source: MIDIEndpointRef = 0
        XCTAssertEqual(MIDISourceCreate(client, cf("visible"), &source), noErr)
        var id: Int32 = 0
        XCTAssertEqual(MIDIObjectGetIntegerProperty(source, kMIDIPropertyUniqueID, &id), noErr)
        XCTAssertNotEqual(id, kMIDIInvalidUniqueID)
        var found: MIDIObjectRef = 0
        var type = MIDIObjectType.other
        XCTAssertEqual(MIDIObjectFindByUniqueID(id, &found, &type), noErr)
        XCTAssertEqual(found, source)
        XCTAssertEqual(type, .source)
        var name: Unmanaged<CFString>?
        XCTAssertEqual(MIDIObjectGetStringProperty(source, kMIDIPropertyUniqueID, &name), kMIDIWrongPropertyType)
        XCTAssertEqual(MIDIObjectGetIntegerProperty(source, kMIDIPropertyName, &id), kMIDIWrongPropertyType)
        XCTAssertEqual(MIDIObjectGetStringProperty(source, kMIDIPropertyModel, &name), kMIDIUnknownProperty)
        XCTAssertEqual(MIDIObjectGetIntegerProperty(77, kMIDIPropertyOffline, &id), kMIDIObjectNotFound)
        XCTAssertEqual(MIDIObjectSetStringProperty(source, kMIDIPropertyModel, cf("Model 1")), noErr)
        XCTAssertEqual(stringProperty(source, kMIDIPropertyModel), "Model 1")

        var other: MIDIEndpointRef = 0
        XCTAssertEqual(MIDISourceCreate(client, cf("other"), &other), noErr)
        XCTAssertEqual(MIDIObjectSetIntegerProperty(other, kMIDIPropertyUniqueID, id), kMIDIIDNotUnique)
        XCTAssertEqual(MIDIObjectSetIntegerProperty(other, kMIDIPropertyUniqueID, 4242), noErr)

        func listed() -> [MIDIEndpointRef] { (0..<MIDIGetNumberOfSources()).map { MIDIGetSource($0) } }
        XCTAssertTrue(listed().contains(other))
        XCTAssertEqual(MIDIObjectSetIntegerProperty(other, kMIDIPropertyPrivate, 1), noErr)
        XCTAssertFalse(listed().contains(other), "a private source is not listed, as on Apple")
        XCTAssertTrue(listed().contains(source))
    }

    /// The notify proc runs on the run loop that was current at MIDIClientCreate, when it runs;
    /// the read proc runs on Core MIDI's thread, not the caller's.
    func testNotificationsComeOnTheRunLoopAndReadProcsOffTheCallersThread() throws {
        final class Seen: @unchecked Sendable {
            var messages: [(MIDINotificationMessageID, MIDIObjectRef, Bool)] = []
            var readThread: pthread_t?
        }
        let seen = Seen()
        var watcher: MIDIClientRef = 0
        let refCon = Unmanaged.passUnretained(seen).toOpaque()
        XCTAssertEqual(
            MIDIClientCreate(
                cf("watcher"),
                { message, refCon in
                    let seen = Unmanaged<Seen>.fromOpaque(refCon!).takeUnretainedValue()
                    var child: MIDIObjectRef = 0
                    if message.pointee.messageID == .msgObjectAdded {
                        child = UnsafeRawPointer(message).assumingMemoryBound(to: MIDIObjectAddRemoveNotification.self).pointee.child
                    }
                    seen.messages.append((message.pointee.messageID, child, Thread.isMainThread))
                }, refCon, &watcher), noErr)
        defer { MIDIClientDispose(watcher) }
        var source: MIDIEndpointRef = 0
        XCTAssertEqual(MIDISourceCreate(client, cf("announced"), &source), noErr)
        XCTAssertTrue(seen.messages.isEmpty, "nothing before the run loop runs")
        let deadline = Date().addingTimeInterval(5)
        while seen.messages.count < 2, Date() < deadline { CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.01, 0) }
        XCTAssertEqual(seen.messages.first?.0, .msgObjectAdded)
        XCTAssertEqual(seen.messages.first?.1, source)
        XCTAssertEqual(seen.messages.dropFirst().first?.0, .msgSetupChanged)
        XCTAssertTrue(seen.messages.allSatisfy(\.2), "on the main thread's run loop, where the client was made")

        var input: MIDIPortRef = 0
        XCTAssertEqual(
            MIDIInputPortCreate(
                watcher, cf("in"),
                { _, refCon, _ in Unmanaged<Seen>.fromOpaque(refCon!).takeUnretainedValue().readThread = pthread_self() },
                refCon, &input), noErr)
        XCTAssertEqual(MIDIPortConnectSource(input, source, nil), noErr)
        var list = packetList([(0, [0xF8])])
        XCTAssertEqual(
            list.withUnsafeMutableBytes { MIDIReceived(source, $0.baseAddress!.assumingMemoryBound(to: MIDIPacketList.self)) }, noErr)
        XCTAssertTrue(eventually { seen.readThread != nil })
        XCTAssertEqual(MIDIClientDispose(watcher), noErr)  // waits for the read proc
        XCTAssertNotEqual(seen.readThread.map { pthread_equal($0, pthread_self()) }, 1, "off the caller's thread")
    }
}
