import Foundation

/// Writes interleaved 16-bit samples as an AIFF file (big-endian; the rate as an 80-bit extended).
func writeInt16AIFF(_ samples: [Int16], channels: Int, rate: Int, to path: String) {
    func be(_ value: Int, _ width: Int) -> [UInt8] { (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    let exponent = Int(log2(Double(rate)))
    let mantissa = UInt64(rate) << UInt64(63 - exponent)
    let extended = be(16_383 + exponent, 2) + (0..<8).reversed().map { UInt8(truncatingIfNeeded: mantissa >> UInt64(8 * $0)) }
    let comm = Array("COMM".utf8) + be(18, 4) + be(channels, 2) + be(samples.count / channels, 4) + be(16, 2) + extended
    let data = samples.flatMap { be(Int($0), 2) }
    let ssnd = Array("SSND".utf8) + be(8 + data.count, 4) + be(0, 4) + be(0, 4) + data
    _ = FileManager.default.createFile(
        atPath: path, contents: Data(Array("FORM".utf8) + be(4 + comm.count + ssnd.count, 4) + Array("AIFF".utf8) + comm + ssnd))
}

/// Seed 002's listing 2-17 (System Sound Services), run exactly as written.
let systemSoundExamples: [Example] = [
    Example(name: "system-sound-listing") { workspace in
        // The listing plays on the default device: here a file PCM of its own.
        let asoundrc = workspace.path(".asoundrc")
        let text = try String(contentsOfFile: asoundrc, encoding: .utf8)
        try (text + "\npcm.!default { type file slave.pcm \"null\" file \"\(workspace.path("default.raw"))\" format \"raw\" }\n")
            .write(toFile: asoundrc, atomically: true, encoding: .utf8)
        // Its sound, 0.5 s of 16-bit stereo at 48 kHz, where the listing looks: ../../ComedyHorns.aif.
        let frames = 24_000
        writeInt16AIFF(int16Signal(frames), channels: 2, rate: 48_000, to: workspace.path("ComedyHorns.aif"))
        try FileManager.default.createDirectory(atPath: workspace.path("listing/run"), withIntermediateDirectories: true)
        let output = try workspace.run("system-sound-listing", [], in: "listing/run")
        guard try printedInt(output, "dispose-calls") == 1, try printedInt(output, "run-loop-stops") == 1 else {
            throw CheckFailure("the completion callback ran \(printedValues(output)["dispose-calls"] ?? "?") times, once expected")
        }
        let received = workspace.readFloats("default.raw")
        let expected = interleaved(frames)
        if let difference = firstDifference(received, from: 0, expected) { throw CheckFailure(difference) }
        guard received.dropFirst(expected.count).allSatisfy({ $0 == 0 }) else {
            throw CheckFailure("something other than silence followed")
        }
        return "the completion ran once (one dispose, one CFRunLoopStop) and CFRunLoopRun returned; the default device "
            + "received the AIFF's \(frames) frames exactly, then silence"
    }
]
