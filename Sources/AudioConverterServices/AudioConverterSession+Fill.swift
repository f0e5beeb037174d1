import AudioToolbox
import AudioTypes
import DSPKernels

/// AudioConverterFillComplexBuffer's engine: pull input from the procedure, push it through the
/// kernel one slice at a time, write what the kernel gives into the caller's list.
extension AudioConverterSession {
    /// The procedure and its user data for one fill.
    struct InputProcedure {
        let handle: AudioConverterRef
        let proc: AudioConverterComplexInputDataProc
        let userData: UnsafeMutableRawPointer?
    }

    /// Fills `output` with up to `frames` frames; returns the frames written and the status to
    /// return (noErr, or the procedure's own error). Throws for bad buffers or undecodable packets.
    func fill(frames requested: Int, output: UnsafeMutablePointer<AudioBufferList>, input: InputProcedure) throws -> (Int, OSStatus) {
        try prepare()
        guard let kernel else { return (0, noErr) }
        // AudioConverter.h: what the procedure handed over is valid until its next call or the end
        // of this fill; what the kernel has not taken yet is copied before the fill returns.
        defer { keepLeftover() }
        let frames = try Self.capacity(of: output, format: outputFormat, requested: requested)
        var produced = 0
        var status = noErr
        while produced < frames {
            let slice = min(frames - produced, Self.sliceFrames)
            while kernel.pointee.fifoCount < slice {
                if kernel.pointee.pendingFrames > 0 && kernel.pointee.drainPending() { continue }
                if pending.frames > 0 {
                    consumePending(kernel)
                    continue
                }
                if endOfInput {
                    if kernel.pointee.flushResampler() { continue }
                    break
                }
                let need = kernel.pointee.inputFramesNeeded(outputFrames: slice)
                guard need > 0 else { break }
                status = try pull(frames: need, input)
                if status != noErr { break }
            }
            let n = min(kernel.pointee.fifoCount, slice)
            if n > 0 {
                Self.point(outputSlice, into: output, format: outputFormat, atFrame: produced, frames: n)
                kernel.pointee.emit(into: outputSlice, frames: n)
                produced += n
            }
            if status != noErr || n < slice { break }
        }
        return (produced, status)
    }

    /// Hands the kernel the next run of pending frames (as much as its buffers take in one step).
    private func consumePending(_ kernel: UnsafeMutablePointer<ConverterKernel>) {
        // The kernel's pending buffer holds two slices and its FIFO (without a resampler) two
        // slices as well; the caller only consumes while the FIFO holds less than one.
        let room = 2 * Self.sliceFrames - max(kernel.pointee.pendingFrames, kernel.pointee.resampler == nil ? kernel.pointee.fifoCount : 0)
        let take = min(pending.frames, Self.sliceFrames, room)
        guard take > 0 else { return }
        sliceList.pointee.mNumberBuffers = UInt32(pending.bases.count)
        let slices = UnsafeMutableAudioBufferListPointer(sliceList)
        for (i, base) in pending.bases.enumerated() {
            slices[i].mData = UnsafeMutableRawPointer(mutating: base)
            slices[i].mDataByteSize = UInt32(take * pending.bytesPerFrame)
            slices[i].mNumberChannels = 0
        }
        kernel.pointee.consume(sliceList, frames: take)
        pending.frames -= take
        pending.bases = pending.bases.map { $0 + take * pending.bytesPerFrame }
        if pending.frames == 0 { decoded?.removeAll() }
    }

    /// Calls the input procedure once for about `frames` frames; leaves what it gave in `pending`
    /// (PCM) or decodes it there (compressed). Returns the procedure's status.
    private func pull(frames: Int, _ input: InputProcedure) throws -> OSStatus {
        let isPCM = inputFormat.mFormatID == kAudioFormatLinearPCM
        let framesPerPacket = max(Int(inputFormat.mFramesPerPacket), 1)
        var packets = UInt32(isPCM ? frames : min(max(frames / framesPerPacket, 1), 64))
        let buffers = UnsafeMutableAudioBufferListPointer(inputList)
        for i in 0..<buffers.count {
            buffers[i] = AudioBuffer(
                mNumberChannels: isPCM ? inputFormat.channelsPerBuffer : inputFormat.mChannelsPerFrame, mDataByteSize: 0, mData: nil)
        }
        var descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
        let status =
            isPCM
            ? input.proc(input.handle, &packets, inputList, nil, input.userData)
            : input.proc(input.handle, &packets, inputList, &descriptions, input.userData)
        guard status == noErr else { return status }
        if packets == 0 {
            endOfInput = true
            return noErr
        }
        if isPCM {
            try takePCM(packets: Int(packets))
        } else {
            try decode(packets: Int(packets), descriptions)
        }
        return noErr
    }

