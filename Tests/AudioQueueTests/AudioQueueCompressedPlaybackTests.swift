import AUHost
@testable import AudioQueueServices
import Foundation
import XCTest

/// Compressed playback (issue 16): an output queue in MP3 or FLAC, fed as Apple's playback guide
/// feeds it (three buffers, packets with their descriptions, the magic cookie through
/// kAudioQueueProperty_MagicCookie), decodes through the Audio Converter. OfflineRender makes
/// the comparison exact: the queue plays the very samples a converter decodes from the same
/// packets in one run, and FLAC gives back the source PCM bit for bit.
final class AudioQueueCompressedPlaybackTests: XCTestCase {
    func testMP3PlaysExactlyWhatTheConverterDecodes() throws {
        let stream = try CompressedFixture.stream("mp3")
        XCTAssertEqual(stream.format.mFormatID, kAudioFormatMPEGLayer3)
        let reference = try CompressedFixture.converterDecode(stream)
        XCTAssertGreaterThan(reference.count, 44_100 * 2 * 9 / 10, "the converter decoded about 1 s of stereo")
        let played = try playOffline(stream, as: float32Format(channels: 2, rate: 44_100), passDescriptions: true)
        let samples = float32Values(played)
        XCTAssertEqual(samples.count, reference.count, "samples played")
        XCTAssertTrue(samples == reference, "the queue changed the decoded samples")
    }

    func testFLACPlaysTheSourceSamplesBitExactly() throws {
        let stream = try CompressedFixture.stream("flac")
        XCTAssertEqual(stream.format.mFormatID, kAudioFormatFLAC)
        XCTAssertFalse(stream.cookie.isEmpty, "FLAC carries STREAMINFO as its cookie")
        let source = try CompressedFixture.sourcePCM()
        // The buffers' own packet descriptions this time (Enqueue with 0 and NULL, as documented).
        let played = try playOffline(stream, as: int16Format(channels: 2, rate: 44_100), passDescriptions: false)
        XCTAssertEqual(played.count, source.count, "bytes played")
        XCTAssertTrue(played == source, "FLAC through the queue differs from the source PCM")
        let reference = try CompressedFixture.converterDecode(stream)
        XCTAssertTrue(reference.map { Int16($0 * 32_768) } == source.reinterpretedInt16, "and equals the converter's decode")
    }

