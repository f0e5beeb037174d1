import Foundation

/// Core MIDI from C: what the program's read procs and notify proc saw.
let coreMIDIExamples: [Example] = [
    Example(name: "core-midi-virtual") { workspace in
        let values = printedValues(try workspace.run("core-midi-virtual", []))
        let expected = [
            "packets": "2", "first-packet-bytes": "6", "send-status": "0", "received-status": "0", "destination-bytes": "9",
            "input-bytes": "9", "last-timestamp-offset": "1000", "destination-name": "example in", "unique-id-set": "1",
            "bad-client-status": "-10830",
        ]
        for (key, value) in expected where values[key] != value {
            throw CheckFailure("\(key): \(values[key] ?? "nothing") printed, \(value) expected")
        }
        guard let added = values["added-notifications"].flatMap(Int.init), added >= 2 else {
            throw CheckFailure("kMIDIMsgObjectAdded arrived \(values["added-notifications"] ?? "no") times on the run loop, 2 expected")
        }
        return "two same-time messages share a packet (6 bytes), a later one starts another; MIDISend reached the "
            + "virtual destination and MIDIReceived the connected input port (9 bytes each, timestamps kept); "
            + "ObjectAdded came on the run loop; a bad client answers kMIDIInvalidClient"
    }
]

/// OpenAL Soft's wave driver (no sound card) as the default device: a source placed left comes out
/// of the left channel, one placed right out of the right.
let openALExamples: [Example] = [
    Example(name: "openal-positional") { workspace in
        func channelLevels(x: String) throws -> (left: Double, right: Double, frames: Int) {
            let wav = workspace.path("openal-\(x).wav")
            let config = """
                [general]
                drivers = wave
                channels = stereo
                sample-type = float32
                frequency = 48000
                hrtf = false
                [wave]
                file = \(wav)
                """
            try config.write(toFile: workspace.path(".alsoftrc"), atomically: true, encoding: .utf8)
            _ = try workspace.run("openal-positional", [x])
            let (channels, samples) = try readFloatWAV(wav)
            guard channels == 2 else { throw CheckFailure("OpenAL wrote \(channels) channels, 2 expected") }
            func rms(_ channel: Int) -> Double {
                let values = stride(from: channel, to: samples.count, by: 2).map { Double(samples[$0]) }
                return (values.reduce(0) { $0 + $1 * $1 } / Double(max(values.count, 1))).squareRoot()
            }
            return (rms(0), rms(1), samples.count / 2)
        }
        let left = try channelLevels(x: "-1")
        let right = try channelLevels(x: "1")
        guard left.left > 0.1, left.left > 10 * left.right, right.right > 0.1, right.right > 10 * right.left,
            left.frames >= 24_000, right.frames >= 24_000
        else {
            throw CheckFailure(
                "levels (left, right): source at x = -1 gave (\(left.left), \(left.right)) over \(left.frames) frames, "
                    + "at x = 1 (\(right.left), \(right.right)) over \(right.frames); the source's side should be over 10x louder")
        }
        return String(
            format: "x = -1: left RMS %.3f, right %.3f; x = 1: left %.3f, right %.3f (OpenAL Soft, wave driver)", left.left, left.right,
            right.left, right.right)
    }
]
