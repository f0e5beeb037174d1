import AUHostCore
import DSPKernels

/// The iPod EQ ('aufx' 'ipeq'): a ten-band graphic EQ whose curve is one of 22 factory presets
/// chosen by name (kAudioUnitProperty_PresentPreset with the preset's number, as on iOS). The
/// default is "Flat". Every preset's coefficients are designed at initialization, so choosing
/// one while rendering is a switch of tables that the render thread makes at its next call.
public final class IPodEQUnit: AUEffectBase {
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_Effect, subType: kAudioUnitSubType_AUiPodEQ,
        manufacturer: kAudioUnitManufacturer_AUHost)
    /// Bands of the graphic EQ (IPodEQPreset.bandFrequencies.count).
    let bandCount = 10
    var cascade: UnsafeMutablePointer<BiquadCascade>?
    /// Per preset and band: the design, or nil (bypassed band) as a flag array.
    var designs: UnsafeMutablePointer<BiquadCoefficients>?
    var designBypassed: UnsafeMutablePointer<Bool>?
    /// The preset asked for (setup side) and the one in the cascade (render side).
    let pointers = ChannelPointers()
    var requestedPreset = IPodEQPreset.flat.rawValue
    var appliedPreset = -1
    /// The longest any preset rings after the input stops, at the rate in force (set at initialize).
    var ringSeconds = 0.0

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = IPodEQUnit.identity) {
        super.init(description: description)
        try? applyFactoryPreset(IPodEQPreset.flat.presetNumber)
    }

    deinit { pointers.free() }

    public override var factoryPresets: [(number: Int32, name: String)] {
        IPodEQPreset.allCases.map { ($0.presetNumber, $0.name) }
    }

    public override func applyFactoryPreset(_ number: Int32) throws {
        guard let preset = IPodEQPreset(rawValue: Int(number)) else {
            throw AudioError(kAudioUnitErr_InvalidPropertyValue, "The iPod EQ has no preset number \(number) (0…21).")
        }
        requestedPreset = preset.rawValue
    }

    /// The preset in use, by documented name.
    ///
    /// Thread: setup.
    public var presetName: String { IPodEQPreset(rawValue: requestedPreset)?.name ?? "Flat" }

    public override func saveExtraState() -> [String: PropertyListValue] { ["ipod-preset": .integer(Int64(requestedPreset))] }

    public override func restoreExtraState(_ state: [String: PropertyListValue]) throws {
        guard let n = state["ipod-preset"]?.integerValue else { return }
        // A state file's number: checked before it narrows (Int32(n) traps beyond 32 bits).
        guard let number = Int32(exactly: n) else {
            throw AudioError(kAudioUnitErr_InvalidPropertyValue, "ClassInfo names iPod EQ preset \(n), which does not exist.")
        }
        try applyFactoryPreset(number)
    }

    /// How long the presets' filters ring after the input stops (the longest preset's bands, 60 dB
    /// decay each, in series), so a silent input is not cut off while they ring. Thread: any.
    public override var tailTime: Double { ringSeconds }

    public override func allocateRenderResources() throws {
        let presets = IPodEQPreset.allCases
        let d = UnsafeMutablePointer<BiquadCoefficients>.allocate(capacity: presets.count * bandCount)
        let b = UnsafeMutablePointer<Bool>.allocate(capacity: presets.count * bandCount)
        for p in presets {
            for (band, design) in p.bandCoefficients(sampleRate: sampleRate).enumerated() {
                (d + p.rawValue * bandCount + band).initialize(to: design ?? .identity)
                (b + p.rawValue * bandCount + band).initialize(to: design == nil)
            }
        }
        designs = d
        designBypassed = b
        let limit = 60 * sampleRate
        ringSeconds =
            presets.map { p in
                (0..<bandCount).reduce(0.0) { sum, band in
                    let i = p.rawValue * bandCount + band
                    return sum + (b[i] ? 0 : d[i].ringFrames(limit: limit))
                }
            }.max().map { min($0, limit) / sampleRate } ?? 0
        let channels = Int(outputFormats[0].mChannelsPerFrame)
        guard channels <= 16 else {
            throw AudioError(kAudioUnitErr_FormatNotSupported, "The iPod EQ filters up to 16 channels, not \(channels).")
        }
        let c = UnsafeMutablePointer<BiquadCascade>.allocate(capacity: 1)
        c.initialize(to: try BiquadCascade(stageCount: bandCount, channelCount: channels))
        cascade = c
        appliedPreset = -1
    }

    public override func deallocateRenderResources() {
        cascade?.deinitialize(count: 1)
        cascade?.deallocate()
        designs?.deallocate()
        designBypassed?.deallocate()
        cascade = nil; designs = nil; designBypassed = nil
    }

    public override func resetState() { cascade?.pointee.reset() }

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func process(
        input: UnsafeMutablePointer<AudioBufferList>, output: UnsafeMutablePointer<AudioBufferList>,
        offset: Int, frames: Int
    ) {
        guard let cascade, let designs, let designBypassed else { return }
        let wanted = requestedPreset
        if wanted != appliedPreset {
            appliedPreset = wanted
            for band in 0..<bandCount {
                cascade.pointee.setCoefficients(designs[wanted * bandCount + band], stage: band)
                cascade.pointee.setBypassed(designBypassed[wanted * bandCount + band], stage: band)
            }
        }
        filterBuffers(cascade, pointers, input: input, output: output, offset: offset, frames: frames)
    }
}

/// Channel pointer scratch for `filterBuffers`, allocated at setup (16 channels at most).
struct ChannelPointers {
    let inputs = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: 16)
    let outputs = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: 16)

    func free() {
        inputs.deallocate()
        outputs.deallocate()
    }
}

/// Runs `cascade` over every channel of a slice.
///
/// Thread: render.
@_noAllocation @_noLocks
func filterBuffers(
    _ cascade: UnsafeMutablePointer<BiquadCascade>, _ scratch: ChannelPointers,
    input: UnsafeMutablePointer<AudioBufferList>, output: UnsafeMutablePointer<AudioBufferList>,
    offset: Int, frames: Int
) {
    let ins = audioBuffers(input), outs = audioBuffers(output)
    let channels = cascade.pointee.channelCount
    guard Int(input.pointee.mNumberBuffers) >= channels, Int(output.pointee.mNumberBuffers) >= channels else { return }
    for c in 0..<channels {
        guard let i = ins[c].mData, let o = outs[c].mData else { return }
        scratch.inputs[c] = UnsafePointer(i.assumingMemoryBound(to: Float.self) + offset)
        scratch.outputs[c] = o.assumingMemoryBound(to: Float.self) + offset
    }
    cascade.pointee.process(inputs: scratch.inputs, outputs: scratch.outputs, frameCount: frames)
}
