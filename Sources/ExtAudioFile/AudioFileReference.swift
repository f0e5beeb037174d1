import AudioFiles
import AudioTypes
import Foundation

/// An AudioFileID: a file opened for reading by AudioFileOpenURL (or created for writing by
/// AudioFileCreateWithURL), described by its path, data format and length. Packet and byte calls
/// go through `packetFile`, opened on first use; readers that need their own position (the file
/// player's reader thread) open their own `AudioFile` on `path`.
public final class AudioFileReference {
    /// The path the file was opened at.
    public let path: String
    /// Rate, channels and encoding.
    public let dataFormat: AudioFileDataFormat
    /// The container type, if AUHost names it.
    public let fileType: AudioFileType?
    /// Frames in the file when it was opened (0 for a created file; see `packetCount`).
    public let frameCount: Int64
    /// Whether the file was created for writing.
    public let isWritable: Bool
    /// The open file packet and byte calls use, and the properties set on the ID; under `lock`.
    var packetFile: AudioFile?
    var magicCookie: [UInt8] = []
    var channelLayout: [UInt8] = []
    let lock = NSLock()

    /// Opens `path` for reading; throws the documented statuses naming the path.
    ///
    /// Thread: setup.
    public init(path: String) throws {
        let file = try rethrowingAudioError { try AudioFile.open(readingAt: path) }
        self.path = path
        dataFormat = file.dataFormat
        fileType = file.fileType
        frameCount = file.frameCount
        isWritable = false
        try? file.close()
    }

    /// Wraps a file just created for writing.
    ///
    /// Thread: setup.
    init(created file: AudioFile) {
        path = file.path
        dataFormat = file.dataFormat
        fileType = file.fileType
        frameCount = 0
        isWritable = true
        packetFile = file
    }

    /// Packets (frames, for PCM) in the file now: grows as a created file is written.
    ///
    /// Thread: setup.
    public var packetCount: Int64 { lock.withLock { isWritable ? packetFile?.frameCount ?? 0 : frameCount } }

    /// The file open for packet and byte access (opened for reading on first use), under `lock`.
    ///
    /// Thread: setup.
    func withPacketFile<T>(_ body: (AudioFile) throws -> T) throws -> T {
        try lock.withLock {
            if packetFile == nil { packetFile = try rethrowingAudioError { try AudioFile.open(readingAt: path) } }
            return try rethrowingAudioError { try body(packetFile!) }
        }
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
        let file = Unmanaged<AudioFileReference>.fromOpaque(UnsafeRawPointer(handle)).takeRetainedValue()
        try file.lock.withLock {
            defer { file.packetFile = nil }
            try rethrowingAudioError { try file.packetFile?.close() }  // completes a written file's header
        }
    }
}

func audioFilePropertySize(_ id: UInt32, _ file: AudioFileReference) throws -> UInt32 {
    switch id {
    case kAudioFilePropertyFileFormat, kAudioFilePropertyMaximumPacketSize, kAudioFilePropertyPacketSizeUpperBound: return 4
    case kAudioFilePropertyDataFormat: return UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    case kAudioFilePropertyAudioDataPacketCount, kAudioFilePropertyAudioDataByteCount: return 8
    case kAudioFilePropertyMagicCookieData: return UInt32(file.lock.withLock { file.magicCookie.count })
    case kAudioFilePropertyChannelLayout: return UInt32(file.channelLayoutBytes.count)
    default: throw AudioError(kAudioFileUnsupportedPropertyError, "Audio file property '\(FourCC.string(id))' is not supported.")
    }
}

extension AudioFileReference {
    /// Bytes per packet of the file's data: one frame of PCM, or the largest a codec frame can
    /// take for compressed files (libsndfile does not say; 0 means unknown).
    ///
    /// Thread: any.
    var bytesPerPacket: Int {
        dataFormat.encoding == nil ? 4 * dataFormat.channelCount : Int(dataFormat.streamDescription(type: fileType).mBytesPerPacket)
    }

    /// The ChannelLayout property: the one set, else the layout the channel count implies.
    ///
    /// Thread: setup.
    var channelLayoutBytes: [UInt8] {
        let stored = lock.withLock { channelLayout }
        if !stored.isEmpty { return stored }
        var layout = AudioChannelLayout()
        switch dataFormat.channelCount {
        case 1: layout.mChannelLayoutTag = kAudioChannelLayoutTag_Mono
        case 2: layout.mChannelLayoutTag = kAudioChannelLayoutTag_Stereo
        default: layout.mChannelLayoutTag = kAudioChannelLayoutTag_DiscreteInOrder | UInt32(dataFormat.channelCount)
        }
        return withUnsafeBytes(of: layout) { Array($0) }
    }
}

@_cdecl("AudioFileGetPropertyInfo")
public func _AudioFileGetPropertyInfo(
    _ handle: OpaquePointer?, _ id: UInt32, _ outSize: UnsafeMutablePointer<UInt32>?,
    _ outWritable: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    LastErrorMessage.status {
        let file = try AudioFileReference.from(handle)
        outSize?.pointee = try audioFilePropertySize(id, file)
        outWritable?.pointee = id == kAudioFilePropertyChannelLayout || id == kAudioFilePropertyMagicCookieData ? 1 : 0
    }
}

@_cdecl("AudioFileGetProperty")
public func _AudioFileGetProperty(
    _ handle: OpaquePointer?, _ id: UInt32, _ ioSize: UnsafeMutablePointer<UInt32>?,
    _ out: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        let file = try AudioFileReference.from(handle)
        let size = try audioFilePropertySize(id, file)
        let variable = id == kAudioFilePropertyMagicCookieData || id == kAudioFilePropertyChannelLayout
        guard let ioSize, let out, ioSize.pointee >= size || (variable && ioSize.pointee > 0) else {
            throw AudioError(kAudioFileBadPropertySizeError, "Audio file property '\(FourCC.string(id))' needs \(size) bytes.")
        }
        switch id {
        case kAudioFilePropertyFileFormat: out.storeBytes(of: file.fileType?.fileTypeID ?? 0, as: UInt32.self)
        case kAudioFilePropertyDataFormat:
            out.storeBytes(of: file.dataFormat.streamDescription(type: file.fileType), as: AudioStreamBasicDescription.self)
        case kAudioFilePropertyMaximumPacketSize, kAudioFilePropertyPacketSizeUpperBound:
            out.storeBytes(of: UInt32(file.bytesPerPacket), as: UInt32.self)
        case kAudioFilePropertyAudioDataByteCount:
            out.storeBytes(of: UInt64(file.packetCount) * UInt64(file.bytesPerPacket), as: UInt64.self)
        case kAudioFilePropertyMagicCookieData, kAudioFilePropertyChannelLayout:
            let bytes = id == kAudioFilePropertyMagicCookieData ? file.lock.withLock { file.magicCookie } : file.channelLayoutBytes
            let count = min(bytes.count, Int(ioSize.pointee))
            bytes.withUnsafeBytes { if count > 0 { out.copyMemory(from: $0.baseAddress!, byteCount: count) } }
            ioSize.pointee = UInt32(count)
            return
        default: out.storeBytes(of: UInt64(file.packetCount), as: UInt64.self)
        }
        ioSize.pointee = size
    }
}
