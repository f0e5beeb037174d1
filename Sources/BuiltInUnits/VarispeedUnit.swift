import AUHostCore
import DSPKernels
import Foundation

/// The varispeed ('aufc' 'vari', AUVarispeed's parameters): plays its input faster or slower,
/// pitch with speed, as tape does. Output frame n reads the input at position n × step,
/// step = (input rate / output rate) × PlaybackRate × 2^(PlaybackCents/1200) (the product clamped
/// to 0.25…4), with 4-point cubic (Catmull-Rom) interpolation per channel (VarispeedVoice, as the
/// 3D mixer's playback rate). At a step of exactly 1 the input passes unchanged with no latency.
/// Above 1 (reading faster) the input first passes an anti-alias low pass (VarispeedReader).
/// A time effect: it pulls about step × frames input frames per call, in pulls of at most
/// MaximumFramesPerSlice, with time stamps of its own that count input frames.
///
/// Parameters (global): kVarispeedParam_PlaybackRate 0 (0.25…4, 1), PlaybackCents 1
/// (−2400…2400, 0). Input and output must have the same channel count; their rates may differ by
/// up to a factor of 4.
public final class VarispeedUnit: AUBase {
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_FormatConverter, subType: kAudioUnitSubType_Varispeed,
        manufacturer: kAudioUnitManufacturer_AUHost)
    var reader: VarispeedReader?
    let inputTime = UnsafeMutablePointer<AudioTimeStamp>.allocate(capacity: 1)
    var values: UnsafeMutablePointer<Float>?
    var baseStep = 1.0
    /// MaximumFramesPerSlice at Initialize: the largest pull.
    var sliceFrames = 1
    var appliedCents: Float = 0
    var centsFactor = 1.0

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = VarispeedUnit.identity) {
        super.init(
            description: description, inputs: 1, outputs: 1,
            parameters: [
                ParameterDefinition(
                    id: kVarispeedParam_PlaybackRate, name: "Playback Rate", unit: kAudioUnitParameterUnit_Rate, min: 0.25, max: 4,
                    default: 1),
                ParameterDefinition(
                    id: kVarispeedParam_PlaybackCents, name: "Playback Pitch", unit: kAudioUnitParameterUnit_Cents, min: -2400, max: 2400,
                    default: 0),
            ])
        inputTime.initialize(to: AudioTimeStamp())
        inputTime.pointee.mFlags = .sampleTimeValid
    }

    deinit {
        // AUBase's deinit frees what an initialized unit holds (deallocateRenderResources).
        inputTime.deallocate()
    }

    public override var supportsBypass: Bool { true }

    public override func allocateRenderResources() throws {
        let input = inputFormats[0], output = outputFormats[0]
        guard input.mChannelsPerFrame == output.mChannelsPerFrame else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "The varispeed keeps the channel count; its input has \(input.mChannelsPerFrame) and its output \(output.mChannelsPerFrame)."
            )
        }
        let base = input.mSampleRate / output.mSampleRate
        guard base <= 4, base >= 0.25 else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "The varispeed converts rates at most a factor of 4 apart, not \(input.mSampleRate) Hz to \(output.mSampleRate) Hz.")
        }
        let channels = Int(output.mChannelsPerFrame), frames = Int(maxFramesPerSlice)
        let bytes = VarispeedReader.bytes(channels: channels, maximumFrames: frames, maximumStep: base * 4)
        guard bytes <= AUBase.maximumRenderMemory else {
            throw AudioError(
                kAudio_MemFullError,
                "\(channels) channels of \(frames)-frame slices need \(bytes >> 20) MiB of FIFOs, more than the \(AUBase.maximumRenderMemory >> 20) MiB a unit may take."
            )
        }
        reader = VarispeedReader(channels: channels, maximumFrames: frames, maximumStep: base * 4, inputRate: input.mSampleRate)
        baseStep = base
        sliceFrames = frames
        values = parameters.values
        appliedCents = 0
        centsFactor = 1
        inputTime.pointee.mSampleTime = 0
    }

    public override func deallocateRenderResources() {
        reader?.free()
        reader = nil
    }

    public override func resetState() {
        reader?.reset()
        inputTime.pointee.mSampleTime = 0
    }

    /// The input frames read per output frame now. Thread: any.
    public var step: Double {
        let rate = Double((try? parameter(kVarispeedParam_PlaybackRate)) ?? 1)
        let cents = Double((try? parameter(kVarispeedParam_PlaybackCents)) ?? 0)
        return baseStep * min(max(rate * pow(2, cents / 1200), 0.25), 4)
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        guard let reader, let values else { return kAudioUnitErr_Uninitialized }
        if renderState().pointee.bypass { return pullInput(0, flags, timeStamp, frames, into: output) }
        let n = Int(frames)
        var position = 0
        while position < n {
            let length = nextParameterSlice(at: position, frames: n)
            let status = renderSlice(reader, values, flags, output, offset: position, frames: length)
            guard status == noErr else { return status }
            position += length
        }
        finishParameterSlices(frames: n)
        return noErr
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    private func renderSlice(
        _ reader: VarispeedReader, _ values: UnsafeMutablePointer<Float>,
        _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ output: UnsafeMutablePointer<AudioBufferList>,
        offset: Int, frames: Int
    ) -> OSStatus {
        let cents = values[1]
        if cents != appliedCents {
            appliedCents = cents
            // libm's exp2 (no allocation, no lock).
            centsFactor = _unsafePerformance { exp2(Double(min(max(cents, -2400), 2400)) / 1200) }
        }
        let rate = Double(values[0]) * centsFactor
        reader.setStep(baseStep * min(max(rate, 0.25), 4))
        let chunk = sliceFrames
        var need = reader.samplesNeeded(frames: frames)
        while need > 0 {
            let pull = min(need, chunk)
            let status = pullInput(0, flags, UnsafePointer(inputTime), UInt32(pull))
            guard status == noErr, let list = inputList(0) else { return status == noErr ? kAudioUnitErr_NoConnection : status }
            let ins = audioBuffers(list)
            for c in 0..<min(reader.channels, Int(list.pointee.mNumberBuffers)) {
                guard let x = ins[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
                reader.append(channel: c, x, count: pull)
            }
            inputTime.pointee.mSampleTime += Double(pull)
            need -= pull
        }
        let outs = audioBuffers(output)
        for c in 0..<min(reader.channels, Int(output.pointee.mNumberBuffers)) {
            guard let y = outs[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
            reader.read(channel: c, into: y + offset, frames: frames)
        }
        return noErr
    }
}
