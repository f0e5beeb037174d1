import AVFAudio
import Foundation
import XCTest

/// AVAudioCompressedBuffer and compressed AVAudioFormats as Apple's documentation describes them.
final class AVAudioCompressedBufferTests: XCTestCase {
    func flacFormat(channels: UInt32 = 2, bytesPerPacket: UInt32 = 0) -> AVAudioFormat {
        var d = AudioStreamBasicDescription(
            mSampleRate: 44_100, mFormatID: kAudioFormatFLAC, mFormatFlags: kAppleLosslessFormatFlag_16BitSourceData,
            mBytesPerPacket: bytesPerPacket, mFramesPerPacket: 4_096, mBytesPerFrame: 0, mChannelsPerFrame: channels, mBitsPerChannel: 0,
            mReserved: 0)
        return AVAudioFormat(streamDescription: &d)!
    }

    func testABufferOfVariablePacketsHasCapacityDescriptionsAndOneBufferOverItsData() {
        let buffer = AVAudioCompressedBuffer(format: flacFormat(), packetCapacity: 8, maximumPacketSize: 1_500)
        XCTAssertEqual(buffer.packetCapacity, 8)
        XCTAssertEqual(buffer.maximumPacketSize, 1_500)
        XCTAssertEqual(buffer.byteCapacity, 12_000, "packetCapacity × maximumPacketSize")
        XCTAssertEqual(buffer.packetCount, 0)
        XCTAssertEqual(buffer.byteLength, 0)
        let descriptions = try! XCTUnwrap(buffer.packetDescriptions, "variable packets have descriptions")
        for i in 0..<8 { XCTAssertEqual(descriptions[i].mDataByteSize, 0) }
        let list = UnsafeMutableAudioBufferListPointer(buffer.mutableAudioBufferList)
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list[0].mNumberChannels, 2)
        XCTAssertEqual(list[0].mData, buffer.data)
        buffer.byteLength = 777
        XCTAssertEqual(buffer.audioBufferList.pointee.mBuffers.mDataByteSize, 777, "byteLength is the list's size")
        list[0].mDataByteSize = 500
        XCTAssertEqual(buffer.byteLength, 500, "a call that fills the list sets byteLength")
        buffer.packetCount = 3
        XCTAssertEqual(buffer.packetCount, 3)
        XCTAssertTrue(buffer.format == flacFormat())
        // The storage is writable to its last byte.
        buffer.data.storeBytes(of: 0xAB, toByteOffset: 11_999, as: UInt8.self)
    }

    func testABufferOfConstantPacketsTakesItsSizeFromTheFormatAndHasNoDescriptions() {
        let buffer = AVAudioCompressedBuffer(format: flacFormat(channels: 1, bytesPerPacket: 418), packetCapacity: 10)
        XCTAssertEqual(buffer.maximumPacketSize, 418)
        XCTAssertEqual(buffer.byteCapacity, 4_180)
        XCTAssertNil(buffer.packetDescriptions)
        XCTAssertEqual(buffer.audioBufferList.pointee.mBuffers.mNumberChannels, 1)
    }

    func testCompressedFormatsAreOtherFormatsWithTheirStreamDescriptionAndSettings() throws {
        let flac = flacFormat()
        XCTAssertEqual(flac.commonFormat, .otherFormat)
        XCTAssertFalse(flac.isStandard)
        XCTAssertEqual(flac.sampleRate, 44_100)
        XCTAssertEqual(flac.channelCount, 2)
        XCTAssertEqual(flac.streamDescription.pointee.mFormatID, kAudioFormatFLAC)
        XCTAssertNil(flac.magicCookie)
        XCTAssertTrue(flac.description.contains("'flac'"), flac.description)
        XCTAssertNil(AVAudioPCMBuffer(pcmFormat: flac, frameCapacity: 10), "no PCM buffer of a compressed format")
        let layout = AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Stereo)!
        var d = flac.streamDescription.pointee
        XCTAssertEqual(AVAudioFormat(streamDescription: &d, channelLayout: layout)?.channelLayout, layout)

        // Settings, filled in as kAudioFormatProperty_FormatInfo fills a description without a cookie.
        let fromSettings = try XCTUnwrap(
            AVAudioFormat(settings: [
                AVFormatIDKey: kAudioFormatFLAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2, AVEncoderBitDepthHintKey: 16,
            ]))
        XCTAssertEqual(fromSettings, flac)
        XCTAssertEqual(fromSettings.settings[AVFormatIDKey] as? Int, Int(kAudioFormatFLAC))
        XCTAssertEqual(fromSettings.settings[AVEncoderBitDepthHintKey] as? Int, 16)
        XCTAssertNil(fromSettings.settings[AVLinearPCMBitDepthKey], "no PCM keys for a compressed format")
        XCTAssertEqual(AVAudioFormat(settings: fromSettings.settings), flac)
        let mp3 = try XCTUnwrap(
            AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEGLayer3, AVSampleRateKey: 44_100.0, AVNumberOfChannelsKey: 2]))
        XCTAssertEqual(mp3.streamDescription.pointee.mFramesPerPacket, 1_152)
        XCTAssertEqual(mp3.streamDescription.pointee.mBytesPerPacket, 0)
        let mp3Low = AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEGLayer3, AVSampleRateKey: 22_050, AVNumberOfChannelsKey: 1])
        XCTAssertEqual(mp3Low?.streamDescription.pointee.mFramesPerPacket, 576)
        let opus = AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatOpus, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 2])
        XCTAssertEqual(opus?.streamDescription.pointee.mFramesPerPacket, 960)
        XCTAssertEqual(opus?.commonFormat, .otherFormat)
        XCTAssertNil(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatOpus, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2]))
        XCTAssertNotNil(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatVorbis, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2]))
        XCTAssertNil(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2]))
        XCTAssertNil(AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatFLAC, AVSampleRateKey: 44_100]), "no channel count")
        XCTAssertNil(AVAudioFormat(settings: [AVFormatIDKey: -1, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2]), "not a format ID")
    }

    func testThereIsNoEncoderSoAConverterToACompressedFormatIsNil() {
        let pcm = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)!
        XCTAssertNil(AVAudioConverter(from: pcm, to: flacFormat()))
        let mp3 = AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEGLayer3, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2])!
        XCTAssertNil(AVAudioConverter(from: pcm, to: mp3))
        XCTAssertNotNil(AVAudioConverter(from: flacFormat(), to: pcm), "decoding is offered")
    }
}

