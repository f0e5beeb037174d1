import AudioToolbox
import AudioTypes
import Foundation

// The @_cdecl implementation of AudioConverter.h. An AudioConverterRef is a retained
// AudioConverterSession; every call checks it against the set of live handles, so a disposed or
// made-up handle answers kAudio_ParamError instead of crashing.

enum AudioConverterHandles {
    static let lock = NSLock()
    nonisolated(unsafe) static var live: Set<OpaquePointer> = []

    static func make(_ session: AudioConverterSession) -> OpaquePointer {
        let handle = OpaquePointer(Unmanaged.passRetained(session).toOpaque())
        lock.withLock { _ = live.insert(handle) }
        return handle
    }

    static func session(_ handle: OpaquePointer?) throws -> AudioConverterSession {
        guard let handle, lock.withLock({ live.contains(handle) }) else {
            throw AudioError(kAudio_ParamError, "The AudioConverterRef is NULL or was disposed.")
        }
        return Unmanaged<AudioConverterSession>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }

    static func remove(_ handle: OpaquePointer?) -> AudioConverterSession? {
        guard let handle, lock.withLock({ live.remove(handle) }) != nil else { return nil }
        return Unmanaged<AudioConverterSession>.fromOpaque(UnsafeRawPointer(handle)).takeRetainedValue()
    }
}

/// Thread: setup.
@_cdecl("AudioConverterNew")
public func _AudioConverterNew(
    _ source: UnsafePointer<AudioStreamBasicDescription>?, _ destination: UnsafePointer<AudioStreamBasicDescription>?,
    _ out: UnsafeMutablePointer<AudioConverterRef?>?
) -> OSStatus {
    guard let out else { return kAudio_ParamError }
    out.pointee = nil
    return LastErrorMessage.status {
        guard let source, let destination else {
            throw AudioError(kAudio_ParamError, "AudioConverterNew needs a source and a destination format; NULL was passed.")
        }
        out.pointee = AudioConverterHandles.make(try AudioConverterSession(input: source.pointee, output: destination.pointee))
    }
}

/// Thread: setup.
@_cdecl("AudioConverterDispose")
public func _AudioConverterDispose(_ converter: AudioConverterRef?) -> OSStatus {
    LastErrorMessage.status {
        guard AudioConverterHandles.remove(converter) != nil else {
            throw AudioError(kAudio_ParamError, "The AudioConverterRef is NULL or was disposed.")
        }
    }
}

/// Thread: setup.
@_cdecl("AudioConverterReset")
public func _AudioConverterReset(_ converter: AudioConverterRef?) -> OSStatus {
    LastErrorMessage.status { try AudioConverterHandles.session(converter).reset() }
}

/// Thread: setup.
@_cdecl("AudioConverterGetPropertyInfo")
public func _AudioConverterGetPropertyInfo(
    _ converter: AudioConverterRef?, _ property: AudioConverterPropertyID,
    _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    LastErrorMessage.status {
        let (size, writable) = try AudioConverterHandles.session(converter).info(property)
        outSize?.pointee = UInt32(size)
        outWritable?.pointee = writable ? 1 : 0
    }
}

/// Thread: setup.
@_cdecl("AudioConverterGetProperty")
public func _AudioConverterGetProperty(
    _ converter: AudioConverterRef?, _ property: AudioConverterPropertyID,
    _ ioSize: UnsafeMutablePointer<UInt32>?, _ data: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        let session = try AudioConverterHandles.session(converter)
        guard let ioSize, let data else {
            throw AudioError(kAudio_ParamError, "AudioConverterGetProperty needs a size and a data pointer.")
        }
        ioSize.pointee = UInt32(try session.get(property, data, size: Int(ioSize.pointee)))
    }
}

/// Thread: setup.
@_cdecl("AudioConverterSetProperty")
public func _AudioConverterSetProperty(
    _ converter: AudioConverterRef?, _ property: AudioConverterPropertyID, _ size: UInt32, _ data: UnsafeRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        let session = try AudioConverterHandles.session(converter)
        guard let data else { throw AudioError(kAudio_ParamError, "AudioConverterSetProperty needs a data pointer.") }
        try session.set(property, data, size: Int(size))
    }
}

/// Thread: setup.
@_cdecl("AudioConverterFillComplexBuffer")
public func _AudioConverterFillComplexBuffer(
    _ converter: AudioConverterRef?, _ proc: AudioConverterComplexInputDataProc?, _ userData: UnsafeMutableRawPointer?,
    _ ioPackets: UnsafeMutablePointer<UInt32>?, _ output: UnsafeMutablePointer<AudioBufferList>?,
    _ outDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
) -> OSStatus {
    var result = noErr
    let status = LastErrorMessage.status {
        let session = try AudioConverterHandles.session(converter)
        guard let converter, let proc, let ioPackets, let output else {
            throw AudioError(
                kAudio_ParamError, "AudioConverterFillComplexBuffer needs an input procedure, a packet count and an output list.")
        }
        let requested = Int(ioPackets.pointee)
        ioPackets.pointee = 0
        let (frames, procStatus) = try session.fill(
            frames: requested, output: output, input: .init(handle: converter, proc: proc, userData: userData))
        ioPackets.pointee = UInt32(frames)
        result = procStatus
    }
    return status != noErr ? status : result
}

