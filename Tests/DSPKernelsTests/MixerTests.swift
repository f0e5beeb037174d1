import XCTest
@testable import DSPKernels

final class MixerTests: XCTestCase {
    func testEqualPowerPanLawGainsAtTheEndsAndCentre() {
        XCTAssertTrue(MixerKernel.equalPowerPanGains(pan: -1) == (1, 0))
        XCTAssertTrue(MixerKernel.equalPowerPanGains(pan: 1) == (0, 1))
        let centre = MixerKernel.equalPowerPanGains(pan: 0)
        XCTAssertEqual(centre.left, Float(0.5.squareRoot()))
        XCTAssertEqual(centre.right, Float(0.5.squareRoot()))
        for pan in stride(from: Float(-1), through: 1, by: 0.125) {
            let g = MixerKernel.equalPowerPanGains(pan: pan)
            XCTAssertEqual(g.left * g.left + g.right * g.right, 1, accuracy: 1e-6, "constant power at \(pan)")
        }
    }

    /// Mixes constant buses for one block and returns the outputs.
    func mix(_ mixer: inout MixerKernel, _ busValues: [Float], frames: Int = 8) -> [[Float]] {
        let inputs = busValues.map { [Float](repeating: $0, count: frames) }
        var outputs = [[Float]](repeating: [Float](repeating: 9, count: frames), count: mixer.outputChannelCount)
        let inPointers = inputs.map { buffer -> UnsafePointer<Float>? in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            p.initialize(from: buffer, count: frames)
            return UnsafePointer(p)
        }
        let outPointers = outputs.map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
        mixer.process(inputs: inPointers, outputs: outPointers, frameCount: frames)
        for c in outputs.indices { outputs[c] = Array(UnsafeBufferPointer(start: outPointers[c], count: frames)) }
        inPointers.forEach { $0?.deallocate() }
        outPointers.forEach { $0.deallocate() }
        return outputs
    }

    func testMonoBusesPanVolumeMuteAndSumExactly() throws {
        var mixer = try MixerKernel(busChannelCounts: [1, 1, 1], outputChannelCount: 2)
        mixer.setPan(-1, bus: 0)
        mixer.setPan(1, bus: 1)
        mixer.setVolume(0.5, bus: 1)
        mixer.setEnabled(false, bus: 2)
        let out = mix(&mixer, [0.25, 1, 1])
        XCTAssertEqual(out[0], [Float](repeating: 0.25, count: 8))
        XCTAssertEqual(out[1], [Float](repeating: 0.5, count: 8))
        mixer.setEnabled(true, bus: 2)
        mixer.outputVolume = 0.5
        let centred = mix(&mixer, [0, 0, 1])
        XCTAssertEqual(centred[0][0], Float(0.5.squareRoot()) * 0.5)
        XCTAssertEqual(centred[1][0], Float(0.5.squareRoot()) * 0.5)
    }

    func testStereoBusPassesAtCentreAndBalancesAtTheEnds() throws {
        var mixer = try MixerKernel(busChannelCounts: [2], outputChannelCount: 2)
        XCTAssertEqual(mix(&mixer, [0.25, -0.5]).map { $0[0] }, [0.25, -0.5])
        mixer.setPan(1, bus: 0)
        XCTAssertEqual(mix(&mixer, [0.25, -0.5]).map { $0[0] }, [0, -0.5])
        mixer.setPan(-1, bus: 0)
        XCTAssertEqual(mix(&mixer, [0.25, -0.5]).map { $0[0] }, [0.25, 0])
    }

    func testWideOutputMapsChannelsAndSpreadsMono() throws {
        var mixer = try MixerKernel(busChannelCounts: [1, 4], outputChannelCount: 4)
        let out = mix(&mixer, [0.5, 0.125, 0.25, 0, -0.25])
        XCTAssertEqual(out.map { $0[3] }, [0.625, 0.75, 0.5, 0.25])
    }

    func testMetersReportPeakAndAveragePowerInDecibels() throws {
        var mixer = try MixerKernel(busChannelCounts: [1, 1], outputChannelCount: 2)
        mixer.setVolume(0.5, bus: 0)
        mixer.setPan(-1, bus: 0)
        mixer.setEnabled(false, bus: 1)
        _ = mix(&mixer, [1, 0.5])
        let pre = mixer.meter(ofBus: 0, postFader: false)
        XCTAssertEqual(pre.peakDecibels, 0, accuracy: 1e-9)
        XCTAssertEqual(pre.averagePowerDecibels, 0, accuracy: 1e-9)
        let post = mixer.meter(ofBus: 0, postFader: true)
        XCTAssertEqual(post.peakDecibels, 20 * log10(0.5), accuracy: 1e-6)
        XCTAssertEqual(post.averagePowerDecibels, 20 * log10(0.5), accuracy: 1e-6)
        XCTAssertEqual(mixer.meter(ofBus: 1, postFader: false).peakDecibels, 20 * log10(0.5), accuracy: 1e-6)
        XCTAssertEqual(mixer.meter(ofBus: 1, postFader: true).peakDecibels, -120)
        // Output: left carries 0.5, right silence → mean square over both channels is 0.125.
        XCTAssertEqual(mixer.outputMeter().peakDecibels, 20 * log10(0.5), accuracy: 1e-6)
        XCTAssertEqual(mixer.outputMeter().averagePowerDecibels, 10 * log10(0.125), accuracy: 1e-6)
    }

    func testBadConfigurationsThrow() {
        assertThrowsParamError { _ = try MixerKernel(busChannelCounts: [], outputChannelCount: 2) }
        assertThrowsParamError { _ = try MixerKernel(busChannelCounts: [0], outputChannelCount: 2) }
        assertThrowsParamError { _ = try MixerKernel(busChannelCounts: [1], outputChannelCount: 9) }
    }
}
