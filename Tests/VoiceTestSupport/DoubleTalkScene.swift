import Foundation
import RoomSimulation

/// A long double-talk scene in the simulated room (RoomScenario's room): the far end talks
/// throughout at −20 dBFS (echo about −26 dBFS), the near-end talker joins for 8 s at `nearLevel`
/// (default −20 dBFS: 6 dB over the echo, a talker nearer the microphone than the loudspeaker).
/// It measures how much of the near end survives the canceller and the suppressors.
///
/// Timeline (seconds): 0–4 far end only (0–2 convergence), 4–12 both, 12–14 far end only.
public struct DoubleTalkScene {
    public let rate: Double
    public let frames: Int
    public let farEnd: [Float]
    public let nearEnd: [Float]
    /// echo + near end + noise.
    public let microphone: [Float]

    /// Far end only, before and after the double talk (the second shows the canceller held).
    public var farOnly: [Range<Int>] { [seconds(2, 4), seconds(12.5, 14)] }
    /// Double talk, from 1 s after the near end joined.
    public var doubleTalk: Range<Int> { seconds(5, 12) }

    public func seconds(_ a: Double, _ b: Double) -> Range<Int> { Int(a * rate)..<Int(b * rate) }

    public init(rate: Double, nearLevel: Double = -20) {
        self.rate = rate
        frames = Int(14 * rate)
        let dbfs = { (db: Double) in pow(10, db / 20) }
        var far = [Float](repeating: 0, count: frames)
        room_speech_like(&far, Int64(frames), rate, 0xD0B1_FA12, dbfs(-20))
        var near = [Float](repeating: 0, count: frames)
        room_speech_like(&near, Int64(frames), rate, 0xD0B1_0E12, dbfs(nearLevel))
        for i in 0..<frames where i < Int(4 * rate) || i >= Int(12 * rate) { near[i] = 0 }
        let taps = Int(0.3 * rate)
        var rir = [Float](repeating: 0, count: taps)
        room_impulse_response(&rir, Int64(taps), rate, 0.3, 0xD0B1_0A11, 0.5)
        var mic = [Float](repeating: 0, count: frames)
        room_convolve_add(far, Int64(frames), rir, Int64(taps), Int64(0.030 * rate), &mic)
        var noise = [Float](repeating: 0, count: frames)
        room_noise(&noise, Int64(frames), rate, 0xD0B1_0015, dbfs(-60))
        for i in 0..<frames { mic[i] += near[i] + noise[i] }
        farEnd = far
        nearEnd = near
        microphone = mic
    }
}
