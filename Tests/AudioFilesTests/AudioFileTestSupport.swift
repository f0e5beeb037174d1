import Foundation
import XCTest
import AudioFiles
import AudioToolbox

/// A fresh temporary directory per test case, removed afterwards.
func makeTemporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "audiofiles-\(getpid())-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

extension AudioFile {
    /// Writes `channels` (equal lengths) in one call.
    func write(_ channels: [[Float]]) throws {
        let pointers = channels.map { c -> UnsafePointer<Float> in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: max(c.count, 1))
            p.initialize(from: c, count: c.count)
            return UnsafePointer(p)
        }
        defer { pointers.forEach { $0.deallocate() } }
        try write(from: pointers, frameCount: channels[0].count)
    }

    /// Reads up to `frames` frames from the current position.
    func read(frames: Int) throws -> [[Float]] {
        let pointers = (0..<channelCount).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1)) }
        defer { pointers.forEach { $0.deallocate() } }
        let got = try read(into: pointers, frameCount: frames)
        return pointers.map { Array(UnsafeBufferPointer(start: $0, count: got)) }
    }
}

/// Asserts that `body` throws an AudioFileError with `status` whose message names `path`.
func assertAudioFileError(
    _ status: OSStatus, path: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: () throws -> Void
) {
    do {
        try body()
        XCTFail("expected status \(status)", file: file, line: line)
    } catch let error as AudioFileError {
        XCTAssertEqual(error.status, status, error.description, file: file, line: line)
        XCTAssertTrue(error.message.contains(path), "message does not name the path: \(error.message)", file: file, line: line)
    } catch {
        XCTFail("unexpected \(error)", file: file, line: line)
    }
}
