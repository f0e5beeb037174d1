import XCTest
@testable import DSPKernels

final class DelayLineTests: XCTestCase {
    func run(_ line: inout DelayLine, _ input: [Float], blockSize: Int = 64) -> [Float] {
        var output = [Float](repeating: 0, count: input.count)
        input.withUnsafeBufferPointer { i in
            output.withUnsafeMutableBufferPointer { o in
                var start = 0
                while start < input.count {
                    let n = min(blockSize, input.count - start)
                    line.process(i.baseAddress! + start, o.baseAddress! + start, frameCount: n)
                    start += n
                }
            }
        }
        return output
    }

    func testImpulseRepeatsAtTheRoundedDelayAndDecaysByTheFeedback() throws {
        let rate = 44_100.0
        var line = try DelayLine(maximumDelayTime: 2, sampleRate: rate)
        let delayTime = 0.0123  // 542.43 frames → 542
        line.setParameters(wetDryMix: 30, delayTime: delayTime, feedback: 60, lowPassCutoff: rate / 2)
        let d = Int((delayTime * rate).rounded())
        XCTAssertEqual(line.delayInFrames, d)
        var impulse = [Float](repeating: 0, count: d * 5 + 10)
        impulse[0] = 1
        let output = run(&line, impulse, blockSize: 100)
        let wet = Float(0.3), dry = Float(1 - 0.3), fb = Float(0.6)
        var expected = [Float](repeating: 0, count: impulse.count)
        expected[0] = dry
        var repeatGain: Float = 1
        for k in 1...5 {
            expected[k * d] = wet * repeatGain
            repeatGain = fb * repeatGain
        }
        XCTAssertEqual(output, expected)
    }

    func testNegativeFeedbackAlternatesSignAndZeroDelayPassesThrough() throws {
        var line = try DelayLine(maximumDelayTime: 0.1, sampleRate: 1_000)
        line.setParameters(wetDryMix: 100, delayTime: 0.01, feedback: -50, lowPassCutoff: 500)
        var impulse = [Float](repeating: 0, count: 40)
        impulse[0] = 1
        let output = run(&line, impulse)
        XCTAssertEqual(output[0], 0)
        XCTAssertEqual(output[10], 1)
        XCTAssertEqual(output[20], -0.5)
        XCTAssertEqual(output[30], 0.25)
        var zero = try DelayLine(maximumDelayTime: 0.1, sampleRate: 1_000)
        zero.setParameters(wetDryMix: 100, delayTime: 0, feedback: 90, lowPassCutoff: 500)
        let input: [Float] = [0.5, -0.25, 1, 0]
        XCTAssertEqual(run(&zero, input), input)
    }

    func testFeedbackLowPassDullsEachRepeat() throws {
        let rate = 48_000.0
        var line = try DelayLine(maximumDelayTime: 1, sampleRate: rate)
        line.setParameters(wetDryMix: 100, delayTime: 0.01, feedback: 100, lowPassCutoff: 1_000)
        var impulse = [Float](repeating: 0, count: 2_000)
        impulse[0] = 1
        let output = run(&line, impulse)
        // First repeat is untouched (the filter sits in the feedback path), the second is smeared:
        // its peak is the one-pole's first coefficient a = 1 − exp(−2π·1000/48000).
        XCTAssertEqual(output[480], 1)
        let a = Float(1 - exp(-2 * Double.pi * 1_000 / rate))
        XCTAssertEqual(output[960], a, accuracy: 1e-6)
        XCTAssertLessThan(output[961], a)
        XCTAssertGreaterThan(output[961], 0)
    }

    func testLongDelaysClampToTheMaximumAndBadSetupThrows() throws {
        var line = try DelayLine(maximumDelayTime: 0.5, sampleRate: 1_000)
        line.setParameters(wetDryMix: 50, delayTime: 2, feedback: 0, lowPassCutoff: 500)
        XCTAssertEqual(line.delayInFrames, 500)
        assertThrowsParamError { _ = try DelayLine(maximumDelayTime: 1, sampleRate: 0) }
        assertThrowsParamError { _ = try DelayLine(maximumDelayTime: -1, sampleRate: 48_000) }
    }
}
