import AUHostCore
import DSPKernels
import Foundation

/// The 3D mixer ('aumx' '3dem', AU3DMixerEmbedded): mono inputs (ElementCount on the input
/// scope, default 8), each at its own sample rate, placed around the listener and summed into
/// one stereo output at the output's rate.
///
/// Input scope, per bus (AudioUnitParameters.h): k3DMixerParam_Azimuth 0 (−180…180°, 0 ahead,
/// +90 right), Elevation 1 (−90…90°), Distance 2 (0…10000 m, 1), Gain 3 (−120…20 dB, 0),
/// PlaybackRate 4 (0.5…2, 1, as Apple documents it), Enable 5 (0/1). Output scope: Gain 3 (−120…20 dB, 0).
/// Placement and distance follow DSPKernels.Panner3DKernel: the equal-power law on the lateral
/// component sin(azimuth)·cos(elevation), and attenuation 1 / clamp(distance, 1 m, 1000 m).
/// Rate conversion and playback rate: each bus is read at (input rate / output rate) ×
/// PlaybackRate input samples per output sample with cubic Hermite interpolation
/// (VarispeedVoice); at a ratio of 1 samples pass unchanged. Parameter changes (immediate,
/// sample-offset, scheduled and ramped) apply at their frame. An input rate more than 16 times the
/// output's fails AudioUnitInitialize with kAudioUnitErr_FormatNotSupported.
/// A bus with nothing connected is silence; a disabled bus is not pulled. Latency and TailTime
/// are 0; no bypass (the output is stereo whatever the inputs); reset clears every bus's FIFO.
public final class Mixer3DUnit: AUBase {
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_Mixer, subType: kAudioUnitSubType_AU3DMixerEmbedded,
        manufacturer: kAudioUnitManufacturer_AUHost)
    static let perBus = 6
    /// The most input samples a bus reads per output sample before PlaybackRate (input rate /
    /// output rate).
    static let maximumRateRatio = 16.0
    /// PlaybackRate's range (AudioUnitParameters.h: "rate scaler 0.5 -> 2.0").
    static let playbackRates: ClosedRange<Float> = 0.5...2
    var voices: UnsafeMutablePointer<VarispeedVoice>?
    var panners: UnsafeMutablePointer<Panner3DKernel>?
    /// Per bus: azimuth, elevation, distance, gain, rate, enable slots; then the output gain.
    var slots: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    /// Per bus: the placement the panner was last set from (4 values, NaN: not yet).
    var applied: UnsafeMutablePointer<Float>?
    var baseSteps: UnsafeMutablePointer<Double>?
    var inputTimes: UnsafeMutablePointer<AudioTimeStamp>?
    var scratch: UnsafeMutablePointer<Float>?
    var busCount = 0
    /// MaximumFramesPerSlice at initialization: the largest pull.
    var sliceFrames = 0

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = Mixer3DUnit.identity) {
        super.init(
            description: description, inputs: 8, outputs: 1,
            parameters: [
                ParameterDefinition(
                    id: k3DMixerParam_Azimuth, name: "Azimuth", unit: kAudioUnitParameterUnit_Degrees,
                    min: -180, max: 180, default: 0, scope: kAudioUnitScope_Input),
                ParameterDefinition(
                    id: k3DMixerParam_Elevation, name: "Elevation", unit: kAudioUnitParameterUnit_Degrees,
                    min: -90, max: 90, default: 0, scope: kAudioUnitScope_Input),
                ParameterDefinition(
                    id: k3DMixerParam_Distance, name: "Distance", unit: kAudioUnitParameterUnit_Meters,
                    min: 0, max: 10_000, default: 1, scope: kAudioUnitScope_Input),
                ParameterDefinition(
                    id: k3DMixerParam_Gain, name: "Gain", unit: kAudioUnitParameterUnit_Decibels,
                    min: -120, max: 20, default: 0, scope: kAudioUnitScope_Input),
                ParameterDefinition(
                    id: k3DMixerParam_PlaybackRate, name: "Playback Rate", unit: kAudioUnitParameterUnit_Rate,
                    min: Self.playbackRates.lowerBound, max: Self.playbackRates.upperBound, default: 1, scope: kAudioUnitScope_Input),
                ParameterDefinition(
                    id: k3DMixerParam_Enable, name: "Enable", unit: kAudioUnitParameterUnit_Boolean,
                    min: 0, max: 1, default: 1, flags: [], scope: kAudioUnitScope_Input),
                ParameterDefinition(
                    id: k3DMixerParam_Gain, name: "Output Gain", unit: kAudioUnitParameterUnit_Decibels,
                    min: -120, max: 20, default: 0, scope: kAudioUnitScope_Output),
            ])
        for bus in 0..<UInt32(8) { try? setFormat(.canonical(sampleRate: 44_100, channels: 1), kAudioUnitScope_Input, bus) }
    }

    public override var canChangeElementCount: (input: Bool, output: Bool) { (true, false) }

    public override func accepts(format: AudioStreamBasicDescription, scope: AudioUnitScope, element: AudioUnitElement) -> Bool {
        guard format.isCanonical, format.isValidLinearPCM else { return false }
        return format.mChannelsPerFrame == (scope == kAudioUnitScope_Input ? 1 : 2)
    }

    public override func allocateRenderResources() throws {
        guard !inputFormats.isEmpty else {
            throw AudioError(
                kAudioUnitErr_FailedInitialization, "The 3D mixer needs at least one input bus (ElementCount on the input scope).")
        }
        let count = inputFormats.count, frames = Int(maxFramesPerSlice), rate = outputFormats[0].mSampleRate
        // A bus's FIFO holds one call's input at the fastest playback rate: bound the rate ratio
        // so that it stays maximumFrames × 4 × maximumRateRatio samples at most.
        for (b, format) in inputFormats.enumerated() where !(format.mSampleRate / rate <= Self.maximumRateRatio) {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "Input bus \(b) runs at \(format.mSampleRate) Hz, more than \(Int(Self.maximumRateRatio)) times the output's \(rate) Hz; put a format converter in front of the 3D mixer."
            )
        }
        let fastest = Double(Self.playbackRates.upperBound)
        let voiceSamples = inputFormats.reduce(0) { $0 + Int(Double(frames) * ($1.mSampleRate / rate) * fastest) + frames + 16 }
        guard voiceSamples * MemoryLayout<Float>.size <= AUBase.maximumRenderMemory else {
            throw AudioError(
                kAudio_MemFullError,
                "\(count) buses of \(frames) frames need \(voiceSamples * MemoryLayout<Float>.size >> 20) MiB of FIFOs, more than the \(AUBase.maximumRenderMemory >> 20) MiB a unit may take; lower MaximumFramesPerSlice or the bus count."
            )
        }
        let v = UnsafeMutablePointer<VarispeedVoice>.allocate(capacity: count)
        let steps = UnsafeMutablePointer<Double>.allocate(capacity: count)
        for (b, format) in inputFormats.enumerated() {
            steps[b] = format.mSampleRate / rate
            (v + b).initialize(to: VarispeedVoice(maximumFrames: frames, maximumStep: steps[b] * fastest))
        }
        let p = UnsafeMutablePointer<Panner3DKernel>.allocate(capacity: count)
        p.initialize(repeating: Panner3DKernel(), count: count)
        let s = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: count * Self.perBus + 1)
        let ids = [
            k3DMixerParam_Azimuth, k3DMixerParam_Elevation, k3DMixerParam_Distance, k3DMixerParam_Gain,
            k3DMixerParam_PlaybackRate, k3DMixerParam_Enable,
        ]
        for b in 0..<count {
            for (k, id) in ids.enumerated() { s[b * Self.perBus + k] = parameters.slot(id, kAudioUnitScope_Input, UInt32(b))! }
        }
        s[count * Self.perBus] = parameters.slot(k3DMixerParam_Gain, kAudioUnitScope_Output, 0)!
        applied = .allocate(capacity: count * 4)
        applied!.initialize(repeating: .nan, count: count * 4)
        inputTimes = .allocate(capacity: count)
        var stamp = AudioTimeStamp()
        stamp.mFlags = .sampleTimeValid
        inputTimes!.initialize(repeating: stamp, count: count)
        scratch = .allocate(capacity: frames)
        voices = v; panners = p; slots = s; baseSteps = steps; busCount = count; sliceFrames = frames
    }

    public override func deallocateRenderResources() {
        if let voices { for b in 0..<busCount { voices[b].free() } }
        voices?.deallocate(); panners?.deallocate(); slots?.deallocate(); applied?.deallocate()
        baseSteps?.deallocate(); inputTimes?.deallocate(); scratch?.deallocate()
        voices = nil; panners = nil; slots = nil; applied = nil; baseSteps = nil; inputTimes = nil; scratch = nil
        busCount = 0
    }

    public override func resetState() {
        guard let voices, let inputTimes else { return }
        for b in 0..<busCount {
            voices[b].reset()
            inputTimes[b].mSampleTime = 0
        }
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        guard let voices, let panners, let slots, let applied, let baseSteps, let inputTimes, let scratch else {
            return kAudioUnitErr_Uninitialized
        }
        let n = Int(frames), count = busCount
        let outs = audioBuffers(output)
        guard output.pointee.mNumberBuffers == 2,
            let left = outs[0].mData?.assumingMemoryBound(to: Float.self),
            let right = outs[1].mData?.assumingMemoryBound(to: Float.self)
        else { return kAudio_ParamError }
        for i in 0..<n { left[i] = 0; right[i] = 0 }
        // Scheduled and sample-offset parameter events apply at their frame: the call is rendered
        // in slices between them (one slice when there are none).
        var position = 0
        while position < n {
            let length = nextParameterSlice(at: position, frames: n)
            for b in 0..<count {
                let status = renderBusSlice(
                    b, flags, voices, panners, slots, applied, baseSteps, inputTimes, scratch,
                    left + position, right + position, length)
                guard status == noErr else { return status }
            }
            let gainDecibels = slots[count * Self.perBus].pointee
            if gainDecibels != 0 {
                // One pow per slice (libm: no allocation, no lock).
                let gain = _unsafePerformance { Float(pow(10, Double(gainDecibels) / 20)) }
                for i in position..<(position + length) { left[i] *= gain; right[i] *= gain }
            }
            position += length
        }
        finishParameterSlices(frames: n)
        return noErr
    }

    /// Adds `n` frames of input bus `b`, placed, into `left`/`right` with the parameter values now
    /// current.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    private func renderBusSlice(
        _ b: Int, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        _ voices: UnsafeMutablePointer<VarispeedVoice>, _ panners: UnsafeMutablePointer<Panner3DKernel>,
        _ slots: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, _ applied: UnsafeMutablePointer<Float>,
        _ baseSteps: UnsafeMutablePointer<Double>, _ inputTimes: UnsafeMutablePointer<AudioTimeStamp>,
        _ scratch: UnsafeMutablePointer<Float>, _ left: UnsafeMutablePointer<Float>,
        _ right: UnsafeMutablePointer<Float>, _ n: Int
    ) -> OSStatus {
        let per = Self.perBus, chunk = sliceFrames
        guard slots[b * per + 5].pointee >= 0.5 else { return noErr }
        var changed = false
        for k in 0..<4 where slots[b * per + k].pointee != applied[b * 4 + k] {
            applied[b * 4 + k] = slots[b * per + k].pointee
            changed = true
        }
        if changed {
            let a = applied + b * 4
            // The gains evaluate libm's sin, cos and pow (no allocation, no lock).
            _unsafePerformance {
                panners[b].setParameters(
                    azimuth: Double(a[0]), elevation: Double(a[1]), distance: Double(a[2]),
                    gainDecibels: Double(a[3]))
            }
        }
        // The slot holds a value inside 0.5…2 (the API clamps others); clamped again for safety.
        let rate = Double(min(max(slots[b * per + 4].pointee, 0.5), 2))
        let step = baseSteps[b] * (rate.isNaN ? 1 : rate)
        var need = voices[b].samplesNeeded(frames: n, step: step)
        var connected = true
        while need > 0 {
            let pull = min(need, chunk)
            let status = pullInput(b, flags, UnsafePointer(inputTimes + b), UInt32(pull))
            if status == kAudioUnitErr_NoConnection { connected = false; break }
            guard status == noErr, let list = inputList(b), let data = audioBuffers(list)[0].mData else { return status }
            voices[b].append(data.assumingMemoryBound(to: Float.self), pull)
            inputTimes[b].mSampleTime += Double(pull)
            need -= pull
        }
        if !connected { voices[b].appendSilence(need) }
        voices[b].read(into: scratch, frames: n, step: step)
        panners[b].process(scratch, left: left, right: right, frameCount: n, accumulate: true)
        return noErr
    }
}
