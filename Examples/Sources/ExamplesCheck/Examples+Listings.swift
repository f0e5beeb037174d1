import Foundation

/// Checks of listings 2-1 … 2-8 (guide-listings).
let listingExamples: [Example] = [
    Example(name: "guide-listings") { workspace in
        let output = try workspace.run("guide-listings", ["example_out", "8192", workspace.path("direct.raw")])
        // 2-1: the granted rate is what was asked (the file PCM grants any rate).
        guard printedValues(output)["granted-rate"] == "44100" else {
            throw CheckFailure("granted rate \(printedValues(output)["granted-rate"] ?? "?"), 44100 asked")
        }
        guard printedValues(output)["updated"] == "1" else { throw CheckFailure("AUGraphUpdate did not report the update") }
        // 2-8: the printed ASBD is the canonical stereo format at 44.1 kHz.
        let expectedASBD = [
            "Sample Rate:": "44100", "Format ID:": "lpcm", "Format Flags:": "29", "Bytes per Packet:": "4",
            "Frames per Packet:": "1", "Bytes per Frame:": "4", "Channels per Frame:": "2", "Bits per Channel:": "32",
        ]
        for (label, value) in expectedASBD {
            guard let line = output.split(separator: "\n").first(where: { $0.contains(label) }),
                line.split(separator: " ").last.map(String.init) == value
            else { throw CheckFailure("printASBD: '\(label)' is not \(value)") }
        }
        // 2-3/2-5/2-7 then 2-4: the output is input 0 alone, then from one frame on input 0 + input 1.
        let played = workspace.readFloats("out.raw"), frames = played.count / 2
        var switchFrame: Int?
        for f in 0..<frames {
            let alone = (0..<2).allSatisfy { played[2 * f + $0] == signal(f, $0) }
            let both = (0..<2).allSatisfy { played[2 * f + $0] == signal(f, $0) + signal2(f, $0) }
            if !alone && !both { throw CheckFailure("output frame \(f) is neither input 0 nor input 0 + input 1") }
            if switchFrame == nil && both && !alone { switchFrame = f }
            if let s = switchFrame, f > s, !both { throw CheckFailure("input 1 disappeared at frame \(f) after joining at \(s)") }
        }
        guard let joined = switchFrame, joined >= 4096, frames - joined >= 8192 - 1024 else {
            throw CheckFailure(
                "input 1 joined at frame \(switchFrame.map(String.init) ?? "never") of \(frames); expected after 4096 with ≥ 7168 after")
        }
        // 2-6: the directly connected mixer (volume 0.5) into the generic output.
        if let difference = firstDifference(workspace.readFloats("direct.raw"), from: 0, interleaved(1024).map { $0 * 0.5 }) {
            throw CheckFailure("direct connection: " + difference)
        }
        return "granted rate read back; output = input 0 exactly until frame \(joined), input 0 + input 1 after (attached while running); "
            + "MakeConnection pull = signal x 0.5; printASBD fields"
    }
]