    /// The same MP3 on a device (the ALSA file PCM): the decoded audio fits the three buffers
    /// (the unpaced `null` device cannot starve it), the device receives the converter's decode
    /// exactly (Float32 device format, gain 1) followed only by silence, and the callbacks run on
    /// the queue's thread, never on the device's.
    func testMP3OnTheALSAFilePCMReceivesTheConverterDecode() throws {
        _ = AudioQueueTestEnvironment.directory
        let stream = try CompressedFixture.stream("mp3")
        let reference = try CompressedFixture.converterDecode(stream)
        let state = CompressedPlaybackState(stream: stream, passDescriptions: true)
        let user = Unmanaged.passUnretained(state).toOpaque()
        var description = stream.format
        var created: AudioQueueRef?
        XCTAssertEqual(AudioQueueNewOutput(&description, compressedPlaybackCallback, user, nil, nil, 0, &created), noErr, lastErrorMessage)
        let queue = try XCTUnwrap(created)
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        setCurrentDevice(queue, "aq_raw_out")
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            XCTAssertEqual(AudioQueueAllocateBufferWithPacketDescriptions(queue, 16_384, 32, &buffer), noErr)
            compressedPlaybackCallback(user, queue, try XCTUnwrap(buffer))
        }
        XCTAssertEqual(state.nextPacket, stream.packets.count, "the whole file fits the three buffers")
        XCTAssertTrue(state.stopped, "and the priming callback already asked for Stop(false)")
        var prepared: UInt32 = 0
        XCTAssertEqual(AudioQueuePrime(queue, 0, &prepared), noErr)
        XCTAssertEqual(Int(prepared), reference.count / 2, "Prime counts the decoded frames")
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr, lastErrorMessage)
        let stopped = AudioQueueTestEnvironment.wait {
            var running: UInt32 = 1
            var size = UInt32(4)
            return AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size) == noErr && running == 0
        }
        XCTAssertTrue(stopped, "Stop(false) completed")
        XCTAssertNil(state.failure)
        let output = float32Values(AudioQueueTestEnvironment.read("out.raw"))
        XCTAssertGreaterThanOrEqual(output.count, reference.count)
        XCTAssertTrue(Array(output.prefix(reference.count)) == reference, "the device received other samples than the converter's decode")
        XCTAssertTrue(output.dropFirst(reference.count).allSatisfy { $0 == 0 }, "only silence follows")
        let object = Unmanaged<AudioQueueObject>.fromOpaque(UnsafeRawPointer(queue)).takeUnretainedValue()
        let renderThread = object.playback!.renderThread.load(ordering: .acquiring)
        XCTAssertNotEqual(renderThread, 0)
        XCTAssertFalse(state.callbackThreads.contains(renderThread), "a callback ran on the device thread")
    }

    /// Ogg Vorbis and Ogg Opus (headers in the cookie) play the converter's decode exactly too.
    func testVorbisAndOpusPlayExactlyWhatTheConverterDecodes() throws {
        for (kind, id, rate) in [("ogg", kAudioFormatVorbis, 44_100.0), ("opus", kAudioFormatOpus, 48_000.0)] {
            let stream = try CompressedFixture.stream(kind)
            XCTAssertEqual(stream.format.mFormatID, id, kind)
            XCTAssertFalse(stream.cookie.isEmpty, "\(kind) carries its headers as the cookie")
            let reference = try CompressedFixture.converterDecode(stream)
            XCTAssertGreaterThan(reference.count, Int(rate) * 2 * 9 / 10, "\(kind): the converter decoded about 1 s of stereo")
            let samples = float32Values(try playOffline(stream, as: float32Format(channels: 2, rate: rate), passDescriptions: true))
            XCTAssertEqual(samples.count, reference.count, "\(kind): samples played")
            XCTAssertTrue(samples == reference, "\(kind): the queue changed the decoded samples")
        }
    }

    /// A compressed format the converter cannot decode is refused with 'fmt?' (and so is a
    /// compressed recording queue: nothing encodes); a cookie that does not fit the format is
    /// refused by SetProperty with kAudioQueueErr_InvalidPropertyValue; VBR packets enqueued
    /// without descriptions give kAudio_ParamError.
    func testUnsupportedFormatsBadCookiesAndMissingDescriptionsAreRefused() throws {
        var aac = AudioStreamBasicDescription(
            mSampleRate: 44_100, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 1_024,
            mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        var queue: AudioQueueRef?
        XCTAssertEqual(AudioQueueNewOutput(&aac, silentCallback, nil, nil, nil, 0, &queue), kAudioFileUnsupportedDataFormatError)
        XCTAssertNil(queue)
        XCTAssertTrue(lastErrorMessage.contains("aac "), lastErrorMessage)

        var flac = try CompressedFixture.stream("flac").format
        XCTAssertEqual(AudioQueueNewInput(&flac, silentInputCallback, nil, nil, nil, 0, &queue), kAudioFileUnsupportedDataFormatError)

        XCTAssertEqual(AudioQueueNewOutput(&flac, silentCallback, nil, nil, nil, 0, &queue), noErr, lastErrorMessage)
        let q = try XCTUnwrap(queue)
        defer { XCTAssertEqual(AudioQueueDispose(q, true), noErr) }
        let garbage: [UInt8] = Array("not a STREAMINFO block at all".utf8)
        XCTAssertEqual(
            AudioQueueSetProperty(q, kAudioQueueProperty_MagicCookie, garbage, UInt32(garbage.count)), kAudioQueueErr_InvalidPropertyValue)
        XCTAssertTrue(lastErrorMessage.contains("magic cookie"), lastErrorMessage)

        var buffer: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(q, 1_024, &buffer), noErr)
        let b = try XCTUnwrap(buffer)
        b.pointee.mAudioDataByteSize = 100
        XCTAssertEqual(AudioQueueEnqueueBuffer(q, b, 0, nil), kAudio_ParamError)
        XCTAssertTrue(lastErrorMessage.contains("packet descriptions"), lastErrorMessage)
        XCTAssertEqual(AudioQueueEnqueueBuffer(q, b, 1, nil), kAudio_ParamError, "a count without descriptions")
    }

    /// A packet the decoder cannot decode fails AudioQueueEnqueueBuffer with the converter's
    /// status (named in the message), kAudioQueueProperty_ConverterError reports it, and the
    /// buffer stays with the app: the intact packet enqueues afterwards.
    func testUndecodablePacketFailsEnqueueWithTheConverterError() throws {
        let stream = try CompressedFixture.stream("flac")
        var format = stream.format
        var created: AudioQueueRef?
        XCTAssertEqual(AudioQueueNewOutput(&format, silentCallback, nil, nil, nil, 0, &created), noErr, lastErrorMessage)
        let queue = try XCTUnwrap(created)
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        XCTAssertEqual(AudioQueueSetProperty(queue, kAudioQueueProperty_MagicCookie, stream.cookie, UInt32(stream.cookie.count)), noErr)
        var allocated: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(queue, 65_536, &allocated), noErr)
        let buffer = try XCTUnwrap(allocated)
        let packet = Array(stream.bytes[stream.packets[0]])
        var corrupt = packet
        for i in (corrupt.count / 2)..<(corrupt.count / 2 + 64) { corrupt[i] ^= 0x5A }  // the frame's CRC no longer matches
        var description = AudioStreamPacketDescription(mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: UInt32(packet.count))
        corrupt.withUnsafeBytes { buffer.pointee.mAudioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        buffer.pointee.mAudioDataByteSize = UInt32(packet.count)
        let status = AudioQueueEnqueueBuffer(queue, buffer, 1, &description)
        XCTAssertNotEqual(status, noErr, "a corrupt FLAC frame")
        XCTAssertTrue(lastErrorMessage.contains("did not decode"), lastErrorMessage)
        var reported: Int32 = 0
        var size = UInt32(4)
        XCTAssertEqual(AudioQueueGetProperty(queue, kAudioQueueProperty_ConverterError, &reported, &size), noErr)
        XCTAssertEqual(reported, status)
        packet.withUnsafeBytes { buffer.pointee.mAudioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        XCTAssertEqual(
            AudioQueueEnqueueBuffer(queue, buffer, 1, &description), noErr, "the buffer was not left enqueued: \(lastErrorMessage)")
    }

    /// Apple's three-buffer playback pattern over `stream`, rendered offline in `format`;
    /// returns the rendered bytes.
    private func playOffline(_ stream: CompressedStream, as format: AudioStreamBasicDescription, passDescriptions: Bool) throws -> [UInt8] {
        let state = CompressedPlaybackState(stream: stream, passDescriptions: passDescriptions)
        var description = stream.format
        var created: AudioQueueRef?
        let user = Unmanaged.passUnretained(state).toOpaque()
        XCTAssertEqual(AudioQueueNewOutput(&description, compressedPlaybackCallback, user, nil, nil, 0, &created), noErr, lastErrorMessage)
        let queue = try XCTUnwrap(created)
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        if !stream.cookie.isEmpty {
            XCTAssertEqual(
                AudioQueueSetProperty(queue, kAudioQueueProperty_MagicCookie, stream.cookie, UInt32(stream.cookie.count)), noErr,
                lastErrorMessage)
        }
        var offline = format
        XCTAssertEqual(AudioQueueSetOfflineRenderFormat(queue, &offline, nil), noErr, lastErrorMessage)
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            XCTAssertEqual(AudioQueueAllocateBufferWithPacketDescriptions(queue, 16_384, 32, &buffer), noErr)
            compressedPlaybackCallback(user, queue, try XCTUnwrap(buffer))
        }
        XCTAssertNil(state.failure)
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr, lastErrorMessage)
        var capture: AudioQueueBufferRef?
        let chunk = 4_096
        XCTAssertEqual(AudioQueueAllocateBuffer(queue, UInt32(chunk) * format.mBytesPerFrame, &capture), noErr)
        let output = try XCTUnwrap(capture)
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        XCTAssertEqual(AudioQueueOfflineRender(queue, &time, output, 0), noErr, lastErrorMessage)
        var rendered: [UInt8] = []
        for _ in 0..<1_000 {
            XCTAssertEqual(AudioQueueOfflineRender(queue, &time, output, UInt32(chunk)), noErr, lastErrorMessage)
            let bytes = Int(output.pointee.mAudioDataByteSize)
            rendered += UnsafeRawBufferPointer(start: output.pointee.mAudioData, count: bytes)
            time.mSampleTime += Double(bytes / Int(format.mBytesPerFrame))
            if bytes < chunk * Int(format.mBytesPerFrame) { break }
        }
        XCTAssertNil(state.failure)
        XCTAssertEqual(state.nextPacket, stream.packets.count, "every packet was enqueued")
        XCTAssertGreaterThan(state.callbacks, 3, "buffers came back and were refilled")
        XCTAssertTrue(state.stopped, "the callback stopped the queue at the end of the packets")
        return rendered
    }
}

