import AUHostCore
import Foundation

/// The time-pitch unit ('aufc' 'nutp', AUNewTimePitch's parameters) over SoundTouch
/// (SoundTouchStretch): Rate changes speed keeping pitch, Pitch shifts by cents keeping speed. A
/// time effect: for `frames` output frames it pulls about rate × frames input frames, in pulls of
/// at most MaximumFramesPerSlice, with time stamps of its own that count input frames.
///
/// Parameters (global): kNewTimePitchParam_Rate 0 (1/32…32, 1), Pitch 1 (−2400…2400 cents, 0),
/// Overlap 4 (3…32, 8: SoundTouch's overlap in milliseconds, read at Initialize), EnablePeakLocking
/// 6 (0…1, 1: accepted, no effect). At Rate 1 and Pitch 0 the input passes exactly, with no
/// latency (SoundTouch is bypassed and cleared); otherwise the first call pulls what SoundTouch
/// needs before it gives output, and frames it cannot give are silence. Input and output must have
/// the same rate and channel count (1…15: SoundTouch's anti-alias filter asserts fewer than 16).
public final class NewTimePitchUnit: AUBase {
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_FormatConverter, subType: kAudioUnitSubType_NewTimePitch,
        manufacturer: kAudioUnitManufacturer_AUHost)
    var stretch: SoundTouchStretch?
    let inputTime = UnsafeMutablePointer<AudioTimeStamp>.allocate(capacity: 1)
    var values: UnsafeMutablePointer<Float>?
    var appliedRate: Float = .nan, appliedPitch: Float = .nan
    /// Whether the last slice passed the input straight through (Rate 1, Pitch 0).
    var passingThrough = true

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
        guard input.mChannelsPerFrame == output.mChannelsPerFrame, input.mChannelsPerFrame <= SoundTouchStretch.maximumChannels else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "The time-pitch unit keeps the channel count (1…\(SoundTouchStretch.maximumChannels), SoundTouch's limit); its input has \(input.mChannelsPerFrame) and its output \(output.mChannelsPerFrame)."
            )
        }
        guard input.mSampleRate == output.mSampleRate else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "The time-pitch unit keeps the sample rate; its input is at \(input.mSampleRate) Hz and its output at \(output.mSampleRate) Hz. Put a converter before it."
            )
        }
        let overlap = Int((try? parameter(kNewTimePitchParam_Overlap)) ?? 8)
        stretch = SoundTouchStretch(
            channels: Int(output.mChannelsPerFrame), sampleRate: output.mSampleRate, chunk: Int(maxFramesPerSlice),
            overlapMilliseconds: overlap)
        values = parameters.values
        appliedRate = .nan
        appliedPitch = .nan
        passingThrough = true
        inputTime.pointee.mSampleTime = 0
    }

    public override func deallocateRenderResources() {
        stretch?.free()
        stretch = nil
    }

    public override func resetState() {
        stretch?.clear()
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
        _ stretch: SoundTouchStretch, _ values: UnsafeMutablePointer<Float>,
        _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ output: UnsafeMutablePointer<AudioBufferList>,
        offset: Int, frames: Int
    ) -> OSStatus {
        let rate = min(max(values[0], 1.0 / 32), 32), pitch = min(max(values[1], -2400), 2400)
        if rate == 1 && pitch == 0 {
            if !passingThrough {
                stretch.clear()
                passingThrough = true
            }
            let status = pullInput(0, flags, UnsafePointer(inputTime), UInt32(frames))
            guard status == noErr, let list = inputList(0) else { return status == noErr ? kAudioUnitErr_NoConnection : status }
            inputTime.pointee.mSampleTime += Double(frames)
            copyFrames(from: list, to: output, offset: offset, frames: frames)
            return noErr
        }
        passingThrough = false
        let lastRate = appliedRate, lastPitch = appliedPitch
        if rate != lastRate || pitch != lastPitch {
            appliedRate = rate
            appliedPitch = pitch
            stretch.set(tempo: rate, cents: pitch)
        }
        var attempts = 0
        while stretch.available < frames && attempts < 64 {
            attempts += 1
            let need = stretch.inputFrames(toProduce: frames - stretch.available, tempo: rate)
            let status = pullInput(0, flags, UnsafePointer(inputTime), UInt32(need))
            guard status == noErr, let list = inputList(0) else { return status == noErr ? kAudioUnitErr_NoConnection : status }
            inputTime.pointee.mSampleTime += Double(need)
            stretch.put(list, frames: need)
        }
        let got = stretch.receive(into: output, offset: offset, frames: frames)
        if got < frames { zeroFrames(output, offset: offset + got, frames: frames - got) }
        return noErr
    }
}

/// Copies `frames` frames of each buffer of `source` (from 0) into `target` from `offset`.
///
/// Thread: render.
@_noAllocation @_noLocks
func copyFrames(
    from source: UnsafeMutablePointer<AudioBufferList>, to target: UnsafeMutablePointer<AudioBufferList>, offset: Int, frames: Int
) {
    let ins = audioBuffers(source), outs = audioBuffers(target)
    for c in 0..<min(Int(source.pointee.mNumberBuffers), Int(target.pointee.mNumberBuffers)) {
        guard let x = ins[c].mData?.assumingMemoryBound(to: Float.self), let y = outs[c].mData?.assumingMemoryBound(to: Float.self)
        else { continue }
        for i in 0..<frames { y[offset + i] = x[i] }
    }
}

/// Zeroes frames `offset ..< offset + frames` of each buffer of `list`.
///
/// Thread: render.
@_noAllocation @_noLocks
func zeroFrames(_ list: UnsafeMutablePointer<AudioBufferList>, offset: Int, frames: Int) {
    let outs = audioBuffers(list)
    for c in 0..<Int(list.pointee.mNumberBuffers) {
        guard let y = outs[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
        for i in 0..<frames { y[offset + i] = 0 }
    }
}