/// Compressed files parsed with AudioFileStream into AVAudioCompressedBuffers and decoded with
/// AVAudioConverter, compared with the same packets through the C AudioConverter and with
/// libsndfile.
final class AVAudioCompressedConversionTests: XCTestCase {
    /// FLAC is lossless: decoded to Int16 through AVAudioConverter it is the source WAV's samples,
    /// bit for bit, and what ExtAudioFile (libsndfile's own FLAC reader) reads from the file.
    func testFLACDecodesToTheSourceSamplesBitForBit() throws {
        let path = try CompressedFixtures.path("flac")
        let stream = try ParsedStream(path: path)
        XCTAssertEqual(stream.format.mFormatID, kAudioFormatFLAC)
        XCTAssertNotNil(stream.cookie)
        let int16 = interleavedPCM(44_100, 2, bits: 16, float: false)
        let output = try XCTUnwrap(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44_100, channels: 2, interleaved: true))
        let input = try stream.avFormat()
        let converter = try XCTUnwrap(AVAudioConverter(from: input, to: output))
        let block = stream.inputBlock(input, perBuffer: 3)
        let buffer = try XCTUnwrap(AVAudioPCMBuffer(pcmFormat: output, frameCapacity: 1_000))
        var decoded: [UInt8] = []
        var statuses: [AVAudioConverterOutputStatus] = []
        repeat {
            var error: NSError?
            statuses.append(converter.convert(to: buffer, error: &error, withInputFrom: block))
            XCTAssertNil(error)
            decoded += UnsafeRawBufferPointer(start: buffer.int16ChannelData![0], count: Int(buffer.frameLength) * 4)
        } while statuses.last == .haveData && statuses.count < 1_000
        XCTAssertEqual(statuses.last, .endOfStream)
        XCTAssertEqual(buffer.frameLength, 0, "endOfStream comes with no frames")
        XCTAssertEqual(Set(statuses.dropLast()), [.haveData])

