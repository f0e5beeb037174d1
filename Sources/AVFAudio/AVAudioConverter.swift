import AudioToolbox
import Foundation

/// What an input block reports.
public enum AVAudioConverterInputStatus: Int, Sendable {
    case haveData = 0
    case noDataNow = 1
    case endOfStream = 2
}

/// What a conversion achieved.
public enum AVAudioConverterOutputStatus: Int, Sendable {
    case haveData = 0
    case inputRanDry = 1
    case endOfStream = 2
    case error = 3
}

/// Supplies input, and a status: PCM converters take an AVAudioPCMBuffer of about
/// `inNumberOfPackets` frames, decoding converters an AVAudioCompressedBuffer of about that many
/// packets (more are decoded too).
public typealias AVAudioConverterInputBlock =
    (_ inNumberOfPackets: AVAudioPacketCount, _ outStatus: UnsafeMutablePointer<AVAudioConverterInputStatus>) -> AVAudioBuffer?

/// Converts PCM between formats (Apple's AVAudioConverter) over Audio Converter Services: sample
/// type, interleaving, rate (libsoxr) and channel count (output channel c takes input channel c;
/// a mono input feeds every output; extra outputs are silent; no down-mix). It also decodes MP3
/// (libmpg123), FLAC (libFLAC), Opus (libopus) and Vorbis (libvorbis) from
/// AVAudioCompressedBuffers to PCM, the decoded audio going through the same conversion. There is
/// no encoder: a converter to a compressed format is nil.
///
/// Thread: setup (a converter is used by one thread at a time).
public final class AVAudioConverter {
    public let inputFormat: AVAudioFormat
    public let outputFormat: AVAudioFormat
    private let converter: AudioConverterRef
    private var ended = false

    /// Nil when the formats cannot be converted: an output that is not PCM (no encoders), an
    /// input that is neither PCM nor MP3, FLAC, Opus or Vorbis, rates more than 64 times apart.
    /// A compressed input format's ``AVAudioFormat/magicCookie`` is handed to the decoder.
    ///
    /// Thread: setup.
    public init?(from fromFormat: AVAudioFormat, to toFormat: AVAudioFormat) {
        inputFormat = fromFormat
        outputFormat = toFormat
        var ref: AudioConverterRef?
        guard AudioConverterNew(fromFormat.streamDescription, toFormat.streamDescription, &ref) == noErr, let ref else { return nil }
        converter = ref
        if let cookie = fromFormat.magicCookie, fromFormat.streamDescription.pointee.mFormatID != kAudioFormatLinearPCM {
            // Observers do not run in an initializer: hand the cookie over here.
            magicCookie = cookie
            guard setCookie(cookie) == noErr else { return nil }  // deinit disposes of the converter
        }
        if fromFormat.channelCount != toFormat.channelCount {
            let map: [Int32] = (0..<Int32(toFormat.channelCount)).map { c in
                c < Int32(fromFormat.channelCount) ? c : (fromFormat.channelCount == 1 ? 0 : -1)
            }
            self.channelMap = map.map { NSNumber(value: $0) }
        }
    }

    deinit { AudioConverterDispose(converter) }

    /// The decoder's magic cookie (kAudioConverterDecompressionMagicCookie): set from the input
    /// format's, or here (before the first conversion, or after a reset). Ignored for PCM input.
    ///
    /// Thread: setup.
    public var magicCookie: Data? {
        didSet { _ = setCookie(magicCookie) }
    }

    private func setCookie(_ cookie: Data?) -> OSStatus {
        guard inputFormat.streamDescription.pointee.mFormatID != kAudioFormatLinearPCM else { return noErr }
        var bytes = [UInt8](cookie ?? Data())
        return AudioConverterSetProperty(converter, kAudioConverterDecompressionMagicCookie, UInt32(bytes.count), &bytes)
    }

    /// The largest input packet in bytes (a PCM frame; for compressed input a bound for the format,
    /// such as 1441 bytes for MP3).
    ///
    /// Thread: setup.
    public var maximumInputPacketSize: Int { Int(property(kAudioConverterPropertyMaximumInputPacketSize)) }

    /// The largest output packet in bytes (one PCM frame: the converter writes PCM only).
    ///
    /// Thread: setup.
    public var maximumOutputPacketSize: Int { Int(property(kAudioConverterPropertyMaximumOutputPacketSize)) }

    private func property(_ id: AudioConverterPropertyID) -> UInt32 {
        var value: UInt32 = 0
        var size = UInt32(MemoryLayout<UInt32>.size)
        return AudioConverterGetProperty(converter, id, &size, &value) == noErr ? value : 0
    }

    /// For each output channel, the input channel it takes (−1: silence).
    ///
    /// Thread: setup.
    public var channelMap: [NSNumber] = [] {
        didSet {
            var map = channelMap.map { $0.int32Value }
            AudioConverterSetProperty(converter, kAudioConverterChannelMap, UInt32(map.count * 4), &map)
        }
    }