    private func takePCM(packets: Int) throws {
        let buffers = UnsafeMutableAudioBufferListPointer(inputList)
        let bytesPerFrame = Int(inputFormat.mBytesPerFrame)
        var frames = packets
        var bases: [UnsafeRawPointer] = []
        for (i, buffer) in buffers.enumerated() {
            guard let data = buffer.mData else {
                throw AudioError(kAudio_ParamError, "The input procedure returned \(packets) packets but left buffer \(i) without data.")
            }
            frames = min(frames, Int(buffer.mDataByteSize) / bytesPerFrame)
            bases.append(UnsafeRawPointer(data))
        }
        guard frames > 0 else {
            throw AudioError(
                kAudioConverterErr_InvalidInputSize,
                "The input procedure returned \(packets) packets in buffers too small for one \(bytesPerFrame)-byte frame.")
        }
        pending = PendingInput(bases: bases, bytesPerFrame: bytesPerFrame, frames: frames, isBorrowed: true)
    }

    /// Copies pending frames that still point into the procedure's buffers into `leftover`, the
    /// converter's own storage (grown as needed, kept until the converter is disposed).
    func keepLeftover() {
        guard pending.isBorrowed, pending.frames > 0 else {
            pending.isBorrowed = false
            return
        }
        let bytes = pending.frames * pending.bytesPerFrame
        leftover.reserve(bytes * pending.bases.count)
        pending.bases = pending.bases.enumerated().map { i, base in
            let target = leftover.base + i * bytes
            target.copyMemory(from: base, byteCount: bytes)
            return UnsafeRawPointer(target)
        }
        pending.isBorrowed = false
    }

    private func decode(packets: Int, _ descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?) throws {
        guard let decoder, let decoded else { return }
        let buffer = UnsafeMutableAudioBufferListPointer(inputList)[0]
        guard let data = buffer.mData else {
            throw AudioError(kAudio_ParamError, "The input procedure returned \(packets) packets but no data.")
        }
        let size = Int(buffer.mDataByteSize)
        guard packets <= max(size, 1) else {
            throw AudioError(
                kAudioConverterErr_InvalidInputSize,
                "The input procedure returned \(packets) compressed packets in \(size) bytes; a packet takes at least one byte.")
        }
        guard descriptions != nil || packets == 1 else {
            throw AudioError(
                kAudioConverterErr_RequiresPacketDescriptionsError,
                "The input procedure returned \(packets) compressed packets without packet descriptions.")
        }
        decoded.removeAll()
        for p in 0..<packets {
            var start = 0, length = size
            if let descriptions {
                let d = descriptions[p]
                // Compared without adding: an offset near Int64.max overflowed the sum.
                guard d.mStartOffset >= 0, d.mStartOffset <= Int64(size), Int64(d.mDataByteSize) <= Int64(size) - d.mStartOffset else {
                    throw AudioError(
                        kAudioConverterErr_InvalidInputSize,
                        "Packet \(p) is described as \(d.mDataByteSize) bytes at offset \(d.mStartOffset) of a \(size)-byte buffer.")
                }
                start = Int(d.mStartOffset); length = Int(d.mDataByteSize)
            }
            try decoder.decode(UnsafeRawBufferPointer(start: data + start, count: length), into: decoded)
        }
        pending = PendingInput(
            bases: [UnsafeRawPointer(decoded.samples)], bytesPerFrame: 4 * decoded.channelCount, frames: decoded.frameCount)
    }

    /// How many of `requested` frames the buffers of `list` hold in `format`.
    static func capacity(of list: UnsafeMutablePointer<AudioBufferList>, format: AudioStreamBasicDescription, requested: Int) throws -> Int
    {
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        guard buffers.count == Int(format.bufferCount) else {
            throw AudioError(
                kAudio_ParamError,
                "The output buffer list has \(buffers.count) buffers; the destination format needs \(format.bufferCount).")
        }
        var frames = requested
        for (i, buffer) in buffers.enumerated() {
            guard buffer.mData != nil else { throw AudioError(kAudio_ParamError, "Output buffer \(i) has no data pointer.") }
            frames = min(frames, Int(buffer.mDataByteSize) / Int(format.mBytesPerFrame))
        }
        return frames
    }

    /// Points `slice` at `frames` frames of `list` starting at frame `start`.
    static func point(
        _ slice: UnsafeMutablePointer<AudioBufferList>, into list: UnsafeMutablePointer<AudioBufferList>,
        format: AudioStreamBasicDescription, atFrame start: Int, frames: Int
    ) {
        let source = UnsafeMutableAudioBufferListPointer(list)
        let target = UnsafeMutableAudioBufferListPointer(slice)
        let bytes = Int(format.mBytesPerFrame)
        for i in 0..<source.count {
            target[i] = AudioBuffer(
                mNumberChannels: source[i].mNumberChannels, mDataByteSize: UInt32(frames * bytes),
                mData: source[i].mData! + start * bytes)
        }
    }
}
