import AVFAudio
import Foundation
import XCTest

/// Compressed test files made once per run with the Debian encoders (scripts/debian-packages.txt
/// "Tests:"), from one second of 44.1 kHz stereo: 441 Hz on the left, 1000 Hz on the right, each at
/// amplitude 0.5 (16-bit).
enum CompressedFixtures {
    static let directory: String = {
        let path = NSTemporaryDirectory() + "avfaudio-compressed-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()
    static let lock = NSLock()

    /// The path of fixture `name`: "source.wav", "flac", "mp3", "opus", "ogg" (Vorbis).
    static func path(_ name: String) throws -> String {
        try lock.withLock {
            let source = directory + "/source.wav"
            if !FileManager.default.fileExists(atPath: source) {
                try run(
                    "sox", "-R", "-n", "-r", "44100", "-c", "2", "-b", "16", source, "synth", "1", "sine", "441", "sine", "1000", "vol",
                    "0.5")
            }
            if name == "source.wav" { return source }
            let out = directory + "/fixture." + name
            if !FileManager.default.fileExists(atPath: out) {
                switch name {
                case "flac": try run("flac", "--silent", "-f", "-o", out, source)
                case "mp3": try run("lame", "--quiet", "-b", "128", source, out)
                case "opus": try run("opusenc", "--quiet", source, out)
                case "ogg": try run("oggenc", "--quiet", "-o", out, source)
                default: throw XCTSkip("no fixture \(name)")
                }
            }
            return out
        }
    }

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
}

/// A compressed file parsed with Audio File Stream Services' C API: its data format, magic cookie
/// and packets (each a range of `bytes`).
final class ParsedStream {
    var format = AudioStreamBasicDescription()
    var cookie: Data?
    var bytes: [UInt8] = []
    var packets: [Range<Int>] = []
    var packetSizeUpperBound = 0

    /// Parses the file at `path`, handed over in pieces of `chunk` bytes, then the end (0 bytes).
    init(path: String, chunk: Int = 1_000) throws {
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var stream: AudioFileStreamID?
        let me = Unmanaged.passUnretained(self).toOpaque()
        XCTAssertEqual(AudioFileStreamOpen(me, parsedStreamProperty, parsedStreamPackets, 0, &stream), noErr)
        let id = try XCTUnwrap(stream)
        defer { AudioFileStreamClose(id) }
        try file.withUnsafeBytes { all in
            for start in stride(from: 0, to: all.count, by: chunk) {
                let n = min(chunk, all.count - start)
                let status = AudioFileStreamParseBytes(id, UInt32(n), all.baseAddress! + start, [])
                guard status == noErr else { throw XCTSkip("AudioFileStream could not parse \(path): \(status)") }
            }
        }
        XCTAssertEqual(AudioFileStreamParseBytes(id, 0, nil, []), noErr)
        var bound: UInt32 = 0
        var size = UInt32(4)
        if AudioFileStreamGetProperty(id, kAudioFileStreamProperty_PacketSizeUpperBound, &size, &bound) == noErr {
            packetSizeUpperBound = Int(bound)
        }
        packetSizeUpperBound = max(packetSizeUpperBound, packets.map(\.count).max() ?? 0)
    }

    /// The format as AVAudioFormat, with the cookie.
    func avFormat() throws -> AVAudioFormat {
        var d = format
        let f = try XCTUnwrap(AVAudioFormat(streamDescription: &d))
        f.magicCookie = cookie
        return f
    }

    /// Input for AVAudioConverter: the packets `from` on in AVAudioCompressedBuffers of `perBuffer`
    /// packets (made as Apple's documentation does: capacity and maximum packet size), then the
    /// end of the stream. Returns the block and a counter of the buffers handed over.
    func inputBlock(_ format: AVAudioFormat, from first: Int = 0, perBuffer: Int) -> AVAudioConverterInputBlock {
        var next = first
        return { _, outStatus in
            guard next < self.packets.count else {
                outStatus.pointee = .endOfStream
                return nil
            }
            let buffer = AVAudioCompressedBuffer(
                format: format, packetCapacity: AVAudioPacketCount(perBuffer), maximumPacketSize: self.packetSizeUpperBound)
            let take = self.packets[next..<min(next + perBuffer, self.packets.count)]
            var offset = 0
            for (i, range) in take.enumerated() {
                self.bytes.withUnsafeBytes {
                    (buffer.data + offset).copyMemory(from: $0.baseAddress! + range.lowerBound, byteCount: range.count)
                }
                buffer.packetDescriptions![i] = AudioStreamPacketDescription(
                    mStartOffset: Int64(offset), mVariableFramesInPacket: 0, mDataByteSize: UInt32(range.count))
                offset += range.count
            }
            buffer.packetCount = AVAudioPacketCount(take.count)
            buffer.byteLength = UInt32(offset)
            next += take.count
            outStatus.pointee = .haveData
            return buffer
        }
    }

