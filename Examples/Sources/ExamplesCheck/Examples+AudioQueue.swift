import Foundation

/// Caps the files the examples write at 512 MiB (inherited by the programs this checker runs):
/// `null` is unpaced, so a queue that failed to stop would otherwise fill the disk in seconds.
func limitFileSizes() {
    signal(SIGXFSZ, SIG_IGN)
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
    limit.rlim_cur = min(limit.rlim_cur, 512 << 20)
    setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
}

/// Writes interleaved 16-bit little-endian PCM as a WAV file (the players' input).
func writeInt16WAV(_ samples: [Int16], channels: Int, rate: Int, to path: String) {
    func le(_ value: Int, _ width: Int) -> [UInt8] { (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    let data = samples.withUnsafeBytes { Array($0) }
    var bytes = Array("RIFF".utf8) + le(36 + data.count, 4) + Array("WAVE".utf8)
    bytes += Array("fmt ".utf8) + le(16, 4) + le(1, 2) + le(channels, 2) + le(rate, 4) + le(rate * channels * 2, 4)
    bytes += le(channels * 2, 2) + le(16, 2) + Array("data".utf8) + le(data.count, 4) + data
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
}

/// The 16-bit samples of a PCM WAV file, parsed here rather than through AUHost.
func readInt16WAV(_ path: String) throws -> (channels: Int, samples: [Int16]) {
    guard let data = FileManager.default.contents(atPath: path), data.count >= 12 else { throw CheckFailure("\(path) is missing") }
    let bytes = [UInt8](data)
    func le(_ at: Int, _ width: Int) -> Int { (0..<width).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
    var at = 12, channels = 0, bits = 0
    while at + 8 <= bytes.count {
        let id = String(decoding: bytes[at..<at + 4], as: UTF8.self), size = le(at + 4, 4), body = at + 8
        if id == "fmt " { channels = le(body + 2, 2); bits = le(body + 14, 2) }
        if id == "data" {
            guard bits == 16 else { throw CheckFailure("\(path) holds \(bits)-bit samples, 16-bit expected") }
            let end = min(body + size, bytes.count)
            return (channels, Array(bytes[body..<end]).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) })
        }
        at = body + size + (size & 1)
    }
    throw CheckFailure("\(path) has no data chunk")
}

/// The examples' signal (multiples of 1/1024, so exact in 16 bits) as 16-bit samples.
func int16Signal(_ frames: Int) -> [Int16] { interleaved(frames).map { Int16($0 * 32_768) } }

/// Checks a player: the device received the file's samples × volume exactly, then only silence.
/// The file (0.9 s) fits the three primed buffers: `example_out` runs over the unpaced `null`
/// PCM, which would drain a queue faster than any callback refills it (a real device keeps time).
func checkPlayback(_ workspace: Workspace, program: String, arguments: [String], frames: Int, volume: Float) throws -> String {
    limitFileSizes()
    let output = try workspace.run(program, arguments)
    let played = try printedInt(output, "played")
    guard played == frames else { throw CheckFailure("played \(played) packets, \(frames) expected") }
    let received = workspace.readFloats("out.raw")
    let expected = interleaved(frames).map { $0 * volume }
    guard received.count >= expected.count else {
        throw CheckFailure("the device received \(received.count / 2) frames, \(frames) expected")
    }
    if let difference = firstDifference(Array(received.prefix(expected.count)), from: 0, expected) { throw CheckFailure(difference) }
    guard received.dropFirst(expected.count).allSatisfy({ $0 == 0 }) else { throw CheckFailure("something other than silence followed") }
    return "three-buffer playback of a 16-bit WAV = file × \(volume) for all \(frames) frames, then silence; Stop(false) ended it"
}

/// Checks a recorder: the WAV it wrote holds the capture input exactly (the input, 1.2 s, fits
/// the three 0.5 s buffers: the unpaced capture PCM outruns any callback).
func checkRecording(_ workspace: Workspace, program: String, arguments: (String) -> [String], frames: Int) throws -> String {
    limitFileSizes()
    let input = interleaved(frames + 4_800)
    workspace.writeFloats(input, to: "in.raw")
    let output = try workspace.run(program, arguments(workspace.path("rec.wav")))
    let recorded = try printedInt(output, "recorded")
    guard recorded >= frames else { throw CheckFailure("recorded \(recorded) frames, at least \(frames) expected") }
    let (channels, samples) = try readInt16WAV(workspace.path("rec.wav"))
    guard channels == 2, samples.count == recorded * 2 else {
        throw CheckFailure("the file holds \(samples.count / max(channels, 1)) frames of \(channels) channels; \(recorded) stereo expected")
    }
    let asFloats = samples.prefix(frames * 2).map { Float($0) / 32_768 }
    if let difference = firstDifference(asFloats, from: 0, Array(input.prefix(frames * 2))) { throw CheckFailure(difference) }
    return "recording (AudioFileWritePackets from the input callback) = capture input for \(frames) frames, sample-exactly"
}

/// Seed 002's Audio Queue listings and the guide's play and record patterns, in C and Swift.
let audioQueueExamples: [Example] = [
    Example(name: "audio-queue-play") { workspace in
        writeInt16WAV(int16Signal(43_200), channels: 2, rate: 48_000, to: workspace.path("in.wav"))
        let summary = try checkPlayback(
            workspace, program: "audio-queue-play", arguments: [workspace.path("in.wav"), "example_out", "0.5"], frames: 43_200, volume: 0.5
        )
        let output = try workspace.run("audio-queue-play", [workspace.path("in.wav"), "example_out", "1"])
        let peak = interleaved(43_200).map(abs).max()!
        guard let printed = printedValues(output)["peak-db0"].flatMap(Double.init), abs(printed - 20 * log10(Double(peak))) < 0.01 else {
            throw CheckFailure(
                "listing 2-16's peak printed \(printedValues(output)["peak-db0"] ?? "nothing"), expected \(20 * log10(Double(peak))) dB")
        }
        return summary + "; listing 2-16's peak meter = max |signal| in dB"
    },
    Example(name: "audio-queue-record") { workspace in
        try checkRecording(workspace, program: "audio-queue-record", arguments: { ["example_in", "57600", $0] }, frames: 57_600)
    },
    Example(name: "audio-queue-swift play") { workspace in
        writeInt16WAV(int16Signal(43_200), channels: 2, rate: 48_000, to: workspace.path("in.wav"))
        return try checkPlayback(
            workspace, program: "audio-queue-swift", arguments: ["play", workspace.path("in.wav"), "example_out", "0.5"], frames: 43_200,
            volume: 0.5)
    },
    Example(name: "audio-queue-swift record") { workspace in
        try checkRecording(workspace, program: "audio-queue-swift", arguments: { ["record", "example_in", "57600", $0] }, frames: 57_600)
    },
]