/// Converts `frames` frames of `input` into `output` for the one-buffer calls (same rate only).
private func convertWhole(
    _ converter: AudioConverterRef?, frames: UInt32, _ input: UnsafeMutablePointer<AudioBufferList>,
    _ output: UnsafeMutablePointer<AudioBufferList>
) throws -> UInt32 {
    let session = try AudioConverterHandles.session(converter)
    try checkOneRate(session)
    session.reset()
    defer { session.reset() }
    var state = SliceInput(list: input, bytesPerFrame: Int(session.inputFormat.mBytesPerFrame), frames: Int(frames))
    let (done, status) = try withUnsafeMutablePointer(to: &state) { pointer in
        try session.fill(frames: Int(frames), output: output, input: .init(handle: converter!, proc: sliceProc, userData: pointer))
    }
    try AudioError.check(status, "The conversion stopped early.")
    return UInt32(done)
}

/// The one-buffer calls convert PCM at one rate (as Apple's do).
private func checkOneRate(_ session: AudioConverterSession) throws {
    guard session.inputFormat.mFormatID == kAudioFormatLinearPCM, session.inputFormat.mSampleRate == session.outputFormat.mSampleRate else {
        throw AudioError(
            kAudioConverterErr_InvalidInputSize,
            "AudioConverterConvertBuffer and ConvertComplexBuffer convert PCM at one rate; use AudioConverterFillComplexBuffer for \(session.inputFormat.mSampleRate) → \(session.outputFormat.mSampleRate) Hz or compressed input."
        )
    }
}

/// Input of the one-buffer calls: the caller's buffers, handed over from `offset` on.
private struct SliceInput {
    var list: UnsafeMutablePointer<AudioBufferList>
    var bytesPerFrame: Int
    var frames: Int
    var offset = 0
}

private let sliceProc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, _, userData in
    let input = userData!.assumingMemoryBound(to: SliceInput.self)
    let n = min(Int(ioPackets.pointee), input.pointee.frames - input.pointee.offset)
    let source = UnsafeMutableAudioBufferListPointer(input.pointee.list)
    let target = UnsafeMutableAudioBufferListPointer(ioData)
    let bytes = input.pointee.bytesPerFrame
    for i in 0..<min(source.count, target.count) {
        target[i].mData = source[i].mData.map { $0 + input.pointee.offset * bytes }
        target[i].mDataByteSize = UInt32(n * bytes)
    }
    input.pointee.offset += n
    ioPackets.pointee = UInt32(n)
    return noErr
}

/// Thread: setup.
@_cdecl("AudioConverterConvertComplexBuffer")
public func _AudioConverterConvertComplexBuffer(
    _ converter: AudioConverterRef?, _ frames: UInt32, _ input: UnsafePointer<AudioBufferList>?,
    _ output: UnsafeMutablePointer<AudioBufferList>?
) -> OSStatus {
    LastErrorMessage.status {
        guard let input, let output else {
            throw AudioError(kAudio_ParamError, "AudioConverterConvertComplexBuffer needs an input and an output list.")
        }
        let session = try AudioConverterHandles.session(converter)
        let inputBuffers = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: input))
        guard inputBuffers.count == Int(session.inputFormat.bufferCount),
            inputBuffers.allSatisfy({ $0.mData != nil && Int($0.mDataByteSize) >= Int(frames) * Int(session.inputFormat.mBytesPerFrame) })
        else {
            throw AudioError(
                kAudioConverterErr_InvalidInputSize,
                "The input list does not hold \(frames) frames in \(session.inputFormat.bufferCount) buffers of the source format.")
        }
        let done = try convertWhole(converter, frames: frames, UnsafeMutablePointer(mutating: input), output)
        guard done == frames else {
            throw AudioError(kAudioConverterErr_InvalidOutputSize, "The output list holds \(done) of the \(frames) frames.")
        }
    }
}

/// Thread: setup.
@_cdecl("AudioConverterConvertBuffer")
public func _AudioConverterConvertBuffer(
    _ converter: AudioConverterRef?, _ inputSize: UInt32, _ input: UnsafeRawPointer?,
    _ ioOutputSize: UnsafeMutablePointer<UInt32>?, _ output: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        let session = try AudioConverterHandles.session(converter)
        guard let input, let ioOutputSize, let output else {
            throw AudioError(kAudio_ParamError, "AudioConverterConvertBuffer needs input, an output size and output.")
        }
        try checkOneRate(session)
        guard !session.inputFormat.isNonInterleaved, !session.outputFormat.isNonInterleaved else {
            throw AudioError(
                kAudioConverterErr_FormatNotSupported,
                "AudioConverterConvertBuffer converts interleaved PCM; use ConvertComplexBuffer for non-interleaved buffers.")
        }
        let inBytes = Int(session.inputFormat.mBytesPerFrame), outBytes = Int(session.outputFormat.mBytesPerFrame)
        guard inBytes > 0, Int(inputSize) % inBytes == 0 else {
            throw AudioError(
                kAudioConverterErr_InvalidInputSize, "\(inputSize) bytes are not whole \(inBytes)-byte frames of the source format.")
        }
        let frames = Int(inputSize) / inBytes
        guard Int(ioOutputSize.pointee) >= frames * outBytes else {
            throw AudioError(
                kAudioConverterErr_InvalidOutputSize,
                "\(frames) frames need \(frames * outBytes) output bytes; \(ioOutputSize.pointee) were given.")
        }
        var inList = AudioBufferList(
            mNumberBuffers: 1,
            mBuffers: AudioBuffer(
                mNumberChannels: session.inputFormat.mChannelsPerFrame, mDataByteSize: inputSize,
                mData: UnsafeMutableRawPointer(mutating: input)))
        var outList = AudioBufferList(
            mNumberBuffers: 1,
            mBuffers: AudioBuffer(
                mNumberChannels: session.outputFormat.mChannelsPerFrame, mDataByteSize: UInt32(frames * outBytes), mData: output))
        let done = try convertWhole(converter, frames: UInt32(frames), &inList, &outList)
        ioOutputSize.pointee = done * UInt32(outBytes)
    }
}
