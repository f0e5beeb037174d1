import AudioFiles
import AudioTypes
import Foundation

// Audio File Services' create, set-property, packet and byte calls (AudioFile.h). PCM only: a
// packet is one frame, and bytes travel in the byte order kAudioFilePropertyDataFormat states.

extension AudioFileReference {
    /// Whether the caller's bytes are big-endian (the DataFormat property's order).
    var dataIsBigEndian: Bool {
        dataFormat.streamDescription(type: fileType).mFormatFlags & kAudioFormatFlagIsBigEndian != 0
    }
}

@_cdecl("AudioFileCreateWithURL")
public func _AudioFileCreateWithURL(
    _ url: UnsafeRawPointer?, _ type: UInt32, _ format: UnsafePointer<AudioStreamBasicDescription>?, _ flags: UInt32,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    guard let out else { return kAudio_ParamError }
    out.pointee = nil
    return LastErrorMessage.status {
        let path = try filePath(url)
        guard let format else { throw AudioError(kAudio_ParamError, "Creating \(path) needs a stream description; NULL was passed.") }
        guard let fileType = AudioFileType(fileTypeID: type), [.wave, .aiff, .caf].contains(fileType) else {
            throw AudioError(
                kAudioFileUnsupportedFileTypeError,
                "AudioFileCreateWithURL writes WAVE, AIFF and caff files of linear PCM, not '\(FourCC.string(type))' (\(path)); use ExtAudioFileCreateWithURL for FLAC and Ogg."
            )
        }
        guard format.pointee.mFormatID == kAudioFormatLinearPCM, format.pointee.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0 else {
            throw AudioError(kAudioFileUnsupportedDataFormatError, "AudioFileCreateWithURL writes interleaved linear PCM (\(path)).")
        }
        let bigEndian = format.pointee.mFormatFlags & kAudioFormatFlagIsBigEndian != 0
        guard bigEndian == (fileType == .aiff) || format.pointee.mBitsPerChannel == 8 else {
            throw AudioError(
                kAudioFileUnsupportedDataFormatError,
                "A \(fileType.rawValue) file holds \(fileType == .aiff ? "big" : "little")-endian samples; set kAudioFormatFlagIsBigEndian accordingly (\(path))."
            )
        }
        let dataFormat = try AudioFileDataFormat(format.pointee, path: path)
        if flags & AudioFileFlags.eraseFile.rawValue == 0 && FileManager.default.fileExists(atPath: path) {
            throw AudioError(kAudioFilePermissionsError, "\(path) already exists; pass kAudioFileFlags_EraseFile to replace it.")
        }
        let file = try rethrowingAudioError { try AudioFile.create(writingAt: path, type: fileType, format: dataFormat) }
        let reference = AudioFileReference(created: file)
        let handle = OpaquePointer(Unmanaged.passRetained(reference).toOpaque())
        AudioFileHandles.lock.withLock { _ = AudioFileHandles.live.insert(handle) }
        out.pointee = handle
    }
}

@_cdecl("AudioFileSetProperty")
public func _AudioFileSetProperty(_ handle: OpaquePointer?, _ id: UInt32, _ size: UInt32, _ data: UnsafeRawPointer?) -> OSStatus {
    LastErrorMessage.status {
        let file = try AudioFileReference.from(handle)
        guard let data else { throw AudioError(kAudio_ParamError, "inPropertyData is NULL.") }
        let bytes = Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
        switch id {
        case kAudioFilePropertyMagicCookieData: file.lock.withLock { file.magicCookie = bytes }
        case kAudioFilePropertyChannelLayout:
            let header = MemoryLayout<AudioChannelLayout>.size - MemoryLayout<AudioChannelDescription>.size
            guard Int(size) >= header else {
                throw AudioError(
                    kAudioFileBadPropertySizeError, "kAudioFilePropertyChannelLayout needs an AudioChannelLayout (\(header)+ bytes).")
            }
            let descriptions = data.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
            guard Int(size) >= header + Int(descriptions) * MemoryLayout<AudioChannelDescription>.size else {
                throw AudioError(
                    kAudioFileBadPropertySizeError,
                    "The AudioChannelLayout declares \(descriptions) descriptions but \(size) bytes hold fewer.")
            }
            file.lock.withLock { file.channelLayout = bytes }
        default:
            _ = try audioFilePropertySize(id, file)
            throw AudioError(kAudioFileOperationNotSupportedError, "Audio file property '\(FourCC.string(id))' cannot be set.")
        }
    }
}

