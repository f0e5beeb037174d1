import AudioConverterServices
import AudioFileStreamServices
import AudioToolbox
import AudioTypes
import XCTest

/// What each container's stream says about itself, checked against what the file holds.
final class StreamPropertyTests: XCTestCase {
    func testPCMContainersGiveTheirFormatAndEveryFrame() throws {
        let pcm = StreamFixtures.wavData(try StreamFixtures.file("wav16"))
        XCTAssertEqual(pcm.count, 44_100 * 4)
        for (name, type, bigEndian) in [
            ("wav16", kAudioFileWAVEType, false), ("aiff", kAudioFileAIFFType, true), ("aifc-sowt", kAudioFileAIFCType, false),
            ("caf", kAudioFileCAFType, true),
        ] {
            let file = try StreamFixtures.file(name)
            let record = try parse(file)
            let p = record.properties
            XCTAssertEqual(p.fileFormat, type, name)
            let format = try XCTUnwrap(p.dataFormat, name)
            XCTAssertEqual(format.mSampleRate, 44_100, name)
            XCTAssertEqual(format.mChannelsPerFrame, 2, name)
            XCTAssertEqual(format.mBitsPerChannel, 16, name)
            XCTAssertEqual(format.mBytesPerFrame, 4, name)
            XCTAssertEqual(format.mFormatFlags & kAudioFormatFlagIsBigEndian != 0, bigEndian, name)
            XCTAssertEqual(format.mFormatFlags & kAudioFormatFlagIsSignedInteger, kAudioFormatFlagIsSignedInteger, name)
            XCTAssertEqual(record.pcmPackets, 44_100, name)
            XCTAssertEqual(p.audioDataPacketCount, 44_100, name)
            XCTAssertEqual(p.audioDataByteCount, UInt64(44_100 * 4), name)
            // DataOffset points at the first frame in the file, and the packets are the file's bytes from there.
            let offset = Int(try XCTUnwrap(p.dataOffset, name))
            XCTAssertEqual(Array(file[offset..<(offset + record.bytes.count)]), record.bytes, name)
            // The samples are the source's (byte-swapped where the container is big-endian).
            let samples =
                bigEndian
                ? stride(from: 0, to: record.bytes.count, by: 2).flatMap { [record.bytes[$0 + 1], record.bytes[$0]] } : record.bytes
            XCTAssertEqual(samples, pcm, name)
            XCTAssertEqual(record.notifications.last, kAudioFileStreamProperty_ReadyToProducePackets, name)
        }
        let float = try parse(try StreamFixtures.file("wavf32")).properties.dataFormat
        XCTAssertEqual(float?.mFormatFlags ?? 0 & kAudioFormatFlagIsFloat, kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked)
        XCTAssertEqual(float?.mBitsPerChannel, 32)
    }

    func testMP3FramesAreTheFileBytesAfterTheTag() throws {
        let file = try StreamFixtures.file("mp3")
        let record = try parse(file)
        let p = record.properties
        XCTAssertEqual(p.fileFormat, 0x4D50_4733)  // 'MPG3'
        XCTAssertEqual(p.dataFormat?.mFormatID, kAudioFormatMPEGLayer3)
        XCTAssertEqual(p.dataFormat?.mFramesPerPacket, 1_152)
        XCTAssertEqual(p.dataFormat?.mSampleRate, 44_100)
        XCTAssertEqual(p.dataFormat?.mChannelsPerFrame, 2)
        XCTAssertEqual(p.bitRate, 128_000)
        XCTAssertEqual(p.packetSizeUpperBound, 1_441)
        // lame writes an Info frame, then the frames of 1 s (≥ 39 frames of 1152), nothing else.
        let offset = Int(try XCTUnwrap(p.dataOffset))
        XCTAssertEqual(Array(file[offset...]), record.bytes)
        XCTAssertGreaterThanOrEqual(record.packetSizes.count, 40)
        XCTAssertTrue(record.packetSizes.allSatisfy { $0 == 417 || $0 == 418 || $0 < 417 }, "128 kbit/s at 44.1 kHz: 417/418-byte frames")
    }

    func testFLACFramesCoverTheStreamAndCarryTheirSampleCounts() throws {
        for (name, rate, bits, samples) in [("flac", 44_100.0, 16, 44_100), ("flac24", 48_000.0, 24, 33_600)] {
            let file = try StreamFixtures.file(name)
            let record = try parse(file)
            let p = record.properties
            XCTAssertEqual(p.fileFormat, kAudioFileFLACType)
            XCTAssertEqual(p.dataFormat?.mFormatID, kAudioFormatFLAC)
            XCTAssertEqual(p.dataFormat?.mSampleRate, rate)
            XCTAssertEqual(p.dataFormat?.mBitsPerChannel, UInt32(bits))
            XCTAssertEqual(p.dataFormat?.mFramesPerPacket, 4_096)
            let cookie = try XCTUnwrap(p.magicCookie)
            XCTAssertEqual(cookie.count, 42)
            XCTAssertEqual(Array(cookie.prefix(4)), Array("fLaC".utf8))
            let offset = Int(try XCTUnwrap(p.dataOffset))
            XCTAssertEqual(Array(file[offset...]), record.bytes, "\(name): the frames are the rest of the file")
            XCTAssertEqual(record.packetFrames.reduce(0) { $0 + Int($1) }, samples, name)
            XCTAssertEqual(UInt64(record.packetSizes.count), p.audioDataPacketCount, name)
        }
    }

