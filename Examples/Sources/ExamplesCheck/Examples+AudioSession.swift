import Foundation

/// Seed 002's listing 2-10 (is audio input available?), run against a default device with a
/// capture side and against one without.
let audioSessionExamples: [Example] = [
    Example(name: "audio-session-listing") { workspace in
        workspace.writeFloats([], to: "in.raw")  // the capture PCM's input file must exist for it to open
        let asoundrc = workspace.path(".asoundrc")
        let base = try String(contentsOfFile: asoundrc, encoding: .utf8)
        func available(defaultPCM: String) throws -> Int {
            try (base + "\npcm.!default \(defaultPCM)\n").write(toFile: asoundrc, atomically: true, encoding: .utf8)
            return try printedInt(try workspace.run("audio-session-listing", []), "audio-input-available")
        }
        let withCapture = try available(defaultPCM: "{ type asym playback.pcm \"example_out\" capture.pcm \"example_in\" }")
        let playbackOnly = try available(defaultPCM: "{ type asym playback.pcm \"example_out\" }")
        guard withCapture == 1, playbackOnly == 0 else {
            throw CheckFailure(
                "audio input available: \(withCapture) with a capture device (1 expected), \(playbackOnly) without (0 expected)")
        }
        return "listing 2-10: AudioInputAvailable is 1 with a capture device as default, 0 with a playback-only default"
    }
]
