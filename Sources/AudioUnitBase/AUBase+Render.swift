import AudioTypes

// The render entry every unit shares: argument checks, render notifications, the once-per-time-
// stamp output cache, LastRenderError. Real-time: nothing here allocates, locks or retains; the
// unit's own renderBus is reached through one virtual call.

extension AUBase {
    /// AudioUnitRender. As Apple's AUBase::DoRender: the render notifications run on every call,
    /// also when a second pull of the same time stamp is served from the output cache.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public final func render(
        _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ timeStamp: UnsafePointer<AudioTimeStamp>?,
        _ bus: UInt32, _ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>?
    ) -> OSStatus {
        let s = state
        guard let flags, let timeStamp, let ioData else { return kAudio_ParamError }
        guard s.pointee.initialized else { return kAudioUnitErr_Uninitialized }
        guard frames <= s.pointee.maxFrames else { return kAudioUnitErr_TooManyFramesToProcess }
        guard Int(bus) < s.pointee.outputCount else { return kAudioUnitErr_InvalidElement }

        var status = s.pointee.prepareOutput(Int(bus), ioData, frames)
        guard status == noErr else { return status }

        let section = s.pointee.enterRender()
        s.pointee.notify(.unitRenderAction_PreRender, flags, timeStamp, bus, frames, ioData)
        let cached = serveCachedOutput(bus, flags, timeStamp, frames, ioData)
        if !cached {
            // The one virtual call (the unit's kernel is checked on its own), through an unmanaged
            // reference so that no reference counting happens: the host holds the unit while it renders.
            let unit = Unmanaged.passUnretained(self)
            status = _unsafePerformance {
                unit._withUnsafeGuaranteedRef { $0.renderBus(bus, flags: flags, timeStamp: timeStamp, frames: frames, output: ioData) }
            }
        }

        var postFlags = AudioUnitRenderActionFlags.unitRenderAction_PostRender
        if status != noErr {
            s.pointee.lastRenderError = status
            postFlags = AudioUnitRenderActionFlags(
                rawValue: postFlags.rawValue | AudioUnitRenderActionFlags.unitRenderAction_PostRenderError.rawValue)
        }
        s.pointee.notify(postFlags, flags, timeStamp, bus, frames, ioData)
        s.pointee.leaveRender(section)
        if !cached { rememberOutput(bus, flags, timeStamp, frames, ioData, valid: status == noErr) }
        return status
    }

    /// When this bus already rendered this time stamp into its own buffers (a second consumer
    /// pulling in the same cycle), hands those out again instead of rendering twice, with the
    /// OutputIsSilence mark they had.
    @_noAllocation @_noLocks
    private func serveCachedOutput(
        _ bus: UInt32, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
        _ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>
    ) -> Bool {
        let output = state.pointee.outputs[Int(bus)]
        let own = output.buffers
        guard output.hasCachedOutput, timeStamp.pointee.mFlags.rawValue & AudioTimeStampFlags.sampleTimeValid.rawValue != 0,
            output.lastSampleTime == timeStamp.pointee.mSampleTime, output.lastFrames == frames,
            let storage = own.storage, Int(ioData.pointee.mNumberBuffers) == Int(own.list?.pointee.mNumberBuffers ?? 0)
        else { return false }
        let buffers = audioBuffers(ioData)
        let bytes = Int(frames * own.bytesPerFrame)
        for i in 0..<Int(ioData.pointee.mNumberBuffers) {
            let cache = storage + i * own.bytesPerBuffer
            if let destination = buffers[i].mData {
                guard buffers[i].mDataByteSize >= UInt32(bytes) else { return false }
                if destination != cache { destination.copyMemory(from: cache, byteCount: bytes) }
            } else {
                buffers[i].mData = cache
            }
            buffers[i].mDataByteSize = UInt32(bytes)
        }
        if output.cachedSilence {
            flags.pointee = AudioUnitRenderActionFlags(
                rawValue: flags.pointee.rawValue | AudioUnitRenderActionFlags.unitRenderAction_OutputIsSilence.rawValue)
        }
        return true
    }

    /// Output rendered into the bus's own buffers can be served again for the same time stamp.
    @_noAllocation @_noLocks
    private func rememberOutput(
        _ bus: UInt32, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
        _ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>, valid: Bool
    ) {
        let output = state.pointee.outputs + Int(bus)
        var ownBuffers = valid && timeStamp.pointee.mFlags.rawValue & AudioTimeStampFlags.sampleTimeValid.rawValue != 0
        if ownBuffers, let storage = output.pointee.buffers.storage {
            let buffers = audioBuffers(ioData)
            let bytesPerBuffer = output.pointee.buffers.bytesPerBuffer
            for b in 0..<Int(ioData.pointee.mNumberBuffers) where buffers[b].mData != storage + b * bytesPerBuffer {
                ownBuffers = false
            }
        } else {
            ownBuffers = false
        }
        output.pointee.hasCachedOutput = ownBuffers
        output.pointee.cachedSilence =
            flags.pointee.rawValue & AudioUnitRenderActionFlags.unitRenderAction_OutputIsSilence.rawValue != 0
        output.pointee.lastSampleTime = timeStamp.pointee.mSampleTime
        output.pointee.lastFrames = frames
    }
}

