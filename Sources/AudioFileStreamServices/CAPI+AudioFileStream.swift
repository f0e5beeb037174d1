import AudioToolbox
import AudioTypes
import Foundation

// The @_cdecl implementation of AudioFileStream.h. An AudioFileStreamID is a retained
// StreamHandle (the parser and the client's callbacks); every call checks it against the live set.

final class StreamHandle {
    let parser: AudioFileStreamParser
    let clientData: UnsafeMutableRawPointer?
    let listener: AudioFileStream_PropertyListenerProc
    let packets: AudioFileStream_PacketsProc
    /// Set once the handle has its own address (the callbacks pass it back).
    var id: AudioFileStreamID?

    init(
        _ parser: AudioFileStreamParser, clientData: UnsafeMutableRawPointer?, listener: @escaping AudioFileStream_PropertyListenerProc,
        packets: @escaping AudioFileStream_PacketsProc
    ) {
        self.parser = parser
        self.clientData = clientData
        self.listener = listener
        self.packets = packets
    }
}

enum AudioFileStreamHandles {
    static let lock = NSLock()
    nonisolated(unsafe) static var live: Set<OpaquePointer> = []

    static func make(_ handle: StreamHandle) -> AudioFileStreamID {
        let id = OpaquePointer(Unmanaged.passRetained(handle).toOpaque())
        handle.id = id
        lock.withLock { _ = live.insert(id) }
        return id
    }

    static func handle(_ id: AudioFileStreamID?) throws -> StreamHandle {
        guard let id, lock.withLock({ live.contains(id) }) else {
            throw AudioError(kAudio_ParamError, "The AudioFileStreamID is NULL or was closed.")
        }
        return Unmanaged<StreamHandle>.fromOpaque(UnsafeRawPointer(id)).takeUnretainedValue()
    }

    static func remove(_ id: AudioFileStreamID?) -> StreamHandle? {
        guard let id, lock.withLock({ live.remove(id) }) != nil else { return nil }
        return Unmanaged<StreamHandle>.fromOpaque(UnsafeRawPointer(id)).takeRetainedValue()
    }
}

/// Thread: setup.
@_cdecl("AudioFileStreamOpen")
public func _AudioFileStreamOpen(
    _ clientData: UnsafeMutableRawPointer?, _ listener: AudioFileStream_PropertyListenerProc?,
    _ packets: AudioFileStream_PacketsProc?, _ typeHint: AudioFileTypeID, _ out: UnsafeMutablePointer<AudioFileStreamID?>?
) -> OSStatus {
    guard let out else { return kAudio_ParamError }
    out.pointee = nil
    return LastErrorMessage.status {
        guard let listener, let packets else {
            throw AudioError(kAudio_ParamError, "AudioFileStreamOpen needs a property listener and a packets procedure.")
        }
        let parser = AudioFileStreamParser(fileTypeHint: typeHint)
        let handle = StreamHandle(parser, clientData: clientData, listener: listener, packets: packets)
        let id = AudioFileStreamHandles.make(handle)
        // The callbacks hold the handle unowned: it lives until AudioFileStreamClose.
        parser.onProperty = { [unowned handle] property in
            var flags = AudioFileStreamPropertyFlags()
            handle.listener(handle.clientData, id, property, &flags)
        }
        parser.onPackets = { [unowned handle] bytes, count, descriptions in
            handle.packets(handle.clientData, UInt32(bytes.count), UInt32(count), bytes.baseAddress!, descriptions)
        }
        out.pointee = id
    }
}

/// Thread: setup.
@_cdecl("AudioFileStreamParseBytes")
public func _AudioFileStreamParseBytes(
    _ id: AudioFileStreamID?, _ size: UInt32, _ data: UnsafeRawPointer?, _ flags: AudioFileStreamParseFlags
) -> OSStatus {
    LastErrorMessage.status {
        let handle = try AudioFileStreamHandles.handle(id)
        guard data != nil || size == 0 else {
            throw AudioError(kAudio_ParamError, "AudioFileStreamParseBytes was given \(size) bytes at NULL.")
        }
        try handle.parser.parse(
            UnsafeRawBufferPointer(start: data, count: Int(size)),
            discontinuity: flags.contains(.discontinuity))
    }
}

