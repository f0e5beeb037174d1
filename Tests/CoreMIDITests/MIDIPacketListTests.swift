import CoreMIDI
import CoreMIDIServices
import XCTest

/// MIDIPacketListInit / MIDIPacketListAdd / MIDIPacketNext with Apple's packing rules.
final class MIDIPacketListTests: XCTestCase {
    var storage = UnsafeMutableRawPointer.allocate(byteCount: 70_000, alignment: 8)
    var list: UnsafeMutablePointer<MIDIPacketList> { storage.assumingMemoryBound(to: MIDIPacketList.self) }

    override func setUp() { storage.initializeMemory(as: UInt8.self, repeating: 0, count: 70_000) }
    override func tearDown() { storage.deallocate() }

    func add(_ packet: UnsafeMutablePointer<MIDIPacket>, _ time: MIDITimeStamp, _ bytes: [UInt8], size: Int = 1024)
        -> UnsafeMutablePointer<MIDIPacket>?
    {
        bytes.withUnsafeBufferPointer { MIDIPacketListAdd(list, size, packet, time, bytes.count, $0.baseAddress!) }
    }

    func testTheFirstPacketStartsAtByte4AndSameTimeMessagesShareIt() throws {
        let first = MIDIPacketListInit(list)
        XCTAssertEqual(UnsafeMutableRawPointer(first) - storage, 4)
        XCTAssertEqual(list.pointee.numPackets, 0)
        let a = try XCTUnwrap(add(first, 100, [0x90, 60, 100]))
        let b = try XCTUnwrap(add(a, 100, [0x90, 64, 100]))
        XCTAssertEqual(a, b, "same time, not system-exclusive: one packet")
        XCTAssertEqual(list.pointee.numPackets, 1)
        XCTAssertEqual(b.pointee.length, 6)
        XCTAssertEqual([b.pointee.data.0, b.pointee.data.3, b.pointee.data.4], [0x90, 0x90, 64])
    }

    func testALaterTimeStartsAPacketUnalignedOnX86AndAlignedOnARM() throws {
        let first = try XCTUnwrap(add(MIDIPacketListInit(list), 100, [0xC0, 5]))
        let second = try XCTUnwrap(add(first, 200, [0x90, 60, 1]))
        #if arch(arm) || arch(arm64)
        XCTAssertEqual(UnsafeMutableRawPointer(second) - storage, 16, "4 + 10 + 2, already aligned")
        #else
        XCTAssertEqual(UnsafeMutableRawPointer(second) - storage, 16, "4 + 10 + 2")
        #endif
        let third = try XCTUnwrap(add(second, 300, [0x90, 61, 1]))
        #if arch(arm) || arch(arm64)
        XCTAssertEqual(UnsafeMutableRawPointer(third) - storage, 32, "16 + 13 rounded up to 4")
        #else
        XCTAssertEqual(UnsafeMutableRawPointer(third) - storage, 29, "16 + 13, unaligned as Apple packs on x86-64")
        #endif
        XCTAssertEqual(list.pointee.numPackets, 3)
        XCTAssertEqual(MIDIPacketNext(first), second)
        XCTAssertEqual(MIDIPacketNext(second), third)
        XCTAssertEqual(UnsafeRawPointer(third).advanced(by: 0).loadUnaligned(as: UInt64.self), 300)
        XCTAssertEqual(packetListByteCount(list), Int(UnsafeMutableRawPointer(third) - storage) + 13)
    }

