import AudioToolbox
import Foundation
import XCTest

/// Test files made once per run with the Debian encoders (scripts/debian-packages.txt "Tests:"):
/// a 1-second stereo 44.1 kHz signal (two sines) in every container the stream parser reads.
enum StreamFixtures {
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-stream-fixtures-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// name → file contents; built on first use.
    nonisolated(unsafe) static var cache: [String: [UInt8]] = [:]
    /// Recursive: a fixture may be made from another (caf-flac from flac).
    static let lock = NSRecursiveLock()

    /// The fixture `name` (wav16, wav24, wavf32, aiff, aifc-sowt, caf, mp3, flac, flac24, ogg-vorbis, ogg-opus).
    static func file(_ name: String) throws -> [UInt8] {
        try lock.withLock {
            if let bytes = cache[name] { return bytes }
            let bytes = try make(name)
            cache[name] = bytes
            return bytes
        }
    }

    static let all = [
        "wav16", "wav24", "wavf32", "aiff", "aifc-sowt", "caf", "caf-flac", "mp3", "flac", "flac24", "ogg-vorbis", "ogg-opus",
    ]

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private static func make(_ name: String) throws -> [UInt8] {
        let source = path("source.wav")
        if !FileManager.default.fileExists(atPath: source) {
            try run(
                "sox", "-R", "-n", "-r", "44100", "-c", "2", "-b", "16", source, "synth", "1", "sine", "441", "sine", "1000", "vol", "0.5")
        }
        let source24 = path("source24.wav")
        if name == "flac24" || name == "wav24", !FileManager.default.fileExists(atPath: source24) {
            try run(
                "sox", "-R", "-n", "-r", "48000", "-c", "2", "-b", "24", source24, "synth", "0.7", "sine", "441", "sine", "1000", "vol",
                "0.5")
        }
        let out = path(name)
        switch name {
        case "wav16": return try read(source)
        case "wav24": return try read(source24)
        case "wavf32": try run("sox", source, "-e", "floating-point", "-b", "32", out + ".wav")
        case "aiff": try run("sox", source, out + ".aiff")
        case "aifc-sowt": return try sowtAIFC(from: read(source))
        case "caf-flac": return try flacCAF(packetTableFirst: true)
        case "caf": try run("sox", source, out + ".caf")
        case "mp3": try run("lame", "--quiet", "-b", "128", source, out + ".mp3")
        case "flac": try run("flac", "--silent", "-f", "-o", out + ".flac", source)
        case "flac24": try run("flac", "--silent", "-f", "-o", out + ".flac", source24)
        case "ogg-vorbis": try run("oggenc", "--quiet", "-o", out + ".ogg", source)
        case "ogg-opus": try run("opusenc", "--quiet", source, out + ".opus")
        default: throw XCTSkip("no fixture \(name)")
        }
        let made = try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasPrefix(name + ".") }
        return try read(directory.appendingPathComponent(try XCTUnwrap(made)).path)
    }

    static func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func run(_ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw XCTSkip("\(arguments[0]) failed (status \(process.terminationStatus)); install it (scripts/debian-packages.txt)")
        }
    }

    /// The frames of a canonical 44-byte-header 16-bit WAV (the PCM bytes after "data").
    static func wavData(_ wav: [UInt8]) -> [UInt8] {
        var i = 12
        while i + 8 <= wav.count {
            let size = Int(wav[i + 4]) | Int(wav[i + 5]) << 8 | Int(wav[i + 6]) << 16 | Int(wav[i + 7]) << 24
            if wav[i..<(i + 4)].elementsEqual("data".utf8) { return Array(wav[(i + 8)..<min(i + 8 + size, wav.count)]) }
            i += 8 + size + (size & 1)
        }
        return []
    }

    /// An AIFC file with 'sowt' (little-endian) samples, written here (sox does not write them).
    static func sowtAIFC(from wav: [UInt8]) -> [UInt8] {
        let pcm = wavData(wav)
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 255), UInt8(v & 255)] }
        // 44100 as an 80-bit extended float.
        let rate: [UInt8] = [0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0]
        let name: [UInt8] = [4] + Array("sowt".utf8) + [0]  // Pascal string, padded to even
        let common = be16(2) + be32(pcm.count / 4) + be16(16) + rate + Array("sowt".utf8) + name
        var body = Array("AIFC".utf8)
        body += Array("FVER".utf8) + be32(4) + be32(0xA280_5140)
        body += Array("COMM".utf8) + be32(common.count) + common
        body += Array("SSND".utf8) + be32(pcm.count + 8) + be32(0) + be32(0) + pcm
        return Array("FORM".utf8) + be32(body.count) + body
    }

    /// The FLAC fixture's frames in a CAF file (desc, kuki, pakt, data), written here: variable-size
    /// packets, so the packet table must come before the data for streaming (or after: a file
    /// that cannot be streamed, kAudioFileStreamError_NotOptimized).
    static func flacCAF(packetTableFirst: Bool) throws -> [UInt8] {
        let flac = try file("flac")
        let record = try parse(flac)
        let format = try XCTUnwrap(record.properties.dataFormat)
        func be(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] { Array(id.utf8) + be(UInt64(body.count), 8) + body }
        func varint(_ v: UInt32) -> [UInt8] {
            var groups = [UInt8(v & 0x7F)]
            var rest = v >> 7
            while rest > 0 { groups.insert(UInt8(rest & 0x7F) | 0x80, at: 0); rest >>= 7 }
            return groups
        }
        let desc =
            be(format.mSampleRate.bitPattern, 8) + be(UInt64(kAudioFormatFLAC), 4) + be(1, 4) + be(0, 4)
            + be(4_096, 4) + be(2, 4) + be(0, 4)
        let packets = UInt64(record.packetSizes.count)
        let table = be(packets, 8) + be(44_100, 8) + be(0, 4) + be(packets * 4_096 - 44_100, 4) + record.packetSizes.flatMap(varint)
        let data = chunk("data", be(0, 4) + record.bytes)
        let head = Array("caff".utf8) + be(1, 2) + be(0, 2) + chunk("desc", desc) + chunk("kuki", record.properties.magicCookie ?? [])
        return packetTableFirst ? head + chunk("pakt", table) + data : head + data + chunk("pakt", table)
    }
}
