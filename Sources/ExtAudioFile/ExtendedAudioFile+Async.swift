import AudioFiles
import AudioTypes
import DSPKernels

// ExtAudioFileWriteAsync: the render thread converts the client frames to Float32 in memory
// allocated when the writer was primed and pushes them into the writer's lock-free ring; the
// writer thread writes them. Nothing here allocates, locks or waits.

/// What the render thread touches for asynchronous writes (allocated by `primeAsync`).
public struct AsyncWriteState {
    /// Frames converted per step (the scratch size).
    static let stepFrames = 1024
    let ring: FrameRingBuffer
    let converter: SampleFormatConverter
    let channelCount: Int
    let bytesPerFrame: Int
    let bufferCount: Int
    let scratch: UnsafeMutablePointer<Float>
    let channels: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let sources: UnsafeMutablePointer<UnsafePointer<Float>>
    let clientPointers: UnsafeMutablePointer<UnsafeRawPointer>

    init(ring: FrameRingBuffer, converter: SampleFormatConverter, bytesPerFrame: Int) {
        self.ring = ring
        self.converter = converter
        channelCount = converter.format.channelCount
        self.bytesPerFrame = bytesPerFrame
        bufferCount = converter.format.bufferCount
        scratch = .allocate(capacity: Self.stepFrames * channelCount)
        scratch.initialize(repeating: 0, count: Self.stepFrames * channelCount)
        channels = .allocate(capacity: channelCount)
        sources = .allocate(capacity: channelCount)
        clientPointers = .allocate(capacity: max(bufferCount, 1))
        for c in 0..<channelCount {
            channels[c] = scratch + c * Self.stepFrames
            sources[c] = UnsafePointer(scratch + c * Self.stepFrames)
        }
    }

    func free() {
        scratch.deallocate()
        channels.deallocate()
        sources.deallocate()
        clientPointers.deallocate()
    }

    /// Converts and pushes `frames` frames of `list`; returns noErr,
    /// kExtAudioFileError_AsyncWriteBufferOverflow when the ring was full (the rest is dropped and
    /// counted) or kAudio_ParamError for a list that does not match the client format.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    func push(_ list: UnsafePointer<AudioBufferList>, frames: Int) -> OSStatus {
        guard Int(list.pointee.mNumberBuffers) == bufferCount else { return kAudio_ParamError }
        let offset = (MemoryLayout<UInt32>.size + MemoryLayout<AudioBuffer>.alignment - 1) & ~(MemoryLayout<AudioBuffer>.alignment - 1)
        let buffers = (UnsafeRawPointer(list) + offset).assumingMemoryBound(to: AudioBuffer.self)
        for b in 0..<bufferCount {
            guard buffers[b].mData != nil, Int(buffers[b].mDataByteSize) >= frames * bytesPerFrame else { return kAudio_ParamError }
        }
        var done = 0, overflowed = false
        while done < frames {
            let n = min(Self.stepFrames, frames - done)
            for b in 0..<bufferCount { clientPointers[b] = UnsafeRawPointer(buffers[b].mData!) + done * bytesPerFrame }
            converter.decode(from: clientPointers, to: channels, frameCount: n)
            // A full ring stores what fits and counts the rest as overflow.
            if ring.push(sources, frameCount: n) < n { overflowed = true }
            done += n
        }
        return overflowed ? kExtAudioFileError_AsyncWriteBufferOverflow : noErr
    }
}

extension ExtendedAudioFile {
    /// Starts asynchronous writing (the priming call of ExtAudioFileWriteAsync): allocates a ring
    /// of `asyncBufferFrames` frames and starts the writer thread. `simulatedDiskPause` seconds
    /// of sleep after each chunk the writer writes imitate a slow disk (tests only).
    ///
    /// Thread: setup.
    public func primeAsync(simulatedDiskPause: Double = 0) throws {
        guard asyncWriter == nil else { return }
        guard file.isWritable else {
            throw AudioError(kAudioFilePermissionsError, "\(path) was opened for reading only.")
        }
        let writer = try rethrowingAudioError {
            try AsyncAudioFileWriter(file: file, capacityFrames: asyncBufferFrames, pauseAfterEachChunk: simulatedDiskPause)
        }
        let state = UnsafeMutablePointer<AsyncWriteState>.allocate(capacity: 1)
        state.initialize(
            to: AsyncWriteState(
                ring: writer.renderHandle, converter: converter,
                bytesPerFrame: Int(clientFormat.mBytesPerFrame)))
        asyncWriter = writer
        asyncState = state
    }

    /// Frames ExtAudioFileWriteAsync dropped because the ring was full.
    ///
    /// Thread: any.
    public var asyncOverflowFrames: Int { asyncWriter?.overflowFrames ?? 0 }

    /// Frames the writer thread has written so far.
    ///
    /// Thread: any.
    public var asyncFramesWritten: Int { asyncWriter?.framesWritten ?? 0 }

    /// Waits until every frame handed over so far is in the file.
    ///
    /// Thread: setup.
    public func flushAsync() throws {
        try rethrowingAudioError { try asyncWriter?.flush() }
    }

    /// Hands `frames` frames of `list` to the writer thread (ExtAudioFileWriteAsync after priming).
    /// Returns kExtAudioFileError_InvalidOperationOrder before `primeAsync`.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func writeAsync(_ list: UnsafePointer<AudioBufferList>, frames: Int) -> OSStatus {
        guard let state = asyncState else { return kExtAudioFileError_InvalidOperationOrder }
        return state.pointee.push(list, frames: frames)
    }
}
