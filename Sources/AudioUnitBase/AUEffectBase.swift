import AudioTypes

/// An effect: one input and one output element with the same channel count, processed channel
/// by channel (override ``processChannel(_:input:output:frames:)``) or as a whole buffer
/// (override ``process(input:output:offset:frames:)``). Pulling the input, sample-accurate
/// parameter slicing, bypass, in-place processing and AudioUnitProcess are handled here.
///
/// ```swift
/// final class Gain: AUEffectBase {
///     init(_ d: AudioComponentDescription) {
///         super.init(description: d, parameters: [ParameterDefinition(id: 0, name: "Gain", min: 0, max: 2, default: 1)])
///     }
///     override func processChannel(_ c: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
///         let g = parameterValues[0]
///         for i in 0..<frames { output[i] = input[i] * g }
///     }
/// }
/// ```
open class AUEffectBase: AUBase {
    /// Thread: setup.
    public init(
        description: AudioComponentDescription, channels: UInt32 = 2, sampleRate: Double = 44_100,
        parameters: [ParameterDefinition] = []
    ) {
        super.init(
            description: description, inputs: 1, outputs: 1, channels: channels, sampleRate: sampleRate,
            parameters: parameters)
    }

    open override var channelCapabilities: [AUChannelInfo] { [AUChannelInfo(inChannels: -1, outChannels: -1)] }
    open override var supportsBypass: Bool { true }
    open override var supportsInPlace: Bool { true }
    open override var supportsProcess: Bool { true }

    /// Processes one channel of a slice. Default: copies (a unit overrides this or `process`).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    open func processChannel(_ channel: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
        if UnsafeMutablePointer(mutating: input) != output { for i in 0..<frames { output[i] = input[i] } }
    }

    /// Processes frames `offset ..< offset + frames` of every channel with the parameter values now
    /// current. Default: ``processChannel(_:input:output:frames:)`` per channel.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    open func process(
        input: UnsafeMutablePointer<AudioBufferList>, output: UnsafeMutablePointer<AudioBufferList>,
        offset: Int, frames: Int
    ) {
        let ins = audioBuffers(input), outs = audioBuffers(output)
        let unit = Unmanaged.passUnretained(self)
        for c in 0..<Int(min(input.pointee.mNumberBuffers, output.pointee.mNumberBuffers)) {
            guard let i = ins[c].mData?.assumingMemoryBound(to: Float.self),
                let o = outs[c].mData?.assumingMemoryBound(to: Float.self)
            else { continue }
            // A virtual call the checker cannot follow; each override is checked where it is written.
            _unsafePerformance {
                unit._withUnsafeGuaranteedRef { $0.processChannel(c, input: i + offset, output: o + offset, frames: frames) }
            }
        }
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    open override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        // In place: pull straight into the output buffers, then process them where they are.
        let s = renderState()
        let bypass = s.pointee.bypass
        let inPlace = bypass || s.pointee.inPlace
        let status = pullInput(0, flags, timeStamp, frames, into: inPlace ? output : nil)
        guard status == noErr else { return status }
        guard !bypass else { return noErr }
        guard let input = inPlace ? output : inputList(0) else { return kAudioUnitErr_NoConnection }
        processSliced(input: input, output: output, frames: Int(frames))
        return noErr
    }

    /// AudioUnitProcess: the caller's list is both input and output.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    open override func process(
        _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ timeStamp: UnsafePointer<AudioTimeStamp>?,
        _ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>?
    ) -> OSStatus {
        guard let ioData else { return kAudio_ParamError }
        let s = renderState()
        guard s.pointee.initialized else { return kAudioUnitErr_Uninitialized }
        guard frames <= s.pointee.maxFrames else { return kAudioUnitErr_TooManyFramesToProcess }
        // The same checks AudioUnitRender makes: the unit never writes beyond the caller's list.
        let status = s.pointee.checkInPlaceList(0, ioData, frames)
        guard status == noErr else { return status }
        let section = s.pointee.enterRender()
        if !s.pointee.bypass { processSliced(input: ioData, output: ioData, frames: Int(frames)) }
        s.pointee.leaveRender(section)
        return noErr
    }

    /// Runs `process` over the slices between scheduled parameter changes.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    private func processSliced(input: UnsafeMutablePointer<AudioBufferList>, output: UnsafeMutablePointer<AudioBufferList>, frames: Int) {
        var position = 0
        let unit = Unmanaged.passUnretained(self)
        while position < frames {
            let count = nextParameterSlice(at: position, frames: frames)
            // A virtual call the checker cannot follow; each override is checked where it is written.
            _unsafePerformance {
                unit._withUnsafeGuaranteedRef { $0.process(input: input, output: output, offset: position, frames: count) }
            }
            position += count
        }
        finishParameterSlices(frames: frames)
    }
}
