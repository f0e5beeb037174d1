import XCTest
import Foundation
@testable import AudioFiles

/// Frame n, channel c of the test pattern: on the int16 grid, so int16 files hold it exactly.
func patternSample(_ n: Int, _ c: Int) -> Float {
    Float((n &* 7 &+ c &* 13) % 65_536 - 32_768) / 32_768
}

/// Pushes frames [start, start + count) of the pattern through `ring`; returns frames accepted.
func pushPattern(_ ring: FrameRingBuffer, start: Int, count: Int) -> Int {
    let buffers = (0..<ring.channelCount).map { c -> UnsafeMutablePointer<Float> in
        let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
        for i in 0..<count { p[i] = patternSample(start + i, c) }
        return p
    }
    defer { buffers.forEach { $0.deallocate() } }
    return ring.push(buffers.map { UnsafePointer($0) }, frameCount: count)
}

final class FrameRingBufferTests: XCTestCase {
    func testFramesComeOutInOrderAcrossTheWrapAndOverflowIsCounted() throws {
        let ring = try FrameRingBuffer.allocate(channelCount: 2, minimumCapacity: 100)
        defer { ring.deallocate() }
        XCTAssertEqual(ring.capacity, 128)
        let out = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 128) }
        defer { out.forEach { $0.deallocate() } }
        var next = 0, expected = 0
        for round in 0..<20 {
            let count = 37 + round * 3
            XCTAssertEqual(pushPattern(ring, start: next, count: count), count)
            next += count
            let got = ring.pop(into: out, maximumFrames: 128)
            XCTAssertEqual(got, count)
            for i in 0..<got {
                XCTAssertEqual(out[0][i], patternSample(expected + i, 0))
                XCTAssertEqual(out[1][i], patternSample(expected + i, 1))
            }
            expected += got
        }
        XCTAssertEqual(pushPattern(ring, start: next, count: 200), 128)
        XCTAssertEqual(ring.overflowFrames, 72)
        XCTAssertEqual(ring.pop(into: out, maximumFrames: 1_000), 128)
        XCTAssertEqual(out[1][127], patternSample(next + 127, 1))
    }
}

final class AsyncWriterTests: XCTestCase {
    var directory = ""

    /// The child process of `testFileSurvivesSIGINTWithEveryFlushedFrame` starts here, before any
    /// test (as a test of its own it would count as skipped in every ordinary run).
    override class func setUp() {
        super.setUp()
        if let path = ProcessInfo.processInfo.environment["ASYNC_WRITER_CHILD_PATH"] { recordUntilKilled(path) }
    }

