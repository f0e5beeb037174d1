import AUHost
import CoreMIDI
import CoreMIDIServices
import Foundation
import TestSupport
import XCTest

/// The bar in process: a virtual Core MIDI source played into an instrument unit, the notes
/// starting and stopping at the samples their timestamps give.
final class VirtualEndpointInstrumentTests: XCTestCase {
    /// Cycle k of 256 frames has host time origin + k·256 frames (48 kHz); a note-on timestamped
    /// at frame 300 and its note-off at frame 700 sound over exactly [300, 700).
    func testNotesFromAVirtualSourceStartAtTheSampleTheirTimestampsGive() throws {
        let instrument = try OnsetInstrument()
        var client: MIDIClientRef = 0
        XCTAssertEqual(MIDIClientCreate(cf("keyboard"), nil, nil, &client), noErr)
        defer { MIDIClientDispose(client) }
        var source: MIDIEndpointRef = 0
        XCTAssertEqual(MIDISourceCreate(client, cf("keys"), &source), noErr)
        let connection = try MIDIInstrumentConnection(source: source, instrument: instrument.unit)

        let origin: UInt64 = 5_000_000_000_000
        var list = packetList([(hostTime(origin, frame: 300), [0x90, 60, 100]), (hostTime(origin, frame: 700), [0x80, 60, 0])])
        XCTAssertEqual(
            list.withUnsafeMutableBytes { MIDIReceived(source, $0.baseAddress!.assumingMemoryBound(to: MIDIPacketList.self)) }, noErr)
        XCTAssertTrue(eventually { connection.received == 2 }, "the read proc got both messages")

        let output = try instrument.render(cycles: 4, frames: 256) { hostTime(origin, frame: $0) }
        XCTAssertEqual(edges(output).map(\.0), [300, 700], "the note sounds over [300, 700)")
        XCTAssertEqual(edges(output).map(\.1), [1, 0])
        XCTAssertEqual(connection.dropped, 0)
    }

    /// The same through a virtual destination: a client's output port sends (MIDISend) to the
    /// instrument's destination; a timestamp of 0 ("now") plays at the first frame of the next call.
    func testNotesSentToAVirtualDestinationPlayTheInstrument() throws {
        let instrument = try OnsetInstrument()
        let connection = try MIDIInstrumentConnection(destinationName: "onset synth", instrument: instrument.unit)
        var client: MIDIClientRef = 0
        XCTAssertEqual(MIDIClientCreate(cf("sender"), nil, nil, &client), noErr)
        defer { MIDIClientDispose(client) }
        var port: MIDIPortRef = 0
        XCTAssertEqual(MIDIOutputPortCreate(client, cf("out"), &port), noErr)
        let destinations = (0..<MIDIGetNumberOfDestinations()).map { MIDIGetDestination($0) }
        XCTAssertTrue(destinations.contains(connection.destination), "the instrument's destination is listed")
        var name: Unmanaged<CFString>?
        XCTAssertEqual(MIDIObjectGetStringProperty(connection.destination, kMIDIPropertyName, &name), noErr)
        XCTAssertEqual(name.map { String(cfString: $0.takeRetainedValue()) }, "onset synth")

        let origin: UInt64 = 7_000_000_000_000
        var list = packetList([(0, [0x90, 64, 90]), (hostTime(origin, frame: 1000), [0x90, 64, 0])])
        XCTAssertEqual(
            list.withUnsafeMutableBytes {
                MIDISend(port, connection.destination, $0.baseAddress!.assumingMemoryBound(to: MIDIPacketList.self))
            }, noErr)
        XCTAssertTrue(eventually { connection.received == 2 })
        let output = try instrument.render(cycles: 5, frames: 256) { hostTime(origin, frame: $0) }
        XCTAssertEqual(edges(output).map(\.0), [0, 1000], "on at once, off (velocity 0) at frame 1000")
    }
}

/// AUHostMIDI.h: the same connection from C's side.
final class InstrumentConnectionCAPITests: XCTestCase {
    func testTheCFunctionsPlayTheInstrumentAndRefuseBadHandles() throws {
        let instrument = try OnsetInstrument()
        var destination: MIDIEndpointRef = 0
        var connection: AUHostMIDIInstrumentConnectionRef?
        XCTAssertEqual(AUHostMIDIInstrumentDestinationCreate(cf("c synth"), instrument.unit, &destination, &connection), noErr)
        var client: MIDIClientRef = 0
        XCTAssertEqual(MIDIClientCreate(cf("c sender"), nil, nil, &client), noErr)
        defer { MIDIClientDispose(client) }
        var port: MIDIPortRef = 0
        XCTAssertEqual(MIDIOutputPortCreate(client, cf("out"), &port), noErr)
        let origin: UInt64 = 11_000_000_000_000
        var list = packetList([(hostTime(origin, frame: 123), [0x90, 60, 1])])
        XCTAssertEqual(
            list.withUnsafeMutableBytes { MIDISend(port, destination, $0.baseAddress!.assumingMemoryBound(to: MIDIPacketList.self)) }, noErr
        )
        var output: [Float] = []
        XCTAssertTrue(
            eventually {
                output = (try? instrument.render(cycles: 1, frames: 256) { hostTime(origin, frame: $0) }) ?? []
                return output.contains(1)
            })
        XCTAssertEqual(edges(output).map(\.0), [123])

        var other: AUHostMIDIInstrumentConnectionRef?
        XCTAssertEqual(AUHostMIDIInstrumentConnectSource(destination, instrument.unit, &other), kMIDIWrongEndpointType)
        XCTAssertEqual(AUHostMIDIInstrumentConnectionDispose(connection!), noErr)
        XCTAssertEqual(AUHostMIDIInstrumentConnectionDispose(connection!), kAudio_ParamError, "disposed once")
        XCTAssertEqual(
            MIDIObjectGetIntegerProperty(destination, kMIDIPropertyOffline, &client), kMIDIObjectNotFound, "the destination went too")
    }
}
