import AUHostCore
import DSPKernels

/// The generic output unit ('auou' 'genr'): the head of a graph rendered offline. It renders by
/// pulling its input element 0 into the caller's buffers; the application pulls by calling
/// AudioUnitRender on it. Start and Stop only mark it running (it has no device clock).
///
/// As Apple's output units do, it carries a format converter between its two scopes: the input
/// scope of element 0 (what its source gives) and the output scope (what the caller gets) may
/// differ in sample rate, channel count, interleaving and sample type — any linear PCM
/// `DSPKernels.SampleFormat` reads — and are converted exactly as the format converter unit
/// converts them (ConversionStage: libsoxr for rate, 20-bit quality, 28-bit with RenderQuality
/// ≥ 127; channels by Apple's default channel map, where mono → stereo duplicates and
/// stereo → mono keeps the left channel). With a resampler the input is pulled in input-rate
/// frames, at most MaximumFramesPerSlice per pull, and the output is the input delayed by the
/// resampler's filter delay, reported as kAudioUnitProperty_Latency. Equal formats pass through
/// untouched: the input is pulled straight into the caller's buffers.
///
/// A rate pair libsoxr cannot convert is refused at AudioUnitInitialize with
/// kAudioUnitErr_FormatNotSupported and a sentence naming both formats; a format the converter
/// cannot read at all (not linear PCM, more than 64 channels) is refused when it is set.
public final class GenericOutput: AUPulledOutputBase {
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput,
        manufacturer: kAudioUnitManufacturer_AUHost)
    /// The converter while initialized with differing formats; nil passes audio through.
    var stage: ConversionStage?

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = GenericOutput.identity) {
        super.init(description: description, inputs: 1, outputs: 1)
    }

    public override var supportsInPlace: Bool { true }

    public override var latency: Double { stage?.latency ?? 0 }

    /// Either side: any linear PCM the converter reads, up to 64 channels.
    ///
    /// Thread: setup.
    public override func accepts(format: AudioStreamBasicDescription, scope: AudioUnitScope, element: AudioUnitElement) -> Bool {
        guard format.isValidLinearPCM, format.mChannelsPerFrame <= 64 else { return false }
        return (try? SampleFormat(format)) != nil
    }

    /// Thread: setup.
    public override func allocateRenderResources() throws {
        try makeStage()
    }

    private func makeStage() throws {
        let input = inputFormats[0], output = outputFormats[0]
        guard input != output else { return }
        do {
            stage = try ConversionStage(
                input: input, output: output,
                map: ConversionStage.defaultMap(
                    inputs: Int(input.mChannelsPerFrame),
                    outputs: Int(output.mChannelsPerFrame)),
                maximumFrames: Int(maxFramesPerSlice), quality: renderQualityIsMaximum ? .veryHigh : .high)
        } catch let error as AudioError {
            throw AudioError(
                error.status,
                "The generic output cannot convert its input format (\(input)) to its output format (\(output)): \(error.message)")
        }
    }

    /// Thread: setup.
    public override func deallocateRenderResources() {
        stage?.release()
        stage = nil
    }

    /// Rebuilds the resampler and FIFO (setup thread: it allocates), as a fresh unit would be.
    public override func resetState() {
        guard isInitialized, stage != nil else { return }
        deallocateRenderResources()
        try? makeStage()
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        guard let stage else { return pullInput(0, flags, timeStamp, frames, into: output) }
        return renderConverted(stage, flags, timeStamp, frames, output)
    }
}
