import XCTest
import SignalTestSupport
@testable import DSPKernels
import AudioToolbox

final class BiquadTests: XCTestCase {
    let rate = 48_000.0
    /// 20 log-spaced frequencies from 25 Hz to 20 kHz.
    lazy var frequencies: [Double] = (0..<20).map { 25 * pow(20_000 / 25, Double($0) / 19) }

    /// Runs a sine through `filter` and fits the steady-state amplitude over the last quarter.
    func measuredGain(_ coefficients: BiquadCoefficients, frequency: Double) -> Double {
        let count = 24_000
        let input = sine(frequency: frequency, sampleRate: rate, count: count)
        var output = [Float](repeating: 0, count: count)
        var filter = BiquadFilter(coefficients: coefficients)
        input.withUnsafeBufferPointer { i in
            output.withUnsafeMutableBufferPointer { o in
                filter.process(i.baseAddress!, o.baseAddress!, frameCount: count)
            }
        }
        let fit = SineFit(output[(count * 3 / 4)...], frequency: frequency, sampleRate: rate)
        return fit.amplitude / 0.5
    }

    func testEveryDesignMeasuresAsItsAnalyticResponseAtTwentyFrequencies() throws {
        for type in BiquadFilterType.allCases {
            let design = try BiquadCoefficients(
                type: type, frequency: 1_000, gain: 9, bandwidth: 1.5,
                sampleRate: rate)
            for f in frequencies {
                let analytic = design.magnitude(atFrequency: f, sampleRate: rate)
                let measured = measuredGain(design, frequency: f)
                if analytic > 1e-4 {  // above −80 dB: compare in dB
                    XCTAssertEqual(
                        20 * log10(measured), 20 * log10(analytic), accuracy: 0.1,
                        "\(type) at \(f) Hz")
                } else {
                    XCTAssertLessThan(measured, 2e-4, "\(type) at \(f) Hz")
                }
            }
        }
    }

    func testDesignsHaveTheirDefiningGains() throws {
        let peak = try BiquadCoefficients(type: .parametric, frequency: 2_000, gain: 6, bandwidth: 1, sampleRate: rate)
        XCTAssertEqual(peak.magnitudeDecibels(atFrequency: 2_000, sampleRate: rate), 6, accuracy: 1e-9)
        XCTAssertEqual(peak.magnitudeDecibels(atFrequency: 20, sampleRate: rate), 0, accuracy: 0.05)
        let lowPass = try BiquadCoefficients(type: .butterworthLowPass, frequency: 1_000, sampleRate: rate)
        XCTAssertEqual(lowPass.magnitudeDecibels(atFrequency: 1_000, sampleRate: rate), -3.0103, accuracy: 1e-3)
        XCTAssertEqual(lowPass.magnitude(atFrequency: 0, sampleRate: rate), 1, accuracy: 1e-12)
        let shelf = try BiquadCoefficients(type: .lowShelf, frequency: 200, gain: -12, sampleRate: rate)
        XCTAssertEqual(shelf.magnitudeDecibels(atFrequency: 1, sampleRate: rate), -12, accuracy: 0.01)
        XCTAssertEqual(shelf.magnitudeDecibels(atFrequency: 200, sampleRate: rate), -6, accuracy: 0.01)
        let notch = try BiquadCoefficients(type: .bandStop, frequency: 3_000, bandwidth: 0.5, sampleRate: rate)
        XCTAssertLessThan(notch.magnitude(atFrequency: 3_000, sampleRate: rate), 1e-9)
        // Narrower bandwidth → higher Q → a resonant peak above 0 dB.
        let resonant = try BiquadCoefficients(type: .resonantLowPass, frequency: 1_000, bandwidth: 0.3, sampleRate: rate)
        XCTAssertGreaterThan(resonant.magnitudeDecibels(atFrequency: 1_000, sampleRate: rate), 10)
    }

    func testBadDesignsThrowParamError() {
        for (f, bw) in [(0.0, 1.0), (24_000.0, 1.0), (1_000.0, 0.0), (.nan, 1.0)] {
            XCTAssertThrowsError(try BiquadCoefficients(type: .parametric, frequency: f, bandwidth: bw, sampleRate: rate)) {
                XCTAssertEqual(($0 as? DSPKernelError)?.status, OSStatus(kAudio_ParamError))
            }
        }
    }

