import AUHostCore
import DSPKernels
import Foundation

/// The time-pitch unit ('aufc' 'nutp', AUNewTimePitch's parameters) over TimePitchStretch
/// (SoundTouch for the tempo, a cubic reader for the pitch): Rate changes speed keeping pitch,
/// Pitch shifts by cents keeping speed. A time effect: for `frames` output frames it pulls about
/// rate × frames input frames, in pulls of at most MaximumFramesPerSlice, with time stamps of its
/// own that count input frames.
///
/// Parameters (global): kNewTimePitchParam_Rate 0 (1/32…32, 1), Pitch 1 (−2400…2400 cents, 0),
/// Overlap 4 (3…32, 8: SoundTouch's overlap in milliseconds, read at Initialize), EnablePeakLocking
/// 6 (0…1, 1: accepted, no effect). Where Rate equals the pitch ratio (Rate 1 and Pitch 0 among
/// them) SoundTouch is left out: the input is read as a varispeed reads it, and from Initialize or
/// Reset at Rate 1 and Pitch 0 it passes exactly, with no latency. Otherwise the first call pulls
/// what SoundTouch needs before it gives output. Input and output must have the same rate and
/// channel count (1…16: SoundTouch's limit).
public final class NewTimePitchUnit: AUBase {
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_FormatConverter, subType: kAudioUnitSubType_NewTimePitch,
        manufacturer: kAudioUnitManufacturer_AUHost)
    var stretch: TimePitchStretch?
    let inputTime = UnsafeMutablePointer<AudioTimeStamp>.allocate(capacity: 1)
    var values: UnsafeMutablePointer<Float>?
    var appliedPitch: Float = 0
    var pitchRatio = 1.0

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = NewTimePitchUnit.identity) {
        super.init(
            description: description, inputs: 1, outputs: 1,
            parameters: [
                ParameterDefinition(
                    id: kNewTimePitchParam_Rate, name: "Rate", unit: kAudioUnitParameterUnit_Rate, min: 1.0 / 32, max: 32, default: 1),
                ParameterDefinition(
                    id: kNewTimePitchParam_Pitch, name: "Pitch", unit: kAudioUnitParameterUnit_Cents, min: -2400, max: 2400, default: 0),
                ParameterDefinition(
                    id: kNewTimePitchParam_Overlap, name: "Overlap", unit: kAudioUnitParameterUnit_Generic, min: 3, max: 32, default: 8),
                ParameterDefinition(
                    id: kNewTimePitchParam_EnablePeakLocking, name: "Peak Locking", unit: kAudioUnitParameterUnit_Boolean, min: 0, max: 1,
                    default: 1),
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
        guard input.mChannelsPerFrame == output.mChannelsPerFrame, input.mChannelsPerFrame <= TimePitchStretch.maximumChannels else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "The time-pitch unit keeps the channel count (1…\(TimePitchStretch.maximumChannels), SoundTouch's limit); its input has \(input.mChannelsPerFrame) and its output \(output.mChannelsPerFrame)."
            )
        }
        guard input.mSampleRate == output.mSampleRate else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "The time-pitch unit keeps the sample rate; its input is at \(input.mSampleRate) Hz and its output at \(output.mSampleRate) Hz. Put a converter before it."
            )
        }
        let overlap = Int((try? parameter(kNewTimePitchParam_Overlap)) ?? 8)
        // Blocks of at most 1,024 frames: SoundTouch's FIFOs and the warm-up then do not grow with the slice.
        do {
            stretch = try TimePitchStretch(
                channels: Int(output.mChannelsPerFrame), sampleRate: output.mSampleRate, maximumFrames: min(Int(maxFramesPerSlice), 1024),
                rates: 1.0 / 32...32, pitchRatios: 0.25...4, overlapMilliseconds: overlap)
        } catch let error as DSPKernelError {
            throw AudioError(error.status, error.message)
        }
        values = parameters.values
        appliedPitch = 0
        pitchRatio = 1
        inputTime.pointee.mSampleTime = 0
    }

    public override func deallocateRenderResources() {
        stretch?.free()
        stretch = nil
    }

    public override func resetState() {
        stretch?.reset()
        inputTime.pointee.mSampleTime = 0
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        guard let stretch, let values else { return kAudioUnitErr_Uninitialized }
        if renderState().pointee.bypass { return pullInput(0, flags, timeStamp, frames, into: output) }
        let n = Int(frames)
        var position = 0
        while position < n {
            let length = nextParameterSlice(at: position, frames: n)
            let status = renderSlice(stretch, values, flags, output, offset: position, frames: length)
            guard status == noErr else { return status }
            position += length
        }
        finishParameterSlices(frames: n)
        return noErr
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    private func renderSlice(
        _ stretch: TimePitchStretch, _ values: UnsafeMutablePointer<Float>,
        _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ output: UnsafeMutablePointer<AudioBufferList>,
        offset: Int, frames: Int
    ) -> OSStatus {
        let pitch = min(max(values[1], -2400), 2400)
        if pitch != appliedPitch {
            appliedPitch = pitch
            // libm's exp2 (no allocation, no lock).
            pitchRatio = _unsafePerformance { exp2(Double(pitch) / 1200) }
        }
        stretch.set(rate: Double(min(max(values[0], 1.0 / 32), 32)), pitchRatio: pitchRatio)
        var done = 0
        while done < frames {
            let block = min(frames - done, stretch.maximumFrames)
            var budget = stretch.inputBudget(frames: block)
            while budget > 0 {
                let need = stretch.inputFramesWanted(toProduce: block)
                if need == 0 { break }
                let status = pullInput(0, flags, UnsafePointer(inputTime), UInt32(need))
                guard status == noErr, let list = inputList(0) else { return status == noErr ? kAudioUnitErr_NoConnection : status }
                inputTime.pointee.mSampleTime += Double(need)
                stretch.put(list, frames: need)
                budget -= need
            }
            stretch.read(into: output, offset: offset + done, frames: block)
            done += block
        }
        return noErr
    }
}