    /// Decodes every packet through AVAudioConverter into `output` buffers of `capacity` frames;
    /// returns each channel's samples (Float32 output) and the statuses.
    func decodeWithAVAudioConverter(to output: AVAudioFormat, perBuffer: Int = 5, capacity: AVAudioFrameCount = 1_000) throws -> (
        channels: [[Float]], statuses: [AVAudioConverterOutputStatus]
    ) {
        let input = try avFormat()
        let converter = try XCTUnwrap(AVAudioConverter(from: input, to: output))
        let block = inputBlock(input, perBuffer: perBuffer)
        let buffer = try XCTUnwrap(AVAudioPCMBuffer(pcmFormat: output, frameCapacity: capacity))
        var channels = [[Float]](repeating: [], count: Int(output.channelCount))
        var statuses: [AVAudioConverterOutputStatus] = []
        while statuses.count < 100_000 {
            var error: NSError?
            let status = converter.convert(to: buffer, error: &error, withInputFrom: block)
            statuses.append(status)
            if status == .error { throw try XCTUnwrap(error) }
            let data = try XCTUnwrap(buffer.floatChannelData)
            for c in channels.indices {
                channels[c] += (0..<Int(buffer.frameLength)).map { data[c][$0 * buffer.stride] }
            }
            if status == .endOfStream || status == .inputRanDry { break }
        }
        return (channels, statuses)
    }

    /// Decodes every packet with the C API, AudioConverterFillComplexBuffer, `perCall` packets an
    /// input call, into interleaved `output` (the reference for the Swift class).
    func decodeWithAudioConverter(to output: AudioStreamBasicDescription, perCall: Int = 1) throws -> [UInt8] {
        var input = format
        var out = output
        var converter: AudioConverterRef?
        XCTAssertEqual(AudioConverterNew(&input, &out, &converter), noErr)
        let ref = try XCTUnwrap(converter)
        defer { AudioConverterDispose(ref) }
        if var cookie = cookie.map({ [UInt8]($0) }) {
            XCTAssertEqual(AudioConverterSetProperty(ref, kAudioConverterDecompressionMagicCookie, UInt32(cookie.count), &cookie), noErr)
        }
        let feeder = PacketFeeder(self, perCall: perCall)
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096 * Int(output.mBytesPerFrame))
        while true {
            var frames: UInt32 = 4_096
            let status = chunk.withUnsafeMutableBytes { raw -> OSStatus in
                var list = AudioBufferList(
                    mNumberBuffers: 1,
                    mBuffers: AudioBuffer(
                        mNumberChannels: output.mChannelsPerFrame, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
                return AudioConverterFillComplexBuffer(
                    ref, packetFeederProc, Unmanaged.passUnretained(feeder).toOpaque(), &frames, &list, nil)
            }
            XCTAssertEqual(status, noErr)
            if status != noErr || frames == 0 { break }
            result += chunk.prefix(Int(frames) * Int(output.mBytesPerFrame))
        }
        return result
    }
}

private let parsedStreamProperty: AudioFileStream_PropertyListenerProc = { client, stream, property, _ in
    let me = Unmanaged<ParsedStream>.fromOpaque(client!).takeUnretainedValue()
    switch property {
    case kAudioFileStreamProperty_DataFormat:
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioFileStreamGetProperty(stream, property, &size, &me.format)
    case kAudioFileStreamProperty_MagicCookieData:
        var size: UInt32 = 0
        guard AudioFileStreamGetPropertyInfo(stream, property, &size, nil) == noErr, size > 0 else { return }
        var cookie = [UInt8](repeating: 0, count: Int(size))
        AudioFileStreamGetProperty(stream, property, &size, &cookie)
        me.cookie = Data(cookie.prefix(Int(size)))
    default: break
    }
}

private let parsedStreamPackets: AudioFileStream_PacketsProc = { client, byteCount, packetCount, data, descriptions in
    let me = Unmanaged<ParsedStream>.fromOpaque(client!).takeUnretainedValue()
    let base = me.bytes.count
    me.bytes += UnsafeRawBufferPointer(start: data, count: Int(byteCount))
    guard let descriptions else { return }
    for i in 0..<Int(packetCount) {
        let start = base + Int(descriptions[i].mStartOffset)
        me.packets.append(start..<(start + Int(descriptions[i].mDataByteSize)))
    }
}

/// Hands a parsed stream's packets to AudioConverterFillComplexBuffer, `perCall` at a time, from
/// storage of its own that stays valid until its next call (as AudioConverter.h asks).
final class PacketFeeder {
    let stream: ParsedStream
    let perCall: Int
    var next = 0
    let descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>
    let staging: UnsafeMutableRawPointer