/// A parsed compressed file: its format, cookie, and packets (byte ranges of `bytes`).
struct CompressedStream {
    var format = AudioStreamBasicDescription()
    var cookie: [UInt8] = []
    var bytes: [UInt8] = []
    var packets: [Range<Int>] = []
}

/// The playback callback's state: the next packet to send.
final class CompressedPlaybackState: @unchecked Sendable {
    let stream: CompressedStream
    let passDescriptions: Bool
    var nextPacket = 0
    var callbacks = 0
    var stopped = false
    var failure: String?
    var callbackThreads: Set<UInt> = []

    init(stream: CompressedStream, passDescriptions: Bool) {
        self.stream = stream
        self.passDescriptions = passDescriptions
    }
}

/// Fills the buffer with as many whole packets as fit (bytes and descriptions) and enqueues it
/// with their descriptions, or stops the queue (after what is queued) when none are left.
let compressedPlaybackCallback: AudioQueueOutputCallback = { userData, queue, buffer in
    let state = Unmanaged<CompressedPlaybackState>.fromOpaque(userData!).takeUnretainedValue()
    state.callbacks += 1
    state.callbackThreads.insert(UInt(pthread_self()))
    let packets = state.stream.packets
    guard state.nextPacket < packets.count else {
        if !state.stopped {
            state.stopped = true
            let status = AudioQueueStop(queue, false)
            if status != noErr { state.failure = "Stop(false): \(status)" }
        }
        return
    }
    var used = 0, count = 0
    let descriptions = buffer.pointee.mPacketDescriptions!
    while state.nextPacket + count < packets.count, count < Int(buffer.pointee.mPacketDescriptionCapacity) {
        let packet = packets[state.nextPacket + count]
        guard used + packet.count <= Int(buffer.pointee.mAudioDataBytesCapacity) else { break }
        state.stream.bytes.withUnsafeBytes { all in
            (buffer.pointee.mAudioData + used).copyMemory(from: all.baseAddress! + packet.lowerBound, byteCount: packet.count)
        }
        descriptions[count] = AudioStreamPacketDescription(
            mStartOffset: Int64(used), mVariableFramesInPacket: 0, mDataByteSize: UInt32(packet.count))
        used += packet.count
        count += 1
    }
    state.nextPacket += count
    buffer.pointee.mAudioDataByteSize = UInt32(used)
    buffer.pointee.mPacketDescriptionCount = UInt32(count)
    let status =
        state.passDescriptions
        ? AudioQueueEnqueueBuffer(queue, buffer, UInt32(count), descriptions) : AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
    if status != noErr { state.failure = "Enqueue: \(status) \(lastErrorMessage)" }
}

