import Foundation

/// Checks of pattern 5: input-only recording/analysis and offline rendering.
let pattern5Examples: [Example] = [
    Example(name: "input-analysis") { workspace in
        let frames = 4096
        let input = interleaved(frames + 64 * 256)
        workspace.writeFloats(input, to: "in.raw")
        let output = try workspace.run("input-analysis", ["example_in", "\(frames)", workspace.path("rec.wav")])
        let recorded = try printedInt(output, "recorded")
        let (channels, samples) = try readFloatWAV(workspace.path("rec.wav"))
        guard channels == 2, samples.count == recorded * 2 else {
            throw CheckFailure(
                "the recording holds \(samples.count / max(channels, 1)) frames of \(channels) channels; \(recorded) stereo expected")
        }
        if let difference = firstDifference(samples, from: 0, Array(input.prefix(recorded * 2))) {
            throw CheckFailure("recording: " + difference)
        }
        for c in 0..<2 {
            let peak = stride(from: c, to: recorded * 2, by: 2).map { abs(input[$0]) }.max()!
            guard let printed = printedValues(output)["peak\(c)"].flatMap(Float.init), printed == peak else {
                throw CheckFailure("channel \(c)'s peak printed \(printedValues(output)["peak\(c)"] ?? "nothing"), expected \(peak)")
            }
        }
        return "recording (ExtAudioFileWriteAsync) = capture file for all \(recorded) frames; analysed peaks = max |input| per channel"
    },
    Example(name: "offline-render") { workspace in
        let frames = 48_000 + 123
        _ = try workspace.run("offline-render", ["\(frames)", workspace.path("offline.wav")])
        let (channels, samples) = try readFloatWAV(workspace.path("offline.wav"))
        guard channels == 2 else { throw CheckFailure("the file has \(channels) channels, 2 expected") }
        if samples.count != frames * 2 { throw CheckFailure("the file holds \(samples.count / 2) frames, \(frames) expected") }
        if let difference = firstDifference(samples, from: 0, interleaved(frames).map { $0 * 0.25 }) { throw CheckFailure(difference) }
        return "generic-output pull of \(frames) frames = signal x 0.25 (mixer input volume), sample-exactly"
    },
]