    func testOggHeadersBecomeTheCookieAndAudioPacketsFollow() throws {
        let vorbis = try parse(try StreamFixtures.file("ogg-vorbis"))
        XCTAssertEqual(vorbis.properties.fileFormat, kAudioFileOggType)
        XCTAssertEqual(vorbis.properties.dataFormat?.mFormatID, kAudioFormatVorbis)
        XCTAssertEqual(vorbis.properties.dataFormat?.mSampleRate, 44_100)
        let headers = try XCTUnwrap(XiphLacing.split(try XCTUnwrap(vorbis.properties.magicCookie)))
        XCTAssertEqual(headers.count, 3)
        XCTAssertEqual(headers.map { $0.first }, [1, 3, 5], "identification, comment, setup")
        // Frame counts: the first packet gives none, the rest sum to the length (± the last block's trim).
        let vorbisFrames = vorbis.packetFrames.reduce(0) { $0 + Int($1) }
        XCTAssertEqual(Double(vorbisFrames), 44_100, accuracy: 2_048)

        let opus = try parse(try StreamFixtures.file("ogg-opus"))
        XCTAssertEqual(opus.properties.dataFormat?.mFormatID, kAudioFormatOpus)
        XCTAssertEqual(opus.properties.dataFormat?.mSampleRate, 48_000)
        XCTAssertEqual(opus.properties.dataFormat?.mChannelsPerFrame, 2)
        XCTAssertEqual(Array(try XCTUnwrap(opus.properties.magicCookie).prefix(8)), Array("OpusHead".utf8))
        // opusenc: 20 ms packets of 960 frames; 1 s at 48 kHz plus the pre-skip.
        XCTAssertTrue(opus.packetFrames.allSatisfy { $0 == 960 })
        XCTAssertGreaterThanOrEqual(opus.packetFrames.count, 50)
    }

    func testFLACInCAFGivesTheSamePacketsAndCookieAsTheFLACFile() throws {
        let flac = try parse(try StreamFixtures.file("flac"))
        let caf = try parse(try StreamFixtures.file("caf-flac"))
        XCTAssertEqual(caf.properties.fileFormat, kAudioFileCAFType)
        XCTAssertEqual(caf.properties.dataFormat?.mFormatID, kAudioFormatFLAC)
        XCTAssertEqual(caf.properties.magicCookie, flac.properties.magicCookie)
        XCTAssertEqual(caf.packetSizes, flac.packetSizes)
        XCTAssertEqual(caf.bytes, flac.bytes)
        XCTAssertEqual(caf.properties.audioDataPacketCount, UInt64(flac.packetSizes.count))
        XCTAssertEqual(caf.properties.packetSizeUpperBound, flac.packetSizes.max())
        // Packet table after the data: not streamable.
        XCTAssertThrowsError(try parse(try StreamFixtures.flacCAF(packetTableFirst: false))) {
            XCTAssertEqual(($0 as? AudioError)?.status, kAudioFileStreamError_NotOptimized)
        }
    }

