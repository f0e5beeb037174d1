import AudioFiles
import AudioTypes
import Foundation

// The @_cdecl implementation of ExtendedAudioFile.h. An ExtAudioFileRef is a retained
// ExtendedAudioFile; setup calls check it against the set of live handles (a disposed handle
// answers kAudio_ParamError), ExtAudioFileWriteAsync after priming trusts it, as render calls do.

enum ExtAudioFileHandles {
    static let lock = NSLock()
    nonisolated(unsafe) static var live: Set<OpaquePointer> = []

    static func make(_ file: ExtendedAudioFile) -> OpaquePointer {
        let handle = OpaquePointer(Unmanaged.passRetained(file).toOpaque())
        lock.withLock { _ = live.insert(handle) }
        return handle
    }

    static func file(_ handle: OpaquePointer?) throws -> ExtendedAudioFile {
        guard let handle, lock.withLock({ live.contains(handle) }) else {
            throw AudioError(kAudio_ParamError, "The ExtAudioFileRef is NULL or was disposed.")
        }
        return Unmanaged<ExtendedAudioFile>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }

    static func remove(_ handle: OpaquePointer) -> ExtendedAudioFile? {
        guard lock.withLock({ live.remove(handle) }) != nil else { return nil }
        return Unmanaged<ExtendedAudioFile>.fromOpaque(UnsafeRawPointer(handle)).takeRetainedValue()
    }
}

/// The path of a file CFURL. Thread: setup.
func filePath(_ url: UnsafeRawPointer?) throws -> String {
    guard let url else { throw AudioError(kAudio_ParamError, "The file URL is NULL.") }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let cfURL = Unmanaged<CFURL>.fromOpaque(url).takeUnretainedValue()
    guard CFURLGetFileSystemRepresentation(cfURL, 1, &buffer, buffer.count) != 0 else {
        throw AudioError(kAudio_BadFilePathError, "The URL does not name a local file path.")
    }
    return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
}

func cString(_ path: UnsafePointer<CChar>?) throws -> String {
    guard let path else { throw AudioError(kAudio_ParamError, "The file path is NULL.") }
    return String(cString: path)
}

func openFile(_ path: String, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    guard let out else { return kAudio_ParamError }
    out.pointee = nil
    return LastErrorMessage.status { out.pointee = ExtAudioFileHandles.make(try ExtendedAudioFile.open(path: path)) }
}

func createFile(
    _ path: String, _ type: AudioFileTypeID, _ desc: UnsafePointer<AudioStreamBasicDescription>?,
    _ flags: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    guard let out else { return kAudio_ParamError }
    out.pointee = nil
    return LastErrorMessage.status {
        guard let desc else { throw AudioError(kAudio_ParamError, "Creating \(path) needs a stream description; NULL was passed.") }
        guard let fileType = AudioFileType(fileTypeID: type) else {
            throw AudioError(
                kAudioFileUnsupportedFileTypeError,
                "Cannot create \(path) as '\(FourCC.string(type))': AUHost writes WAVE, AIFF, caff, flac and Ogg files.")
        }
        let format = try AudioFileDataFormat(desc.pointee, path: path)
        let file = try ExtendedAudioFile.create(
            path: path, type: fileType, fileFormat: format,
            eraseExisting: flags & AudioFileFlags.eraseFile.rawValue != 0)
        out.pointee = ExtAudioFileHandles.make(file)
    }
}

@_cdecl("ExtAudioFileOpenURL")
public func _ExtAudioFileOpenURL(_ url: UnsafeRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    do { return openFile(try filePath(url), out) } catch { return LastErrorMessage.status { throw error } }
}

@_cdecl("ExtAudioFileOpenPath")
public func _ExtAudioFileOpenPath(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    do { return openFile(try cString(path), out) } catch { return LastErrorMessage.status { throw error } }
}

@_cdecl("ExtAudioFileCreateWithURL")
public func _ExtAudioFileCreateWithURL(
    _ url: UnsafeRawPointer?, _ type: UInt32, _ desc: UnsafePointer<AudioStreamBasicDescription>?,
    _ layout: UnsafeRawPointer?, _ flags: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    do { return createFile(try filePath(url), type, desc, flags, out) } catch { return LastErrorMessage.status { throw error } }
}

@_cdecl("ExtAudioFileCreateWithPath")
public func _ExtAudioFileCreateWithPath(
    _ path: UnsafePointer<CChar>?, _ type: UInt32, _ desc: UnsafePointer<AudioStreamBasicDescription>?,
    _ layout: UnsafeRawPointer?, _ flags: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    do { return createFile(try cString(path), type, desc, flags, out) } catch { return LastErrorMessage.status { throw error } }
}

