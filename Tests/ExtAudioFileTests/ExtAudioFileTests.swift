import XCTest
import AudioToolbox
import AudioFiles
import ExtAudioFile
import AudioTypes

/// Extended Audio File Services through the C API: formats round-trip, client conversion,
/// seek/tell/length, async writes under a slow disk, and documented errors naming the path.
final class ExtAudioFileTests: XCTestCase {
    var directory: String!

    override func setUp() {
        directory = NSTemporaryDirectory() + "extaudiofile-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    func pcm(_ bits: UInt32, float: Bool = false, channels: UInt32 = 2, rate: Double = 44_100, interleaved: Bool = true)
        -> AudioStreamBasicDescription
    {
        let bytes = bits / 8
        var flags: AudioFormatFlags = kAudioFormatFlagIsPacked | (float ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger)
        if !interleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        let frame = interleaved ? bytes * channels : bytes
        return AudioStreamBasicDescription(
            mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: frame,
            mFramesPerPacket: 1, mBytesPerFrame: frame, mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0)
    }

    /// Interleaved int16 test data: a ramp over the whole range.
    func int16Frames(_ frames: Int, channels: Int = 2) -> [Int16] {
        (0..<frames * channels).map { Int16(truncatingIfNeeded: $0 &* 977 &- 32768) }
    }

    func withList<T>(_ bytes: inout [UInt8], _ body: (UnsafeMutablePointer<AudioBufferList>) throws -> T) rethrows -> T {
        try bytes.withUnsafeMutableBytes { raw in
            var list = AudioBufferList(
                mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            return try body(&list)
        }
    }

    /// The sentence AUHostCopyLastErrorMessage returns (the per-thread record it reads).
    func lastMessage() -> String { LastErrorMessage.current ?? "" }

    func testInt16RoundTripsBitExactlyInEveryLosslessContainer() throws {
        let frames = 3000
        let samples = int16Frames(frames)
        for (type, name) in [
            (kAudioFileWAVEType, "a.wav"), (kAudioFileAIFFType, "a.aiff"), (kAudioFileCAFType, "a.caf"), (kAudioFileFLACType, "a.flac"),
        ] {
            let path = directory + "/" + name
            var format = pcm(16)
            if type == kAudioFileFLACType {
                format = AudioStreamBasicDescription(
                    mSampleRate: 44_100, mFormatID: 0x666C_6163, mFormatFlags: 1, mBytesPerPacket: 0,
                    mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
            }
            var file: ExtAudioFileRef?
            XCTAssertEqual(ExtAudioFileCreateWithPath(path, type, &format, nil, AudioFileFlags.eraseFile.rawValue, &file), noErr, name)
            var client = pcm(16)
            XCTAssertEqual(ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, 40, &client), noErr)
            var bytes = samples.withUnsafeBytes { Array($0) }
            XCTAssertEqual(withList(&bytes) { ExtAudioFileWrite(file!, UInt32(frames), $0) }, noErr)
            XCTAssertEqual(ExtAudioFileDispose(file!), noErr)

            XCTAssertEqual(ExtAudioFileOpenPath(path, &file), noErr)
            var length: Int64 = 0
            var size: UInt32 = 8
            XCTAssertEqual(ExtAudioFileGetProperty(file!, kExtAudioFileProperty_FileLengthFrames, &size, &length), noErr)
            XCTAssertEqual(length, Int64(frames), name)
            XCTAssertEqual(ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, 40, &client), noErr)
            var back = [UInt8](repeating: 0, count: frames * 4)
            var count = UInt32(frames)
            XCTAssertEqual(withList(&back) { ExtAudioFileRead(file!, &count, $0) }, noErr)
            XCTAssertEqual(count, UInt32(frames))
            XCTAssertEqual(back.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }, samples, "\(name) bit-exact")
            XCTAssertEqual(ExtAudioFileDispose(file!), noErr)
        }
    }

