import AudioTypes
import XCTest

@testable import DSPKernels

/// TimePitchStretch fed and read as the time-pitch unit does: blocks of output, input put while
/// `inputFramesWanted` asks for it.
final class TimePitchStretchTests: XCTestCase {
    /// Renders `blocks` blocks of `frames` from a mono `input`, calling `settings(block)` before
    /// each; returns the output and how many input frames were fed.
    func render(
        _ stretch: TimePitchStretch, _ input: [Float], blocks: Int, frames: Int, settings: (Int) -> (Double, Double)
    ) -> (output: [Float], fed: Int) {
        let inList = AudioBufferList.allocate(maximumBuffers: 1), outList = AudioBufferList.allocate(maximumBuffers: 1)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: stretch.maximumFrames)
        let out = UnsafeMutablePointer<Float>.allocate(capacity: frames)
        defer {
            free(inList.unsafeMutablePointer)
            free(outList.unsafeMutablePointer)
            scratch.deallocate()
            out.deallocate()
        }
        inList[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(stretch.maximumFrames * 4), mData: scratch)
        outList[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: out)
        var output: [Float] = [], fed = 0
        for block in 0..<blocks {
            let (rate, pitch) = settings(block)
            stretch.set(rate: rate, pitchRatio: pitch)
            while case let wanted = stretch.inputFramesWanted(toProduce: frames), wanted > 0 {
                for f in 0..<wanted { scratch[f] = fed + f < input.count ? input[fed + f] : 0 }
                stretch.put(inList.unsafeMutablePointer, frames: wanted)
                fed += wanted
            }
            stretch.read(into: outList.unsafeMutablePointer, offset: 0, frames: frames)
            output += UnsafeBufferPointer(start: out, count: frames)
        }
        return (output, fed)
    }

    /// Where the rate equals the pitch ratio the tempo is 1: SoundTouch is left out and the reader
    /// alone plays the input, exactly at every whole position (rate ½: output 2k is input k).
    /// Mutation tried: tempo = rate × pitch ratio: SoundTouch stays in, 5,312 frames fed.
    func testWhereRateEqualsThePitchRatioTheReaderAlonePlaysTheInput() throws {
        let stretch = try TimePitchStretch(channels: 1, sampleRate: 48_000, maximumFrames: 256, rates: 0.25...4, pitchRatios: 0.5...2)
        defer { stretch.free() }
        let input = (0..<4_096).map { Float(sin(Double($0) * 0.05) * 0.5 + Double($0 % 7) * 0.01) }
        let (output, fed) = render(stretch, input, blocks: 16, frames: 256) { _ in (0.5, 0.5) }
        XCTAssertFalse(stretch.isStretching)
        for k in 0..<2_047 { XCTAssertEqual(output[2 * k], input[k], "output \(2 * k)") }
        XCTAssertEqual(fed, 2_048 + 2, "half the output's frames and the interpolation's look-ahead")
    }

    /// A pitch that changes every block leaves the speed alone: at rate 1 the input fed follows
    /// the output frames within SoundTouch's window (its latency at tempo 0.5…2, under 5,000
    /// frames at 48 kHz), whatever the pitch. Mutation tried: tempo = rate × pitch ratio: 2.5 s of
    /// output take 1.9 s more input.
    func testAPitchChangedEveryBlockKeepsTheSpeed() throws {
        let stretch = try TimePitchStretch(channels: 1, sampleRate: 48_000, maximumFrames: 512, rates: 0.5...2, pitchRatios: 0.5...2)
        defer { stretch.free() }
        let input = (0..<200_000).map { Float(sin(Double($0) * 0.03)) * 0.5 }
        let (output, fed) = render(stretch, input, blocks: 240, frames: 500) { block in (1, block % 2 == 0 ? 1.5 : 1.25) }
        XCTAssertEqual(Double(fed), Double(output.count), accuracy: 5_000)
        XCTAssertTrue(output.allSatisfy { $0.isFinite && abs($0) < 2 })
    }
}