/// Reads up to `packets` packets, no more than `byteLimit` bytes, from `start`; returns (packets, bytes).
func readPackets(_ handle: OpaquePointer?, start: Int64, packets: UInt32, byteLimit: Int?, into out: UnsafeMutableRawPointer?) throws -> (
    UInt32, UInt32
) {
    let file = try AudioFileReference.from(handle)
    guard let out else { throw AudioError(kAudio_ParamError, "outBuffer is NULL.") }
    return try file.withPacketFile { reader in
        guard let bytesPerFrame = reader.pcmBytesPerFrame else {
            throw AudioError(
                kAudioFileOperationNotSupportedError,
                "\(file.path) holds compressed data: read it with ExtAudioFile (packets of FLAC/Vorbis are not offered).")
        }
        let count = min(Int(packets), byteLimit.map { $0 / bytesPerFrame } ?? Int(packets))
        let got = try reader.readPCMFrames(from: start, count: count, into: out, bigEndian: file.dataIsBigEndian)
        return (UInt32(got), UInt32(got * bytesPerFrame))
    }
}

@_cdecl("AudioFileReadPacketData")
public func _AudioFileReadPacketData(
    _ handle: OpaquePointer?, _ useCache: UInt8, _ ioNumBytes: UnsafeMutablePointer<UInt32>?,
    _ descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?, _ start: Int64, _ ioNumPackets: UnsafeMutablePointer<UInt32>?,
    _ out: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        guard let ioNumBytes, let ioNumPackets else { throw AudioError(kAudio_ParamError, "ioNumBytes and ioNumPackets must not be NULL.") }
        let (packets, bytes) = try readPackets(
            handle, start: start, packets: ioNumPackets.pointee, byteLimit: Int(ioNumBytes.pointee), into: out)
        ioNumPackets.pointee = packets
        ioNumBytes.pointee = bytes
    }
}

@_cdecl("AudioFileReadPackets")
public func _AudioFileReadPackets(
    _ handle: OpaquePointer?, _ useCache: UInt8, _ outNumBytes: UnsafeMutablePointer<UInt32>?,
    _ descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?, _ start: Int64, _ ioNumPackets: UnsafeMutablePointer<UInt32>?,
    _ out: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        guard let outNumBytes, let ioNumPackets else {
            throw AudioError(kAudio_ParamError, "outNumBytes and ioNumPackets must not be NULL.")
        }
        let (packets, bytes) = try readPackets(handle, start: start, packets: ioNumPackets.pointee, byteLimit: nil, into: out)
        ioNumPackets.pointee = packets
        outNumBytes.pointee = bytes
    }
}

