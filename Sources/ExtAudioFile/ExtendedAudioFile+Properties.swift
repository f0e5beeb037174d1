import AudioTypes

// Properties by documented ID (ExtAudioFileGetPropertyInfo / GetProperty / SetProperty).

extension ExtendedAudioFile {
    /// Size and writability of a property; kExtAudioFileError_InvalidProperty for unknown IDs.
    ///
    /// Thread: setup.
    public func propertyInfo(_ id: ExtAudioFilePropertyID) throws -> (size: UInt32, writable: Bool) {
        switch id {
        case kExtAudioFileProperty_FileDataFormat: return (UInt32(MemoryLayout<AudioStreamBasicDescription>.size), false)
        case kExtAudioFileProperty_ClientDataFormat: return (UInt32(MemoryLayout<AudioStreamBasicDescription>.size), true)
        case kExtAudioFileProperty_FileLengthFrames: return (8, false)
        case kExtAudioFileProperty_FileChannelLayout: return (UInt32(MemoryLayout<AudioChannelLayout>.size), false)
        case kExtAudioFileProperty_AUHostAsyncOverflowFrames: return (8, false)
        case kExtAudioFileProperty_AUHostAsyncBufferFrames: return (4, true)
        default:
            throw AudioError(
                kExtAudioFileError_InvalidProperty,
                "ExtAudioFile property '\(FourCC.string(id))' is not supported for \(path).")
        }
    }

    /// Copies a property into `data` (`size` bytes available); returns the bytes written.
    ///
    /// Thread: setup.
    public func getProperty(_ id: ExtAudioFilePropertyID, into data: UnsafeMutableRawPointer, size: UInt32) throws -> UInt32 {
        let info = try propertyInfo(id)
        guard size >= info.size else {
            throw AudioError(
                kExtAudioFileError_InvalidPropertySize,
                "Property '\(FourCC.string(id))' needs \(info.size) bytes; \(size) were offered.")
        }
        switch id {
        case kExtAudioFileProperty_FileDataFormat: data.storeBytes(of: fileFormat, as: AudioStreamBasicDescription.self)
        case kExtAudioFileProperty_ClientDataFormat: data.storeBytes(of: clientFormat, as: AudioStreamBasicDescription.self)
        case kExtAudioFileProperty_FileLengthFrames: data.storeBytes(of: lengthFrames, as: Int64.self)
        case kExtAudioFileProperty_AUHostAsyncOverflowFrames: data.storeBytes(of: UInt64(asyncOverflowFrames), as: UInt64.self)
        case kExtAudioFileProperty_AUHostAsyncBufferFrames: data.storeBytes(of: UInt32(asyncBufferFrames), as: UInt32.self)
        case kExtAudioFileProperty_FileChannelLayout:
            var layout = AudioChannelLayout()
            layout.mChannelLayoutTag = channelLayoutTag
            data.storeBytes(of: layout, as: AudioChannelLayout.self)
        default: break
        }
        return info.size
    }

    /// Sets a writable property (ClientDataFormat, the async ring size).
    ///
    /// Thread: setup.
    public func setProperty(_ id: ExtAudioFilePropertyID, _ data: UnsafeRawPointer, size: UInt32) throws {
        let info = try propertyInfo(id)
        guard info.writable else {
            throw AudioError(kExtAudioFileError_InvalidProperty, "Property '\(FourCC.string(id))' of \(path) is read-only.")
        }
        guard size >= info.size else {
            throw AudioError(
                kExtAudioFileError_InvalidPropertySize,
                "Property '\(FourCC.string(id))' needs \(info.size) bytes; \(size) were given.")
        }
        switch id {
        case kExtAudioFileProperty_ClientDataFormat:
            try setClientFormat(data.loadUnaligned(as: AudioStreamBasicDescription.self))
        case kExtAudioFileProperty_AUHostAsyncBufferFrames:
            guard asyncWriter == nil else {
                throw AudioError(
                    kExtAudioFileError_InvalidOperationOrder,
                    "Set the async buffer size of \(path) before the first ExtAudioFileWriteAsync.")
            }
            asyncBufferFrames = Int(data.loadUnaligned(as: UInt32.self))
        default: break
        }
    }
}
