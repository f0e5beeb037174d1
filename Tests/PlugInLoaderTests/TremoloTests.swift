import AUHost
import XCTest

/// The tremolo plug-in, loaded from its shared object and driven through the C API.
final class TremoloTests: XCTestCase {
    enum P { static let rate: AudioUnitParameterID = 0, depth: AudioUnitParameterID = 1, shape: AudioUnitParameterID = 2 }

    func testIsListedWithItsManifestNameAndVersion() throws {
        let component = try BuiltPlugIns.component("trem")
        var name: Unmanaged<CFString>?
        XCTAssertEqual(AudioComponentCopyName(component, &name), noErr)
        XCTAssertEqual(String(cfString: name?.takeRetainedValue()), "AUHost SDK: Tremolo")
        var version: UInt32 = 0
        XCTAssertEqual(AudioComponentGetVersion(component, &version), noErr)
        XCTAssertEqual(version, 0x0001_0000)
    }

    func testDepthZeroIsExactlyTheIdentity() throws {
        let input = [sine(440, amplitude: 0.8, frames: 3000), sine(1234, amplitude: 0.3, frames: 3000)]
        for shape: Float in [0, 1, 2] {
            let h = try EffectHarness(try BuiltPlugIns.component("trem"), input: input)
            try h.set(P.depth, 0)
            try h.set(P.rate, 13)
            try h.set(P.shape, shape)
            let out = try h.render(3000, slice: 471)
            XCTAssertEqual(out, input, "shape \(shape)")
        }
    }

    func testFullDepthSineFollowsTheRaisedCosine() throws {
        let fs = 48_000.0
        let h = try EffectHarness(
            try BuiltPlugIns.component("trem"), sampleRate: fs, channels: 1,
            input: [Array(repeating: 1, count: 9600)])
        try h.set(P.depth, 100)
        try h.set(P.rate, 10)
        let out = try h.render(9600)[0]
        for n in stride(from: 0, to: 9600, by: 7) {
            let expected = 1 - (0.5 - 0.5 * cos(2 * Double.pi * 10 * Double(n) / fs))
            XCTAssertEqual(Double(out[n]), expected, accuracy: 1e-5, "frame \(n)")
        }
        XCTAssertEqual(out[2400], 0, accuracy: 1e-6, "silent at half a period (1/20 s)")
    }

    func testStateRoundTripsThroughClassInfo() throws {
        let input = [sine(300, frames: 2048), sine(300, frames: 2048)]
        let a = try EffectHarness(try BuiltPlugIns.component("trem"), input: input)
        try a.set(P.rate, 7.5)
        try a.set(P.depth, 80)
        try a.set(P.shape, 1)
        let state = try a.classInfo()
        defer { Unmanaged<AnyObject>.fromOpaque(state).release() }
        let b = try EffectHarness(try BuiltPlugIns.component("trem"), input: input)
        try b.restore(classInfo: state)
        XCTAssertEqual(try b.get(P.rate), 7.5)
        XCTAssertEqual(try b.get(P.depth), 80)
        XCTAssertEqual(try b.get(P.shape), 1)
        XCTAssertEqual(try a.render(2048), try b.render(2048))
    }

    func testFactoryPresetSetsItsValues() throws {
        let h = try EffectHarness(try BuiltPlugIns.component("trem"), input: [[], []])
        var preset = AUPreset(presetNumber: 1, presetName: nil)
        XCTAssertEqual(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset,
                UInt32(MemoryLayout<AUPreset>.size)), noErr)
        XCTAssertEqual(try h.get(P.rate), 12)
        XCTAssertEqual(try h.get(P.depth), 100)
        XCTAssertEqual(try h.get(P.shape), 2)
    }
}
