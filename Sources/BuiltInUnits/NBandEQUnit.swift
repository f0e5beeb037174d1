import AUHostCore
import DSPKernels
import Foundation

/// The N-band parametric EQ ('aufx' 'nbeq'): 16 biquad bands (RBJ cookbook designs) and a
/// global gain, with the documented parameter bases: kAUNBandEQParam_GlobalGain 0 (−96…24 dB);
/// per band b: BypassBand 1000+b (default 1: bypassed), FilterType 2000+b (0…10,
/// kAUNBandEQFilterType_*), Frequency 3000+b (20 Hz…rate/2, designed just below Nyquist), Gain 4000+b
/// (−96…24 dB), Bandwidth 5000+b (0.05…5 octaves). A band's design is recomputed on the render
/// thread at the first slice after one of its parameters changed.
public final class NBandEQUnit: AUEffectBase {
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_Effect, subType: kAudioUnitSubType_NBandEQ,
        manufacturer: kAudioUnitManufacturer_AUHost)
    /// Bands this unit has (Apple's NBandEQ allows up to 16).
    public static let bandCount = 16
    var cascade: UnsafeMutablePointer<BiquadCascade>?
    /// Per band: bypass, type, frequency, gain, bandwidth as last designed (NaN: not yet).
    let applied = UnsafeMutablePointer<Float>.allocate(capacity: 16 * 5 + 1)
    /// Slots of the same parameters, gathered at initialization (band-major, then GlobalGain).
    let slots = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: 16 * 5 + 1)
    /// `bandCount`, where the render thread reads it (a static would need lazy initialization).
    let bands = 16
    var globalGain: Float = 1
    let pointers = ChannelPointers()
    var designRate = 44_100.0

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = NBandEQUnit.identity) {
        var definitions = [
            ParameterDefinition(
                id: kAUNBandEQParam_GlobalGain, name: "Global Gain", unit: kAudioUnitParameterUnit_Decibels,
                min: -96, max: 24, default: 0)
        ]
        let types = [
            "Parametric", "2nd Order Butterworth Low Pass", "2nd Order Butterworth High Pass", "Resonant Low Pass",
            "Resonant High Pass", "Band Pass", "Band Stop", "Low Shelf", "High Shelf", "Resonant Low Shelf", "Resonant High Shelf",
        ]
        for b in 0..<UInt32(Self.bandCount) {
            let frequency = Float(min(20_000, 32 * pow(2, Double(b) * 0.6)))
            definitions += [
                ParameterDefinition(
                    id: kAUNBandEQParam_BypassBand + b, name: "Bypass Band \(b)", unit: kAudioUnitParameterUnit_Boolean,
                    min: 0, max: 1, default: 1),
                ParameterDefinition(
                    id: kAUNBandEQParam_FilterType + b, name: "Filter Type \(b)", unit: kAudioUnitParameterUnit_Indexed,
                    min: 0, max: 10, default: 0, valueStrings: types),
                ParameterDefinition(
                    id: kAUNBandEQParam_Frequency + b, name: "Frequency \(b)", unit: kAudioUnitParameterUnit_Hertz,
                    min: 20, max: 22_050, default: frequency, maximumIsNyquist: true),
                ParameterDefinition(
                    id: kAUNBandEQParam_Gain + b, name: "Gain \(b)", unit: kAudioUnitParameterUnit_Decibels,
                    min: -96, max: 24, default: 0),
                ParameterDefinition(
                    id: kAUNBandEQParam_Bandwidth + b, name: "Bandwidth \(b)", unit: kAudioUnitParameterUnit_Octaves,
                    min: 0.05, max: 5, default: 0.5),
            ]
        }
        super.init(description: description, parameters: definitions)
    }

    deinit {
        applied.deallocate()
        slots.deallocate()
        pointers.free()
    }

    public override func allocateRenderResources() throws {
        let channels = Int(outputFormats[0].mChannelsPerFrame)
        guard channels <= 16 else {
            throw AudioError(kAudioUnitErr_FormatNotSupported, "The N-band EQ filters up to 16 channels, not \(channels).")
        }
        let c = UnsafeMutablePointer<BiquadCascade>.allocate(capacity: 1)
        c.initialize(to: try BiquadCascade(stageCount: Self.bandCount, channelCount: channels))
        cascade = c
        for b in 0..<Self.bandCount {
            for (k, base) in [
                kAUNBandEQParam_BypassBand, kAUNBandEQParam_FilterType, kAUNBandEQParam_Frequency,
                kAUNBandEQParam_Gain, kAUNBandEQParam_Bandwidth,
            ].enumerated() {
                slots[b * 5 + k] = parameters.slot(base + UInt32(b), kAudioUnitScope_Global, 0)!
            }
        }
        slots[Self.bandCount * 5] = parameters.slot(kAUNBandEQParam_GlobalGain, kAudioUnitScope_Global, 0)!
        applied.initialize(repeating: .nan, count: Self.bandCount * 5 + 1)
        designRate = sampleRate
    }

    public override func deallocateRenderResources() {
        cascade?.deinitialize(count: 1)
        cascade?.deallocate()
        cascade = nil
    }

    public override func resetState() { cascade?.pointee.reset() }

    /// How long the bands in force ring after the input stops (each band's 60 dB decay, in
    /// series), so a silent input is not cut off while they ring (AUEffectBase's OutputIsSilence).
    /// Before initialization, none. Thread: any (a sum over 16 designs).
    public override var tailTime: Double {
        guard let cascade else { return 0 }
        let limit = 60 * designRate
        var frames = 0.0
        for b in 0..<Self.bandCount where !cascade.pointee.isBypassed(stage: b) {
            frames += cascade.pointee.coefficients(stage: b).ringFrames(limit: limit)
        }
        return min(frames, limit) / designRate
    }

    /// The design band `band` has now (identity when bypassed); for tests and displays.
    ///
    /// Thread: setup.
    public func bandDesign(_ band: Int) -> BiquadCoefficients { cascade?.pointee.coefficients(stage: band) ?? .identity }

    /// Re-designs bands whose parameters changed. Thread: render.
    @_noAllocation @_noLocks
    func updateDesigns() {
        guard let cascade else { return }
        let n = bands
        for b in 0..<n {
            var changed = false
            for k in 0..<5 where slots[b * 5 + k].pointee != applied[b * 5 + k] {
                applied[b * 5 + k] = slots[b * 5 + k].pointee
                changed = true
            }
            guard changed else { continue }
            let bypass = applied[b * 5] >= 0.5
            cascade.pointee.setBypassed(bypass, stage: b)
            if bypass { continue }
            let rate = designRate
            let type = BiquadFilterType(rawValue: Int(min(max(applied[b * 5 + 1], 0), 10))) ?? .parametric
            // Clamped so that the design cannot throw; it evaluates libm (no allocation, no lock).
            let frequency = min(max(Double(applied[b * 5 + 2]), 1), rate * 0.4999)
            let gain = Double(applied[b * 5 + 3]), bandwidth = max(Double(applied[b * 5 + 4]), 0.01)
            let design = _unsafePerformance {
                (try? BiquadCoefficients(type: type, frequency: frequency, gain: gain, bandwidth: bandwidth, sampleRate: rate)) ?? .identity
            }
            cascade.pointee.setCoefficients(design, stage: b)
        }
        let g = slots[n * 5].pointee
        if g != applied[n * 5] {
            applied[n * 5] = g
            globalGain = _unsafePerformance { Float(pow(10, Double(g) / 20)) }
        }
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func process(
        input: UnsafeMutablePointer<AudioBufferList>, output: UnsafeMutablePointer<AudioBufferList>,
        offset: Int, frames: Int
    ) {
        guard let cascade else { return }
        updateDesigns()
        filterBuffers(cascade, pointers, input: input, output: output, offset: offset, frames: frames)
        let gain = globalGain
        guard gain != 1 else { return }
        let outs = audioBuffers(output)
        for c in 0..<Int(output.pointee.mNumberBuffers) {
            guard let o = outs[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
            for i in offset..<(offset + frames) { o[i] *= gain }
        }
    }
}