@_cdecl("AudioFileReadBytes")
public func _AudioFileReadBytes(
    _ handle: OpaquePointer?, _ useCache: UInt8, _ start: Int64, _ ioNumBytes: UnsafeMutablePointer<UInt32>?,
    _ out: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        let file = try AudioFileReference.from(handle)
        guard let ioNumBytes, let out else { throw AudioError(kAudio_ParamError, "ioNumBytes and outBuffer must not be NULL.") }
        guard start >= 0 else { throw AudioError(kAudioFilePositionError, "Byte \(start) of \(file.path) does not exist.") }
        let wanted = Int(ioNumBytes.pointee)
        ioNumBytes.pointee = 0
        let copied: Int = try file.withPacketFile { reader in
            guard let bytesPerFrame = reader.pcmBytesPerFrame else {
                throw AudioError(kAudioFileOperationNotSupportedError, "\(file.path) holds compressed data: read it with ExtAudioFile.")
            }
            // Read the whole frames covering [start, start + wanted) and copy the asked-for bytes.
            let firstFrame = start / Int64(bytesPerFrame), skip = Int(start % Int64(bytesPerFrame))
            let frames = (skip + wanted + bytesPerFrame - 1) / bytesPerFrame
            let scratch = UnsafeMutableRawPointer.allocate(byteCount: max(frames * bytesPerFrame, 1), alignment: 16)
            defer { scratch.deallocate() }
            let got = try reader.readPCMFrames(from: firstFrame, count: frames, into: scratch, bigEndian: file.dataIsBigEndian)
            let available = max(0, min(wanted, got * bytesPerFrame - skip))
            if available > 0 { out.copyMemory(from: scratch + skip, byteCount: available) }
            return available
        }
        ioNumBytes.pointee = UInt32(copied)
        if copied == 0 && wanted > 0 {
            throw AudioError(kAudioFileEndOfFileError, "Byte \(start) is at or past the end of \(file.path)'s audio data.")
        }
    }
}

/// Appends `packets` PCM frames at packet `start` of a created file.
func writePackets(_ handle: OpaquePointer?, start: Int64, packets: Int, bytes: Int?, from data: UnsafeRawPointer?) throws {
    let file = try AudioFileReference.from(handle)
    guard file.isWritable else {
        throw AudioError(kAudioFilePermissionsError, "\(file.path) was opened for reading; create it with AudioFileCreateWithURL to write.")
    }
    guard let data else { throw AudioError(kAudio_ParamError, "inBuffer is NULL.") }
    try file.withPacketFile { writer in
        let bytesPerFrame = writer.pcmBytesPerFrame ?? 0
        if let bytes, bytes < packets * bytesPerFrame {
            throw AudioError(
                kAudio_ParamError, "\(packets) packets of \(file.path) need \(packets * bytesPerFrame) bytes; \(bytes) were given.")
        }
        try writer.writePCMFrames(at: start, count: packets, from: data, bigEndian: file.dataIsBigEndian)
    }
}

@_cdecl("AudioFileWritePackets")
public func _AudioFileWritePackets(
    _ handle: OpaquePointer?, _ useCache: UInt8, _ numBytes: UInt32, _ descriptions: UnsafePointer<AudioStreamPacketDescription>?,
    _ start: Int64, _ ioNumPackets: UnsafeMutablePointer<UInt32>?, _ data: UnsafeRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        guard let ioNumPackets else { throw AudioError(kAudio_ParamError, "ioNumPackets is NULL.") }
        try writePackets(handle, start: start, packets: Int(ioNumPackets.pointee), bytes: Int(numBytes), from: data)
    }
}

@_cdecl("AudioFileWriteBytes")
public func _AudioFileWriteBytes(
    _ handle: OpaquePointer?, _ useCache: UInt8, _ start: Int64, _ ioNumBytes: UnsafeMutablePointer<UInt32>?, _ data: UnsafeRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        let file = try AudioFileReference.from(handle)
        guard let ioNumBytes else { throw AudioError(kAudio_ParamError, "ioNumBytes is NULL.") }
        let bytesPerFrame = file.bytesPerPacket
        guard bytesPerFrame > 0, start % Int64(bytesPerFrame) == 0, Int(ioNumBytes.pointee) % bytesPerFrame == 0 else {
            throw AudioError(
                kAudioFileInvalidPacketOffsetError,
                "AudioFileWriteBytes writes whole frames of \(bytesPerFrame) bytes to \(file.path); byte \(start), \(ioNumBytes.pointee) bytes is not."
            )
        }
        try writePackets(
            handle, start: start / Int64(bytesPerFrame), packets: Int(ioNumBytes.pointee) / bytesPerFrame, bytes: nil, from: data)
    }
}
