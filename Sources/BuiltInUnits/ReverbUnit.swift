import AUHostCore
import DSPKernels
import Foundation

/// The reverb ('aufx' 'rvb2', AUReverb2's parameters) — AUHost's own algorithm, not Apple's
/// sound: an 8-line feedback delay network (DSPKernels.FDNReverb) fed the mean of the input
/// channels; output channel c takes the left (even c) or right (odd c) wet signal:
/// y = (1 − m)·x + m·G·wet, m = DryWetMix/100, G = 10^(Gain/20). So a mix of 0 passes the input
/// exactly.
///
/// Parameters (global): kReverb2Param_DryWetMix 0 (0…100 %, 100), Gain 1 (−20…20 dB, 0),
/// MinDelayTime 2 (0.0001…1 s, 0.008), MaxDelayTime 3 (0.0001…1 s, 0.050), DecayTimeAt0Hz 4
/// (0.001…20 s, 1), DecayTimeAtNyquist 5 (0.001…20 s, 0.5), RandomizeReflections 6 (1…1000, 1).
/// Factory presets 0…12 (Small Room … Large Hall 2, the names AVAudioUnitReverbPreset uses) set
/// parameters 1…6 and keep DryWetMix. The network (8 × 1 s at the rate) is allocated at
/// Initialize; parameter changes apply at the next slice boundary.
public final class ReverbUnit: AUEffectBase {
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Reverb2,
        manufacturer: kAudioUnitManufacturer_AUHost)

    /// A factory preset: this project's settings for the name (Gain, Min/MaxDelayTime,
    /// DecayTimeAt0Hz/AtNyquist, RandomizeReflections).
    public struct Preset: Sendable {
        public let name: String
        public let gain: Float, minimumDelay: Float, maximumDelay: Float, decayAt0Hz: Float, decayAtNyquist: Float, seed: Float
    }

    public static let presets: [Preset] = [
        Preset(name: "Small Room", gain: 0, minimumDelay: 0.004, maximumDelay: 0.020, decayAt0Hz: 0.4, decayAtNyquist: 0.2, seed: 1),
        Preset(name: "Medium Room", gain: 0, minimumDelay: 0.006, maximumDelay: 0.035, decayAt0Hz: 0.7, decayAtNyquist: 0.35, seed: 2),
        Preset(name: "Large Room", gain: 0, minimumDelay: 0.010, maximumDelay: 0.060, decayAt0Hz: 1.1, decayAtNyquist: 0.5, seed: 3),
        Preset(name: "Medium Hall", gain: 0, minimumDelay: 0.012, maximumDelay: 0.080, decayAt0Hz: 1.6, decayAtNyquist: 0.8, seed: 4),
        Preset(name: "Large Hall", gain: 0, minimumDelay: 0.020, maximumDelay: 0.120, decayAt0Hz: 2.4, decayAtNyquist: 1.1, seed: 5),
        Preset(name: "Plate", gain: 0, minimumDelay: 0.002, maximumDelay: 0.015, decayAt0Hz: 1.8, decayAtNyquist: 1.4, seed: 6),
        Preset(name: "Medium Chamber", gain: 0, minimumDelay: 0.008, maximumDelay: 0.045, decayAt0Hz: 1.2, decayAtNyquist: 0.7, seed: 7),
        Preset(name: "Large Chamber", gain: 0, minimumDelay: 0.012, maximumDelay: 0.070, decayAt0Hz: 1.8, decayAtNyquist: 1.0, seed: 8),
        Preset(name: "Cathedral", gain: 0, minimumDelay: 0.030, maximumDelay: 0.200, decayAt0Hz: 5.0, decayAtNyquist: 2.5, seed: 9),
        Preset(name: "Large Room 2", gain: 0, minimumDelay: 0.014, maximumDelay: 0.075, decayAt0Hz: 1.3, decayAtNyquist: 0.45, seed: 10),
        Preset(name: "Medium Hall 2", gain: 0, minimumDelay: 0.015, maximumDelay: 0.090, decayAt0Hz: 1.9, decayAtNyquist: 0.9, seed: 11),
        Preset(name: "Medium Hall 3", gain: 0, minimumDelay: 0.010, maximumDelay: 0.085, decayAt0Hz: 1.7, decayAtNyquist: 1.2, seed: 12),
        Preset(name: "Large Hall 2", gain: 0, minimumDelay: 0.025, maximumDelay: 0.150, decayAt0Hz: 3.0, decayAtNyquist: 1.2, seed: 13),
    ]

    var network: UnsafeMutablePointer<FDNReverb>?
    /// Mono input, left and right wet, MaximumFramesPerSlice each.
    var scratch: UnsafeMutablePointer<Float>?
    var scratchFrames = 0
    let applied = UnsafeMutablePointer<Float>.allocate(capacity: 7)
    var values: UnsafeMutablePointer<Float>?
    var wetGain: Float = 1

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = ReverbUnit.identity) {
        super.init(
            description: description,
            parameters: [
                ParameterDefinition(
                    id: kReverb2Param_DryWetMix, name: "Dry/Wet Mix", unit: kAudioUnitParameterUnit_EqualPowerCrossfade,
                    min: 0, max: 100, default: 100),
                ParameterDefinition(
                    id: kReverb2Param_Gain, name: "Gain", unit: kAudioUnitParameterUnit_Decibels, min: -20, max: 20, default: 0),
                ParameterDefinition(
                    id: kReverb2Param_MinDelayTime, name: "Min Delay Time", unit: kAudioUnitParameterUnit_Seconds,
                    min: 0.0001, max: 1, default: 0.008),
                ParameterDefinition(
                    id: kReverb2Param_MaxDelayTime, name: "Max Delay Time", unit: kAudioUnitParameterUnit_Seconds,
                    min: 0.0001, max: 1, default: 0.050),
                ParameterDefinition(
                    id: kReverb2Param_DecayTimeAt0Hz, name: "Decay Time At 0 Hz", unit: kAudioUnitParameterUnit_Seconds,
                    min: 0.001, max: 20, default: 1),
                ParameterDefinition(
                    id: kReverb2Param_DecayTimeAtNyquist, name: "Decay Time At Nyquist", unit: kAudioUnitParameterUnit_Seconds,
                    min: 0.001, max: 20, default: 0.5),
                ParameterDefinition(
                    id: kReverb2Param_RandomizeReflections, name: "Randomize Reflections", unit: kAudioUnitParameterUnit_Generic,
                    min: 1, max: 1000, default: 1),
            ])
        applied.initialize(repeating: .nan, count: 7)
    }

    deinit { applied.deallocate() }

    public override var factoryPresets: [(number: Int32, name: String)] {
        Self.presets.enumerated().map { (Int32($0.offset), $0.element.name) }
    }

    public override func applyFactoryPreset(_ number: Int32) throws {
        guard number >= 0, Int(number) < Self.presets.count else {
            throw AudioError(kAudioUnitErr_InvalidPropertyValue, "The reverb has no preset number \(number) (0…\(Self.presets.count - 1)).")
        }
        let p = Self.presets[Int(number)]
        for (id, value) in [
            (kReverb2Param_Gain, p.gain), (kReverb2Param_MinDelayTime, p.minimumDelay), (kReverb2Param_MaxDelayTime, p.maximumDelay),
            (kReverb2Param_DecayTimeAt0Hz, p.decayAt0Hz), (kReverb2Param_DecayTimeAtNyquist, p.decayAtNyquist),
            (kReverb2Param_RandomizeReflections, p.seed),
        ] {
            _ = setParameter(id, value: value)
        }
    }

    /// The longer decay time plus the longest line: the tail is then more than 60 dB down.
    public override var tailTime: Double {
        let t0 = Double((try? parameter(kReverb2Param_DecayTimeAt0Hz)) ?? 1)
        let tn = Double((try? parameter(kReverb2Param_DecayTimeAtNyquist)) ?? 0.5)
        let longest = Double(max((try? parameter(kReverb2Param_MinDelayTime)) ?? 0, (try? parameter(kReverb2Param_MaxDelayTime)) ?? 0))
        return max(t0, tn) + longest
    }

    /// The network's line lengths in frames (nil before Initialize). Thread: setup.
    public var lineLengths: [Int]? { network?.pointee.lineLengths }

    public override func allocateRenderResources() throws {
        let bytes = FDNReverb.bytes(sampleRate: sampleRate)
        guard bytes <= AUBase.maximumRenderMemory else {
            throw AudioError(
                kAudio_MemFullError,
                "The reverb at \(sampleRate) Hz needs \(bytes >> 20) MiB, more than the \(AUBase.maximumRenderMemory >> 20) MiB a unit may take."
            )
        }
        let made = UnsafeMutablePointer<FDNReverb>.allocate(capacity: 1)
        do {
            made.initialize(to: try FDNReverb(sampleRate: sampleRate))
        } catch let error as DSPKernelError {
            made.deallocate()
            throw AudioError(error.status, error.message)
        }
        network = made
        scratchFrames = Int(maxFramesPerSlice)
        scratch = .allocate(capacity: 3 * scratchFrames)
        scratch?.initialize(repeating: 0, count: 3 * scratchFrames)
        values = parameters.values
        applied.update(repeating: .nan, count: 7)
    }

    public override func deallocateRenderResources() {
        network?.deinitialize(count: 1)
        network?.deallocate()
        network = nil
        scratch?.deallocate()
        scratch = nil
    }

    public override func resetState() { network?.pointee.reset() }

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func process(
        input: UnsafeMutablePointer<AudioBufferList>, output: UnsafeMutablePointer<AudioBufferList>,
        offset: Int, frames: Int
    ) {
        guard let network, let scratch, let values, frames <= scratchFrames else { return }
        let applied = self.applied
        var changed = false
        for i in 1..<7 where values[i] != applied[i] {
            applied[i] = values[i]
            changed = true
        }
        if changed {
            network.pointee.setParameters(
                minimumDelay: Double(applied[2]), maximumDelay: Double(applied[3]), decayAt0Hz: Double(applied[4]),
                decayAtNyquist: Double(applied[5]), seed: Int(min(max(applied[6], 1), 1000)))
            wetGain = _unsafePerformance { Float(pow(10, Double(applied[1]) / 20)) }
        }
        let mix = min(max(values[0], 0), 100) / 100
        let ins = audioBuffers(input), outs = audioBuffers(output)
        let inCount = Int(input.pointee.mNumberBuffers), outCount = Int(output.pointee.mNumberBuffers)
        let mono = scratch, left = scratch + scratchFrames, right = scratch + 2 * scratchFrames
        // Every input is read before any output is written: in place is safe.
        for i in 0..<frames { mono[i] = 0 }
        var used = 0
        for c in 0..<inCount {
            guard let x = ins[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
            for i in 0..<frames { mono[i] += x[offset + i] }
            used += 1
        }
        if used > 1 {
            let scale = 1 / Float(used)
            for i in 0..<frames { mono[i] *= scale }
        }
        network.pointee.process(mono, left: left, right: right, frames: frames)
        let dry = 1 - mix, wet = mix * wetGain
        for c in 0..<min(inCount, outCount) {
            guard let x = ins[c].mData?.assumingMemoryBound(to: Float.self),
                let y = outs[c].mData?.assumingMemoryBound(to: Float.self)
            else { continue }
            let w = c % 2 == 0 ? left : right
            for i in 0..<frames { y[offset + i] = dry * x[offset + i] + wet * w[i] }
        }
    }
}
