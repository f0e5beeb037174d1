import AudioTypes

// The input pull: a render call fetches an input bus's audio from the connection or callback the
// configuration in force names (Apple's AUInputElement::PullInput).

extension RenderState {
    /// Pulls `frames` frames into input bus `bus` from its connection or callback (as the
    /// configuration in force has them): into the bus's own list, or into `target` (in-place
    /// processing pulls straight into the output buffers). Records whether the source marked the
    /// audio kAudioUnitRenderAction_OutputIsSilence (``InputBus/pulledSilence``).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func pullInput(
        _ bus: Int, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        _ timeStamp: UnsafePointer<AudioTimeStamp>, _ frames: UInt32,
        into target: UnsafeMutablePointer<AudioBufferList>? = nil
    ) -> OSStatus {
        guard bus < inputCount, let ownList = inputs[bus].buffers.list, let configuration = current,
            bus < configuration.pointee.sourceCount
        else { return kAudioUnitErr_NoConnection }
        let input = inputs + bus
        let source = configuration.pointee.sources + bus
        let list = target ?? ownList
        if target == nil {
            let own = input.pointee.buffers
            let buffers = audioBuffers(list)
            for i in 0..<Int(list.pointee.mNumberBuffers) {
                buffers[i].mNumberChannels = own.channelsPerBuffer
                buffers[i].mDataByteSize = frames * own.bytesPerFrame
                buffers[i].mData = input.pointee.allocates ? own.storage.map { $0 + i * own.bytesPerBuffer } : nil
            }
        }
        let silence = AudioUnitRenderActionFlags.unitRenderAction_OutputIsSilence.rawValue
        var pullFlags = AudioUnitRenderActionFlags(rawValue: 0)
        let status: OSStatus
        switch source.pointee.kind {
        case .connection:
            guard let upstream = source.pointee.sourceUnit else { return kAudioUnitErr_NoConnection }
            let sourceBus = source.pointee.sourceBus
            // The upstream unit's render is a render-thread call by contract.
            status = _unsafePerformance { AudioUnitRender(upstream, &pullFlags, timeStamp, sourceBus, frames, list) }
        case .callback:
            guard let callback = source.pointee.callback else { return kAudioUnitErr_NoConnection }
            let refCon = source.pointee.callbackRefCon
            // The render phases are the caller's, and so is a silence mark it passed in: only the
            // callback itself may say its audio is silent.
            let notPassed =
                AudioUnitRenderActionFlags.unitRenderAction_PreRender.rawValue
                | AudioUnitRenderActionFlags.unitRenderAction_PostRender.rawValue | silence
            pullFlags = AudioUnitRenderActionFlags(rawValue: flags.pointee.rawValue & ~notPassed)
            // The host's callback runs on the render thread by contract.
            status = _unsafePerformance { callback(refCon, &pullFlags, timeStamp, UInt32(bus), frames, list) }
        case .none:
            return kAudioUnitErr_NoConnection
        }
        input.pointee.pulledSilence = status == noErr && pullFlags.rawValue & silence != 0
        return status
    }
}

extension AUBase {
    /// Pulls input bus `bus` for this render call (into its own buffers, or into `target`).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public final func pullInput(
        _ bus: Int, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        _ timeStamp: UnsafePointer<AudioTimeStamp>, _ frames: UInt32,
        into target: UnsafeMutablePointer<AudioBufferList>? = nil
    ) -> OSStatus {
        state.pointee.pullInput(bus, flags, timeStamp, frames, into: target)
    }

    /// The list input bus `bus` was last pulled into.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public final func inputList(_ bus: Int) -> UnsafeMutablePointer<AudioBufferList>? {
        bus < state.pointee.inputCount ? state.pointee.inputs[bus].buffers.list : nil
    }

    /// Whether the last pull of input bus `bus` came back marked OutputIsSilence.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public final func inputWasSilent(_ bus: Int) -> Bool {
        let s = state
        guard bus < s.pointee.inputCount else { return false }
        return s.pointee.inputs[bus].pulledSilence
    }
}