    func testCascadeMultipliesItsSectionsAndSkipsBypassedOnes() throws {
        var cascade = try BiquadCascade(stageCount: 3, channelCount: 2)
        let a = try BiquadCoefficients(type: .parametric, frequency: 500, gain: 6, bandwidth: 1, sampleRate: rate)
        let b = try BiquadCoefficients(type: .highShelf, frequency: 4_000, gain: -6, sampleRate: rate)
        cascade.setCoefficients(a, stage: 0)
        cascade.setCoefficients(b, stage: 1)
        cascade.setBypassed(true, stage: 2)
        cascade.setCoefficients(try BiquadCoefficients(type: .butterworthLowPass, frequency: 100, sampleRate: rate), stage: 2)
        let count = 24_000
        for f in [100.0, 500, 4_000, 12_000] {
            let input = sine(frequency: f, sampleRate: rate, count: count)
            var left = [Float](repeating: 0, count: count), right = left
            input.withUnsafeBufferPointer { i in
                left.withUnsafeMutableBufferPointer { l in
                    right.withUnsafeMutableBufferPointer { r in
                        let inputs = [i.baseAddress!, i.baseAddress!]
                        let outputs = [l.baseAddress!, r.baseAddress!]
                        cascade.process(inputs: inputs, outputs: outputs, frameCount: count)
                    }
                }
            }
            let expected = a.magnitude(atFrequency: f, sampleRate: rate) * b.magnitude(atFrequency: f, sampleRate: rate)
            XCTAssertEqual(cascade.magnitude(atFrequency: f, sampleRate: rate), expected, accuracy: 1e-12)
            for channel in [left, right] {
                let fit = SineFit(channel[(count * 3 / 4)...], frequency: f, sampleRate: rate)
                XCTAssertEqual(20 * log10(fit.amplitude / 0.5), 20 * log10(expected), accuracy: 0.1, "\(f) Hz")
            }
            XCTAssertEqual(left, right, "both channels share coefficients and start from silence")
            cascade.reset()
        }
    }

    func testIPodPresetsCoverTheDocumentedNamesAndShapeTheResponse() throws {
        let documented = [
            "Acoustic", "Bass Booster", "Bass Reducer", "Classical", "Dance", "Deep",
            "Electronic", "Flat", "Hip-Hop", "Jazz", "Latin", "Loudness", "Lounge", "Piano",
            "Pop", "R&B", "Rock", "Small Speakers", "Spoken Word", "Treble Booster",
            "Treble Reducer", "Vocal Booster",
        ]
        XCTAssertEqual(IPodEQPreset.allCases.map(\.name), documented)
        XCTAssertEqual(IPodEQPreset(name: "R&B"), .rAndB)
        XCTAssertEqual(IPodEQPreset.rock.presetNumber, 16)
        for preset in IPodEQPreset.allCases {
            XCTAssertEqual(preset.bandGains.count, IPodEQPreset.bandFrequencies.count)
        }
        var cascade = try BiquadCascade(stageCount: 10, channelCount: 1)
        try IPodEQPreset.flat.apply(to: &cascade, sampleRate: 44_100)
        XCTAssertEqual(cascade.magnitude(atFrequency: 1_234, sampleRate: 44_100), 1, accuracy: 1e-12)
        try IPodEQPreset.bassBooster.apply(to: &cascade, sampleRate: 44_100)
        XCTAssertGreaterThan(20 * log10(cascade.magnitude(atFrequency: 40, sampleRate: 44_100)), 5)
        XCTAssertEqual(20 * log10(cascade.magnitude(atFrequency: 10_000, sampleRate: 44_100)), 0, accuracy: 0.2)
        try IPodEQPreset.trebleReducer.apply(to: &cascade, sampleRate: 44_100)
        XCTAssertLessThan(20 * log10(cascade.magnitude(atFrequency: 8_000, sampleRate: 44_100)), -3)
        XCTAssertEqual(20 * log10(cascade.magnitude(atFrequency: 60, sampleRate: 44_100)), 0, accuracy: 0.2)
        var short = try BiquadCascade(stageCount: 4, channelCount: 1)
        XCTAssertThrowsError(try IPodEQPreset.rock.apply(to: &short, sampleRate: 44_100))
    }
}