let silentCallback: AudioQueueOutputCallback = { _, _, _ in }
let silentInputCallback: AudioQueueInputCallback = { _, _, _, _, _, _ in }

/// The fixtures: a 1-second stereo 44.1 kHz 16-bit signal (two sines) made with sox, encoded with
/// lame, flac, oggenc and opusenc (scripts/debian-packages.txt), parsed with Audio File Stream Services.
enum CompressedFixture {
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-aq-compressed-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()
    static let lock = NSLock()

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The source WAV's PCM bytes (16-bit little-endian, interleaved).
    static func sourcePCM() throws -> [UInt8] {
        try makeSource()
        let wav = Array(try Data(contentsOf: URL(fileURLWithPath: path("source.wav"))))
        var i = 12
        while i + 8 <= wav.count {
            let size = Int(wav[i + 4]) | Int(wav[i + 5]) << 8 | Int(wav[i + 6]) << 16 | Int(wav[i + 7]) << 24
            if wav[i..<(i + 4)].elementsEqual("data".utf8) { return Array(wav[(i + 8)..<min(i + 8 + size, wav.count)]) }
            i += 8 + size + (size & 1)
        }
        throw XCTSkip("sox wrote a WAV without a data chunk")
    }

    private static func makeSource() throws {
        try lock.withLock {
            guard !FileManager.default.fileExists(atPath: path("source.wav")) else { return }
            // -R: repeatable dither, so every run encodes the same file (with random dither about one
            // FLAC file in six had its last frame split by the stream parser at a chance CRC-16 zero).
            try run(
                "sox", "-R", "-n", "-r", "44100", "-c", "2", "-b", "16", path("source.wav"), "synth", "1", "sine", "441", "sine", "1000",
                "vol", "0.5")
        }
    }

