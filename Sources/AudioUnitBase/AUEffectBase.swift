import AudioTypes

/// An effect: one input and one output element with the same channel count, processed channel
/// by channel (override ``processChannel(_:input:output:frames:)``) or as a whole buffer
/// (override ``process(input:output:offset:frames:)``). Pulling the input, sample-accurate
/// parameter slicing, bypass, in-place processing, AudioUnitProcess and the OutputIsSilence mark
/// (kept for the unit's latency and tail, as Apple's AUEffectBase keeps it) are handled here.
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
    open override var supportsProcessMultiple: Bool { true }

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

    /// Called once before the first slice of each render call that is processed (not for bypassed
    /// or timed-out silent calls), with the call's length: where a unit asks the host's callbacks
    /// what holds for the whole call (the SDK's kernel units read the musical time here). Default:
    /// nothing.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    open func willProcessSlices(frames: Int) {}

    /// Pulls the input and processes it, as Apple's AUEffectBase does: bypassed, the input passes
    /// with its silence mark; input marked OutputIsSilence for longer than the unit's latency and
    /// tail gives zeroed output marked OutputIsSilence without processing (parameter changes still
    /// land); any other output is marked as sound.
    ///
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
        let silent = inputWasSilent(0)
        guard !bypass else {
            markSilence(flags, silent)
            return noErr
        }
        guard let input = inPlace ? output : inputList(0) else { return kAudioUnitErr_NoConnection }
        processOrSilence(input: input, output: output, frames: frames, inputSilent: silent, flags: flags)
        return noErr
    }

    /// AudioUnitProcess: the caller's list is both input and output, and the OutputIsSilence mark
    /// in `flags` says whether the input is silent; the output is processed and marked as
    /// AudioUnitRender would (as Apple's AUEffectBase does), so a host may render the unit either way.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    open override func process(
        _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ timeStamp: UnsafePointer<AudioTimeStamp>?,
        _ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>?
    ) -> OSStatus {
        guard let ioData else { return kAudio_ParamError }
        return processLists(flags, frames, input: ioData, output: ioData)
    }

    /// AudioUnitProcessMultiple with one input list and one output list: the input is processed
    /// into the output out of place, with the silence mark read from and written to `flags` as
    /// ``process(_:_:_:_:)`` does. (A graph renders chains of effects this way:
    /// AudioGraph+ProcessRuns.swift.)
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    open override func processMultiple(
        _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ timeStamp: UnsafePointer<AudioTimeStamp>?,
        _ frames: UInt32, inputs: UnsafeBufferPointer<UnsafePointer<AudioBufferList>?>,
        outputs: UnsafeBufferPointer<UnsafeMutablePointer<AudioBufferList>?>
    ) -> OSStatus {
        guard inputs.count == 1, outputs.count == 1, let input = inputs[0], let output = outputs[0] else { return kAudio_ParamError }
        return processLists(flags, frames, input: UnsafeMutablePointer(mutating: input), output: output)
    }

    /// Process and ProcessMultiple: both lists checked as AudioUnitRender checks its list (the
    /// effect's input and output formats are alike), then processed; bypassed, the input is copied.
    /// (Inlined into both: a graph calls ProcessMultiple once per unit of a chain.)
    @inline(__always) @_noAllocation @_noLocks
    private func processLists(
        _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ frames: UInt32,
        input: UnsafeMutablePointer<AudioBufferList>, output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        let s = renderState()
        guard s.pointee.initialized else { return kAudioUnitErr_Uninitialized }
        guard frames <= s.pointee.maxFrames else { return kAudioUnitErr_TooManyFramesToProcess }
        // The unit never reads or writes beyond the caller's lists.
        var status = s.pointee.checkInPlaceList(0, input, frames)
        if status == noErr, output != input { status = s.pointee.checkInPlaceList(0, output, frames) }
        guard status == noErr else { return status }
        let section = s.pointee.enterRender()
        if s.pointee.bypass {
            copy(input, to: output, frames: frames, bytesPerFrame: s.pointee.outputs[0].buffers.bytesPerFrame)
        } else {
            let silence = AudioUnitRenderActionFlags.unitRenderAction_OutputIsSilence.rawValue
            let inputSilent = (flags?.pointee.rawValue ?? 0) & silence != 0
            processOrSilence(input: input, output: output, frames: frames, inputSilent: inputSilent, flags: flags)
        }
        s.pointee.leaveRender(section)
        return noErr
    }

    /// Input silent for longer than the unit's latency and tail gives zeroed output marked
    /// OutputIsSilence without processing (parameter changes still land); any other input is
    /// processed and the output marked as sound.
    @_noAllocation @_noLocks
    private func processOrSilence(
        input: UnsafeMutablePointer<AudioBufferList>, output: UnsafeMutablePointer<AudioBufferList>, frames: UInt32,
        inputSilent: Bool, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?
    ) {
        let s = renderState()
        var silent = inputSilent
        let limit = silent && s.pointee.silentTimeout.beginsStretch ? silenceTimeoutFrames() : 0
        s.pointee.silentTimeout.process(frames: Int(frames), limit: limit, silence: &silent)
        if silent {
            zero(output, frames: frames, bytesPerFrame: s.pointee.outputs[0].buffers.bytesPerFrame)
            skipSliced(frames: Int(frames))
        } else {
            processSliced(input: input, output: output, frames: Int(frames))
        }
        if let flags { markSilence(flags, silent) }
    }

    /// Frames the output keeps sounding after the input turns silent: the unit's latency and tail
    /// (Apple's AUEffectBase reads GetLatency and GetTailTime on the render thread too; overrides
    /// are expected to be cheap getters). A tail that never ends (infinite, NaN) never times out.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    private func silenceTimeoutFrames() -> Int {
        let unit = Unmanaged.passUnretained(self)
        let seconds = _unsafePerformance { unit._withUnsafeGuaranteedRef { $0.latency + $0.tailTime } }
        let frames = seconds * renderState().pointee.sampleRate
        guard frames.isFinite, frames < Double(Int.max / 2) else { return Int.max }
        // To the nearest frame: a latency or tail is usually a whole number of frames over the rate.
        return frames > 0 ? Int(frames + 0.5) : 0
    }

    /// Sets or clears kAudioUnitRenderAction_OutputIsSilence in the caller's flags.
    @_noAllocation @_noLocks
    private func markSilence(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ silent: Bool) {
        let bit = AudioUnitRenderActionFlags.unitRenderAction_OutputIsSilence.rawValue
        flags.pointee = AudioUnitRenderActionFlags(rawValue: silent ? flags.pointee.rawValue | bit : flags.pointee.rawValue & ~bit)
    }

    /// Zeroes `frames` frames of every buffer of `list`.
    @_noAllocation @_noLocks
    private func zero(_ list: UnsafeMutablePointer<AudioBufferList>, frames: UInt32, bytesPerFrame: UInt32) {
        let buffers = audioBuffers(list)
        for i in 0..<Int(list.pointee.mNumberBuffers) {
            buffers[i].mData?.initializeMemory(as: UInt8.self, repeating: 0, count: Int(frames) * Int(bytesPerFrame))
        }
    }

    /// Copies `frames` frames of every buffer of `input` into `output` (lists of the same shape).
    @_noAllocation @_noLocks
    private func copy(
        _ input: UnsafeMutablePointer<AudioBufferList>, to output: UnsafeMutablePointer<AudioBufferList>, frames: UInt32,
        bytesPerFrame: UInt32
    ) {
        let from = audioBuffers(input), to = audioBuffers(output)
        for i in 0..<Int(output.pointee.mNumberBuffers) where from[i].mData != to[i].mData {
            guard let source = from[i].mData, let destination = to[i].mData else { continue }
            destination.copyMemory(from: source, byteCount: Int(frames) * Int(bytesPerFrame))
        }
    }

    /// Applies the parameter changes of a render call that is not processed (silent output), so
    /// that they land when they are due as if it had been.
    @_noAllocation @_noLocks
    private func skipSliced(frames: Int) {
        var position = 0
        while position < frames { position += nextParameterSlice(at: position, frames: frames) }
        finishParameterSlices(frames: frames)
    }

    /// Runs `process` over the slices between scheduled parameter changes.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    private func processSliced(input: UnsafeMutablePointer<AudioBufferList>, output: UnsafeMutablePointer<AudioBufferList>, frames: Int) {
        var position = 0
        let unit = Unmanaged.passUnretained(self)
        // A virtual call the checker cannot follow; each override is checked where it is written.
        _unsafePerformance { unit._withUnsafeGuaranteedRef { $0.willProcessSlices(frames: frames) } }
        // Nothing scheduled: one slice, nothing to apply or carry.
        if renderState().pointee.events.pointee.isIdle {
            _unsafePerformance { unit._withUnsafeGuaranteedRef { $0.process(input: input, output: output, offset: 0, frames: frames) } }
            return
        }
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
