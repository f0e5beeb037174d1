import AVFAudio
import Foundation
import XCTest

/// Apple's mixer takes inputs at any sample rate: a 44.1 kHz source connected to the main mixer of
/// a 48 kHz engine plays at its pitch (the engine puts a format converter before the mixer bus).
final class MixerRateTests: XCTestCase {
    /// A 1 kHz sine made at 44.1 kHz comes out of a 48 kHz offline engine at 1 kHz (1088 Hz if its
    /// samples were played at the engine's rate), at its level.
    func testASourceAtAnotherRateIsResampledIntoTheMixer() throws {
        let rig = OfflineRig(channels: 1)
        let slow = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 1)!
        let sine = rampSource { Float(0.5 * sin(2 * Double.pi * 1_000 * Double($0) / 44_100)) }
        rig.engine.attach(sine)
        rig.engine.connect(sine, to: rig.engine.mainMixerNode, format: slow)
        try rig.enable()
        try rig.engine.start()
        let out = try rig.render(48_000)[0]
        // After the converter's delay: rising zero crossings, interpolated between samples.
        var crossings: [Double] = []
        for i in 4_800..<47_999 where out[i] < 0 && out[i + 1] >= 0 {
            crossings.append(Double(i) + Double(-out[i] / (out[i + 1] - out[i])))
        }
        let frequency = Double(crossings.count - 1) / (crossings.last! - crossings.first!) * 48_000
        XCTAssertEqual(frequency, 1_000, accuracy: 0.5)
        let rms = (out[4_800...].reduce(0) { $0 + Double($1 * $1) } / Double(out.count - 4_800)).squareRoot()
        XCTAssertEqual(rms, 0.5 / 2.squareRoot(), accuracy: 0.005)
        // The connection the application made is what the engine reports.
        XCTAssertTrue(rig.engine.outputConnectionPoints(for: sine, outputBus: 0).first?.node === rig.engine.mainMixerNode)
    }
}
