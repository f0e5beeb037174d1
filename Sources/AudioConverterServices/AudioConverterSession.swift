import AudioToolbox
import AudioTypes
import DSPKernels

/// One AudioConverterRef: the formats, the settable properties, and the conversion state built
/// from them when first needed (a property change rebuilds it).
///
/// PCM input runs through ConverterKernel (the format converter unit's pipeline: decode to
/// Float32, channel map, libsoxr, encode). Compressed input is decoded packet by packet
/// (``PacketDecoder``) to Float32 interleaved PCM that then runs through the same kernel.
///
/// Thread: setup (one thread at a time per converter, as Apple's documentation requires).
public final class AudioConverterSession {
    /// The format packets arrive in, and the PCM the converter writes.
    public let inputFormat: AudioStreamBasicDescription
    public let outputFormat: AudioStreamBasicDescription
    var quality: UInt32 = kAudioConverterQuality_High
    var complexity: UInt32 = kAudioConverterSampleRateConverterComplexity_Normal
    var primeMethod: UInt32 = kConverterPrimeMethod_Normal
    var channelMap: [Int]
    var cookie: [UInt8] = []

    /// Built by ``prepare()``; nil after a property change or a reset.
    var kernel: UnsafeMutablePointer<ConverterKernel>?
    var decoder: PacketDecoder?
    var decoded: DecodedPCM?
    /// Frames pulled from the input procedure (or decoded) that the kernel has not taken yet.
    var pending = PendingInput()
    /// Where pending input left in the procedure's buffers is copied when a fill returns.
    let leftover = LeftoverStorage()
    var endOfInput = false
    /// Lists handed to the input procedure and to the kernel, sized at creation.
    let inputList: UnsafeMutablePointer<AudioBufferList>
    let sliceList: UnsafeMutablePointer<AudioBufferList>
    let outputSlice: UnsafeMutablePointer<AudioBufferList>

    /// Frames one kernel step takes and gives (ConverterKernel's maximumFrames).
    static let sliceFrames = 4096

    /// Checks the formats and creates the converter. Throws an AudioError:
    /// kAudioConverterErr_FormatNotSupported for an output that is not linear PCM in a layout
    /// AUHost converts, or an input that is neither that nor MP3/FLAC/Vorbis/Opus;
    /// kAudioConverterErr_Input/OutputSampleRateOutOfRange for rates that are not positive and
    /// finite or more than 64 times apart. Thread: setup.
    public init(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription) throws {
        guard input.mSampleRate.isFinite, input.mSampleRate > 0, input.mSampleRate <= 1_536_000 else {
            throw AudioError(
                kAudioConverterErr_InputSampleRateOutOfRange,
                "The source format's sample rate \(input.mSampleRate) Hz is not a rate (0 < rate ≤ 1536000).")
        }
        guard output.mSampleRate.isFinite, output.mSampleRate > 0, output.mSampleRate <= 1_536_000 else {
            throw AudioError(
                kAudioConverterErr_OutputSampleRateOutOfRange,
                "The destination format's sample rate \(output.mSampleRate) Hz is not a rate (0 < rate ≤ 1536000).")
        }
        let ratio = output.mSampleRate / input.mSampleRate
        guard ratio <= ConverterKernel.maximumRateRatio, ratio >= 1 / ConverterKernel.maximumRateRatio else {
            throw AudioError(
                kAudioConverterErr_OutputSampleRateOutOfRange,
                "\(input.mSampleRate) Hz → \(output.mSampleRate) Hz is more than a factor of \(Int(ConverterKernel.maximumRateRatio)) apart; convert in two steps."
            )
        }
        guard output.mFormatID == kAudioFormatLinearPCM else {
            throw AudioError(
                kAudioConverterErr_FormatNotSupported,
                "AUHost's converter writes linear PCM only; encoding to '\(FourCC.string(output.mFormatID))' is not offered.")
        }
        try Self.checkPCM(output, "destination")
        if input.mFormatID == kAudioFormatLinearPCM {
            try Self.checkPCM(input, "source")
        } else if CompressedFormat.decodable.contains(input.mFormatID) {
            guard (1...255).contains(input.mChannelsPerFrame) else {
                throw AudioError(
                    kAudioConverterErr_FormatNotSupported, "The source format has \(input.mChannelsPerFrame) channels; 1…255 are possible.")
            }
        } else {
            throw AudioError(
                kAudioConverterErr_FormatNotSupported,
                "AUHost's converter reads linear PCM, MP3, FLAC, Vorbis and Opus; '\(FourCC.string(input.mFormatID))' is none of them.")
        }
        inputFormat = input
        outputFormat = output
        channelMap = Self.defaultMap(inputs: Int(input.mChannelsPerFrame), outputs: Int(output.mChannelsPerFrame))
        let inputBuffers = input.mFormatID == kAudioFormatLinearPCM ? Int(input.bufferCount) : 1
        inputList = AudioBufferStorage.allocateList(bufferCount: inputBuffers)
        sliceList = AudioBufferStorage.allocateList(bufferCount: max(inputBuffers, 1))
        outputSlice = AudioBufferStorage.allocateList(bufferCount: Int(output.bufferCount))
    }

    deinit {
        release()
        AudioBufferStorage.deallocateList(inputList)
        AudioBufferStorage.deallocateList(sliceList)
        AudioBufferStorage.deallocateList(outputSlice)
    }

