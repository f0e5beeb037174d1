import Foundation

/// Checks of the blog's RemoteIO setup (seed 004) and AVCaptureToAudioUnit (seed 003).
let seedExamples: [Example] = [
    Example(name: "remoteio-blog unit") { workspace in
        let frames = 4096
        let input = interleaved(frames + 64 * 64)
        workspace.writeFloats(input, to: "in.raw")
        let latency = try printedInt(try workspace.run("remoteio-blog", ["unit", "example_duplex", "\(frames)"]), "latency")
        let played = workspace.readFloats("out.raw")
        if played.prefix(latency * 2).contains(where: { $0 != 0 }) { throw CheckFailure("the leading offset is not silence") }
        if let difference = firstDifference(played, from: latency * 2, Array(input.prefix(frames * 2))) { throw CheckFailure(difference) }
        return
            "record callback (ShouldAllocateBuffer 0) -> playback callback: playback = capture exactly, \(frames) frames after \(latency) frames latency"
    },
    Example(name: "remoteio-blog graph") { workspace in
        let frames = 4096
        let input = interleaved(frames + 64 * 64)
        workspace.writeFloats(input, to: "in.raw")
        let latency = try printedInt(try workspace.run("remoteio-blog", ["graph", "example_duplex", "\(frames)"]), "latency")
        let played = workspace.readFloats("out.raw")
        if played.prefix(latency * 2).contains(where: { $0 != 0 }) { throw CheckFailure("the leading offset is not silence") }
        let expected = (0..<frames).flatMap { f in (0..<2).map { c in input[2 * f + c] + signal2(f, c) } }
        if let difference = firstDifference(played, from: latency * 2, expected) { throw CheckFailure(difference) }
        return
            "mixer bus 0 (recorded) + bus 1 (beats): playback = capture + beats exactly, \(frames) frames after \(latency) frames latency"
    },
    Example(name: "capture-to-audio-unit") { workspace in
        let frames = 8192, delay = 480  // 0.01 s at 48 kHz
        let input = interleaved(frames + 64 * 256)
        workspace.writeFloats(input, to: "in.raw")
        let written = try printedInt(
            try workspace.run("capture-to-audio-unit", ["example_in", "\(frames)", "0.01", workspace.path("delayed.wav")]),
            "written")
        let (channels, samples) = try readFloatWAV(workspace.path("delayed.wav"))
        guard channels == 2, samples.count == written * 2, written >= frames else {
            throw CheckFailure(
                "the file holds \(samples.count / max(channels, 1)) frames of \(channels) channels; \(written) stereo expected")
        }
        // Wet 100 %, feedback 0: the output is the capture delayed by round(0.01 s x 48 kHz) frames.
        var worst: Float = 0
        for i in samples.indices {
            let source = i - delay * 2
            worst = max(worst, abs(samples[i] - (source >= 0 ? input[source] : 0)))
        }
        guard worst <= 1e-6 else { throw CheckFailure("the file differs from the capture delayed by \(delay) frames by up to \(worst)") }
        return
            "file (ExtAudioFileWriteAsync) = captured audio delayed \(delay) frames by the delay unit within 1e-6 (worst \(worst)), \(written) frames"
    },
]