    init(_ stream: ParsedStream, perCall: Int) {
        self.stream = stream
        self.perCall = perCall
        descriptions = .allocate(capacity: perCall)
        staging = .allocate(byteCount: max(perCall * stream.packetSizeUpperBound, 1), alignment: 16)
    }

    deinit {
        descriptions.deallocate()
        staging.deallocate()
    }
}

private let packetFeederProc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, outDescriptions, userData in
    let feeder = Unmanaged<PacketFeeder>.fromOpaque(userData!).takeUnretainedValue()
    let take = feeder.stream.packets[feeder.next..<min(feeder.next + feeder.perCall, feeder.stream.packets.count)]
    feeder.next += take.count
    var offset = 0
    for (i, range) in take.enumerated() {
        feeder.stream.bytes.withUnsafeBytes {
            (feeder.staging + offset).copyMemory(from: $0.baseAddress! + range.lowerBound, byteCount: range.count)
        }
        feeder.descriptions[i] = AudioStreamPacketDescription(
            mStartOffset: Int64(offset), mVariableFramesInPacket: 0, mDataByteSize: UInt32(range.count))
        offset += range.count
    }
    ioPackets.pointee = UInt32(take.count)
    let list = UnsafeMutableAudioBufferListPointer(ioData)
    list[0].mData = feeder.staging
    list[0].mDataByteSize = UInt32(offset)
    outDescriptions?.pointee = feeder.descriptions
    return noErr
}

/// A file's samples through ExtAudioFile's C API (libsndfile), interleaved, in `client`.
func extAudioFileRead(_ path: String, as client: AudioStreamBasicDescription) throws -> [UInt8] {
    var file: ExtAudioFileRef?
    XCTAssertEqual(ExtAudioFileOpenPath(path, &file), noErr)
    let ref = try XCTUnwrap(file)
    defer { ExtAudioFileDispose(ref) }
    var format = client
    XCTAssertEqual(
        ExtAudioFileSetProperty(
            ref, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &format),
        noErr)
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4_096 * Int(client.mBytesPerFrame))
    while true {
        var frames: UInt32 = 4_096
        chunk.withUnsafeMutableBytes { raw in
            var list = AudioBufferList(
                mNumberBuffers: 1,
                mBuffers: AudioBuffer(mNumberChannels: client.mChannelsPerFrame, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            XCTAssertEqual(ExtAudioFileRead(ref, &frames, &list), noErr)
        }
        if frames == 0 { break }
        result += chunk.prefix(Int(frames) * Int(client.mBytesPerFrame))
    }
    return result
}

/// Interleaved linear PCM. Thread: any.
func interleavedPCM(_ rate: Double, _ channels: UInt32, bits: UInt32, float: Bool) -> AudioStreamBasicDescription {
    let bytes = bits / 8 * channels
    return AudioStreamBasicDescription(
        mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
        mFormatFlags: kAudioFormatFlagIsPacked | (float ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger),
        mBytesPerPacket: bytes,
        mFramesPerPacket: 1, mBytesPerFrame: bytes, mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0)
}

/// Interleaved samples split into channels.
func deinterleave<T>(_ samples: [T], channels: Int) -> [[T]] {
    (0..<channels).map { c in stride(from: c, to: samples.count, by: channels).map { samples[$0] } }
}