    /// The fuzzer's seeds are valid streams (so mutations start from files that parse to the end).
    func testEveryFuzzSeedParsesToPackets() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Corpus/AudioFileStream")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertGreaterThanOrEqual(names.count, 12)
        for name in names {
            let record = try parse(StreamFixtures.read(folder.appendingPathComponent(name).path))
            XCTAssertTrue(record.properties.readyToProducePackets, name)
            XCTAssertGreaterThan(record.packetSizes.count + record.pcmPackets, 0, name)
        }
    }

    func testBadStreamsGiveTheDocumentedErrors() throws {
        func status(_ bytes: [UInt8]) -> OSStatus {
            do {
                _ = try parse(bytes)
                return noErr
            } catch let error as AudioFileStreamServicesError {
                return error.status
            } catch {
                return -1
            }
        }
        XCTAssertEqual(status(Array("hello, this is not audio".utf8)), kAudioFileStreamError_UnsupportedFileType)
        var wav = try StreamFixtures.file("wav16")
        wav[20] = 0x55  // format tag 0x55: MP3 in WAVE
        XCTAssertEqual(status(wav), kAudioFileStreamError_UnsupportedDataFormat)
        var noChannels = try StreamFixtures.file("wav16")
        noChannels[22] = 0; noChannels[23] = 0
        XCTAssertEqual(status(noChannels), kAudioFileStreamError_InvalidFile)
        var flac = try StreamFixtures.file("flac")
        flac[8] = 0  // STREAMINFO length 0x000022 → 0x000000... makes it not 34
        flac[7] = 0
        XCTAssertEqual(status(flac), kAudioFileStreamError_InvalidFile)
    }

    func testCAPIDeliversWhatTheSwiftParserDoes() throws {
        let file = try StreamFixtures.file("flac")
        let expected = try parse(file)
        let collector = CAPICollector()
        var stream: AudioFileStreamID?
        XCTAssertEqual(
            AudioFileStreamOpen(Unmanaged.passUnretained(collector).toOpaque(), collectorListener, collectorPackets, 0, &stream), noErr)
        let id = try XCTUnwrap(stream)
        var size: UInt32 = 4
        var ready: UInt32 = 9
        XCTAssertEqual(AudioFileStreamGetProperty(id, kAudioFileStreamProperty_ReadyToProducePackets, &size, &ready), noErr)
        XCTAssertEqual(ready, 0)
        size = 8
        var offset: Int64 = 0
        XCTAssertEqual(
            AudioFileStreamGetProperty(id, kAudioFileStreamProperty_DataOffset, &size, &offset), kAudioFileStreamError_DataUnavailable)
        file.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count {
                let n = min(1_000, bytes.count - start)
                XCTAssertEqual(AudioFileStreamParseBytes(id, UInt32(n), bytes.baseAddress! + start, []), noErr)
                start += n
            }
        }
        XCTAssertEqual(AudioFileStreamParseBytes(id, 0, nil, []), noErr)
        XCTAssertEqual(collector.notifications, expected.notifications)
        XCTAssertEqual(collector.bytes, expected.bytes)
        XCTAssertEqual(collector.sizes, expected.packetSizes)
        size = 8
        XCTAssertEqual(AudioFileStreamGetProperty(id, kAudioFileStreamProperty_DataOffset, &size, &offset), noErr)
        XCTAssertEqual(offset, expected.properties.dataOffset)
        var cookieSize: UInt32 = 0
        var writable: DarwinBoolean = true
        XCTAssertEqual(AudioFileStreamGetPropertyInfo(id, kAudioFileStreamProperty_MagicCookieData, &cookieSize, &writable), noErr)
        XCTAssertEqual(cookieSize, 42)
        XCTAssertFalse(writable.boolValue)
        var format = AudioStreamBasicDescription()
        size = 4
        XCTAssertEqual(
            AudioFileStreamGetProperty(id, kAudioFileStreamProperty_DataFormat, &size, &format), kAudioFileStreamError_BadPropertySize)
        XCTAssertEqual(AudioFileStreamGetPropertyInfo(id, 0x7A7A_7A7A, nil, nil), kAudioFileStreamError_UnsupportedProperty)
        var translation = AudioFramePacketTranslation(mFrame: 10_000, mPacket: 0, mFrameOffsetInPacket: 0)
        size = UInt32(MemoryLayout<AudioFramePacketTranslation>.size)
        XCTAssertEqual(AudioFileStreamGetProperty(id, kAudioFileStreamProperty_FrameToPacket, &size, &translation), noErr)
        XCTAssertEqual(translation.mPacket, 2)
        XCTAssertEqual(translation.mFrameOffsetInPacket, 10_000 - 8_192)
        var seekOffset: Int64 = -1
        var flags = AudioFileStreamSeekFlags()
        XCTAssertEqual(AudioFileStreamSeek(id, 3, &seekOffset, &flags), noErr)
        XCTAssertTrue(flags.contains(.offsetIsEstimated))
        XCTAssertGreaterThan(seekOffset, 0)
        XCTAssertEqual(AudioFileStreamClose(id), noErr)
        XCTAssertEqual(AudioFileStreamClose(id), kAudio_ParamError)
    }

    func testSeekingInPCMThenADiscontinuityResumesAtThatPacket() throws {
        let file = try StreamFixtures.file("wav16")
        let parser = AudioFileStreamParser()
        var bytes: [UInt8] = []
        parser.onPackets = { data, _, _ in bytes += data }
        try file.withUnsafeBytes { try parser.parse(UnsafeRawBufferPointer(rebasing: $0[0..<1_000])) }
        let (offset, estimated) = try parser.seek(toPacket: 20_000)
        XCTAssertFalse(estimated)
        XCTAssertEqual(offset, 80_000)
        bytes.removeAll()
        let start = Int(parser.properties.dataOffset!) + Int(offset)
        try file.withUnsafeBytes { try parser.parse(UnsafeRawBufferPointer(rebasing: $0[start...]), discontinuity: true) }
        XCTAssertEqual(bytes, Array(file[start...]))
    }
}

typealias AudioFileStreamServicesError = AudioError

final class CAPICollector {
    var notifications: [AudioFileStreamPropertyID] = []
    var bytes: [UInt8] = []
    var sizes: [UInt32] = []
}

private let collectorListener: AudioFileStream_PropertyListenerProc = { client, _, property, _ in
    Unmanaged<CAPICollector>.fromOpaque(client!).takeUnretainedValue().notifications.append(property)
}

private let collectorPackets: AudioFileStream_PacketsProc = { client, size, count, data, descriptions in
    let collector = Unmanaged<CAPICollector>.fromOpaque(client!).takeUnretainedValue()
    collector.bytes += UnsafeRawBufferPointer(start: data, count: Int(size))
    for i in 0..<Int(count) { collector.sizes.append(descriptions![i].mDataByteSize) }
}
