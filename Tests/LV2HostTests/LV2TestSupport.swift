import Foundation
import LV2Host
import XCTest

/// Shared helpers: the installed world (loaded once), fixture bundles, float WAV files.
enum LV2TestSupport {
    nonisolated(unsafe) static let world = LV2World()

    /// Builds the broken fixture bundles once (scripts/build-lv2-fixtures.sh) and returns their directory.
    static let fixtureDirectory: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("lv2host-fixtures-\(getpid())").path
        let process = Process()
        process.executableURL = root.appendingPathComponent("scripts/build-lv2-fixtures.sh")
        process.arguments = [output]
        process.standardOutput = FileHandle.nullDevice
        try! process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "building the LV2 fixtures failed")
        return output
    }()

    nonisolated(unsafe) static let fixtureWorld = LV2World(lv2Path: fixtureDirectory)

    /// Writes mono 32-bit float WAV.
    static func writeFloatWAV(_ samples: [Float], sampleRate: Int, to path: String) throws {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + samples.count * 4))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(3)); append(UInt16(1))
        append(UInt32(sampleRate)); append(UInt32(sampleRate * 4)); append(UInt16(4)); append(UInt16(32))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(samples.count * 4))
        for sample in samples { append(sample.bitPattern) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Reads the samples of a mono 32-bit float WAV (walks the chunks to "data").
    static func readFloatWAV(_ path: String) throws -> [Float] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(u32(offset + 4))
            if id == "fmt " {
                XCTAssertEqual(Int(bytes[offset + 8]) | Int(bytes[offset + 9]) << 8, 3, "expected IEEE float WAV")
            }
            if id == "data" {
                return stride(from: offset + 8, to: offset + 8 + size, by: 4).map { Float(bitPattern: u32($0)) }
            }
            offset += 8 + size + (size & 1)
        }
        throw NSError(domain: "wav", code: 1, userInfo: [NSLocalizedDescriptionKey: "no data chunk in \(path)"])
    }

    /// Renders `input` (one array per audio input) through an instance in blocks of `block` frames.
    static func render(_ instance: LV2Instance, inputs: [[Float]], frames: Int, block: Int) -> [[Float]] {
        var outputs = [[Float]](repeating: [], count: instance.audioOutputCount)
        var position = 0
        while position < frames {
            let count = min(block, frames - position)
            for (i, input) in inputs.enumerated() {
                let buffer = instance.audioInput(i)
                for frame in 0..<count { buffer[frame] = input[position + frame] }
            }
            XCTAssertEqual(instance.run(frames: count), .ok)
            for o in 0..<outputs.count { outputs[o] += UnsafeBufferPointer(start: instance.audioOutput(o), count: count) }
            position += count
        }
        return outputs
    }

    static func noise(_ count: Int, seed: UInt32) -> [Float] {
        var generator = NoiseGenerator(seed: seed)
        return (0..<count).map { _ in generator.next() * 0.5 }
    }
}
