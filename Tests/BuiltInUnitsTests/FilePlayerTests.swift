import XCTest
import TestSupport
import AudioFiles

final class FilePlayerTests: XCTestCase {
    var directory: String!
    var fileID: AudioFileID?
    /// The file's frames per channel: left k/16384, right −k/16384 (exact in float32).
    var left: [Float] = [], right: [Float] = []

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "fileplayer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        fileID = try writeFile(frames: 10_000, rate: 44_100)
    }

    override func tearDown() {
        if let fileID { AudioFileClose(fileID) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    func writeFile(frames: Int, rate: Double, name: String = "source.wav") throws -> AudioFileID? {
        left = (0..<frames).map { Float($0) / 16_384 }
        right = left.map { -$0 }
        let path = directory + "/" + name
        let file = try AudioFile.create(
            writingAt: path, type: .wave,
            format: AudioFileDataFormat(sampleRate: rate, channelCount: 2, encoding: .float32))
        try left.withUnsafeBufferPointer { l in
            try right.withUnsafeBufferPointer { r in
                try file.write(from: [l.baseAddress!, r.baseAddress!], frameCount: frames)
            }
        }
        try file.close()
        var id: AudioFileID?
        try AudioError.check(AudioFileOpenPath(path, .readPermission, &id), "open")
        return id
    }

    func makePlayer() throws -> UnitHarness {
        let h = try UnitHarness(type: kAudioUnitType_Generator, subType: kAudioUnitSubType_AudioFilePlayer)
        var ids = [fileID]
        try AudioError.check(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &ids,
                UInt32(MemoryLayout<AudioFileID>.size)), "file IDs")
        try h.initialize()
        return h
    }

    func region(start: Int64, frames: UInt32, loops: UInt32, at timelineStart: Double = 0) -> ScheduledAudioFileRegion {
        var r = ScheduledAudioFileRegion()
        r.mTimeStamp.mFlags = .sampleTimeValid
        r.mTimeStamp.mSampleTime = timelineStart
        r.mAudioFile = fileID
        r.mStartFrame = start
        r.mFramesToPlay = frames
        r.mLoopCount = loops
        return r
    }

    func schedule(_ h: UnitHarness, _ r: ScheduledAudioFileRegion, prime: Bool = true) throws {
        var r = r
        try AudioError.check(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &r,
                UInt32(MemoryLayout<ScheduledAudioFileRegion>.size)), "region")
        if prime {
            var frames: UInt32 = 0
            try AudioError.check(
                AudioUnitSetProperty(h.unit, kAudioUnitProperty_ScheduledFilePrime, kAudioUnitScope_Global, 0, &frames, 4), "prime")
        }
    }

    func start(_ h: UnitHarness, at sampleTime: Double) throws {
        var stamp = AudioTimeStamp()
        stamp.mFlags = .sampleTimeValid
        stamp.mSampleTime = sampleTime
        try AudioError.check(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitScope_Global, 0, &stamp,
                UInt32(MemoryLayout<AudioTimeStamp>.size)), "start")
    }

    func testRegionPlaysItsFramesLoopCountPlusOneTimesFromTheStartTimeThenSilence() throws {
        let h = try makePlayer()
        try schedule(h, region(start: 1_000, frames: 3_000, loops: 2, at: 100))
        try start(h, at: 600)  // the render clock starts at 0
        let out = try h.render(frames: 600 + 100 + 9_000 + 1_000, channels: 2)
        let pass = Array(left[1_000..<4_000]), passRight = Array(right[1_000..<4_000])
        let silence = [Float](repeating: 0, count: 700)
        XCTAssertEqual(Array(out[0][0..<700]), silence, "nothing before the start time plus the region's timeline offset")
        XCTAssertEqual(Array(out[0][700..<9_700]), pass + pass + pass)
        XCTAssertEqual(Array(out[1][700..<9_700]), passRight + passRight + passRight)
        XCTAssertEqual(Array(out[0][9_700...]), [Float](repeating: 0, count: 1_000), "silence after the last pass")

        var now = AudioTimeStamp()
        var size = UInt32(MemoryLayout<AudioTimeStamp>.size)
        try AudioError.check(
            AudioUnitGetProperty(h.unit, kAudioUnitProperty_CurrentPlayTime, kAudioUnitScope_Global, 0, &now, &size), "time")
        XCTAssertEqual(now.mSampleTime, 9_100, "timeline frames played: 100 of silence and 3 × 3000")
    }

    func testStartMinusOneStartsAtTheNextRenderAndToTheEndOfTheFile() throws {
        let h = try makePlayer()
        try schedule(h, region(start: 9_000, frames: UInt32.max, loops: 0))
        h.timeStamp.mSampleTime = 123_456
        try start(h, at: -1)
        let out = try h.render(frames: 1_500, channels: 2)
        XCTAssertEqual(Array(out[0][0..<1_000]), Array(left[9_000...]), "0xFFFFFFFF frames: to the end of the file")
        XCTAssertEqual(Array(out[0][1_000...]), [Float](repeating: 0, count: 500))
    }

    func testLongLoopsAreStreamedByTheReaderThread() throws {
        // 10 passes of the whole file (100,000 frames) through a 4 × 1024-frame buffer: the reader
        // thread must refill it while rendering goes on (paced at about 2 ms per 512 frames).
        let h = try UnitHarness(type: kAudioUnitType_Generator, subType: kAudioUnitSubType_AudioFilePlayer)
        var ids = [fileID]
        try AudioError.check(AudioUnitSetProperty(h.unit, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &ids, 8), "ids")
        var size: UInt32 = 1_024, count: UInt32 = 4
        try AudioError.check(
            AudioUnitSetProperty(h.unit, kAudioUnitProperty_ScheduledFileBufferSizeFrames, kAudioUnitScope_Global, 0, &size, 4), "size")
        try AudioError.check(
            AudioUnitSetProperty(h.unit, kAudioUnitProperty_ScheduledFileNumberBuffers, kAudioUnitScope_Global, 0, &count, 4), "count")
        try h.initialize()
        try schedule(h, region(start: 0, frames: 10_000, loops: 9))
        try start(h, at: 0)
        var played: [Float] = []
        for _ in 0..<(100_000 / 500) {
            played += try h.render(frames: 500, channels: 2)[0]
            usleep(2_000)
        }
        for pass in 0..<10 {
            XCTAssertEqual(Array(played[(pass * 10_000)..<((pass + 1) * 10_000)]), left, "pass \(pass)")
        }
    }

    /// A region's time stamp is the caller's Double: one that is not a frame on the timeline
    /// (NaN, infinite, beyond 2^53) is refused with kAudioUnitErr_InvalidPropertyValue;
    /// converting it to a frame count trapped before (Int64(NaN)).
    func testRegionTimesThatAreNotTimelineFramesAreRefused() throws {
        let h = try makePlayer()
        for time in [Double.nan, .infinity, -.infinity, 1e300, 9.3e18, 9_007_199_254_740_992] {
            var r = region(start: 0, frames: 100, loops: 0, at: time)
            XCTAssertEqual(
                AudioUnitSetProperty(
                    h.unit, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &r,
                    UInt32(MemoryLayout<ScheduledAudioFileRegion>.size)), kAudioUnitErr_InvalidPropertyValue, "\(time)")
        }
        // A time before the timeline counts as its start (-1e300 trapped too); the largest
        // accepted start, with the most loops, is scheduled and plays nothing for now.
        var early = region(start: 0, frames: 100, loops: 0, at: -1e300)
        XCTAssertEqual(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &early,
                UInt32(MemoryLayout<ScheduledAudioFileRegion>.size)), noErr)
        try AudioError.check(AudioUnitReset(h.unit, kAudioUnitScope_Global, 0), "reset")
        var late = region(start: 0, frames: 100, loops: .max, at: 9_007_199_254_740_991)
        XCTAssertEqual(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &late,
                UInt32(MemoryLayout<ScheduledAudioFileRegion>.size)), noErr)
        try start(h, at: 0)
        XCTAssertEqual(try h.render(frames: 512, channels: 2)[0].map(abs).max(), 0)
    }

    func testResetClearsTheScheduleAndBadRegionsAreRefused() throws {
        let h = try makePlayer()
        try schedule(h, region(start: 0, frames: 5_000, loops: 0))
        try start(h, at: 0)
        _ = try h.render(frames: 512, channels: 2)
        try AudioError.check(AudioUnitReset(h.unit, kAudioUnitScope_Global, 0), "reset")
        try start(h, at: -1)
        XCTAssertEqual(try h.render(frames: 1_024, channels: 2)[0].map(abs).max(), 0, "nothing scheduled after the reset")

        var r = region(start: 0, frames: 100, loops: 0)
        r.mAudioFile = nil
        XCTAssertEqual(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &r,
                UInt32(MemoryLayout<ScheduledAudioFileRegion>.size)), kAudioUnitErr_InvalidPropertyValue)
        var beyond = region(start: 20_000, frames: 100, loops: 0)
        XCTAssertEqual(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &beyond,
                UInt32(MemoryLayout<ScheduledAudioFileRegion>.size)), kAudioUnitErr_InvalidPropertyValue)

        let other = try writeFile(frames: 100, rate: 48_000, name: "other.wav")
        defer { AudioFileClose(other!) }
        var ids = [fileID, other]
        XCTAssertEqual(AudioUnitSetProperty(h.unit, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &ids, 16), noErr)
        var wrongRate = region(start: 0, frames: 10, loops: 0)
        wrongRate.mAudioFile = other
        XCTAssertEqual(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &wrongRate,
                UInt32(MemoryLayout<ScheduledAudioFileRegion>.size)), kAudioUnitErr_FormatNotSupported)

        let fresh = try UnitHarness(type: kAudioUnitType_Generator, subType: kAudioUnitSubType_AudioFilePlayer)
        var frames: UInt32 = 0
        XCTAssertEqual(
            AudioUnitSetProperty(fresh.unit, kAudioUnitProperty_ScheduledFilePrime, kAudioUnitScope_Global, 0, &frames, 4),
            kAudioUnitErr_Uninitialized)
    }
}
