/// Checks of the I/O patterns 1-3 (full duplex through the file PCMs).
let ioExamples: [Example] = [
    Example(name: "io-passthrough") { workspace in
        let frames = 4096
        let input = interleaved(frames + 64 * 64)
        workspace.writeFloats(input, to: "in.raw")
        let output = try workspace.run("io-passthrough", ["example_duplex", "\(frames)"])
        let latency = try printedInt(output, "latency")
        let played = workspace.readFloats("out.raw")
        if played.prefix(latency * 2).contains(where: { $0 != 0 }) {
            throw CheckFailure("the \(latency)-frame leading offset is not silence")
        }
        if let difference = firstDifference(played, from: latency * 2, Array(input.prefix(frames * 2))) { throw CheckFailure(difference) }
        return "playback file = capture file sample-exactly for \(frames) frames after \(latency) frames of documented duplex latency"
    },
    Example(name: "io-mixer") { workspace in
        try checkDuplex(
            workspace, "io-mixer", gain: 0.5,
            "playback = capture x 0.5 (mixer input volume) sample-exactly for %d frames after %d frames of duplex latency")
    },
    Example(name: "io-render-callback") { workspace in
        try checkDuplex(
            workspace, "io-render-callback", gain: 0.25,
            "playback = capture x 0.25 (the callback's volume) sample-exactly for %d frames after %d frames of duplex latency")
    },
]

/// Runs a full-duplex example over example_duplex and checks playback = capture x gain after the
/// latency the example read from kAUHostALSAProperty_DuplexLatencyFrames (leading silence).
func checkDuplex(_ workspace: Workspace, _ program: String, gain: Float, _ summary: String) throws -> String {
    let frames = 4096
    let input = interleaved(frames + 64 * 64)
    workspace.writeFloats(input, to: "in.raw")
    let output = try workspace.run(program, ["example_duplex", "\(frames)"])
    let latency = try printedInt(output, "latency")
    let played = workspace.readFloats("out.raw")
    if played.prefix(latency * 2).contains(where: { $0 != 0 }) { throw CheckFailure("the \(latency)-frame leading offset is not silence") }
    if let difference = firstDifference(played, from: latency * 2, input.prefix(frames * 2).map { $0 * gain }) {
        throw CheckFailure(difference)
    }
    return String(format: summary, frames, latency)
}
