/// The examples' test signals, written again here (not shared with the examples) so that the
/// expectation does not come from the code under test. Multiples of 1/1024 and 1/512: sums and
/// power-of-two gains are exact in Float32.
func signal(_ frame: Int, _ channel: Int) -> Float {
    Float((frame * 37 + channel * 500) % 1001 - 500) / 1024
}

func signal2(_ frame: Int, _ channel: Int) -> Float {
    Float((frame * 11 + channel * 300) % 499 - 249) / 512
}

/// `frames` interleaved stereo frames of `signal`, starting at frame `start`.
func interleaved(_ frames: Int, start: Int = 0, _ generator: (Int, Int) -> Float = signal) -> [Float] {
    (start..<start + frames).flatMap { f in [generator(f, 0), generator(f, 1)] }
}

/// Compares `actual[from...]` with `expected`; nil when equal, else a sentence naming the first
/// difference.
func firstDifference(_ actual: [Float], from offset: Int, _ expected: [Float], channels: Int = 2) -> String? {
    guard actual.count >= offset + expected.count else {
        return "the output holds \((actual.count - offset) / channels) frames after the offset, \(expected.count / channels) expected"
    }
    for i in expected.indices where actual[offset + i] != expected[i] {
        return "frame \(i / channels) channel \(i % channels) is \(actual[offset + i]), expected \(expected[i])"
    }
    return nil
}