@_cdecl("ExtAudioFileDispose")
public func _ExtAudioFileDispose(_ handle: OpaquePointer?) -> OSStatus {
    LastErrorMessage.status {
        guard let handle, let file = ExtAudioFileHandles.remove(handle) else {
            throw AudioError(kAudio_ParamError, "The ExtAudioFileRef is NULL or was disposed.")
        }
        try file.dispose()
    }
}

@_cdecl("ExtAudioFileRead")
public func _ExtAudioFileRead(
    _ handle: OpaquePointer?, _ ioFrames: UnsafeMutablePointer<UInt32>?,
    _ ioData: UnsafeMutablePointer<AudioBufferList>?
) -> OSStatus {
    LastErrorMessage.status {
        let file = try ExtAudioFileHandles.file(handle)
        guard let ioFrames, let ioData else {
            throw AudioError(kAudio_ParamError, "ExtAudioFileRead needs a frame count and a buffer list.")
        }
        let wanted = Int(ioFrames.pointee)
        ioFrames.pointee = 0
        ioFrames.pointee = UInt32(try file.read(into: ioData, frames: wanted))
    }
}

@_cdecl("ExtAudioFileWrite")
public func _ExtAudioFileWrite(_ handle: OpaquePointer?, _ frames: UInt32, _ ioData: UnsafePointer<AudioBufferList>?) -> OSStatus {
    LastErrorMessage.status {
        let file = try ExtAudioFileHandles.file(handle)
        guard let ioData else { throw AudioError(kAudio_ParamError, "ExtAudioFileWrite needs a buffer list.") }
        try file.write(from: ioData, frames: Int(frames))
    }
}

@_cdecl("ExtAudioFileWriteAsync")
public func _ExtAudioFileWriteAsync(_ handle: OpaquePointer?, _ frames: UInt32, _ ioData: UnsafePointer<AudioBufferList>?) -> OSStatus {
    guard let handle else { return kAudio_ParamError }
    // After priming this is the render path: no lookup under a lock, no retain.
    let file = Unmanaged<ExtendedAudioFile>.fromOpaque(UnsafeRawPointer(handle))
    return file._withUnsafeGuaranteedRef { file -> OSStatus in
        if file.asyncState == nil {
            // The priming call (documented to be made before rendering starts).
            let status = LastErrorMessage.status {
                _ = try ExtAudioFileHandles.file(handle); try file.primeAsync()
            }
            guard status == noErr else { return status }
        }
        guard let ioData, frames > 0 else { return noErr }
        return file.writeAsync(ioData, frames: Int(frames))
    }
}

@_cdecl("ExtAudioFileSeek")
public func _ExtAudioFileSeek(_ handle: OpaquePointer?, _ frame: Int64) -> OSStatus {
    LastErrorMessage.status { try ExtAudioFileHandles.file(handle).seek(toFrame: frame) }
}

@_cdecl("ExtAudioFileTell")
public func _ExtAudioFileTell(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> OSStatus {
    LastErrorMessage.status {
        let file = try ExtAudioFileHandles.file(handle)
        guard let out else { throw AudioError(kAudio_ParamError, "ExtAudioFileTell needs somewhere to put the position.") }
        out.pointee = try file.tell()
    }
}

@_cdecl("ExtAudioFileGetPropertyInfo")
public func _ExtAudioFileGetPropertyInfo(
    _ handle: OpaquePointer?, _ id: UInt32, _ outSize: UnsafeMutablePointer<UInt32>?,
    _ outWritable: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    LastErrorMessage.status {
        let info = try ExtAudioFileHandles.file(handle).propertyInfo(id)
        outSize?.pointee = info.size
        outWritable?.pointee = info.writable ? 1 : 0
    }
}

@_cdecl("ExtAudioFileGetProperty")
public func _ExtAudioFileGetProperty(
    _ handle: OpaquePointer?, _ id: UInt32, _ ioSize: UnsafeMutablePointer<UInt32>?,
    _ out: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        let file = try ExtAudioFileHandles.file(handle)
        guard let ioSize, let out else { throw AudioError(kAudio_ParamError, "ExtAudioFileGetProperty needs a size and a destination.") }
        ioSize.pointee = try file.getProperty(id, into: out, size: ioSize.pointee)
    }
}

@_cdecl("ExtAudioFileSetProperty")
public func _ExtAudioFileSetProperty(_ handle: OpaquePointer?, _ id: UInt32, _ size: UInt32, _ data: UnsafeRawPointer?) -> OSStatus {
    LastErrorMessage.status {
        let file = try ExtAudioFileHandles.file(handle)
        guard let data else { throw AudioError(kAudio_ParamError, "ExtAudioFileSetProperty needs a value; NULL was passed.") }
        try file.setProperty(id, data, size: size)
    }
}
