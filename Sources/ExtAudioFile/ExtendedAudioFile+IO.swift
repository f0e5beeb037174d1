import AudioFiles
import AudioTypes
import DSPKernels

// Synchronous reading and writing in the client format, seek and tell (ExtAudioFileRead, Write,
// Seek, Tell). Setup thread: these block on the disk.

extension ExtendedAudioFile {
    /// Checks `list` against the client format for `frames` frames: buffer count, sizes, data.
    func checkClientList(_ list: UnsafePointer<AudioBufferList>, frames: Int, _ what: String) throws {
        let buffers = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: list))
        let expected = converter.format.bufferCount
        let bytesPerFrame = Int(clientFormat.mBytesPerFrame)
        guard buffers.count == expected else {
            throw AudioError(
                kAudio_ParamError,
                "\(what) \(path): the buffer list has \(buffers.count) buffers; the client format needs \(expected).")
        }
        for b in buffers where b.mData == nil || Int(b.mDataByteSize) < frames * bytesPerFrame {
            throw AudioError(
                kAudio_ParamError,
                "\(what) \(path): a buffer holds \(b.mDataByteSize) bytes (or none); \(frames) frames need \(frames * bytesPerFrame).")
        }
    }

    /// Points `clientPointers` at frame `offset` of each buffer of `list`.
    func clientBuffers(
        _ list: UnsafePointer<AudioBufferList>, offset: Int,
        into pointers: UnsafeMutablePointer<UnsafeMutableRawPointer>
    ) {
        let buffers = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: list))
        let bytesPerFrame = Int(clientFormat.mBytesPerFrame)
        for (i, b) in buffers.enumerated() { pointers[i] = b.mData! + offset * bytesPerFrame }
    }

    /// Reads up to `frames` frames in the client format into `list` from the current position
    /// (ExtAudioFileRead); returns the frames read (0 at the end) and sets each buffer's
    /// mDataByteSize to the bytes filled.
    ///
    /// Thread: setup.
    public func read(into list: UnsafeMutablePointer<AudioBufferList>, frames: Int) throws -> Int {
        guard asyncWriter == nil, !file.isWritable else {
            throw AudioError(kExtAudioFileError_InvalidOperationOrder, "\(path) was created for writing; open it to read it.")
        }
        try checkClientList(list, frames: frames, "Reading")
        let pointers = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: max(channelCount, 1))
        defer { pointers.deallocate() }
        // A canonical client (Float32, one buffer per channel, this machine's byte order) is what
        // the file reader produces: it reads straight into the client's buffers, no copy.
        let format = converter.format
        var canonical = !format.isInterleaved && format.isBigEndian == (1.bigEndian == 1)
        if case .float32 = format.encoding {} else { canonical = false }
        var done = 0
        while done < frames {
            let want = min(chunkFrames, frames - done)
            let got: Int
            if canonical {
                clientBuffers(list, offset: done, into: pointers)
                got = try pointers.withMemoryRebound(to: UnsafeMutablePointer<Float>.self, capacity: max(channelCount, 1)) { floats in
                    try rethrowingAudioError { try file.read(into: floats, frameCount: want) }
                }
            } else {
                got = try rethrowingAudioError { try file.read(into: scratchChannels, frameCount: want) }
                if got > 0 {
                    clientBuffers(list, offset: done, into: pointers)
                    converter.encode(from: scratchSources, to: pointers, frameCount: got)
                }
            }
            if got == 0 { break }
            done += got
            if got < want { break }
        }
        let bytes = UInt32(done * Int(clientFormat.mBytesPerFrame))
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        for i in 0..<buffers.count { buffers[i].mDataByteSize = bytes }
        return done
    }

    /// Writes `frames` frames in the client format from `list` (ExtAudioFileWrite).
    ///
    /// Thread: setup.
    public func write(from list: UnsafePointer<AudioBufferList>, frames: Int) throws {
        guard asyncWriter == nil else {
            throw AudioError(
                kExtAudioFileError_InvalidOperationOrder,
                "\(path) is being written asynchronously; do not mix ExtAudioFileWrite with ExtAudioFileWriteAsync.")
        }
        guard file.isWritable else {
            throw AudioError(kAudioFilePermissionsError, "\(path) was opened for reading only.")
        }
        try checkClientList(list, frames: frames, "Writing")
        let pointers = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: max(channelCount, 1))
        defer { pointers.deallocate() }
        var done = 0
        while done < frames {
            let n = min(chunkFrames, frames - done)
            clientBuffers(list, offset: done, into: pointers)
            pointers.withMemoryRebound(to: UnsafeRawPointer.self, capacity: max(channelCount, 1)) {
                converter.decode(from: $0, to: scratchChannels, frameCount: n)
            }
            try rethrowingAudioError { try file.write(from: scratchSources, frameCount: n) }
            done += n
        }
    }

    /// Moves the read position to `frame` (ExtAudioFileSeek). Throws kExtAudioFileError_InvalidSeek
    /// outside the file or while writing asynchronously.
    ///
    /// Thread: setup.
    public func seek(toFrame frame: Int64) throws {
        guard asyncWriter == nil, frame >= 0, frame <= lengthFrames else {
            throw AudioError(
                kExtAudioFileError_InvalidSeek,
                "Cannot seek \(path) to frame \(frame); it holds \(lengthFrames) frames.")
        }
        do { try file.seek(toFrame: frame) } catch {
            throw AudioError(kExtAudioFileError_InvalidSeek, "Cannot seek \(path) to frame \(frame): \(error).")
        }
    }

    /// The current position in frames (ExtAudioFileTell).
    ///
    /// Thread: setup.
    public func tell() throws -> Int64 {
        if let asyncWriter { return Int64(asyncWriter.renderHandle.pushedFrames) }
        return try rethrowingAudioError { try file.tell() }
    }
}
