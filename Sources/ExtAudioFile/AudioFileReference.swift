import AudioFiles
import AudioTypes
import Foundation

/// An AudioFileID: a file opened for reading by AudioFileOpenURL, described by its path, data
/// format and length. Readers that need their own position (the file player's reader thread)
/// open their own `AudioFile` on `path`.
public final class AudioFileReference {
    /// The path the file was opened at.
    public let path: String
    /// Rate, channels and encoding.
    public let dataFormat: AudioFileDataFormat
    /// The container type, if AUHost names it.
    public let fileType: AudioFileType?
    /// Frames in the file.
    public let frameCount: Int64

    /// Opens `path` for reading; throws the documented statuses naming the path.
    ///
    /// Thread: setup.
    public init(path: String) throws {
        let file = try rethrowingAudioError { try AudioFile.open(readingAt: path) }
        self.path = path
        dataFormat = file.dataFormat
        fileType = file.fileType
        frameCount = file.frameCount
        try? file.close()
    }

    /// The AudioFileID handle of this file (unretained; AudioFileOpenURL retains it).
    ///
    /// Thread: any.
    public var handle: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// The file behind a live AudioFileID, or an error naming the problem.
    ///
    /// Thread: setup.
    public static func from(_ handle: OpaquePointer?) throws -> AudioFileReference {
        guard let handle, AudioFileHandles.lock.withLock({ AudioFileHandles.live.contains(handle) }) else {
            throw AudioError(kAudioFileNotOpenError, "The AudioFileID is NULL or was closed.")
        }
        return Unmanaged<AudioFileReference>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }
}

enum AudioFileHandles {
    static let lock = NSLock()
    nonisolated(unsafe) static var live: Set<OpaquePointer> = []
}

func openAudioFile(_ path: String, _ permissions: Int8, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    guard let out else { return kAudio_ParamError }
    out.pointee = nil
    return LastErrorMessage.status {
        guard permissions == AudioFilePermissions.readPermission.rawValue else {
            throw AudioError(
                kAudioFilePermissionsError,
                "AudioFileOpenURL opens \(path) for reading only here; write files with ExtAudioFileCreateWithURL.")
        }
        let file = try AudioFileReference(path: path)
        let handle = OpaquePointer(Unmanaged.passRetained(file).toOpaque())
        AudioFileHandles.lock.withLock { _ = AudioFileHandles.live.insert(handle) }
        out.pointee = handle
    }
}

@_cdecl("AudioFileOpenURL")
public func _AudioFileOpenURL(_ url: UnsafeRawPointer?, _ permissions: Int8, _ hint: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?)
    -> OSStatus
{
    do { return openAudioFile(try filePath(url), permissions, out) } catch { return LastErrorMessage.status { throw error } }
}

@_cdecl("AudioFileOpenPath")
public func _AudioFileOpenPath(_ path: UnsafePointer<CChar>?, _ permissions: Int8, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus
{
    do { return openAudioFile(try cString(path), permissions, out) } catch { return LastErrorMessage.status { throw error } }
}

@_cdecl("AudioFileClose")
public func _AudioFileClose(_ handle: OpaquePointer?) -> OSStatus {
    LastErrorMessage.status {
        guard let handle, AudioFileHandles.lock.withLock({ AudioFileHandles.live.remove(handle) }) != nil else {
            throw AudioError(kAudioFileNotOpenError, "The AudioFileID is NULL or was closed.")
        }
        Unmanaged<AudioFileReference>.fromOpaque(UnsafeRawPointer(handle)).release()
    }
}

func audioFilePropertySize(_ id: UInt32) throws -> UInt32 {
    switch id {
    case kAudioFilePropertyFileFormat: return 4
    case kAudioFilePropertyDataFormat: return UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    case kAudioFilePropertyAudioDataPacketCount: return 8
    default: throw AudioError(kAudioFileUnsupportedPropertyError, "Audio file property '\(FourCC.string(id))' is not supported.")
    }
}

@_cdecl("AudioFileGetPropertyInfo")
public func _AudioFileGetPropertyInfo(
    _ handle: OpaquePointer?, _ id: UInt32, _ outSize: UnsafeMutablePointer<UInt32>?,
    _ outWritable: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    LastErrorMessage.status {
        _ = try AudioFileReference.from(handle)
        outSize?.pointee = try audioFilePropertySize(id)
        outWritable?.pointee = 0
    }
}

@_cdecl("AudioFileGetProperty")
public func _AudioFileGetProperty(
    _ handle: OpaquePointer?, _ id: UInt32, _ ioSize: UnsafeMutablePointer<UInt32>?,
    _ out: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        let file = try AudioFileReference.from(handle)
        let size = try audioFilePropertySize(id)
        guard let ioSize, let out, ioSize.pointee >= size else {
            throw AudioError(kAudioFileBadPropertySizeError, "Audio file property '\(FourCC.string(id))' needs \(size) bytes.")
        }
        switch id {
        case kAudioFilePropertyFileFormat: out.storeBytes(of: file.fileType?.fileTypeID ?? 0, as: UInt32.self)
        case kAudioFilePropertyDataFormat:
            out.storeBytes(of: file.dataFormat.streamDescription(type: file.fileType), as: AudioStreamBasicDescription.self)
        default: out.storeBytes(of: UInt64(file.frameCount), as: UInt64.self)
        }
        ioSize.pointee = size
    }
}
