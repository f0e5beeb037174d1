import AUHostCore
import DSPKernels
import Foundation

/// The distortion ('aufx' 'dist', AUDistortion's sixteen parameters): per channel a comb delay,
/// decimation and rounding, a cubic polynomial, ring modulation and a tanh soft clip, each stage
/// with its own mix, then FinalMix against the dry input (DSPKernels.DistortionKernel says how
/// each parameter is used). A FinalMix of 0 passes the input exactly.
///
/// Parameters (global): kDistortionParam_Delay 0 (0.1…500 ms, 0.1), Decay 1 (0.1…50, 1),
/// DelayMix 2 (0…100 %, 50), Decimation 3 (0…100 %, 50), Rounding 4 (0…100 %, 0), DecimationMix 5
/// (0…100 %, 50), LinearTerm 6 (0…1, 1), SquaredTerm 7 (0…20, 0), CubicTerm 8 (0…20, 0),
/// PolynomialMix 9 (0…100 %, 50), RingModFreq1 10 and RingModFreq2 11 (0.5…8000 Hz, 100),
/// RingModBalance 12 (0…100 %, 50), RingModMix 13 (0…100 %, 0), SoftClipGain 14 (−80…20 dB, −6),
/// FinalMix 15 (0…100 %, 50). Factory presets 0…21 (AVAudioUnitDistortionPreset's names) set
/// parameters 0…14 to this project's values and keep FinalMix.
public final class DistortionUnit: AUEffectBase {
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Distortion,
        manufacturer: kAudioUnitManufacturer_AUHost)

    /// Preset names by number (AUDistortion's factory presets, AVAudioUnitDistortionPreset order).
    public static let presetNames = [
        "Drums Bit Brush", "Drums Buffer Beats", "Drums LoFi", "Multi-Broken Speaker", "Multi-Cellphone Concert",
        "Multi-Decimated 1", "Multi-Decimated 2", "Multi-Decimated 3", "Multi-Decimated 4", "Multi-Distorted Funk",
        "Multi-Distorted Cubed", "Multi-Distorted Squared", "Multi-Echo 1", "Multi-Echo 2", "Multi-Echo Tight 1",
        "Multi-Echo Tight 2", "Multi-Everything Is Broken", "Speech Alien Chatter", "Speech Cosmic Interference",
        "Speech Golden Pi", "Speech Radio Tower", "Speech Waves",
    ]
    /// Per preset: parameters 0…14 (Delay … SoftClipGain), this project's choices.
    static let presetValues: [[Float]] = [
        [0.1, 1, 0, 60, 70, 100, 1, 0, 0, 0, 100, 100, 50, 0, -6],  // Drums Bit Brush
        [12, 20, 40, 0, 40, 60, 1, 2, 0, 30, 100, 100, 50, 0, -3],  // Drums Buffer Beats
        [0.1, 1, 0, 75, 55, 100, 1, 1, 1, 40, 100, 100, 50, 0, 0],  // Drums LoFi
        [0.5, 10, 20, 20, 30, 50, 0.6, 6, 4, 80, 60, 90, 50, 20, 6],  // Multi-Broken Speaker
        [1, 8, 20, 40, 50, 80, 0.8, 3, 2, 70, 2000, 3000, 40, 40, 3],  // Multi-Cellphone Concert
        [0.1, 1, 0, 50, 0, 100, 1, 0, 0, 0, 100, 100, 50, 0, -6],  // Multi-Decimated 1
        [0.1, 1, 0, 75, 20, 100, 1, 0, 0, 0, 100, 100, 50, 0, -6],  // Multi-Decimated 2
        [0.1, 1, 0, 88, 40, 100, 1, 0, 0, 0, 100, 100, 50, 0, -3],  // Multi-Decimated 3
        [0.1, 1, 0, 94, 60, 100, 1, 0, 0, 0, 100, 100, 50, 0, 0],  // Multi-Decimated 4
        [0.1, 1, 0, 0, 0, 0, 1, 4, 2, 70, 100, 100, 50, 0, 6],  // Multi-Distorted Funk
        [0.1, 1, 0, 0, 0, 0, 0.5, 0, 12, 100, 100, 100, 50, 0, 6],  // Multi-Distorted Cubed
        [0.1, 1, 0, 0, 0, 0, 0.5, 12, 0, 100, 100, 100, 50, 0, 6],  // Multi-Distorted Squared
        [150, 2, 50, 0, 0, 0, 1, 0, 0, 0, 100, 100, 50, 0, -6],  // Multi-Echo 1
        [300, 1, 50, 0, 0, 0, 1, 0, 0, 0, 100, 100, 50, 0, -6],  // Multi-Echo 2
        [40, 10, 50, 0, 0, 0, 1, 0, 0, 0, 100, 100, 50, 0, -6],  // Multi-Echo Tight 1
        [20, 20, 50, 0, 0, 0, 1, 0, 0, 0, 100, 100, 50, 0, -6],  // Multi-Echo Tight 2
        [60, 5, 40, 80, 60, 80, 0.5, 10, 10, 80, 400, 1200, 50, 50, 12],  // Multi-Everything Is Broken
        [0.1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 600, 1300, 50, 100, -6],  // Speech Alien Chatter
        [25, 8, 30, 0, 0, 0, 1, 0, 0, 0, 37, 4100, 70, 70, -6],  // Speech Cosmic Interference
        [0.1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 314, 3141, 50, 60, -6],  // Speech Golden Pi
        [0.1, 1, 0, 30, 30, 60, 0.8, 2, 1, 60, 100, 100, 50, 0, 3],  // Speech Radio Tower
        [5, 2, 60, 0, 0, 0, 1, 0, 0, 0, 0.5, 1, 50, 60, -6],  // Speech Waves
    ]

    var kernels: UnsafeMutablePointer<DistortionKernel>?
    var kernelCount = 0
    let applied = UnsafeMutablePointer<Float>.allocate(capacity: 16)
    var values: UnsafeMutablePointer<Float>?

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = DistortionUnit.identity) {
        func p(_ id: AudioUnitParameterID, _ name: String, _ unit: AudioUnitParameterUnit, _ min: Float, _ max: Float, _ value: Float)
            -> ParameterDefinition
        { ParameterDefinition(id: id, name: name, unit: unit, min: min, max: max, default: value) }
        super.init(
            description: description,
            parameters: [
                p(kDistortionParam_Delay, "Delay", kAudioUnitParameterUnit_Milliseconds, 0.1, 500, 0.1),
                p(kDistortionParam_Decay, "Decay", kAudioUnitParameterUnit_Rate, 0.1, 50, 1),
                p(kDistortionParam_DelayMix, "Delay Mix", kAudioUnitParameterUnit_Percent, 0, 100, 50),
                p(kDistortionParam_Decimation, "Decimation", kAudioUnitParameterUnit_Percent, 0, 100, 50),
                p(kDistortionParam_Rounding, "Rounding", kAudioUnitParameterUnit_Percent, 0, 100, 0),
                p(kDistortionParam_DecimationMix, "Decimation Mix", kAudioUnitParameterUnit_Percent, 0, 100, 50),
                p(kDistortionParam_LinearTerm, "Linear Term", kAudioUnitParameterUnit_LinearGain, 0, 1, 1),
                p(kDistortionParam_SquaredTerm, "Squared Term", kAudioUnitParameterUnit_LinearGain, 0, 20, 0),
                p(kDistortionParam_CubicTerm, "Cubic Term", kAudioUnitParameterUnit_LinearGain, 0, 20, 0),
                p(kDistortionParam_PolynomialMix, "Polynomial Mix", kAudioUnitParameterUnit_Percent, 0, 100, 50),
                p(kDistortionParam_RingModFreq1, "Ring Mod Freq 1", kAudioUnitParameterUnit_Hertz, 0.5, 8000, 100),
                p(kDistortionParam_RingModFreq2, "Ring Mod Freq 2", kAudioUnitParameterUnit_Hertz, 0.5, 8000, 100),
                p(kDistortionParam_RingModBalance, "Ring Mod Balance", kAudioUnitParameterUnit_Percent, 0, 100, 50),
                p(kDistortionParam_RingModMix, "Ring Mod Mix", kAudioUnitParameterUnit_Percent, 0, 100, 0),
                p(kDistortionParam_SoftClipGain, "Soft Clip Gain", kAudioUnitParameterUnit_Decibels, -80, 20, -6),
                p(kDistortionParam_FinalMix, "Final Mix", kAudioUnitParameterUnit_Percent, 0, 100, 50),
            ])
        applied.initialize(repeating: .nan, count: 16)
    }

    deinit { applied.deallocate() }

    public override var factoryPresets: [(number: Int32, name: String)] {
        Self.presetNames.enumerated().map { (Int32($0.offset), $0.element) }
    }

    public override func applyFactoryPreset(_ number: Int32) throws {
        guard number >= 0, Int(number) < Self.presetValues.count else {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue, "The distortion has no preset number \(number) (0…\(Self.presetValues.count - 1)).")
        }
        for (id, value) in Self.presetValues[Int(number)].enumerated() { _ = setParameter(AudioUnitParameterID(id), value: value) }
    }

    /// The comb's repeats until they are 60 dB down (1/Decay s) plus one delay.
    public override var tailTime: Double {
        let decay = Double((try? parameter(kDistortionParam_Decay)) ?? 1)
        let delay = Double((try? parameter(kDistortionParam_Delay)) ?? 0.1) / 1000
        return 1 / max(decay, 0.1) + delay
    }

    public override func allocateRenderResources() throws {
        let channels = Int(outputFormats[0].mChannelsPerFrame)
        let bytes = channels * DistortionKernel.bytes(sampleRate: sampleRate)
        guard bytes <= AUBase.maximumRenderMemory else {
            throw AudioError(
                kAudio_MemFullError,
                "\(channels) channels of distortion at \(sampleRate) Hz need \(bytes >> 20) MiB, more than the \(AUBase.maximumRenderMemory >> 20) MiB a unit may take."
            )
        }
        let made = UnsafeMutablePointer<DistortionKernel>.allocate(capacity: channels)
        for c in 0..<channels {
            do {
                (made + c).initialize(to: try DistortionKernel(sampleRate: sampleRate))
            } catch let error as DSPKernelError {
                made.deinitialize(count: c)
                made.deallocate()
                throw AudioError(error.status, error.message)
            }
        }
        kernels = made
        kernelCount = channels
        values = parameters.values
        applied.update(repeating: .nan, count: 16)
    }

    public override func deallocateRenderResources() {
        kernels?.deinitialize(count: kernelCount)
        kernels?.deallocate()
        kernels = nil
        kernelCount = 0
    }

    public override func resetState() {
        guard let kernels else { return }
        for c in 0..<kernelCount { kernels[c].reset() }
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func process(
        input: UnsafeMutablePointer<AudioBufferList>, output: UnsafeMutablePointer<AudioBufferList>,
        offset: Int, frames: Int
    ) {
        guard let kernels, let values else { return }
        let count = kernelCount, applied = self.applied
        var changed = false
        for i in 0..<16 where values[i] != applied[i] {
            applied[i] = values[i]
            changed = true
        }
        if changed {
            for c in 0..<count { kernels[c].set(applied) }
        }
        let ins = audioBuffers(input), outs = audioBuffers(output)
        for c in 0..<min(count, min(Int(output.pointee.mNumberBuffers), Int(input.pointee.mNumberBuffers))) {
            guard let i = ins[c].mData?.assumingMemoryBound(to: Float.self),
                let o = outs[c].mData?.assumingMemoryBound(to: Float.self)
            else { continue }
            kernels[c].process(i + offset, o + offset, frames: frames)
        }
    }
}