    func testInt24Int32AndFloatFilesReadBackExactlyThroughAFloatClient() throws {
        let frames = 1000
        let values: [Float] = (0..<frames * 2).map { Float(Int32($0 * 8191 % 16_000_000) - 8_000_000) / 8_388_608 }
        // Values with 24 significant bits (what Float32 holds) round-trip through 24- and 32-bit
        // integer files as well as float files.
        for (bits, isFloat) in [(UInt32(24), false), (32, false), (32, true)] {
            let path = directory + "/f\(bits).caf"
            var format = pcm(bits, float: isFloat)
            var file: ExtAudioFileRef?
            XCTAssertEqual(
                ExtAudioFileCreateWithPath(path, kAudioFileCAFType, &format, nil, AudioFileFlags.eraseFile.rawValue, &file), noErr)
            var client = pcm(32, float: true)
            XCTAssertEqual(ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, 40, &client), noErr)
            var bytes = values.withUnsafeBytes { Array($0) }
            XCTAssertEqual(withList(&bytes) { ExtAudioFileWrite(file!, UInt32(frames), $0) }, noErr)
            XCTAssertEqual(ExtAudioFileDispose(file!), noErr)
            XCTAssertEqual(ExtAudioFileOpenPath(path, &file), noErr)
            var fileFormat = AudioStreamBasicDescription()
            var size: UInt32 = 40
            XCTAssertEqual(ExtAudioFileGetProperty(file!, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat), noErr)
            XCTAssertEqual(fileFormat.mBitsPerChannel, bits)
            XCTAssertEqual(ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, 40, &client), noErr)
            XCTAssertEqual(ExtAudioFileSeek(file!, 10), noErr)
            var position: Int64 = 0
            XCTAssertEqual(ExtAudioFileTell(file!, &position), noErr)
            XCTAssertEqual(position, 10)
            var back = [UInt8](repeating: 0, count: (frames - 10) * 8)
            var count = UInt32(frames - 10)
            XCTAssertEqual(withList(&back) { ExtAudioFileRead(file!, &count, $0) }, noErr)
            XCTAssertEqual(
                back.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }, Array(values[20...]), "\(bits)-bit exact after seek")
            XCTAssertEqual(ExtAudioFileDispose(file!), noErr)
        }
    }

    func testAsyncWritesUnderASlowDiskLoseNothingAndDisposeFlushes() throws {
        let path = directory + "/async.wav"
        let file = try ExtendedAudioFile.create(
            path: path, type: .wave,
            fileFormat: AudioFileDataFormat(sampleRate: 48_000, channelCount: 2, encoding: .int16))
        try file.setClientFormat(pcm(16, rate: 48_000))
        try file.primeAsync(simulatedDiskPause: 0.02)
        // 200 slices fit the async buffer even if its writer thread never runs during the loop (a
        // loaded machine): what this checks is that nothing is lost and dispose flushes, not the
        // disk's speed (a producer faster than the disk is testAsyncOverflowIsCountedAndReported's).
        let slice = 512, slices = 200
        var total: [Int16] = []
        for s in 0..<slices {
            var bytes = int16Frames(slice).map { $0 &+ Int16(truncatingIfNeeded: s) }
            total += bytes
            var raw = bytes.withUnsafeBytes { Array($0) }
            XCTAssertEqual(withList(&raw) { file.writeAsync($0, frames: slice) }, noErr, "slice \(s)")
            bytes.removeAll()
        }
        try file.dispose()
        XCTAssertEqual(file.asyncOverflowFrames, 0)
        let reader = try ExtendedAudioFile.open(path: path)
        XCTAssertEqual(reader.lengthFrames, Int64(slice * slices))
        var back = [UInt8](repeating: 0, count: slice * slices * 4)
        let read = try withList(&back) { try reader.read(into: $0, frames: slice * slices) }
        XCTAssertEqual(read, slice * slices)
        XCTAssertEqual(back.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }, total)
    }

    func testAsyncOverflowIsCountedAndReported() throws {
        let path = directory + "/overflow.wav"
        var format = pcm(16)
        var file: ExtAudioFileRef?
        XCTAssertEqual(ExtAudioFileCreateWithPath(path, kAudioFileWAVEType, &format, nil, AudioFileFlags.eraseFile.rawValue, &file), noErr)
        var ring: UInt32 = 1024
        XCTAssertEqual(ExtAudioFileSetProperty(file!, kExtAudioFileProperty_AUHostAsyncBufferFrames, 4, &ring), noErr)
        XCTAssertEqual(ExtAudioFileWriteAsync(file!, 0, nil), noErr, "priming call")
        var raw = int16Frames(4096).withUnsafeBytes { Array($0) }
        XCTAssertEqual(withList(&raw) { ExtAudioFileWriteAsync(file!, 4096, $0) }, kExtAudioFileError_AsyncWriteBufferOverflow)
        var overflow: UInt64 = 0
        var size: UInt32 = 8
        XCTAssertEqual(ExtAudioFileGetProperty(file!, kExtAudioFileProperty_AUHostAsyncOverflowFrames, &size, &overflow), noErr)
        XCTAssertGreaterThanOrEqual(overflow, 1024, "4096 frames offered at once to a 1024-frame ring")
        XCTAssertEqual(ExtAudioFileDispose(file!), noErr)
        // Every frame is either in the file or counted as dropped.
        XCTAssertEqual(ExtAudioFileOpenPath(path, &file), noErr)
        var length: Int64 = 0
        XCTAssertEqual(ExtAudioFileGetProperty(file!, kExtAudioFileProperty_FileLengthFrames, &size, &length), noErr)
        XCTAssertEqual(length + Int64(overflow), 4096)
        XCTAssertEqual(ExtAudioFileDispose(file!), noErr)
    }

    func testBadFilesGiveDocumentedErrorsNamingThePath() throws {
        var file: ExtAudioFileRef?
        let missing = directory + "/missing.wav"
        XCTAssertEqual(ExtAudioFileOpenPath(missing, &file), kAudio_FileNotFoundError)
        XCTAssertTrue(lastMessage().contains(missing), lastMessage())

        let junk = directory + "/junk.wav"
        XCTAssertTrue(FileManager.default.createFile(atPath: junk, contents: Data(repeating: 0x41, count: 4000)))
        XCTAssertEqual(ExtAudioFileOpenPath(junk, &file), kAudioFileUnsupportedFileTypeError)
        XCTAssertTrue(lastMessage().contains(junk), lastMessage())

        var format = pcm(16)
        let unwritable = "/proc/auhost-cannot-write.wav"
        XCTAssertNotEqual(
            ExtAudioFileCreateWithPath(unwritable, kAudioFileWAVEType, &format, nil, AudioFileFlags.eraseFile.rawValue, &file), noErr)
        XCTAssertTrue(lastMessage().contains(unwritable), lastMessage())

        let mp3 = directory + "/x.mp3"
        XCTAssertEqual(
            ExtAudioFileCreateWithPath(mp3, kAudioFileMP3Type, &format, nil, AudioFileFlags.eraseFile.rawValue, &file),
            kAudioFileUnsupportedFileTypeError)
        XCTAssertTrue(lastMessage().contains(mp3), lastMessage())
    }

    func testOpenURLTakesARealCoreFoundationURL() throws {
        let path = directory + "/url.wav"
        var format = pcm(16)
        let url = path.withCString {
            CFURLCreateFromFileSystemRepresentation(nil, UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), strlen($0), 0)
        }!
        var file: ExtAudioFileRef?
        XCTAssertEqual(ExtAudioFileCreateWithURL(url, kAudioFileWAVEType, &format, nil, AudioFileFlags.eraseFile.rawValue, &file), noErr)
        XCTAssertEqual(ExtAudioFileDispose(file!), noErr)
        XCTAssertEqual(ExtAudioFileOpenURL(url, &file), noErr)
        var layout = AudioChannelLayout()
        var size = UInt32(MemoryLayout<AudioChannelLayout>.size)
        XCTAssertEqual(ExtAudioFileGetProperty(file!, kExtAudioFileProperty_FileChannelLayout, &size, &layout), noErr)
        XCTAssertEqual(layout.mChannelLayoutTag, kAudioChannelLayoutTag_Stereo)
        XCTAssertEqual(ExtAudioFileDispose(file!), noErr)
    }
}