        let source = try extAudioFileRead(try CompressedFixtures.path("source.wav"), as: int16)
        XCTAssertEqual(source.count, 44_100 * 4)
        XCTAssertEqual(decoded.count, source.count)
        XCTAssertTrue(decoded == source, "the source's own samples")
        XCTAssertTrue(decoded == (try extAudioFileRead(path, as: int16)), "libsndfile reads the same samples")
    }

    /// MP3 and Opus: AVAudioConverter runs the C AudioConverter's decoders (libmpg123, libopus), so
    /// its Float32 output is bit for bit what AudioConverterFillComplexBuffer gives for the same
    /// packets, however the packets and the output are cut; the sines come through (amplitude 0.5,
    /// fitted over the middle of the second: within 0.01 for Opus, 0.05 for MP3, whose 128 kbit/s
    /// LAME encoding comes back about 5 % quieter, 0.475, in libmpg123 itself as in the C path).
    func testMP3AndOpusDecodeAsTheCAudioConverterDoesBitForBit() throws {
        for (name, rate) in [("mp3", 44_100.0), ("opus", 48_000.0)] {
            let stream = try ParsedStream(path: try CompressedFixtures.path(name))
            XCTAssertEqual(stream.format.mSampleRate, rate, name)
            let standard = try XCTUnwrap(AVAudioFormat(standardFormatWithSampleRate: rate, channels: 2))
            let (channels, statuses) = try stream.decodeWithAVAudioConverter(to: standard, perBuffer: 7, capacity: 999)
            XCTAssertEqual(statuses.last, .endOfStream, name)
            let reference = deinterleave(
                try stream.decodeWithAudioConverter(to: interleavedPCM(rate, 2, bits: 32, float: true)).withUnsafeBytes {
                    Array($0.bindMemory(to: Float.self))
                }, channels: 2)
            XCTAssertGreaterThan(reference[0].count, Int(rate) - 2_048, name)
            for c in 0..<2 {
                XCTAssertEqual(channels[c].count, reference[c].count, "\(name) channel \(c)")
                XCTAssertTrue(
                    channels[c].elementsEqual(reference[c]) { $0.bitPattern == $1.bitPattern }, "\(name) channel \(c): bit for bit")
            }
            for (c, frequency) in [(0, 441.0), (1, 1_000.0)] where channels[c].count >= Int(rate * 0.9) {
                let middle = Array(channels[c][Int(rate * 0.1)..<Int(rate * 0.9)])
                let level = amplitude(of: middle, frequency: frequency, rate: rate)
                XCTAssertEqual(level, 0.5, accuracy: name == "mp3" ? 0.05 : 0.01, "\(name) \(frequency) Hz")
            }
        }
    }

    /// Vorbis needs its cookie (the three header packets): from the input format, or set on the
    /// converter; without one the first conversion is an error, not a crash.
    func testVorbisDecodesWithTheCookieFromTheFormatOrTheConverterAndFailsWithout() throws {
        let stream = try ParsedStream(path: try CompressedFixtures.path("ogg"))
        let standard = try XCTUnwrap(AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2))
        let withCookie = try stream.decodeWithAVAudioConverter(to: standard).channels

        var d = stream.format
        let bare = try XCTUnwrap(AVAudioFormat(streamDescription: &d))
        let converter = try XCTUnwrap(AVAudioConverter(from: bare, to: standard))
        let buffer = try XCTUnwrap(AVAudioPCMBuffer(pcmFormat: standard, frameCapacity: 1_000))
        var error: NSError?
        XCTAssertEqual(converter.convert(to: buffer, error: &error, withInputFrom: stream.inputBlock(bare, perBuffer: 4)), .error)
        XCTAssertEqual(error?.domain, NSOSStatusErrorDomain)

        let late = try XCTUnwrap(AVAudioConverter(from: bare, to: standard))
        late.magicCookie = stream.cookie
        XCTAssertEqual(late.magicCookie, stream.cookie)
        var left: [Float] = []
        let block = stream.inputBlock(bare, perBuffer: 5)
        while true {
            error = nil
            let status = late.convert(to: buffer, error: &error, withInputFrom: block)
            XCTAssertNotEqual(status, .error, "\(String(describing: error))")
            left += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
            if status != .haveData { break }
        }
        XCTAssertEqual(left.count, withCookie[0].count)
        XCTAssertTrue(left.elementsEqual(withCookie[0]) { $0.bitPattern == $1.bitPattern })
        XCTAssertEqual(amplitude(of: Array(left[4_410..<39_690]), frequency: 441, rate: 44_100), 0.5, accuracy: 0.01)
    }

    /// One FLAC packet (4096 frames) and then no data for now: haveData until the packet is out,
    /// then inputRanDry with no frames; at the end of the input, endOfStream. After a reset, a
    /// later packet decodes to the source from its first frame (a seek).
    func testInputRanDryEndOfStreamAndResetFollowApples() throws {
        let stream = try ParsedStream(path: try CompressedFixtures.path("flac"))
        let input = try stream.avFormat()
        let output = try XCTUnwrap(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44_100, channels: 2, interleaved: true))
        let converter = try XCTUnwrap(AVAudioConverter(from: input, to: output))
        let buffer = try XCTUnwrap(AVAudioPCMBuffer(pcmFormat: output, frameCapacity: 1_000))
        let one = stream.inputBlock(input, perBuffer: 1)
        var given = false
        var frames = 0
        var statuses: [AVAudioConverterOutputStatus] = []
        repeat {
            var error: NSError?
            statuses.append(
                converter.convert(to: buffer, error: &error) { n, outStatus in
                    if given {
                        outStatus.pointee = .noDataNow
                        return nil
                    }
                    given = true
                    return one(n, outStatus)
                })
            frames += Int(buffer.frameLength)
        } while statuses.last == .haveData && statuses.count < 100
        XCTAssertEqual(frames, 4_096)
        XCTAssertEqual(statuses.last, .inputRanDry)
        XCTAssertEqual(buffer.frameLength, 0)
        var error: NSError?
        XCTAssertEqual(
            converter.convert(to: buffer, error: &error) { _, outStatus in
                outStatus.pointee = .endOfStream
                return nil
            }, .endOfStream)

        converter.reset()
        let source = try extAudioFileRead(try CompressedFixtures.path("source.wav"), as: interleavedPCM(44_100, 2, bits: 16, float: false))
        let later = stream.inputBlock(input, from: 5, perBuffer: 2)
        XCTAssertEqual(converter.convert(to: buffer, error: &error, withInputFrom: later), .haveData)
        XCTAssertEqual(buffer.frameLength, 1_000)
        let bytes = Array(UnsafeRawBufferPointer(start: buffer.int16ChannelData![0], count: 4_000))
        XCTAssertTrue(bytes == Array(source[(5 * 4_096 * 4)..<(5 * 4_096 * 4 + 4_000)]), "packet 5 decodes to the source's frame 20480 on")
    }

    /// Bad compressed buffers end the conversion with an error in NSOSStatusErrorDomain, never a
    /// crash or a read past the buffer.
    func testBadCompressedBuffersAreErrors() throws {
        let stream = try ParsedStream(path: try CompressedFixtures.path("flac"))
        let input = try stream.avFormat()
        let output = try XCTUnwrap(AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2))
        let out = try XCTUnwrap(AVAudioPCMBuffer(pcmFormat: output, frameCapacity: 4_096))
        func convert(_ change: @escaping (AVAudioCompressedBuffer) -> AVAudioBuffer) throws -> NSError? {
            let converter = try XCTUnwrap(AVAudioConverter(from: input, to: output))
            let block = stream.inputBlock(input, perBuffer: 3)
            var error: NSError?
            let status = converter.convert(to: out, error: &error) { n, outStatus in
                block(n, outStatus).map { change($0 as! AVAudioCompressedBuffer) }
            }
            XCTAssertEqual(status, .error)
            return error
        }
        // A packet described past byteLength (but inside the storage).
        var error = try convert { buffer in
            buffer.packetDescriptions![2].mDataByteSize += 1
            return buffer
        }
        XCTAssertEqual(error?.code, Int(kAudioConverterErr_InvalidInputSize))
        XCTAssertTrue(error?.localizedDescription.contains("Packet 2") == true, "\(String(describing: error))")
        // A packet at a negative offset, and one at an offset near Int64.max.
        for offset in [-1, Int64.max - 2] {
            error = try convert { buffer in
                buffer.packetDescriptions![1].mStartOffset = offset
                return buffer
            }
            XCTAssertEqual(error?.code, Int(kAudioConverterErr_InvalidInputSize))
        }
        // More packets than the buffer has room (and descriptions) for.
        error = try convert { buffer in
            buffer.packetCount = buffer.packetCapacity + 1
            return buffer
        }
        XCTAssertEqual(error?.code, Int(kAudioConverterErr_InvalidInputSize))
        XCTAssertTrue(error?.localizedDescription.contains("packetCapacity") == true, "\(String(describing: error))")
        // More valid bytes than storage.
        error = try convert { buffer in
            buffer.byteLength = buffer.byteCapacity + 1
            return buffer
        }
        XCTAssertEqual(error?.code, Int(kAudioConverterErr_InvalidInputSize))
        XCTAssertTrue(error?.localizedDescription.contains("byteCapacity") == true, "\(String(describing: error))")
        // A PCM buffer, and a compressed buffer of another format.
        error = try convert { _ in AVAudioPCMBuffer(pcmFormat: output, frameCapacity: 10)! }
        XCTAssertEqual(error?.code, Int(kAudioConverterErr_FormatNotSupported))
        let mp3 = AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatMPEGLayer3, AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 2])!
        error = try convert { _ in AVAudioCompressedBuffer(format: mp3, packetCapacity: 1, maximumPacketSize: 10) }
        XCTAssertEqual(error?.code, Int(kAudioConverterErr_FormatNotSupported))
        // A corrupt packet: libFLAC's complaint.
        error = try convert { buffer in
            buffer.data.storeBytes(of: buffer.data.load(fromByteOffset: 100, as: UInt8.self) ^ 0xFF, toByteOffset: 100, as: UInt8.self)
            return buffer
        }
        XCTAssertTrue(error?.localizedDescription.contains("FLAC") == true, "\(String(describing: error))")
    }

    /// The amplitude of the sine at `frequency` in `samples` (least squares on sine and cosine).
    func amplitude(of samples: [Float], frequency: Double, rate: Double) -> Double {
        var ss = 0.0, sc = 0.0, cc = 0.0, ys = 0.0, yc = 0.0
        for (n, y) in samples.enumerated() {
            let phase = 2 * Double.pi * frequency * Double(n) / rate
            let s = sin(phase), c = cos(phase)
            ss += s * s; sc += s * c; cc += c * c; ys += Double(y) * s; yc += Double(y) * c
        }
        let det = ss * cc - sc * sc
        let a = (ys * cc - yc * sc) / det, b = (yc * ss - ys * sc) / det
        return (a * a + b * b).squareRoot()
    }
}