/// Thread: setup.
@_cdecl("AudioFileStreamSeek")
public func _AudioFileStreamSeek(
    _ id: AudioFileStreamID?, _ packet: Int64, _ outOffset: UnsafeMutablePointer<Int64>?,
    _ ioFlags: UnsafeMutablePointer<AudioFileStreamSeekFlags>?
) -> OSStatus {
    LastErrorMessage.status {
        let handle = try AudioFileStreamHandles.handle(id)
        guard let outOffset, let ioFlags else {
            throw AudioError(kAudio_ParamError, "AudioFileStreamSeek needs an offset and a flags pointer.")
        }
        let (offset, estimated) = try handle.parser.seek(toPacket: packet)
        outOffset.pointee = offset
        ioFlags.pointee = estimated ? .offsetIsEstimated : []
    }
}

/// Thread: setup.
@_cdecl("AudioFileStreamGetPropertyInfo")
public func _AudioFileStreamGetPropertyInfo(
    _ id: AudioFileStreamID?, _ property: AudioFileStreamPropertyID, _ outSize: UnsafeMutablePointer<UInt32>?,
    _ outWritable: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    LastErrorMessage.status {
        let handle = try AudioFileStreamHandles.handle(id)
        // Evaluated before the optional store, which would skip it for a NULL outSize.
        let size = try handle.parser.propertySize(property)
        outSize?.pointee = UInt32(size)
        outWritable?.pointee = 0
    }
}

/// Thread: setup.
@_cdecl("AudioFileStreamGetProperty")
public func _AudioFileStreamGetProperty(
    _ id: AudioFileStreamID?, _ property: AudioFileStreamPropertyID, _ ioSize: UnsafeMutablePointer<UInt32>?,
    _ data: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        let handle = try AudioFileStreamHandles.handle(id)
        guard let ioSize, let data else {
            throw AudioError(kAudio_ParamError, "AudioFileStreamGetProperty needs a size and a data pointer.")
        }
        if property == kAudioFileStreamProperty_PacketToFrame || property == kAudioFileStreamProperty_FrameToPacket {
            guard Int(ioSize.pointee) == MemoryLayout<AudioFramePacketTranslation>.size else {
                throw AudioError(
                    kAudioFileStreamError_BadPropertySize,
                    "'\(FourCC.string(property))' takes an AudioFramePacketTranslation (\(MemoryLayout<AudioFramePacketTranslation>.size) bytes)."
                )
            }
            let translation = data.assumingMemoryBound(to: AudioFramePacketTranslation.self)
            try handle.parser.translate(property, &translation.pointee)
            return
        }
        let value = try handle.parser.propertyValue(property)
        // The cookie may be read into a larger buffer; fixed-size values need their exact size.
        let fits =
            property == kAudioFileStreamProperty_MagicCookieData ? Int(ioSize.pointee) >= value.count : Int(ioSize.pointee) == value.count
        guard fits else {
            throw AudioError(
                kAudioFileStreamError_BadPropertySize,
                "Property '\(FourCC.string(property))' is \(value.count) bytes; \(ioSize.pointee) were given.")
        }
        value.withUnsafeBytes { if let base = $0.baseAddress { data.copyMemory(from: base, byteCount: $0.count) } }
        ioSize.pointee = UInt32(value.count)
    }
}

/// Thread: setup.
@_cdecl("AudioFileStreamSetProperty")
public func _AudioFileStreamSetProperty(
    _ id: AudioFileStreamID?, _ property: AudioFileStreamPropertyID, _ size: UInt32, _ data: UnsafeRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        let handle = try AudioFileStreamHandles.handle(id)
        do {
            _ = try handle.parser.propertyValue(property)
        } catch let error as AudioError where error.status == kAudioFileStreamError_UnsupportedProperty {
            throw error
        } catch {}
        throw AudioError(
            kAudioFileStreamError_IllegalOperation, "Property '\(FourCC.string(property))' of an audio file stream is read-only.")
    }
}

/// Thread: setup.
@_cdecl("AudioFileStreamClose")
public func _AudioFileStreamClose(_ id: AudioFileStreamID?) -> OSStatus {
    LastErrorMessage.status {
        guard AudioFileStreamHandles.remove(id) != nil else {
            throw AudioError(kAudio_ParamError, "The AudioFileStreamID is NULL or was closed.")
        }
    }
}
