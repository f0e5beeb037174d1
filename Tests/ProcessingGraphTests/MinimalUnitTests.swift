import CGainUnit
import XCTest
import TestSupport

/// A unit written in C to the documented plug-in interface that answers only the properties it
/// needs (no ElementCount, ShouldAllocateBuffer or InPlaceProcessing, as a minimal unit may) is a
/// graph node like any other: the graph assumes one element per scope and renders it correctly.
final class MinimalUnitTests: XCTestCase {
    static let gain = AudioComponentDescription(
        type: kAudioUnitType_Effect, subType: FourCC.code("cgan")!,
        manufacturer: FourCC.code("AUHt")!)

    func testAUnitWithoutElementCountRendersInAGraph() throws {
        var registration = Self.gain
        if AudioComponentFindNext(nil, &registration) == nil {
            AudioComponentRegister(
                &registration, AUHostConstantString("AUHost Tests: C Gain")!.takeUnretainedValue(),
                0x0001_0000, GainUnitFactory)
        }
        let f = try GraphFixture()
        let counter = Counter()
        let gain = try f.add(Self.gain)
        var callback = counter.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, gain, 0, &callback), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, gain, 0, f.head, 0), noErr)
        XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
        // The unit has no default format (it is minimal): the host sets both sides, as on Apple.
        var format = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)
        for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
            XCTAssertEqual(
                AudioUnitSetProperty(
                    f.unit(gain), kAudioUnitProperty_StreamFormat, scope, 0, &format,
                    UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), noErr)
        }
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        for slice in 0..<3 {
            XCTAssertEqual(f.pull(512), noErr, lastMessage())
            // The ramp callback's sample n of channel c is n + 1000 c; the unit halves it exactly.
            let first = slice * 512
            let left = f.left(512), right = f.right(512)
            let wrong = (0..<512).filter { left[$0] != Float(first + $0) * 0.5 || right[$0] != Float(first + $0 + 1000) * 0.5 }
            XCTAssertEqual(wrong.count, 0, "slice \(slice): first wrong frame \(wrong.first ?? -1)")
        }
    }
}
