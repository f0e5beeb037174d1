/// Beats to seconds and back through a tempo track: 120 BPM until the first tempo event, each
/// tempo holding until the next. Built off the render thread; an immutable value.
///
/// Thread: any (a value).
public struct TempoMap: Sendable {
    struct Segment {
        var beat: Double
        var seconds: Double
        var secondsPerBeat: Double
    }
    let segments: [Segment]

    /// The default tempo of a sequence and of a Standard MIDI File without tempo events.
    public static let defaultBPM = 120.0

    /// `tempos`: (beat, BPM) sorted by beat; at one beat the last one counts.
    init(tempos: [(beat: Double, bpm: Double)]) {
        var segments = [Segment(beat: 0, seconds: 0, secondsPerBeat: 60 / TempoMap.defaultBPM)]
        for (beat, bpm) in tempos {
            let b = max(beat, 0)
            let last = segments[segments.count - 1]
            if b == last.beat {
                segments[segments.count - 1].secondsPerBeat = 60 / bpm
            } else {
                segments.append(Segment(beat: b, seconds: last.seconds + (b - last.beat) * last.secondsPerBeat, secondsPerBeat: 60 / bpm))
            }
        }
        self.segments = segments
    }

    /// The segment holding `beat` (the first one for negative beats).
    private func segment(beat: Double) -> Segment {
        var lo = 0, hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].beat <= beat { lo = mid } else { hi = mid - 1 }
        }
        return segments[lo]
    }

    public func seconds(forBeats beats: Double) -> Double {
        let s = segment(beat: beats)
        return s.seconds + (beats - s.beat) * s.secondsPerBeat
    }

    public func beats(forSeconds seconds: Double) -> Double {
        var lo = 0, hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].seconds <= seconds { lo = mid } else { hi = mid - 1 }
        }
        let s = segments[lo]
        return s.beat + (seconds - s.seconds) / s.secondsPerBeat
    }
}