    override func setUpWithError() throws { directory = try makeTemporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    func assertFileHoldsPattern(_ path: String, frames: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let reader = try AudioFile.open(readingAt: path)
        XCTAssertGreaterThanOrEqual(reader.frameCount, Int64(frames), file: file, line: line)
        let back = try reader.read(frames: frames)
        XCTAssertEqual(back[0].count, frames, file: file, line: line)
        var mismatches = 0
        for n in 0..<back[0].count where back[0][n] != patternSample(n, 0) || back[1][n] != patternSample(n, 1) {
            mismatches += 1
        }
        XCTAssertEqual(mismatches, 0, "frames differing from what was pushed", file: file, line: line)
    }

    /// A disk that stalls 250 ms after every chunk, fed in real time (512-frame blocks at 48 kHz)
    /// for 1.5 s: the default ring (2.7 s) absorbs the stalls and nothing is lost.
    func testSlowDiskLosesNoFramesWithTheDefaultBuffer() throws {
        let path = "\(directory)/slow.wav"
        let file = try AudioFile.create(
            writingAt: path, type: .wave,
            format: AudioFileDataFormat(sampleRate: 48_000, channelCount: 2, encoding: .int16),
            updatesHeaderAfterEachWrite: true)
        let writer = try AsyncAudioFileWriter(
            file: file, capacityFrames: AsyncAudioFileWriter.defaultCapacityFrames,
            pauseAfterEachChunk: 0.25)
        let block = 512, total = 72_000
        var pushed = 0
        while pushed < total {
            let n = min(block, total - pushed)
            pushed += pushPattern(writer.renderHandle, start: pushed, count: n)
            usleep(UInt32(1_000_000 * n / 48_000))
        }
        try writer.close()
        XCTAssertEqual(writer.overflowFrames, 0)
        XCTAssertEqual(writer.framesWritten, total)
        try assertFileHoldsPattern(path, frames: total)
    }

    func testARingTooSmallForTheStallCountsWhatItDrops() throws {
        let path = "\(directory)/small.wav"
        let file = try AudioFile.create(
            writingAt: path, type: .wave,
            format: AudioFileDataFormat(sampleRate: 48_000, channelCount: 2, encoding: .int16))
        let writer = try AsyncAudioFileWriter(file: file, capacityFrames: 1_024, pauseAfterEachChunk: 0.2)
        var accepted = 0
        for start in stride(from: 0, to: 20_480, by: 512) {
            accepted += pushPattern(writer.renderHandle, start: start, count: 512)
        }
        try writer.close()
        XCTAssertGreaterThan(writer.overflowFrames, 0)
        XCTAssertEqual(accepted + writer.overflowFrames, 20_480)
        XCTAssertEqual(writer.framesWritten, accepted)
        XCTAssertEqual(try AudioFile.open(readingAt: path).frameCount, Int64(accepted))
    }

    func testFlushMakesPushedFramesReadableBeforeClose() throws {
        let path = "\(directory)/flush.wav"
        let writer = try AsyncAudioFileWriter(
            path: path, type: .wave,
            format: AudioFileDataFormat(sampleRate: 44_100, channelCount: 2, encoding: .int16))
        XCTAssertEqual(pushPattern(writer.renderHandle, start: 0, count: 3_000), 3_000)
        try writer.flush()
        XCTAssertEqual(writer.framesWritten, 3_000)
        try assertFileHoldsPattern(path, frames: 3_000)  // header already current, file still open
        try writer.close()
    }

    /// A child process records asynchronously and is interrupted with SIGINT (default action:
    /// terminate, no clean-up). Every frame it reported as written must be in the file.
    func testFileSurvivesSIGINTWithEveryFlushedFrame() throws {
        let path = "\(directory)/interrupted.wav"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["AudioFilesTests.AsyncWriterTests/testFileSurvivesSIGINTWithEveryFlushedFrame"]  // the child enters in setUp
        process.environment = ProcessInfo.processInfo.environment.merging(["ASYNC_WRITER_CHILD_PATH": path]) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        var reported = 0, buffer = ""
        let handle = pipe.fileHandleForReading
        while reported < 48_000 {
            let data = handle.availableData
            if data.isEmpty { break }  // child exited early
            buffer += String(decoding: data, as: UTF8.self)
            for line in buffer.split(separator: "\n") where line.hasPrefix("written ") {
                reported = max(reported, Int(line.dropFirst(8)) ?? 0)
            }
        }
        XCTAssertGreaterThanOrEqual(reported, 48_000, "the child did not report progress:\n\(buffer)")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGINT)
        try assertFileHoldsPattern(path, frames: reported)
        // libsndfile forgives a stale WAV header; stricter readers do not. The header itself must
        // declare at least every reported frame (2 channels × 2 bytes).
        XCTAssertGreaterThanOrEqual(try wavDataChunkSize(path), reported * 4)
    }

    /// The byte size the 'data' chunk header of the WAV at `path` declares.
    func wavDataChunkSize(_ path: String) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if bytes[offset..<offset + 4].elementsEqual("data".utf8) { return size }
            offset += 8 + size + (size & 1)
        }
        XCTFail("no data chunk in \(path)")
        return 0
    }
}

/// The child side of `testFileSurvivesSIGINTWithEveryFlushedFrame`: records the pattern to `path`,
/// reporting progress, until the parent's SIGINT; exits, never returns.
private func recordUntilKilled(_ path: String) -> Never {
    setvbuf(stdout, nil, _IOLBF, 0)
    // SIGINT's default action, whatever was inherited: a runner started in the background by a
    // shell without job control ignores SIGINT, and so would this child, writing on into a pipe
    // its parent no longer reads (seen: the run hung).
    signal(SIGINT, SIG_DFL)
    let writer: AsyncAudioFileWriter
    do {
        writer = try AsyncAudioFileWriter(
            path: path, type: .wave,
            format: AudioFileDataFormat(sampleRate: 48_000, channelCount: 2, encoding: .int16))
    } catch {
        print("child: \(error)")
        exit(1)
    }
    var pushed = 0
    // A 60 s cap keeps an orphan from running forever.
    for _ in 0..<6_000 {
        pushed += pushPattern(writer.renderHandle, start: pushed, count: 480)
        usleep(10_000)
        print("written \(writer.framesWritten)")
    }
    exit(0)
}
