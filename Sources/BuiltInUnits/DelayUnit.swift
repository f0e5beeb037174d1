import AUHostCore
import DSPKernels
import Foundation

/// The delay ('aufx' 'dely', AUDelay's parameters): per channel y = dry·x + wet·d with d the
/// input delayed by round(DelayTime × rate) frames, fed back by Feedback % through a one-pole
/// low pass at LopassCutoff (see DSPKernels.DelayLine).
///
/// Parameters (global): kDelayParam_WetDryMix 0 (0…100 %, 50), DelayTime 1 (0…2 s, 1),
/// Feedback 2 (−100…100 %, 50), LopassCutoff 3 (10 Hz…rate/2, 15000; at Nyquist the filter is
/// off). Changes apply at the next slice boundary. The lines take channels × 2 s × rate
/// samples, at most AUBase.maximumRenderMemory (else AudioUnitInitialize answers kAudio_MemFullError).
public final class DelayUnit: AUEffectBase {
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay,
        manufacturer: kAudioUnitManufacturer_AUHost)
    static let maximumDelay = 2.0
    /// One DelayLine per channel and the parameter values they were last set from.
    var lines: UnsafeMutablePointer<DelayLine>?
    var lineCount = 0
    let applied = UnsafeMutablePointer<Float>.allocate(capacity: 4)
    var values: UnsafeMutablePointer<Float>?

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = DelayUnit.identity) {
        super.init(
            description: description,
            parameters: [
                ParameterDefinition(
                    id: kDelayParam_WetDryMix, name: "Wet/Dry Mix", unit: kAudioUnitParameterUnit_EqualPowerCrossfade,
                    min: 0, max: 100, default: 50),
                ParameterDefinition(
                    id: kDelayParam_DelayTime, name: "Delay Time", unit: kAudioUnitParameterUnit_Seconds,
                    min: 0, max: Float(DelayUnit.maximumDelay), default: 1),
                ParameterDefinition(
                    id: kDelayParam_Feedback, name: "Feedback", unit: kAudioUnitParameterUnit_Percent,
                    min: -100, max: 100, default: 50),
                ParameterDefinition(
                    id: kDelayParam_LopassCutoff, name: "Low Pass Cutoff Frequency", unit: kAudioUnitParameterUnit_Hertz,
                    min: 10, max: 22_050, default: 15_000, maximumIsNyquist: true),
            ])
        applied.initialize(repeating: .nan, count: 4)
    }

    deinit { applied.deallocate() }

    /// The time until the repeats fall 60 dB (one delay when there is no feedback).
    public override var tailTime: Double {
        let time = Double((try? parameter(kDelayParam_DelayTime)) ?? 1)
        let feedback = abs(Double((try? parameter(kDelayParam_Feedback)) ?? 50)) / 100
        guard feedback > 0 else { return time }
        guard feedback < 1 else { return 60 }
        return min(time * (1 + (log(0.001) / log(feedback)).rounded(.up)), 60)
    }

    public override func allocateRenderResources() throws {
        let channels = Int(outputFormats[0].mChannelsPerFrame)
        let bytes = channels * (Int((Self.maximumDelay * sampleRate).rounded()) + 1) * MemoryLayout<Float>.size
        guard bytes <= AUBase.maximumRenderMemory else {
            throw AudioError(
                kAudio_MemFullError,
                "\(channels) channels of \(Self.maximumDelay) s at \(sampleRate) Hz need \(bytes >> 20) MiB of delay line, more than the \(AUBase.maximumRenderMemory >> 20) MiB a unit may take."
            )
        }
        let made = UnsafeMutablePointer<DelayLine>.allocate(capacity: channels)
        for c in 0..<channels {
            (made + c).initialize(to: try DelayLine(maximumDelayTime: Self.maximumDelay, sampleRate: sampleRate))
        }
        lines = made
        lineCount = channels
        values = parameters.values
        applied.update(repeating: .nan, count: 4)
    }

    public override func deallocateRenderResources() {
        lines?.deinitialize(count: lineCount)
        lines?.deallocate()
        lines = nil
        lineCount = 0
    }

    public override func resetState() {
        guard let lines else { return }
        for c in 0..<lineCount { lines[c].reset() }
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func process(
        input: UnsafeMutablePointer<AudioBufferList>, output: UnsafeMutablePointer<AudioBufferList>,
        offset: Int, frames: Int
    ) {
        guard let lines, let values else { return }
        let count = lineCount
        let applied = self.applied
        var changed = false
        for i in 0..<4 where values[i] != applied[i] {
            applied[i] = values[i]
            changed = true
        }
        if changed {
            // DelayLine.setParameters evaluates libm's exp (no allocation, no lock).
            _unsafePerformance {
                for c in 0..<count {
                    lines[c].setParameters(
                        wetDryMix: Double(values[0]), delayTime: Double(values[1]),
                        feedback: Double(values[2]), lowPassCutoff: Double(values[3]))
                }
            }
        }
        let ins = audioBuffers(input), outs = audioBuffers(output)
        for c in 0..<min(count, Int(output.pointee.mNumberBuffers)) {
            guard let i = ins[c].mData?.assumingMemoryBound(to: Float.self),
                let o = outs[c].mData?.assumingMemoryBound(to: Float.self)
            else { continue }
            lines[c].process(i + offset, o + offset, frameCount: frames)
        }
    }
}
