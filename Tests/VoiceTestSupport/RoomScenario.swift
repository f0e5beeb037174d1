import Foundation
import RoomSimulation

/// The simulated room of issue 18's bars: a far-end talker heard through a room (0.3 s RT60, 30 ms
/// of acoustic delay) plus a near-end talker and background noise, as the microphone hears them.
///
/// Timeline (seconds): 0–6 far end only (0–2 convergence), 6–10 near end only, 10–12 both,
/// 12–14 far end only. Levels (RMS while a syllable is on): far end −20 dBFS, echo about −26 dBFS
/// (room gain 0.5), near end −26 dBFS, noise −60 dBFS.
public struct RoomScenario {
    public let rate: Double
    public let frames: Int
    /// What the loudspeaker plays (the reference).
    public let farEnd: [Float]
    /// The near-end talker alone.
    public let nearEnd: [Float]
    /// The echo alone (far end through the room).
    public let echo: [Float]
    /// echo + near end + noise.
    public let microphone: [Float]

    /// Segments the bars measure, in frames.
    public var farOnly: [Range<Int>] { [seconds(2, 6), seconds(12, 14)] }
    /// Near end only, from 0.5 s after the far end stopped (the room's tail has decayed by then).
    public var nearOnly: Range<Int> { seconds(6.5, 10) }
    public var doubleTalk: Range<Int> { seconds(10, 12) }

    public func seconds(_ a: Double, _ b: Double) -> Range<Int> { Int(a * rate)..<Int(b * rate) }

    /// The scenario at `rate`; `playbackDelay` frames of silence precede what the loudspeaker
    /// plays (a device's duplex latency: the echo of far-end frame r reaches the microphone at
    /// r + playbackDelay + acoustic delay).
    public init(rate: Double = 48_000, acousticDelay: Double = 0.030, rt60: Double = 0.3, playbackDelay: Int = 0) {
        self.rate = rate
        frames = Int(14 * rate)
        let dbfs = { (db: Double) in pow(10, db / 20) }
        var far = [Float](repeating: 0, count: frames)
        room_speech_like(&far, Int64(frames), rate, 0x5EED_FA12, dbfs(-20))
        var near = [Float](repeating: 0, count: frames)
        room_speech_like(&near, Int64(frames), rate, 0x5EED_0E12, dbfs(-26))
        let n = frames
        func silence(_ signal: inout [Float], _ from: Double, _ to: Double) {
            for i in Int(from * rate)..<min(n, Int(to * rate)) { signal[i] = 0 }
        }
        silence(&far, 6, 10)
        silence(&near, 0, 6)
        silence(&near, 12, 14)
        let taps = Int(rt60 * rate)
        var rir = [Float](repeating: 0, count: taps)
        room_impulse_response(&rir, Int64(taps), rate, rt60, 0x5EED_0A11, 0.5)
        var echo = [Float](repeating: 0, count: frames)
        room_convolve_add(far, Int64(frames), rir, Int64(taps), Int64(acousticDelay * rate) + Int64(playbackDelay), &echo)
        var noise = [Float](repeating: 0, count: frames)
        room_noise(&noise, Int64(frames), rate, 0x5EED_0015, dbfs(-60))
        farEnd = far
        nearEnd = near
        self.echo = echo
        microphone = (0..<frames).map { echo[$0] + near[$0] + noise[$0] }
    }
}

/// 10 log10(Σ a² / Σ b²) over `range`, with b read `lag` frames later.
public func powerRatioDecibels(_ a: [Float], _ b: [Float], _ range: Range<Int>, lag: Int) -> Double {
    var pa = 0.0, pb = 0.0
    for i in range where i + lag < b.count {
        pa += Double(a[i]) * Double(a[i])
        pb += Double(b[i + lag]) * Double(b[i + lag])
    }
    return 10 * log10(pa / max(pb, 1e-30))
}

/// Pearson correlation of a[i] and b[i + lag] over `range`.
public func correlation(_ a: [Float], _ b: [Float], _ range: Range<Int>, lag: Int) -> Double {
    var sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0, n = 0.0
    for i in range where i + lag < b.count && i + lag >= 0 {
        let x = Double(a[i]), y = Double(b[i + lag])
        sa += x; sb += y; saa += x * x; sbb += y * y; sab += x * y; n += 1
    }
    let cov = sab - sa * sb / n
    let va = saa - sa * sa / n, vb = sbb - sb * sb / n
    return cov / max((va * vb).squareRoot(), 1e-30)
}

/// The lag in `lags` where `correlation` peaks, and the peak.
public func bestCorrelation(_ a: [Float], _ b: [Float], _ range: Range<Int>, lags: ClosedRange<Int>) -> (lag: Int, r: Double) {
    var best = (lag: lags.lowerBound, r: -2.0)
    for lag in lags {
        let r = correlation(a, b, range, lag: lag)
        if r > best.r { best = (lag, r) }
    }
    return best
}
