import AudioToolbox
import AudioTypes

/// AudioFileStreamGetProperty(Info): each property's size and value once known.
extension AudioFileStreamParser {
    /// The size of `property`. Throws kAudioFileStreamError_UnsupportedProperty for one this
    /// parser does not have, kAudioFileStreamError_DataUnavailable while it is not known yet.
    /// Thread: setup.
    public func propertySize(_ property: AudioFileStreamPropertyID) throws -> Int {
        try propertyValue(property).count
    }

    /// The bytes of `property`'s value (throws as ``propertySize(_:)``). Thread: setup.
    public func propertyValue(_ property: AudioFileStreamPropertyID) throws -> [UInt8] {
        func bytes<T>(_ value: T?) throws -> [UInt8] {
            guard let value else {
                throw AudioError(
                    kAudioFileStreamError_DataUnavailable,
                    "Property '\(FourCC.string(property))' is not known yet (or this stream does not say).")
            }
            return withUnsafeBytes(of: value) { Array($0) }
        }
        let p = properties
        switch property {
        case kAudioFileStreamProperty_ReadyToProducePackets: return try bytes(UInt32(p.readyToProducePackets ? 1 : 0))
        case kAudioFileStreamProperty_FileFormat: return try bytes(p.fileFormat)
        case kAudioFileStreamProperty_DataFormat: return try bytes(p.dataFormat)
        case kAudioFileStreamProperty_MagicCookieData:
            guard let cookie = p.magicCookie else { return try bytes(Optional<UInt8>.none) }
            return cookie
        case kAudioFileStreamProperty_AudioDataByteCount: return try bytes(p.audioDataByteCount)
        case kAudioFileStreamProperty_AudioDataPacketCount: return try bytes(p.audioDataPacketCount)
        case kAudioFileStreamProperty_MaximumPacketSize:
            return try bytes(p.maximumPacketSize > 0 ? p.maximumPacketSize : p.packetSizeUpperBound)
        case kAudioFileStreamProperty_DataOffset: return try bytes(p.dataOffset)
        case kAudioFileStreamProperty_PacketSizeUpperBound: return try bytes(p.packetSizeUpperBound)
        case kAudioFileStreamProperty_BitRate: return try bytes(p.bitRate)
        case kAudioFileStreamProperty_AverageBytesPerPacket:
            return try bytes(p.packetsSeen > 0 ? Double(p.bytesSeen) / Double(p.packetsSeen) : nil)
        case kAudioFileStreamProperty_PacketToFrame, kAudioFileStreamProperty_FrameToPacket:
            return try bytes(AudioFramePacketTranslation())
        default:
            throw AudioError(kAudioFileStreamError_UnsupportedProperty, "Audio file streams have no property '\(FourCC.string(property))'.")
        }
    }

    /// PacketToFrame / FrameToPacket for formats with a constant number of frames per packet.
    /// Thread: setup.
    public func translate(_ property: AudioFileStreamPropertyID, _ value: inout AudioFramePacketTranslation) throws {
        guard let format = properties.dataFormat, format.mFramesPerPacket > 0 else {
            throw AudioError(
                kAudioFileStreamError_ValueUnknown,
                "The stream's packets do not hold a constant number of frames, so packets and frames do not translate.")
        }
        let perPacket = Int64(format.mFramesPerPacket)
        // The caller's numbers: a negative one, or a frame past Int64 (mPacket × frames per
        // packet overflowed, a negative mFrame trapped in UInt32(_:)), is refused.
        let given = property == kAudioFileStreamProperty_PacketToFrame ? value.mPacket : value.mFrame
        guard given >= 0 else {
            throw AudioError(
                kAudioFileStreamError_InvalidPacketOffset,
                "'\(FourCC.string(property))' translates packets and frames from 0 on; \(given) was given.")
        }
        if property == kAudioFileStreamProperty_PacketToFrame {
            let (frame, overflow) = value.mPacket.multipliedReportingOverflow(by: perPacket)
            guard !overflow else {
                throw AudioError(
                    kAudioFileStreamError_InvalidPacketOffset,
                    "Packet \(value.mPacket) of \(perPacket) frames each lies past the frames an SInt64 counts.")
            }
            value.mFrame = frame
        } else {
            value.mPacket = value.mFrame / perPacket
            value.mFrameOffsetInPacket = UInt32(value.mFrame % perPacket)
        }
    }
}
