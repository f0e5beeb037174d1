import AUHost
import AudioToolbox
import AudioTypes
import XCTest

/// Audio Format Services: FormatInfo fills the ASBDs AudioFormat.h documents field by field for
/// PCM and each compressed format's cookie; names, format lists and channel layouts.
final class AudioFormatTests: XCTestCase {
    private func asbd(
        _ rate: Float64, _ format: AudioFormatID, flags: AudioFormatFlags = 0, bytesPerPacket: UInt32 = 0, framesPerPacket: UInt32 = 0,
        bytesPerFrame: UInt32 = 0, channels: UInt32 = 0, bits: UInt32 = 0
    ) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            mSampleRate: rate, mFormatID: format, mFormatFlags: flags, mBytesPerPacket: bytesPerPacket, mFramesPerPacket: framesPerPacket,
            mBytesPerFrame: bytesPerFrame, mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0)
    }

    private func formatInfo(_ input: AudioStreamBasicDescription, cookie: [UInt8] = [], file: StaticString = #filePath, line: UInt = #line)
        -> AudioStreamBasicDescription
    {
        var value = input
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        let status = cookie.withUnsafeBytes {
            AudioFormatGetProperty(
                kAudioFormatProperty_FormatInfo, UInt32(cookie.count), cookie.isEmpty ? nil : $0.baseAddress, &size, &value)
        }
        XCTAssertEqual(status, noErr, file: file, line: line)
        return value
    }

    private func assertEqual(
        _ a: AudioStreamBasicDescription, _ b: AudioStreamBasicDescription, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertTrue(
            a.mSampleRate == b.mSampleRate && a.mFormatID == b.mFormatID && a.mFormatFlags == b.mFormatFlags
                && a.mBytesPerPacket == b.mBytesPerPacket && a.mFramesPerPacket == b.mFramesPerPacket
                && a.mBytesPerFrame == b.mBytesPerFrame
                && a.mChannelsPerFrame == b.mChannelsPerFrame && a.mBitsPerChannel == b.mBitsPerChannel,
            "\(a) != \(b)", file: file, line: line)
    }

    /// PCM: one frame per packet and whole bytes per sample (FillOutASBDForLPCM), packed added.
    func testFormatInfoForLinearPCM() {
        let float = formatInfo(asbd(48_000, kAudioFormatLinearPCM, flags: kAudioFormatFlagIsFloat, channels: 2, bits: 32))
        assertEqual(
            float,
            asbd(
                48_000, kAudioFormatLinearPCM, flags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked, bytesPerPacket: 8,
                framesPerPacket: 1, bytesPerFrame: 8, channels: 2, bits: 32))
        let split = formatInfo(
            asbd(
                44_100, kAudioFormatLinearPCM, flags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsNonInterleaved, channels: 2,
                bits: 24))
        assertEqual(
            split,
            asbd(
                44_100, kAudioFormatLinearPCM,
                flags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsNonInterleaved | kAudioFormatFlagIsPacked, bytesPerPacket: 3,
                framesPerPacket: 1, bytesPerFrame: 3, channels: 2, bits: 24))
        var noChannels = asbd(44_100, kAudioFormatLinearPCM, bits: 16)
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        XCTAssertEqual(
            AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &noChannels), kAudioFormatUnsupportedDataFormatError)
    }

    /// MP3: 1152 frames per packet (MPEG-1), 576 at the MPEG-2 rates; compressed fields 0.
    func testFormatInfoForMP3() {
        assertEqual(
            formatInfo(asbd(44_100, kAudioFormatMPEGLayer3, channels: 2)),
            asbd(44_100, kAudioFormatMPEGLayer3, framesPerPacket: 1_152, channels: 2))
        assertEqual(
            formatInfo(asbd(22_050, kAudioFormatMPEGLayer3, channels: 1)),
            asbd(22_050, kAudioFormatMPEGLayer3, framesPerPacket: 576, channels: 1))
    }

    /// "fLaC" + a STREAMINFO block with these fields (big-endian bit fields, RFC 9639 §8.2).
    private func flacCookie(minBlock: Int, maxBlock: Int, rate: Int, channels: Int, bits: Int) -> [UInt8] {
        var fields: [(Int, Int)] = [(minBlock, 16), (maxBlock, 16), (0, 24), (0, 24), (rate, 20), (channels - 1, 3), (bits - 1, 5)]
        fields += [(0, 36)] + Array(repeating: (0, 8), count: 16)
        var bitString: [Int] = []
        for (value, width) in fields { bitString += (0..<width).reversed().map { (value >> $0) & 1 } }
        let streamInfo = stride(from: 0, to: bitString.count, by: 8).map { start in
            UInt8(bitString[start..<start + 8].reduce(0) { $0 << 1 | $1 })
        }
        return Array("fLaC".utf8) + [0x80, 0, 0, 34] + streamInfo
    }

    /// FLAC: rate, channels and frames per packet (the maximum block size) from STREAMINFO; the
    /// source bit depth as Apple's ALAC/FLAC flags.
    func testFormatInfoForFLACCookies() {
        let sixteen = flacCookie(minBlock: 4_096, maxBlock: 4_096, rate: 44_100, channels: 2, bits: 16)
        assertEqual(
            formatInfo(asbd(0, kAudioFormatFLAC), cookie: sixteen),
            asbd(44_100, kAudioFormatFLAC, flags: kAppleLosslessFormatFlag_16BitSourceData, framesPerPacket: 4_096, channels: 2))
        let twentyFour = flacCookie(minBlock: 1_152, maxBlock: 4_608, rate: 96_000, channels: 6, bits: 24)
        assertEqual(
            formatInfo(asbd(0, kAudioFormatFLAC), cookie: twentyFour),
            asbd(96_000, kAudioFormatFLAC, flags: kAppleLosslessFormatFlag_24BitSourceData, framesPerPacket: 4_608, channels: 6))
        let twenty = flacCookie(minBlock: 192, maxBlock: 192, rate: 48_000, channels: 1, bits: 20)
        XCTAssertEqual(formatInfo(asbd(0, kAudioFormatFLAC), cookie: twenty).mFormatFlags, kAppleLosslessFormatFlag_20BitSourceData)
        var bad = asbd(0, kAudioFormatFLAC)
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        let short: [UInt8] = Array("fLaC".utf8)
        XCTAssertEqual(
            AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 4, short, &size, &bad), kAudioFormatUnsupportedDataFormatError)
    }

    /// Opus: 48 kHz whatever the header's input rate; channels from OpusHead; 960 frames per packet.
    func testFormatInfoForOpusCookie() {
        let head = Array("OpusHead".utf8) + [1, 2, 0x38, 0x01, 0x44, 0xAC, 0, 0, 0, 0, 0]  // pre-skip 312, input rate 44100
        assertEqual(formatInfo(asbd(0, kAudioFormatOpus), cookie: head), asbd(48_000, kAudioFormatOpus, framesPerPacket: 960, channels: 2))
    }

    /// Vorbis: rate and channels from the identification header inside the laced cookie.
    func testFormatInfoForVorbisCookie() {
        let identification: [UInt8] =
            [1] + Array("vorbis".utf8) + [0, 0, 0, 0, 1, 0x22, 0x56, 0, 0] + Array(repeating: 0, count: 12) + [0xB8, 1]
        let comment: [UInt8] = [3] + Array("vorbis".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 1]
        let setup: [UInt8] = [5] + Array("vorbis".utf8)
        let cookie = [2, UInt8(identification.count), UInt8(comment.count)] + identification + comment + setup
        assertEqual(formatInfo(asbd(0, kAudioFormatVorbis), cookie: cookie), asbd(22_050, kAudioFormatVorbis, channels: 1))
    }

    private func name(_ property: AudioFormatPropertyID, _ specifier: UnsafeRawPointer, _ size: Int) -> String? {
        var name: Unmanaged<CFString>?
        var dataSize = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
        XCTAssertEqual(AudioFormatGetProperty(property, UInt32(size), specifier, &dataSize, &name), noErr)
        return String(cfString: name?.takeRetainedValue())
    }

    func testFormatNamesAreReadable() {
        var pcm = asbd(
            44_100, kAudioFormatLinearPCM, flags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, bytesPerPacket: 4,
            framesPerPacket: 1, bytesPerFrame: 4, channels: 2, bits: 16)
        XCTAssertEqual(
            name(kAudioFormatProperty_FormatName, &pcm, 40), "Linear PCM, 16 bit little-endian signed integer, 2 channels, 44100 Hz")
        var float = asbd(48_000, kAudioFormatLinearPCM, flags: kAudioFormatFlagsAudioUnitCanonical, channels: 1, bits: 32)
        XCTAssertEqual(
            name(kAudioFormatProperty_FormatName, &float, 40), "Linear PCM, 32 bit little-endian float, 1 channel, 48000 Hz, deinterleaved")
        for (format, text) in [
            (kAudioFormatMPEGLayer3, "MPEG Layer 3"), (kAudioFormatFLAC, "FLAC"), (kAudioFormatOpus, "Opus"),
            (kAudioFormatVorbis, "Vorbis"),
        ] {
            var compressed = asbd(44_100, format, channels: 2)
            XCTAssertEqual(name(kAudioFormatProperty_FormatName, &compressed, 40), "\(text), 2 channels, 44100 Hz")
        }
    }

    func testFormatListsVBRAndFirstPlayable() {
        func ids(_ property: AudioFormatPropertyID) -> [AudioFormatID] {
            var size: UInt32 = 0
            XCTAssertEqual(AudioFormatGetPropertyInfo(property, 0, nil, &size), noErr)
            var list = [AudioFormatID](repeating: 0, count: Int(size) / 4)
            XCTAssertEqual(AudioFormatGetProperty(property, 0, nil, &size, &list), noErr)
            return list
        }
        XCTAssertEqual(
            ids(kAudioFormatProperty_DecodeFormatIDs),
            [kAudioFormatLinearPCM, kAudioFormatMPEGLayer3, kAudioFormatFLAC, kAudioFormatOpus, kAudioFormatVorbis])
        XCTAssertEqual(ids(kAudioFormatProperty_EncodeFormatIDs), [kAudioFormatLinearPCM])
        for (format, vbr) in [
            (kAudioFormatLinearPCM, UInt32(0)), (kAudioFormatMPEGLayer3, 1), (kAudioFormatFLAC, 1), (kAudioFormatOpus, 1),
        ] {
            var description = asbd(44_100, format, channels: 2)
            var value: UInt32 = 99
            var size = UInt32(4)
            XCTAssertEqual(AudioFormatGetProperty(kAudioFormatProperty_FormatIsVBR, 40, &description, &size, &value), noErr)
            XCTAssertEqual(value, vbr, FourCC.string(format))
        }
        var items = [
            AudioFormatListItem(mASBD: asbd(44_100, kAudioFormatMPEG4AAC, channels: 2), mChannelLayoutTag: kAudioChannelLayoutTag_Stereo),
            AudioFormatListItem(mASBD: asbd(44_100, kAudioFormatFLAC, channels: 2), mChannelLayoutTag: kAudioChannelLayoutTag_Stereo),
        ]
        var index: UInt32 = 99
        var size = UInt32(4)
        XCTAssertEqual(
            AudioFormatGetProperty(
                kAudioFormatProperty_FirstPlayableFormatFromList,
                UInt32(2 * MemoryLayout<AudioFormatListItem>.stride), &items, &size, &index), noErr)
        XCTAssertEqual(index, 1, "AAC is not decoded here; FLAC is")
        XCTAssertEqual(AudioFormatGetPropertyInfo(0x6E6F_6E65, 0, nil, &size), kAudioFormatUnsupportedPropertyError)
        var small: UInt8 = 0
        var one = UInt32(1)
        var description = asbd(44_100, kAudioFormatFLAC, channels: 2)
        XCTAssertEqual(
            AudioFormatGetProperty(kAudioFormatProperty_FormatIsVBR, 40, &description, &one, &small), kAudioFormatBadPropertySizeError)
    }

    /// A layout's labels from a tag or a bitmap; channel counts; names.
    func testChannelLayoutsForTagsAndBitmaps() throws {
        func labels(_ property: AudioFormatPropertyID, _ specifier: UInt32) throws -> [AudioChannelLabel] {
            var key = specifier
            var size: UInt32 = 0
            XCTAssertEqual(AudioFormatGetPropertyInfo(property, 4, &key, &size), noErr)
            let storage = UnsafeMutableRawPointer.allocate(byteCount: Int(size), alignment: 8)
            defer { storage.deallocate() }
            XCTAssertEqual(AudioFormatGetProperty(property, 4, &key, &size, storage), noErr)
            let layout = storage.assumingMemoryBound(to: AudioChannelLayout.self)
            XCTAssertEqual(layout.pointee.mChannelLayoutTag, kAudioChannelLayoutTag_UseChannelDescriptions)
            return UnsafeMutableAudioChannelDescriptions(layout).map(\.mChannelLabel)
        }
        XCTAssertEqual(try labels(kAudioFormatProperty_ChannelLayoutForTag, kAudioChannelLayoutTag_MPEG_5_1_A), [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(try labels(kAudioFormatProperty_ChannelLayoutForTag, kAudioChannelLayoutTag_Stereo), [1, 2])
        XCTAssertEqual(
            try labels(kAudioFormatProperty_ChannelLayoutForTag, kAudioChannelLayoutTag_DiscreteInOrder | 3),
            [kAudioChannelLabel_Discrete, kAudioChannelLabel_Discrete | 1, kAudioChannelLabel_Discrete | 2])
        XCTAssertEqual(try labels(kAudioFormatProperty_ChannelLayoutForBitmap, 0b1011), [1, 2, 4])  // Left, Right, LFEScreen

        var bitmapLayout = AudioChannelLayout(
            mChannelLayoutTag: kAudioChannelLayoutTag_UseChannelBitmap,
            mChannelBitmap: [.bit_Left, .bit_Right, .bit_Center], mNumberChannelDescriptions: 0,
            mChannelDescriptions: AudioChannelDescription())
        var channels: UInt32 = 0
        var size = UInt32(4)
        XCTAssertEqual(AudioFormatGetProperty(kAudioFormatProperty_NumberOfChannelsForLayout, 12, &bitmapLayout, &size, &channels), noErr)
        XCTAssertEqual(channels, 3)
        var tagged = AudioChannelLayout(
            mChannelLayoutTag: kAudioChannelLayoutTag_MPEG_5_1_A, mChannelBitmap: [], mNumberChannelDescriptions: 0,
            mChannelDescriptions: AudioChannelDescription())
        XCTAssertEqual(name(kAudioFormatProperty_ChannelLayoutName, &tagged, 12), "5.1 (L R C LFE Ls Rs)")
        tagged.mChannelLayoutTag = kAudioChannelLayoutTag_Stereo
        XCTAssertEqual(name(kAudioFormatProperty_ChannelLayoutName, &tagged, 12), "Stereo (L R)")
        XCTAssertEqual(name(kAudioFormatProperty_ChannelLayoutName, &bitmapLayout, 12), "L R C")
        var unknown: UInt32 = 0x1234_0002
        XCTAssertEqual(
            AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelLayoutForTag, 4, &unknown, &size), kAudioFormatUnsupportedDataFormatError
        )
    }
}

/// The descriptions of a layout that lists them.
private func UnsafeMutableAudioChannelDescriptions(_ layout: UnsafeMutablePointer<AudioChannelLayout>) -> [AudioChannelDescription] {
    let count = Int(layout.pointee.mNumberChannelDescriptions)
    let offset = MemoryLayout<AudioChannelLayout>.offset(of: \.mChannelDescriptions)!
    let base = (UnsafeMutableRawPointer(layout) + offset).assumingMemoryBound(to: AudioChannelDescription.self)
    return (0..<count).map { base[$0] }
}