    /// The fixture `kind` (mp3, flac, ogg (Vorbis) or opus) parsed into packets.
    static func stream(_ kind: String) throws -> CompressedStream {
        try makeSource()
        let file = path("fixture." + kind)
        if !FileManager.default.fileExists(atPath: file) {
            switch kind {
            case "mp3": try run("lame", "--quiet", "-b", "128", path("source.wav"), file)
            case "ogg": try run("oggenc", "--quiet", "-o", file, path("source.wav"))
            case "opus": try run("opusenc", "--quiet", path("source.wav"), file)
            default: try run("flac", "--silent", "-f", "-o", file, path("source.wav"))
            }
        }
        return try parse(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
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

    /// Parses the whole file with AudioFileStream, collecting the format, cookie and packets.
    static func parse(_ file: [UInt8]) throws -> CompressedStream {
        final class Box { var stream = CompressedStream() }
        let box = Box()
        var id: AudioFileStreamID?
        let listener: AudioFileStream_PropertyListenerProc = { user, stream, property, _ in
            let box = Unmanaged<Box>.fromOpaque(user!).takeUnretainedValue()
            if property == kAudioFileStreamProperty_DataFormat {
                var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
                _ = AudioFileStreamGetProperty(stream, property, &size, &box.stream.format)
            } else if property == kAudioFileStreamProperty_MagicCookieData {
                var size: UInt32 = 0
                guard AudioFileStreamGetPropertyInfo(stream, property, &size, nil) == noErr, size > 0 else { return }
                box.stream.cookie = [UInt8](repeating: 0, count: Int(size))
                _ = AudioFileStreamGetProperty(stream, property, &size, &box.stream.cookie)
            }
        }
        let packets: AudioFileStream_PacketsProc = { user, byteCount, packetCount, data, descriptions in
            let box = Unmanaged<Box>.fromOpaque(user!).takeUnretainedValue()
            let base = box.stream.bytes.count
            box.stream.bytes += UnsafeRawBufferPointer(start: data, count: Int(byteCount))
            for i in 0..<Int(packetCount) {
                let d = descriptions![i]
                box.stream.packets.append((base + Int(d.mStartOffset))..<(base + Int(d.mStartOffset) + Int(d.mDataByteSize)))
            }
        }
        let user = Unmanaged.passUnretained(box).toOpaque()
        XCTAssertEqual(AudioFileStreamOpen(user, listener, packets, 0, &id), noErr)
        let stream = try XCTUnwrap(id)
        defer { AudioFileStreamClose(stream) }
        XCTAssertEqual(
            file.withUnsafeBytes { AudioFileStreamParseBytes(stream, UInt32($0.count), $0.baseAddress, []) }, noErr, lastErrorMessage)
        XCTAssertFalse(box.stream.packets.isEmpty, "the stream gave packets")
        return box.stream
    }

    /// Every packet of `stream` through one AudioConverter (compressed → Float32 interleaved),
    /// in one run: the reference the queue must match.
    static func converterDecode(_ stream: CompressedStream) throws -> [Float] {
        var input = stream.format
        var output = float32Format(channels: stream.format.mChannelsPerFrame, rate: stream.format.mSampleRate)
        var made: AudioConverterRef?
        XCTAssertEqual(AudioConverterNew(&input, &output, &made), noErr, lastErrorMessage)
        let converter = try XCTUnwrap(made)
        defer { AudioConverterDispose(converter) }
        if !stream.cookie.isEmpty {
            XCTAssertEqual(
                AudioConverterSetProperty(converter, kAudioConverterDecompressionMagicCookie, UInt32(stream.cookie.count), stream.cookie),
                noErr)
        }
        final class Feed {
            let stream: CompressedStream
            var next = 0
            var description = AudioStreamPacketDescription()
            init(_ stream: CompressedStream) { self.stream = stream }
        }
        let feed = Feed(stream)
        let proc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, outDescriptions, user in
            let feed = Unmanaged<Feed>.fromOpaque(user!).takeUnretainedValue()
            guard feed.next < feed.stream.packets.count else {
                ioPackets.pointee = 0
                return noErr
            }
            let packet = feed.stream.packets[feed.next]
            feed.next += 1
            let list = UnsafeMutableAudioBufferListPointer(ioData)
            feed.stream.bytes.withUnsafeBytes { list[0].mData = UnsafeMutableRawPointer(mutating: $0.baseAddress! + packet.lowerBound) }
            list[0].mDataByteSize = UInt32(packet.count)
            feed.description = AudioStreamPacketDescription(
                mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: UInt32(packet.count))
            withUnsafeMutablePointer(to: &feed.description) { outDescriptions?.pointee = $0 }
            ioPackets.pointee = 1
            return noErr
        }
        var decoded: [Float] = []
        let channels = Int(output.mChannelsPerFrame)
        var chunk = [Float](repeating: 0, count: 4_096 * channels)
        while true {
            var frames: UInt32 = 4_096
            let status = chunk.withUnsafeMutableBytes { raw in
                var list = AudioBufferList(
                    mNumberBuffers: 1,
                    mBuffers: AudioBuffer(mNumberChannels: UInt32(channels), mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
                return AudioConverterFillComplexBuffer(converter, proc, Unmanaged.passUnretained(feed).toOpaque(), &frames, &list, nil)
            }
            XCTAssertEqual(status, noErr, lastErrorMessage)
            if status != noErr || frames == 0 { break }
            decoded += chunk.prefix(Int(frames) * channels)
        }
        return decoded
    }
}

extension Array where Element == UInt8 {
    /// Little-endian 16-bit values of the bytes.
    var reinterpretedInt16: [Int16] {
        stride(from: 0, to: count - 1, by: 2).map { Int16(bitPattern: UInt16(self[$0]) | UInt16(self[$0 + 1]) << 8) }
    }
}
