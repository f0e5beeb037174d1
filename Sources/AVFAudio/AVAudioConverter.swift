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

/// Supplies input: at most `inNumberOfPackets` frames, and a status.
public typealias AVAudioConverterInputBlock =
    (_ inNumberOfPackets: AVAudioPacketCount, _ outStatus: UnsafeMutablePointer<AVAudioConverterInputStatus>) -> AVAudioBuffer?

/// Converts PCM between formats (Apple's AVAudioConverter) over Audio Converter Services: sample
/// type, interleaving, rate (libsoxr) and channel count (output channel c takes input channel c;
/// a mono input feeds every output; extra outputs are silent; no down-mix).
///
/// Thread: setup (a converter is used by one thread at a time).
public final class AVAudioConverter {
    public let inputFormat: AVAudioFormat
    public let outputFormat: AVAudioFormat
    private let converter: AudioConverterRef
    private var ended = false

    /// Nil when the formats cannot be converted (not PCM, rates more than 64 times apart).
    ///
    /// Thread: setup.
    public init?(from fromFormat: AVAudioFormat, to toFormat: AVAudioFormat) {
        inputFormat = fromFormat
        outputFormat = toFormat
        var ref: AudioConverterRef?
        guard AudioConverterNew(fromFormat.streamDescription, toFormat.streamDescription, &ref) == noErr, let ref else { return nil }
        converter = ref
        if fromFormat.channelCount != toFormat.channelCount {
            let map: [Int32] = (0..<Int32(toFormat.channelCount)).map { c in
                c < Int32(fromFormat.channelCount) ? c : (fromFormat.channelCount == 1 ? 0 : -1)
            }
            self.channelMap = map.map { NSNumber(value: $0) }
        }
    }

    deinit { AudioConverterDispose(converter) }

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
    /// input ended and everything is out, error with `outError` set.
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
            outError?.pointee = osStatusError(status, "The conversion failed")
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

    init(block: @escaping AVAudioConverterInputBlock, format: AVAudioFormat) {
        self.block = block
        self.format = format
    }
}

/// Thread: the thread calling convert.
let converterInputProc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, _, userData in
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