extension RenderState {
    /// Calls every render notification of the configuration in force with `flags` (PreRender or
    /// PostRender, plus error flags). Call between ``enterRender()`` and ``leaveRender(_:)``.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func notify(
        _ flags: AudioUnitRenderActionFlags, _ ioFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
        _ ioData: UnsafeMutablePointer<AudioBufferList>
    ) {
        if let list = current {
            for i in 0..<list.pointee.notifyCount {
                guard let proc = list.pointee.notifies[i].proc else { continue }
                let refCon = list.pointee.notifies[i].refCon
                let saved = ioFlags.pointee
                ioFlags.pointee = AudioUnitRenderActionFlags(rawValue: saved.rawValue | flags.rawValue)
                // A notification is the host's render-thread code; its real-time safety is its contract.
                _ = _unsafePerformance { proc(refCon, ioFlags, timeStamp, bus, frames, ioData) }
                ioFlags.pointee = AudioUnitRenderActionFlags(
                    rawValue: saved.rawValue
                        | (ioFlags.pointee.rawValue & AudioUnitRenderActionFlags.unitRenderAction_OutputIsSilence.rawValue))
            }
        }
    }

    /// Checks the caller's buffer list against output bus `bus` for `frames` frames and points any
    /// NULL mData at the bus's own buffers. Returns kAudio_ParamError on a count or size mismatch.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func prepareOutput(_ bus: Int, _ ioData: UnsafeMutablePointer<AudioBufferList>, _ frames: UInt32) -> OSStatus {
        let own = outputs[bus].buffers
        let count = Int(ioData.pointee.mNumberBuffers)
        let expected = own.list.map { Int($0.pointee.mNumberBuffers) } ?? count
        guard count == expected else { return kAudio_ParamError }
        let buffers = audioBuffers(ioData)
        let bytesPerFrame = own.bytesPerFrame
        for i in 0..<count {
            if buffers[i].mData == nil {
                guard let storage = own.storage else { return kAudio_ParamError }
                buffers[i].mData = storage + i * own.bytesPerBuffer
                buffers[i].mDataByteSize = frames * bytesPerFrame
            } else if buffers[i].mDataByteSize < frames * bytesPerFrame {
                return kAudio_ParamError
            }
        }
        return noErr
    }

    /// Checks a caller's in-place list (AudioUnitProcess) against output bus `bus` for `frames`
    /// frames: as many buffers as the format has, each with memory (mData not NULL) for at least
    /// `frames` frames. Nothing is written; kAudio_ParamError otherwise. (Inlined: a graph calls
    /// it twice for each unit of a chain.)
    ///
    /// Thread: render.
    @inline(__always) @_noAllocation @_noLocks
    public func checkInPlaceList(_ bus: Int, _ ioData: UnsafeMutablePointer<AudioBufferList>, _ frames: UInt32) -> OSStatus {
        guard bus < outputCount, let own = outputs[bus].buffers.list else { return kAudioUnitErr_Uninitialized }
        let count = Int(ioData.pointee.mNumberBuffers)
        guard count == Int(own.pointee.mNumberBuffers) else { return kAudio_ParamError }
        let buffers = audioBuffers(ioData)
        let bytes = UInt64(frames) * UInt64(outputs[bus].buffers.bytesPerFrame)
        for i in 0..<count where buffers[i].mData == nil || UInt64(buffers[i].mDataByteSize) < bytes {
            return kAudio_ParamError
        }
        return noErr
    }
}
