import AudioConverterServices
import AudioToolbox
import CodecTestSupport
import Foundation
import XCTest

/// Input procedures that hand over memory they free afterwards, and packet descriptions that lie
/// (issue 27). AudioConverter.h: data a procedure returns need stay valid only until its next call
/// or the end of the fill; a description outside its buffer is kAudioConverterErr_InvalidInputSize.
final class HostileInputTests: XCTestCase {
    /// One heap buffer of int16 stereo frames handed over whole on the first call, then end of input.
    final class OneShot {
        let frames: Int
        var data: UnsafeMutablePointer<Int16>?
        var calls = 0
        init(frames: Int) {
            self.frames = frames
            data = .allocate(capacity: frames * 2)
            for i in 0..<(frames * 2) { data![i] = Int16(truncatingIfNeeded: i &* 7 - 9_000) }
        }
        /// Overwrites the buffer and frees it, as a caller's temporary buffer is once the fill returned.
        func poisonAndFree() {
            data!.update(repeating: 0x7F7F, count: frames * 2)
            data!.deallocate()
            data = nil
        }
    }

    static let oneShot: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, _, user in
        let source = Unmanaged<OneShot>.fromOpaque(user!).takeUnretainedValue()
        source.calls += 1
        guard source.calls == 1, let data = source.data else {
            ioPackets.pointee = 0
            return noErr
        }
        ioData.pointee.mBuffers.mData = UnsafeMutableRawPointer(data)
        ioData.pointee.mBuffers.mDataByteSize = UInt32(source.frames * 4)
        ioPackets.pointee = UInt32(source.frames)
        return noErr
    }

    /// The procedure gives 10,000 frames when 1,000 are asked for; the converter takes 4,096 and
    /// must keep the other 5,904 itself. The buffer is poisoned and freed after the fill returns;
    /// the next fill still gives frames 1,000…9,999 exactly (it read the poison before the fix).
    func testInputLeftOverAfterAFillIsKeptByTheConverter() throws {
        let int16 = pcm(44_100, 2, bits: 16, float: false)
        let float = pcm(44_100, 2, bits: 32, float: true)
        let converter = try makeConverter(int16, float)
        defer { AudioConverterDispose(converter) }
        let source = OneShot(frames: 10_000)
        let expected = (0..<20_000).map { Float(Int16(truncatingIfNeeded: $0 &* 7 - 9_000)) / 32_768 }
        var first = fill(converter, source, frames: 1_000)
        XCTAssertEqual(first.status, noErr)
        source.poisonAndFree()
        let second = fill(converter, source, frames: 12_000)
        XCTAssertEqual(second.status, noErr)
        first.samples += second.samples
        XCTAssertEqual(first.samples.count, 20_000, "every frame handed over comes out once")
        XCTAssertTrue(first.samples == expected, "the frames after the first fill are the procedure's, not the poison")
    }

    /// A compressed packet described at offset Int64.max − 10 is refused with
    /// kAudioConverterErr_InvalidInputSize (the offset arithmetic trapped before the fix).
    func testADescriptionNearInt64MaxIsInvalidInputSize() throws {
        for offset in [Int64.max - 10, Int64.max, Int64(Int32.max) * 4, -1] {
            var mp3 = AudioStreamBasicDescription()
            mp3.mSampleRate = 44_100
            mp3.mFormatID = kAudioFormatMPEGLayer3
            mp3.mFramesPerPacket = 1_152
            mp3.mChannelsPerFrame = 2
            let converter = try makeConverter(mp3, pcm(44_100, 2, bits: 16, float: false))
            defer { AudioConverterDispose(converter) }
            let liar = LyingPackets(
                description: AudioStreamPacketDescription(mStartOffset: offset, mVariableFramesInPacket: 0, mDataByteSize: 100))
            var out = [Int16](repeating: 0, count: 4_096 * 2)
            var frames: UInt32 = 4_096
            let status = out.withUnsafeMutableBytes { raw -> OSStatus in
                var list = AudioBufferList(
                    mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
                return AudioConverterFillComplexBuffer(
                    converter, Self.lying, Unmanaged.passUnretained(liar).toOpaque(), &frames, &list, nil)
            }
            XCTAssertEqual(status, kAudioConverterErr_InvalidInputSize, "offset \(offset)")
            XCTAssertEqual(frames, 0)
        }
    }

    /// One 100-byte packet with the description given (memory owned here, valid for the fill).
    /// An MP3 converter at a rate libmpg123 cannot output (7 Hz) answers
    /// kAudioConverterErr_FormatNotSupported at the first fill, twice. Found by the AudioConverter
    /// harness (heap-use-after-free: the decoder's handle was deleted by the failing init and again
    /// by its deinit; Crashes/AudioConverter/crash-f6ec…); without ASan glibc aborted on the double free.
    func testAnMP3RateTheDecoderRefusesIsFormatNotSupported() throws {
        var mp3 = AudioStreamBasicDescription()
        mp3.mSampleRate = 7
        mp3.mFormatID = kAudioFormatMPEGLayer3
        mp3.mFramesPerPacket = 1_152
        mp3.mChannelsPerFrame = 2
        let converter = try makeConverter(mp3, pcm(7, 2, bits: 16, float: false))
        defer { AudioConverterDispose(converter) }
        let liar = LyingPackets(description: AudioStreamPacketDescription(mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: 100))
        for _ in 0..<2 {
            var out = [Int16](repeating: 0, count: 1_024 * 2)
            var frames: UInt32 = 1_024
            let status = out.withUnsafeMutableBytes { raw -> OSStatus in
                var list = AudioBufferList(
                    mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
                return AudioConverterFillComplexBuffer(
                    converter, Self.lying, Unmanaged.passUnretained(liar).toOpaque(), &frames, &list, nil)
            }
            XCTAssertEqual(status, kAudioConverterErr_FormatNotSupported)
            XCTAssertEqual(frames, 0)
        }
    }

    final class LyingPackets {
        let description = UnsafeMutablePointer<AudioStreamPacketDescription>.allocate(capacity: 1)
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 100, alignment: 16)
        init(description: AudioStreamPacketDescription) {
            self.description.initialize(to: description)
            bytes.initializeMemory(as: UInt8.self, repeating: 0xFF, count: 100)
        }
        deinit {
            description.deallocate()
            bytes.deallocate()
        }
    }

    static let lying: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, outDescriptions, user in
        let liar = Unmanaged<LyingPackets>.fromOpaque(user!).takeUnretainedValue()
        ioData.pointee.mBuffers.mData = liar.bytes
        ioData.pointee.mBuffers.mDataByteSize = 100
        outDescriptions?.pointee = liar.description
        ioPackets.pointee = 1
        return noErr
    }

    private func fill(_ converter: AudioConverterRef, _ source: OneShot, frames: Int) -> (status: OSStatus, samples: [Float]) {
        var out = [Float](repeating: 0, count: frames * 2)
        var count = UInt32(frames)
        let status = out.withUnsafeMutableBytes { raw -> OSStatus in
            var list = AudioBufferList(
                mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            return AudioConverterFillComplexBuffer(converter, Self.oneShot, Unmanaged.passUnretained(source).toOpaque(), &count, &list, nil)
        }
        return (status, Array(out.prefix(Int(count) * 2)))
    }
}