    static func checkPCM(_ format: AudioStreamBasicDescription, _ role: String) throws {
        do {
            _ = try SampleFormat(format)
        } catch let error as DSPKernelError {
            throw AudioError(kAudioConverterErr_FormatNotSupported, "The \(role) format cannot be converted: \(error.message)")
        }
    }

    /// Apple's default channel routing: output i takes input i, outputs past the last input are
    /// silent, and a mono input feeds every output (as the format converter unit does).
    static func defaultMap(inputs: Int, outputs: Int) -> [Int] {
        (0..<outputs).map { inputs == 1 ? 0 : ($0 < inputs ? $0 : -1) }
    }

    /// The PCM the kernel reads: the input itself, or the decoder's Float32 interleaved output.
    var kernelInputFormat: AudioStreamBasicDescription {
        guard let decoder else { return inputFormat }
        return .linearPCM(
            sampleRate: decoder.sampleRate, channels: UInt32(decoder.channelCount), bitsPerChannel: 32,
            isFloat: true, interleaved: true)
    }

    /// libsoxr's recipe for the quality and complexity properties (see AudioConverter.h).
    var resamplerQuality: SampleRateConverter.Quality {
        if complexity == kAudioConverterSampleRateConverterComplexity_Mastering { return .veryHigh }
        switch quality {
        case kAudioConverterQuality_High...: return .veryHigh
        case kAudioConverterQuality_Medium...: return .high
        case kAudioConverterQuality_Low...: return .medium
        default: return .low
        }
    }

    /// Builds the decoder and the kernel when missing. Throws what they refuse.
    func prepare() throws {
        if decoder == nil && inputFormat.mFormatID != kAudioFormatLinearPCM {
            let made = try CompressedFormat.makeDecoder(inputFormat, cookie: cookie)
            decoder = made
            decoded = DecodedPCM(channelCount: made.channelCount)
        }
        guard kernel == nil else { return }
        let source = kernelInputFormat
        let map =
            channelMap.count == Int(outputFormat.mChannelsPerFrame) && channelMap.allSatisfy({ $0 < Int(source.mChannelsPerFrame) })
            ? channelMap : Self.defaultMap(inputs: Int(source.mChannelsPerFrame), outputs: Int(outputFormat.mChannelsPerFrame))
        let k = UnsafeMutablePointer<ConverterKernel>.allocate(capacity: 1)
        do {
            k.initialize(
                to: try ConverterKernel(
                    input: source, output: outputFormat, map: map, maximumFrames: Self.sliceFrames, quality: resamplerQuality))
        } catch let error as DSPKernelError {
            k.deallocate()
            let status = error.status == kAudio_ParamError ? kAudio_ParamError : kAudioConverterErr_FormatNotSupported
            throw AudioError(status, error.message)
        }
        // Pre and Normal: output aligned with input (the filter delay is not emitted as silence).
        if primeMethod != kConverterPrimeMethod_None { k.pointee.discard(k.pointee.prerollFrames) }
        kernel = k
    }

    /// Drops the kernel and buffered input (the decoder keeps its headers but forgets its state).
    func release() {
        if let kernel {
            kernel.deinitialize(count: 1)
            kernel.deallocate()
        }
        kernel = nil
        pending = PendingInput()
        decoded?.removeAll()
        endOfInput = false
    }

    /// AudioConverterReset: forget everything buffered; the next fill starts a new stream.
    /// Thread: setup.
    public func reset() {
        release()
        decoder?.reset()
    }

    /// Leading and trailing input frames of the resampler's filter (0 without resampling).
    func primeInfo() throws -> AudioConverterPrimeInfo {
        try prepare()
        guard let kernel else { return AudioConverterPrimeInfo() }
        let preroll = Double(kernel.pointee.prerollFrames) * kernelInputFormat.mSampleRate / outputFormat.mSampleRate
        let frames = UInt32(preroll.rounded(.up))
        return AudioConverterPrimeInfo(leadingFrames: frames, trailingFrames: frames)
    }
}

/// Input waiting in the caller's buffers (PCM) or in the decoded buffer: where it starts and how
/// many frames are left.
struct PendingInput {
    var bases: [UnsafeRawPointer] = []
    var bytesPerFrame = 0
    var frames = 0
    /// The bases point into the input procedure's buffers (valid only during the fill).
    var isBorrowed = false
}

/// Memory the converter owns for input left over at the end of a fill. Thread: setup.
final class LeftoverStorage {
    private(set) var base = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
    private var capacity = 16

    /// Makes room for `bytes` bytes; what was stored is not kept.
    func reserve(_ bytes: Int) {
        guard bytes > capacity else { return }
        base.deallocate()
        base = .allocate(byteCount: bytes, alignment: 16)
        capacity = bytes
    }

    deinit { base.deallocate() }
}

/// Direct entry points for the AudioFileStream fuzz harness: the cookie and one packet through the
/// decoder, without an input procedure. Thread: setup.
extension AudioConverterSession {
    public func setCookieForFuzzing(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        try set(kAudioConverterDecompressionMagicCookie, base, size: bytes.count)
    }

    /// Decodes one packet; returns the frames it gave.
    public func decodeForFuzzing(_ packet: UnsafeRawBufferPointer) throws -> Int {
        try prepare()
        guard let decoder, let decoded else { return 0 }
        decoded.removeAll()
        try decoder.decode(packet, into: decoded)
        return decoded.frameCount
    }
}
