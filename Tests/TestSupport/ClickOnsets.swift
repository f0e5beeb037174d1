/// Where each click of a metronome-like signal begins: the first non-zero sample after at least
/// `gap` silent ones (the start of the signal counts as silence).
///
/// Thread: any.
public func clickOnsets(_ samples: [Float], gap: Int = 1_000) -> [Int] {
    var onsets: [Int] = []
    var silent = gap
    for (i, x) in samples.enumerated() {
        if x == 0 {
            silent += 1
        } else {
            if silent >= gap { onsets.append(i) }
            silent = 0
        }
    }
    return onsets
}
