import AudioToolbox
import AudioTypes
import Foundation

// Audio Format Services' C API (AudioFormat.h): each property computed into bytes, then copied
// out with the documented size checks.

/// Formats the Audio Converter takes in (decodes) and gives out (AUHost encodes nothing).
let decodeFormatIDs: [AudioFormatID] = [
    kAudioFormatLinearPCM, kAudioFormatMPEGLayer3, kAudioFormatFLAC, kAudioFormatOpus, kAudioFormatVorbis,
]
let encodeFormatIDs: [AudioFormatID] = [kAudioFormatLinearPCM]

/// A property's value: bytes, or a new CFString (returned +1).
private enum PropertyValue {
    case bytes([UInt8])
    case string(String)

    var size: Int {
        switch self {
        case .bytes(let bytes): bytes.count
        case .string: MemoryLayout<Unmanaged<CFString>>.size
        }
    }
}

private func bytes<T>(of value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

/// The specifier as a value of `T`, checking its size.
private func specifier<T>(_ pointer: UnsafeRawPointer?, _ size: UInt32, as type: T.Type, _ what: String) throws -> T {
    guard let pointer, Int(size) >= MemoryLayout<T>.size else {
        throw AudioError(kAudioFormatBadSpecifierSizeError, "The specifier of this property is \(what) (\(MemoryLayout<T>.size) bytes).")
    }
    return pointer.loadUnaligned(as: T.self)
}

/// Computes a property. `input` is the caller's value where the property reads one (FormatInfo).
///
/// Thread: setup.
private func value(
    _ id: AudioFormatPropertyID, _ specifierSize: UInt32, _ specifierPointer: UnsafeRawPointer?, input: UnsafeRawPointer?, inputSize: UInt32
) throws -> PropertyValue {
    switch id {
    case kAudioFormatProperty_FormatInfo:
        let asbdSize = MemoryLayout<AudioStreamBasicDescription>.size
        guard let input, Int(inputSize) >= asbdSize else {
            return .bytes([UInt8](repeating: 0, count: asbdSize))  // GetPropertyInfo: the size only
        }
        let cookie = specifierPointer.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(specifierSize))) } ?? []
        return .bytes(bytes(of: try FormatInfo.complete(input.loadUnaligned(as: AudioStreamBasicDescription.self), cookie: cookie)))
    case kAudioFormatProperty_FormatName:
        guard specifierPointer != nil else { return .string("") }
        return .string(
            try FormatNames.name(try specifier(specifierPointer, specifierSize, as: AudioStreamBasicDescription.self, "an ASBD")))
    case kAudioFormatProperty_EncodeFormatIDs: return .bytes(encodeFormatIDs.flatMap { bytes(of: $0) })
    case kAudioFormatProperty_DecodeFormatIDs: return .bytes(decodeFormatIDs.flatMap { bytes(of: $0) })
    case kAudioFormatProperty_FormatIsVBR:
        guard specifierPointer != nil else { return .bytes(bytes(of: UInt32(0))) }
        let asbd = try specifier(specifierPointer, specifierSize, as: AudioStreamBasicDescription.self, "an ASBD")
        let variable = asbd.mFormatID != kAudioFormatLinearPCM && (decodeFormatIDs.contains(asbd.mFormatID) || asbd.mBytesPerPacket == 0)
        return .bytes(bytes(of: UInt32(variable ? 1 : 0)))
    case kAudioFormatProperty_FirstPlayableFormatFromList:
        guard let specifierPointer else { return .bytes(bytes(of: UInt32(0))) }
        let count = Int(specifierSize) / MemoryLayout<AudioFormatListItem>.stride
        let index = (0..<count).first { index in
            let item = specifierPointer.loadUnaligned(
                fromByteOffset: index * MemoryLayout<AudioFormatListItem>.stride, as: AudioFormatListItem.self)
            return decodeFormatIDs.contains(item.mASBD.mFormatID)
        }
        guard let index else {
            throw AudioError(kAudioFormatUnsupportedDataFormatError, "None of the \(count) formats in the list is one AUHost decodes.")
        }
        return .bytes(bytes(of: UInt32(index)))
    case kAudioFormatProperty_NumberOfChannelsForLayout:
        guard let specifierPointer else { return .bytes(bytes(of: UInt32(0))) }
        let tag = try specifier(specifierPointer, specifierSize, as: AudioChannelLayoutTag.self, "an AudioChannelLayout")
        let channels: Int
        switch tag {
        case kAudioChannelLayoutTag_UseChannelDescriptions, kAudioChannelLayoutTag_UseChannelBitmap:
            channels = try ChannelLayouts.labels(specifierPointer, size: Int(specifierSize)).count
        default: channels = Int(tag & 0xFFFF)
        }
        return .bytes(bytes(of: UInt32(channels)))
    case kAudioFormatProperty_ChannelLayoutForTag:
        let tag = try specifier(specifierPointer, specifierSize, as: AudioChannelLayoutTag.self, "an AudioChannelLayoutTag")
        return .bytes(ChannelLayouts.layoutBytes(try ChannelLayouts.labels(tag: tag)))
    case kAudioFormatProperty_ChannelLayoutForBitmap:
        let bitmap = try specifier(specifierPointer, specifierSize, as: UInt32.self, "a channel bitmap (UInt32)")
        return .bytes(ChannelLayouts.layoutBytes(try ChannelLayouts.labels(bitmap: bitmap)))
    case kAudioFormatProperty_ChannelLayoutName:
        guard let specifierPointer else { return .string("") }
        return .string(try ChannelLayouts.name(specifierPointer, size: Int(specifierSize)))
    default:
        throw AudioError(
            kAudioFormatUnsupportedPropertyError,
            "Audio Format Services has no property '\(FourCC.string(id))' here (AudioFormat.h lists them).")
    }
}

/// Thread: setup.
@_cdecl("AudioFormatGetPropertyInfo")
public func _AudioFormatGetPropertyInfo(
    _ id: AudioFormatPropertyID, _ specifierSize: UInt32, _ specifierPointer: UnsafeRawPointer?, _ outSize: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    LastErrorMessage.status {
        guard let outSize else { throw AudioError(kAudio_ParamError, "AudioFormatGetPropertyInfo needs outPropertyDataSize.") }
        outSize.pointee = UInt32(try value(id, specifierSize, specifierPointer, input: nil, inputSize: 0).size)
    }
}

/// Thread: setup.
@_cdecl("AudioFormatGetProperty")
public func _AudioFormatGetProperty(
    _ id: AudioFormatPropertyID, _ specifierSize: UInt32, _ specifierPointer: UnsafeRawPointer?, _ ioSize: UnsafeMutablePointer<UInt32>?,
    _ outData: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        guard let ioSize, let outData else {
            throw AudioError(kAudio_ParamError, "AudioFormatGetProperty needs a size and a place for the value.")
        }
        let result = try value(id, specifierSize, specifierPointer, input: UnsafeRawPointer(outData), inputSize: ioSize.pointee)
        guard Int(ioSize.pointee) >= result.size else {
            throw AudioError(kAudioFormatBadPropertySizeError, "This value takes \(result.size) bytes; \(ioSize.pointee) were given.")
        }
        switch result {
        case .bytes(let bytes): outData.copyMemory(from: bytes, byteCount: bytes.count)
        case .string(let string): outData.storeBytes(of: CFBridge.string(string), as: Unmanaged<CFString>.self)
        }
        ioSize.pointee = UInt32(result.size)
    }
}