    /// Apple's Swift walk: `for packet in list.unsafeSequence()` (timestamps and lengths of each).
    func testUnsafeSequenceWalksThePacketsAsApplesOverlayDoes() throws {
        let first = try XCTUnwrap(add(MIDIPacketListInit(list), 100, [0xC0, 5]))
        let second = try XCTUnwrap(add(first, 200, [0x90, 60, 1]))
        _ = try XCTUnwrap(add(second, 300, [0xF0, 1, 2, 3, 0xF7]))
        let packets = UnsafePointer(list).unsafeSequence().map { ($0.pointee.timeStamp, $0.pointee.length) }
        XCTAssertEqual(packets.map(\.0), [100, 200, 300])
        XCTAssertEqual(packets.map(\.1), [2, 3, 5])
        list.pointee.numPackets = 0
        XCTAssertEqual(Array(list.unsafeSequence()).count, 0)
    }

    func testSystemExclusiveIsNeverMerged() throws {
        let first = try XCTUnwrap(add(MIDIPacketListInit(list), 100, [0x90, 60, 1]))
        let sysex = try XCTUnwrap(add(first, 100, [0xF0, 0x7E, 0x7F, 0xF7]))
        XCTAssertNotEqual(first, sysex)
        let after = try XCTUnwrap(add(sysex, 100, [0x80, 60, 0]))
        XCTAssertNotEqual(sysex, after, "nor is a message added after one")
        XCTAssertEqual(list.pointee.numPackets, 3)
    }

    func testNoRoomOrAnEarlierTimeGivesNULL() throws {
        let first = try XCTUnwrap(add(MIDIPacketListInit(list), 100, [0x90, 60, 1], size: 17))
        XCTAssertNil(add(first, 200, [0x90, 61, 1], size: 17), "a second packet needs 13 more bytes")
        XCTAssertNil(add(first, 100, [0x90, 61, 1], size: 18), "merging needs 3 more bytes")
        XCTAssertNil(add(first, 50, [0x90, 61, 1]), "timestamps go forward")
        XCTAssertEqual(list.pointee.numPackets, 1)
        XCTAssertNil(add(MIDIPacketListInit(list), 0, [0x90, 60, 1], size: 16), "not even the first")
    }

    func testAListRunningPast65536BytesIsRefusedBySendAndReceived() throws {
        list.pointee.numPackets = 2
        (storage + 4 + 8).storeBytes(of: UInt16.max, as: UInt16.self)  // 4 + 10 + 65535 > 65536
        XCTAssertNil(packetListByteCount(list))
        var client: MIDIClientRef = 0
        XCTAssertEqual(MIDIClientCreate(cf("packets"), nil, nil, &client), noErr)
        defer { MIDIClientDispose(client) }
        var source: MIDIEndpointRef = 0
        XCTAssertEqual(MIDISourceCreate(client, cf("big"), &source), noErr)
        XCTAssertEqual(MIDIReceived(source, list), kMIDIMessageSendErr)
    }

    /// Random bytes as packet lists and packet data: sizes stay within 65536 bytes or are refused,
    /// and the message splitter stays inside its bytes (seeded, so a failure repeats).
    func testRandomListsAreMeasuredOrRefusedAndMessagesStayInTheirBytes() {
        var generator = SplitMix64(seed: 33)
        for _ in 0..<2_000 {
            for i in 0..<4_096 { storage.storeBytes(of: UInt8.random(in: 0...255, using: &generator), toByteOffset: i, as: UInt8.self) }
            list.pointee.numPackets = UInt32.random(in: 0...300, using: &generator)
            if let size = packetListByteCount(list) { XCTAssertLessThanOrEqual(size, 65_536) }
            let bytes = UnsafeRawBufferPointer(start: storage, count: Int.random(in: 0...64, using: &generator))
            var covered = 0
            forEachMessage(bytes) { message in
                XCTAssertGreaterThan(message.count, 0)
                XCTAssertGreaterThanOrEqual(message.baseAddress!, bytes.baseAddress!)
                XCTAssertLessThanOrEqual(message.baseAddress! + message.count, bytes.baseAddress! + bytes.count)
                covered += message.count
            }
            XCTAssertLessThanOrEqual(covered, bytes.count)
        }
    }
}

/// A small seeded generator (SplitMix64), so the random test repeats exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
