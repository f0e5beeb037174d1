import Foundation
import XCTest
import TestSupport

final class VarispeedUnitTests: XCTestCase {
    private func varispeed(_ input: [Float]) throws -> UnitHarness {
        let h = try UnitHarness(type: kAudioUnitType_FormatConverter, subType: kAudioUnitSubType_Varispeed)
        try h.feed(bus: 0, [input, input])
        return h
    }

    /// Rate 1: a step of exactly 1 reads every input sample as it is: exact, no latency, and pulls
    /// exactly the frames it renders.
    func testRateOnePassesTheInputExactly() throws {
        let x = sine(1234, frames: 8192)
        let h = try varispeed(x)
        try h.initialize()
        let out = try h.render(frames: 8192, channels: 2)
        XCTAssertEqual(out[0], x)
        XCTAssertEqual(out[1], x)
        XCTAssertEqual(h.sources[0].position, 8192, "no look-ahead at a whole step: one input frame per output frame")
    }

    /// Rate 2 (and, the same, PlaybackCents +1200): 441 Hz comes out at 882 Hz (within 0.1 %), at
    /// its level (RMS within 1 %: the anti-alias low pass sits at 9.9 kHz), and a one-second tone
    /// lasts half a second (within 8 frames: the low pass's delay smears the edges).
    func testRateTwoDoublesTheFrequencyAndHalvesTheLength() throws {
        let x = sine(441, frames: 44_100)
        for (id, value) in [(kVarispeedParam_PlaybackRate, Float(2)), (kVarispeedParam_PlaybackCents, 1200)] {
            let h = try varispeed(x)
            try h.set(id, value)
            try h.initialize()
            let out = try h.render(frames: 44_100, channels: 2)[0]
            let span = try XCTUnwrap(soundingSpan(out, threshold: 1e-3))
            XCTAssertEqual(Double(span.last - span.first), 22_050, accuracy: 8, "\(span)")
            XCTAssertEqual(zeroCrossingFrequency(out, from: 100, to: 22_000, sampleRate: 44_100), 882, accuracy: 0.882)
            let rms = (out[1000..<21_000].reduce(0) { $0 + Double($1) * Double($1) } / 20_000).squareRoot()
            XCTAssertEqual(rms, 0.5 / 2.0.squareRoot(), accuracy: 0.01 * 0.5 / 2.0.squareRoot())
        }
    }

    /// Rate 2 on a 15 kHz tone: read twice as fast it would be 30 kHz, past the 22.05 kHz
    /// Nyquist, and fold back to 14.1 kHz at full level; the anti-alias low pass leaves it more
    /// than 25 dB down (measured RMS below 0.02 against the input's 0.354).
    func testRateTwoRemovesWhatWouldAlias() throws {
        let h = try varispeed(sine(15_000, frames: 44_100))
        try h.set(kVarispeedParam_PlaybackRate, 2)
        try h.initialize()
        let out = try h.render(frames: 20_000, channels: 2)[0]
        let rms = (out[1000..<20_000].reduce(0) { $0 + Double($1) * Double($1) } / 19_000).squareRoot()
        XCTAssertLessThan(rms, 0.02)
    }

    /// Rate 0.5: an octave down, twice as long; between input samples the cubic interpolation is
    /// within 10⁻³ of the sine it samples.
    func testRateHalfInterpolatesTheSlowedSine() throws {
        let x = sine(441, frames: 44_100)
        let h = try varispeed(x)
        try h.set(kVarispeedParam_PlaybackRate, 0.5)
        try h.initialize()
        let out = try h.render(frames: 44_100, channels: 2)[0]
        let expected = sine(220.5, frames: 44_100)
        for n in 4..<44_100 { XCTAssertEqual(out[n], expected[n], accuracy: 1e-3, "frame \(n)") }
    }

    /// A rate change scheduled at frame 256 of a render call applies at that frame: frames before
    /// it read input n, and at rate 0.5 every second frame after it lands on input 256 + k/2, exactly.
    func testAScheduledRateChangeAppliesAtItsFrame() throws {
        let x = (0..<4096).map { Float($0) / 4096 }
        let h = try varispeed(x)
        try h.initialize()
        XCTAssertEqual(AudioUnitSetParameter(h.unit, kVarispeedParam_PlaybackRate, kAudioUnitScope_Global, 0, 0.5, 256), noErr)
        let out = try h.render(frames: 512, channels: 2)[0]
        XCTAssertEqual(Array(out[..<256]), Array(x[..<256]))
        XCTAssertEqual(stride(from: 256, to: 512, by: 2).map { out[$0] }, (0..<128).map { x[256 + $0] })
    }
}
