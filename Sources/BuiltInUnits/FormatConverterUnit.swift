import AUHostCore
import DSPKernels

/// The format converter ('aufc' 'conv', AUConverter): one input and one output element, each in
/// any linear PCM format `DSPKernels.SampleFormat` reads — int16, int24 (packed or in 32 bits),
/// int32, 8.24 fixed, float32, float64; interleaved or not; either endianness — at any rate.
///
/// - Sample rate: libsoxr (SampleRateConverter, 20-bit quality; RenderQuality ≥ 127 asks for
///   28-bit). The converter pulls input in whole slices of MaximumFramesPerSlice frames as its
///   FIFO of converted frames needs them (about frames × inputRate / outputRate per call on
///   average; its own input time stamps count input frames).
///   Latency: the resampler's filter delay, prerolled as silence, so the output is the input
///   delayed by exactly Latency seconds; 0 when the rates agree. Before initialization (no
///   resampler yet) Latency reads 0.
///   Rates further apart than a factor of 64 (either way) are refused at Initialize with
///   kAudioUnitErr_FormatNotSupported (the buffers grow with the ratio).
/// - Channels: kAudioOutputUnitProperty_ChannelMap (SInt32[output channels], any of global,
///   input or output scope): output channel i takes input channel map[i], −1 is silence. Without
///   a map, output i takes input i (silence past the last input), and a mono input feeds every
///   output.
/// - No parameters; no bypass (input and output formats differ); reset clears the resampler
///   and the FIFO.
public final class FormatConverterUnit: AUBase {
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_FormatConverter, subType: kAudioUnitSubType_AUConverter,
        manufacturer: kAudioUnitManufacturer_AUHost)
    /// The converter pipeline while initialized.
    var stage: ConversionStage?
    /// The map set by the host (nil: the default described above).
    var channelMap: [Int32]?

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = FormatConverterUnit.identity) {
        super.init(description: description, inputs: 1, outputs: 1)
    }

    public override var latency: Double { stage?.latency ?? 0 }

    public override func accepts(format: AudioStreamBasicDescription, scope: AudioUnitScope, element: AudioUnitElement) -> Bool {
        guard format.isValidLinearPCM, format.mChannelsPerFrame <= 64 else { return false }
        return (try? SampleFormat(format)) != nil
    }

    /// The map in effect for the current channel counts.
    ///
    /// Thread: setup.
    public var effectiveChannelMap: [Int] {
        if let channelMap { return channelMap.map(Int.init) }
        return ConversionStage.defaultMap(inputs: Int(inputFormats[0].mChannelsPerFrame), outputs: Int(outputFormats[0].mChannelsPerFrame))
    }

    public override func customPropertyInfo(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) throws -> (size: UInt32, writable: Bool)? {
        guard id == kAudioOutputUnitProperty_ChannelMap else { return nil }
        guard [kAudioUnitScope_Global, kAudioUnitScope_Input, kAudioUnitScope_Output].contains(scope), element == 0 else {
            throw AudioError(kAudioUnitErr_InvalidElement, "The converter's ChannelMap lives on element 0 (global, input or output scope).")
        }
        return (UInt32(effectiveChannelMap.count * 4), true)
    }

    /// ChannelMap is an SInt32 per output channel (at most the channel limit).
    public override func arrayPropertyLayout(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) -> (entrySize: UInt32, maximumCount: UInt32)? {
        id == kAudioOutputUnitProperty_ChannelMap ? (4, StreamFormatLimits.maximumChannels) : nil
    }

    public override func getCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeMutableRawPointer
    ) throws {
        for (i, source) in effectiveChannelMap.enumerated() { data.storeBytes(of: Int32(source), toByteOffset: i * 4, as: Int32.self) }
    }

    public override func setCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeRawPointer, _ size: UInt32
    ) throws {
        guard !isInitialized else {
            throw AudioError(kAudioUnitErr_Initialized, "Uninitialize the converter before changing its ChannelMap.")
        }
        guard size > 0, size % 4 == 0 else {
            throw AudioError(kAudioUnitErr_InvalidPropertyValue, "ChannelMap is an array of SInt32; \(size) bytes is not one.")
        }
        let map = (0..<Int(size / 4)).map { data.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self) }
        guard map.allSatisfy({ $0 >= -1 }) else {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue, "ChannelMap entries are input channel numbers or −1 (silence), not \(map).")
        }
        channelMap = map
    }

    public override func saveExtraState() -> [String: PropertyListValue] {
        guard let channelMap else { return [:] }
        return ["channel-map": .array(channelMap.map { .integer(Int64($0)) })]
    }

    public override func restoreExtraState(_ state: [String: PropertyListValue]) throws {
        guard case .array(let entries)? = state["channel-map"] else { return }
        channelMap = entries.compactMap { $0.integerValue.map { Int32(truncatingIfNeeded: $0) } }
    }

    public override func allocateRenderResources() throws {
        let input = inputFormats[0], output = outputFormats[0]
        let map = effectiveChannelMap
        guard map.count == Int(output.mChannelsPerFrame) else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "The ChannelMap has \(map.count) entries but the output has \(output.mChannelsPerFrame) channels; give one entry per output channel."
            )
        }
        guard map.allSatisfy({ $0 < Int(input.mChannelsPerFrame) }) else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "The ChannelMap \(map) names an input channel the \(input.mChannelsPerFrame)-channel input does not have.")
        }
        try makeKernel()
    }

    private func makeKernel() throws {
        // The kernel's FIFO holds several resampled blocks: bound what the rates and slice ask.
        let input = inputFormats[0], output = outputFormats[0]
        let growth = max(output.mSampleRate / input.mSampleRate, 1)
        // Rates too far apart are the resampler's refusal (a ratio, not a size): let it say so.
        guard growth <= SampleRateConverter.maximumRatio else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "Converting \(input.mSampleRate) Hz to \(output.mSampleRate) Hz is a ratio beyond 1:\(Int(SampleRateConverter.maximumRatio)); convert in steps or choose closer rates."
            )
        }
        let samples = Double(output.mChannelsPerFrame + input.mChannelsPerFrame) * (Double(maxFramesPerSlice) * (2 + 5 * growth) + 20_000)
        guard samples * 4 <= Double(AUBase.maximumRenderMemory) else {
            throw AudioError(
                kAudio_MemFullError,
                "Converting \(input.mSampleRate) Hz to \(output.mSampleRate) Hz in slices of \(maxFramesPerSlice) frames needs about \(Int(samples * 4) >> 20) MiB, more than the \(AUBase.maximumRenderMemory >> 20) MiB a unit may take; lower MaximumFramesPerSlice."
            )
        }
        let quality: SampleRateConverter.Quality = renderQualityIsMaximum ? .veryHigh : .high
        stage = try ConversionStage(
            input: inputFormats[0], output: outputFormats[0], map: effectiveChannelMap,
            maximumFrames: Int(maxFramesPerSlice), quality: quality)
    }

    public override func deallocateRenderResources() {
        stage?.release()
        stage = nil
    }

    /// Rebuilds the resampler and FIFO (setup thread: it allocates), as a fresh unit would be.
    public override func resetState() {
        guard isInitialized else { return }
        deallocateRenderResources()
        try? makeKernel()
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        guard let stage else { return kAudioUnitErr_Uninitialized }
        return renderConverted(stage, flags, timeStamp, frames, output)
    }
}