    /// The resampler's quality (AVAudioQuality's values: 0 min … 127 max).
    ///
    /// Thread: setup.
    public var sampleRateConverterQuality: Int = 0x60 {
        didSet {
            var q = UInt32(clamping: sampleRateConverterQuality)
            AudioConverterSetProperty(converter, kAudioConverterSampleRateConverterQuality, 4, &q)
        }
    }

    /// Forgets buffered input (after a seek), and a previous end of stream.
    ///
    /// Thread: setup.
    public func reset() {
        AudioConverterReset(converter)
        ended = false
    }

    /// Converts a whole buffer at one rate (for rate changes use the input-block form).
    ///
    /// Thread: setup.
    public func convert(to outputBuffer: AVAudioPCMBuffer, from inputBuffer: AVAudioPCMBuffer) throws {
        guard inputFormat.sampleRate == outputFormat.sampleRate else {
            throw osStatusError(
                kAudioConverterErr_InvalidInputSize, "convert(to:from:) does not change rates; use convert(to:error:withInputFrom:)")
        }
        guard inputBuffer.format == inputFormat, outputBuffer.format == outputFormat else {
            throw osStatusError(kAudioConverterErr_FormatNotSupported, "The buffers are not in the converter's input and output formats")
        }
        guard outputBuffer.frameCapacity >= inputBuffer.frameLength else {
            throw osStatusError(
                kAudioConverterErr_InvalidOutputSize,
                "The output buffer holds \(outputBuffer.frameCapacity) frames, fewer than \(inputBuffer.frameLength)")
        }
        outputBuffer.frameLength = inputBuffer.frameLength
        try checkStatus(
            AudioConverterConvertComplexBuffer(
                converter, inputBuffer.frameLength, inputBuffer.audioBufferList, outputBuffer.mutableAudioBufferList),
            "The conversion failed")
    }

    /// Fills `outputBuffer` (up to its capacity) with converted input the block supplies. Returns
    /// haveData with frames, inputRanDry when the block had no data now, endOfStream once the
    /// input ended and everything is out, error with `outError` set (domain NSOSStatusErrorDomain:
    /// kAudioConverterErr_FormatNotSupported for a buffer of another format,
    /// kAudioConverterErr_InvalidInputSize for a compressed buffer whose packet count, byte length
    /// or packet descriptions go past its storage or its valid bytes, the decoder's status for a
    /// packet it cannot decode).
    ///
    /// Thread: setup.
    public func convert(
        to outputBuffer: AVAudioBuffer, error outError: NSErrorPointer, withInputFrom inputBlock: @escaping AVAudioConverterInputBlock
    ) -> AVAudioConverterOutputStatus {
        guard let output = outputBuffer as? AVAudioPCMBuffer, output.format == outputFormat else {
            outError?.pointee = osStatusError(
                kAudioConverterErr_FormatNotSupported, "The output buffer is not in the converter's output format \(outputFormat)")
            return .error
        }
        if ended {
            output.frameLength = 0
            return .endOfStream
        }
        let context = ConverterInput(block: inputBlock, format: inputFormat)
        output.frameLength = output.frameCapacity
        var frames = output.frameCapacity
        let status = AudioConverterFillComplexBuffer(
            converter, converterInputProc, Unmanaged.passUnretained(context).toOpaque(), &frames, output.mutableAudioBufferList, nil)
        output.frameLength = frames
        if let error = context.error {
            outError?.pointee = error
            return .error
        }
        if status == ConverterInput.noDataNow { return frames > 0 ? .haveData : .inputRanDry }
        if status != noErr {
            outError?.pointee = osStatusError(status, "The conversion failed" + (lastErrorSentence().map { ": \($0)" } ?? ""))
            return .error
        }
        if context.ended {
            ended = frames < output.frameCapacity || frames == 0
            return frames > 0 ? .haveData : .endOfStream
        }
        return .haveData
    }
}

/// One convert call's input side.
final class ConverterInput {
    /// The status the input procedure returns for "no data now" (ends the fill; not an error).
    static let noDataNow: OSStatus = 0x6E_6F_64_74  // 'nodt'
    let block: AVAudioConverterInputBlock
    let format: AVAudioFormat
    var current: AVAudioBuffer?
    var ended = false
    var error: NSError?
    /// Descriptions made for compressed packets of constant size (the buffer has none).
    var madeDescriptions: UnsafeMutableBufferPointer<AudioStreamPacketDescription>?

    init(block: @escaping AVAudioConverterInputBlock, format: AVAudioFormat) {
        self.block = block
        self.format = format
    }

    deinit { madeDescriptions?.deallocate() }

