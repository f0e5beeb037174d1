import AudioConverterServices
@_exported import SignalTestSupport
import AudioToolbox
import XCTest

/// Test support for the AudioConverter and AudioFileStream tests (shared by both targets).
///
/// Feeds a converter from memory through AudioConverterFillComplexBuffer, as a C caller would:
/// PCM bytes in chunks of `chunkFrames`, or compressed packets with their descriptions.
public final class ConverterSource {
    let bytes: [UInt8]
    let bytesPerFrame: Int
    let chunkFrames: Int
    var offset = 0
    /// For compressed input: the packets (byte ranges of `bytes`), handed out one call at a time.
    var packets: [Range<Int>] = []
    var nextPacket = 0
    var packetsPerCall = 1
    var descriptions: UnsafeMutablePointer<AudioStreamPacketDescription> = .allocate(capacity: 64)
    var calls = 0

    /// PCM bytes handed out `chunkFrames` frames at a time. Thread: setup.
    public init(bytes: [UInt8], bytesPerFrame: Int, chunkFrames: Int = 1000) {
        self.bytes = bytes
        self.bytesPerFrame = bytesPerFrame
        self.chunkFrames = chunkFrames
    }

    /// Compressed packets (byte ranges of `bytes`) handed out `packetsPerCall` at a time. Thread: setup.
    public init(bytes: [UInt8], packets: [Range<Int>], packetsPerCall: Int = 1) {
        self.bytes = bytes
        self.packets = packets
        self.packetsPerCall = packetsPerCall
        bytesPerFrame = 0
        chunkFrames = 0
    }

    deinit { descriptions.deallocate() }
}

/// The input procedure over a ConverterSource (user data: the source, unretained).
public let converterSourceProc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, outDescriptions, userData in
    let source = Unmanaged<ConverterSource>.fromOpaque(userData!).takeUnretainedValue()
    source.calls += 1
    let list = UnsafeMutableAudioBufferListPointer(ioData)
    source.bytes.withUnsafeBytes { all in
        let base = UnsafeMutableRawPointer(mutating: all.baseAddress!)
        if source.bytesPerFrame > 0 {
            let frames = min(Int(ioPackets.pointee), source.chunkFrames, (source.bytes.count - source.offset) / source.bytesPerFrame)
            list[0].mData = base + source.offset
            list[0].mDataByteSize = UInt32(frames * source.bytesPerFrame)
            source.offset += frames * source.bytesPerFrame
            ioPackets.pointee = UInt32(frames)
        } else {
            let count = min(Int(ioPackets.pointee), source.packetsPerCall, source.packets.count - source.nextPacket)
            guard count > 0 else {
                ioPackets.pointee = 0
                return
            }
            let first = source.packets[source.nextPacket].lowerBound
            let last = source.packets[source.nextPacket + count - 1].upperBound
            for i in 0..<count {
                let range = source.packets[source.nextPacket + i]
                source.descriptions[i] = AudioStreamPacketDescription(
                    mStartOffset: Int64(range.lowerBound - first), mVariableFramesInPacket: 0, mDataByteSize: UInt32(range.count))
            }
            list[0].mData = base + first
            list[0].mDataByteSize = UInt32(last - first)
            outDescriptions?.pointee = source.descriptions
            source.nextPacket += count
            ioPackets.pointee = UInt32(count)
        }
    }
    return noErr
}

/// Runs FillComplexBuffer until the converter gives no more (asking `request` frames per call);
/// returns the interleaved output bytes. Fails the test on any status but noErr.
/// Thread: setup.
public func drain(
    _ converter: AudioConverterRef, _ source: ConverterSource, output format: AudioStreamBasicDescription,
    request: Int = 4096, file: StaticString = #filePath, line: UInt = #line
) -> [UInt8] {
    precondition(format.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0, "drain collects interleaved output")
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: request * Int(format.mBytesPerFrame))
    let user = Unmanaged.passUnretained(source).toOpaque()
    while true {
        var frames = UInt32(request)
        let status = buffer.withUnsafeMutableBytes { raw -> OSStatus in
            var list = AudioBufferList(
                mNumberBuffers: 1,
                mBuffers: AudioBuffer(mNumberChannels: format.mChannelsPerFrame, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            return AudioConverterFillComplexBuffer(converter, converterSourceProc, user, &frames, &list, nil)
        }
        XCTAssertEqual(status, noErr, "FillComplexBuffer", file: file, line: line)
        if status != noErr || frames == 0 { break }
        out += buffer.prefix(Int(frames) * Int(format.mBytesPerFrame))
    }
    return out
}

/// Thread: setup.
public func makeConverter(
    _ input: AudioStreamBasicDescription, _ output: AudioStreamBasicDescription,
    file: StaticString = #filePath, line: UInt = #line
) throws -> AudioConverterRef {
    var converter: AudioConverterRef?
    let status = AudioConverterNew([input], [output], &converter)
    XCTAssertEqual(status, noErr, "AudioConverterNew", file: file, line: line)
    return try XCTUnwrap(converter, file: file, line: line)
}

/// Linear PCM of the given layout. Thread: any.
public func pcm(_ rate: Double, _ channels: UInt32, bits: UInt32, float: Bool, interleaved: Bool = true, bigEndian: Bool = false)
    -> AudioStreamBasicDescription
{
    var flags: AudioFormatFlags = kAudioFormatFlagIsPacked | (float ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger)
    if !interleaved { flags |= kAudioFormatFlagIsNonInterleaved }
    if bigEndian { flags |= kAudioFormatFlagIsBigEndian }
    let bytes = bits / 8 * (interleaved ? channels : 1)
    return AudioStreamBasicDescription(
        mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: bytes,
        mFramesPerPacket: 1, mBytesPerFrame: bytes, mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0)
}

extension Array where Element == UInt8 {
    /// The bytes as values of `T`. Thread: any.
    public func reinterpreted<T>(as: T.Type) -> [T] {
        withUnsafeBytes { Array<T>($0.bindMemory(to: T.self)) }
    }
}

/// Thread: any.
public func bytes<T>(of values: [T]) -> [UInt8] { values.withUnsafeBytes { Array($0) } }