    /// Refuses the input with `status` and a sentence (the convert call returns .error).
    func refuse(_ status: OSStatus, _ message: String, _ ioPackets: UnsafeMutablePointer<UInt32>) -> OSStatus {
        error = osStatusError(status, message)
        ioPackets.pointee = 0
        return status
    }

    /// Hands a compressed buffer's packets to the converter after checking that every count and
    /// description stays inside its storage and its valid bytes.
    func hand(
        _ buffer: AVAudioCompressedBuffer, _ ioPackets: UnsafeMutablePointer<UInt32>, _ ioData: UnsafeMutablePointer<AudioBufferList>,
        _ outDescriptions: UnsafeMutablePointer<UnsafeMutablePointer<AudioStreamPacketDescription>?>?
    ) -> OSStatus {
        let count = Int(buffer.packetCount), length = Int64(buffer.byteLength)
        guard buffer.packetCount <= buffer.packetCapacity else {
            return refuse(
                kAudioConverterErr_InvalidInputSize,
                "The compressed buffer's packetCount \(buffer.packetCount) is more than its packetCapacity \(buffer.packetCapacity)",
                ioPackets)
        }
        guard buffer.byteLength <= buffer.byteCapacity else {
            return refuse(
                kAudioConverterErr_InvalidInputSize,
                "The compressed buffer's byteLength \(buffer.byteLength) is more than its byteCapacity \(buffer.byteCapacity)", ioPackets)
        }
        current = buffer
        if count == 0 {
            ended = true
            ioPackets.pointee = 0
            return noErr
        }
        let descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>
        if let given = buffer.packetDescriptions {
            descriptions = given
        } else {
            let size = Int64(format.streamDescription.pointee.mBytesPerPacket)
            let (total, overflow) = Int64(count).multipliedReportingOverflow(by: size)
            guard !overflow, total <= length else {
                return refuse(
                    kAudioConverterErr_InvalidInputSize,
                    "The compressed buffer holds \(count) packets of \(size) bytes in \(length) valid bytes", ioPackets)
            }
            madeDescriptions?.deallocate()
            let made = UnsafeMutableBufferPointer<AudioStreamPacketDescription>.allocate(capacity: count)
            for p in 0..<count {
                made[p] = AudioStreamPacketDescription(
                    mStartOffset: Int64(p) * size, mVariableFramesInPacket: 0, mDataByteSize: UInt32(size))
            }
            madeDescriptions = made
            descriptions = made.baseAddress!
        }
        for p in 0..<count {
            let d = descriptions[p]
            // Compared without adding, so that no offset overflows.
            guard d.mStartOffset >= 0, d.mStartOffset <= length, Int64(d.mDataByteSize) <= length - d.mStartOffset else {
                return refuse(
                    kAudioConverterErr_InvalidInputSize,
                    "Packet \(p) of the compressed buffer is described as \(d.mDataByteSize) bytes at offset \(d.mStartOffset), past its byteLength \(length)",
                    ioPackets)
            }
        }
        let to = UnsafeMutableAudioBufferListPointer(ioData)
        to[0] = AudioBuffer(mNumberChannels: format.channelCount, mDataByteSize: buffer.byteLength, mData: buffer.data)
        outDescriptions?.pointee = descriptions
        ioPackets.pointee = buffer.packetCount
        return noErr
    }
}

/// Thread: the thread calling convert.
let converterInputProc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, outDescriptions, userData in
    let input = Unmanaged<ConverterInput>.fromOpaque(userData!).takeUnretainedValue()
    if input.ended {
        ioPackets.pointee = 0
        return noErr
    }
    var status = AVAudioConverterInputStatus.haveData
    let buffer = input.block(ioPackets.pointee, &status)
    switch status {
    case .noDataNow:
        ioPackets.pointee = 0
        return ConverterInput.noDataNow
    case .endOfStream:
        input.ended = true
        ioPackets.pointee = 0
        return noErr
    case .haveData:
        if let compressed = buffer as? AVAudioCompressedBuffer, compressed.format == input.format {
            return input.hand(compressed, ioPackets, ioData, outDescriptions)
        }
        guard let pcm = buffer as? AVAudioPCMBuffer, pcm.format == input.format else {
            input.error = osStatusError(
                kAudioConverterErr_FormatNotSupported, "The input block's buffer is not in the converter's input format \(input.format)")
            ioPackets.pointee = 0
            return kAudioConverterErr_FormatNotSupported
        }
        input.current = pcm
        let from = UnsafeMutableAudioBufferListPointer(pcm.mutableAudioBufferList)
        let to = UnsafeMutableAudioBufferListPointer(ioData)
        for b in 0..<min(from.count, to.count) { to[b] = from[b] }
        ioPackets.pointee = pcm.frameLength
        if pcm.frameLength == 0 { input.ended = true }
        return noErr
    }
}
