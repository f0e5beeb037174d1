@_weakLinked import CAudioToolbox

// Audio File Services calls that take MacTypes' Boolean (inUseCache), with Apple's Swift shape
// `AudioFileReadPacketData(file, false, …)`; see DarwinBoolean+Overlay.swift for why.

/// AudioFileReadPacketData with a Bool, as on Apple. Thread: setup.
@_alwaysEmitIntoClient
@discardableResult
public func AudioFileReadPacketData(
    _ inAudioFile: AudioFileID, _ inUseCache: Bool, _ ioNumBytes: UnsafeMutablePointer<UInt32>,
    _ outPacketDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?, _ inStartingPacket: Int64,
    _ ioNumPackets: UnsafeMutablePointer<UInt32>, _ outBuffer: UnsafeMutableRawPointer?
) -> OSStatus {
    CAudioToolbox.AudioFileReadPacketData(
        inAudioFile, inUseCache ? 1 : 0, ioNumBytes, outPacketDescriptions, inStartingPacket, ioNumPackets, outBuffer)
}

/// AudioFileReadPackets with a Bool, as on Apple. Thread: setup.
@_alwaysEmitIntoClient
@discardableResult
public func AudioFileReadPackets(
    _ inAudioFile: AudioFileID, _ inUseCache: Bool, _ outNumBytes: UnsafeMutablePointer<UInt32>,
    _ outPacketDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?, _ inStartingPacket: Int64,
    _ ioNumPackets: UnsafeMutablePointer<UInt32>, _ outBuffer: UnsafeMutableRawPointer?
) -> OSStatus {
    CAudioToolbox.AudioFileReadPackets(
        inAudioFile, inUseCache ? 1 : 0, outNumBytes, outPacketDescriptions, inStartingPacket, ioNumPackets, outBuffer)
}

/// AudioFileReadBytes with a Bool, as on Apple. Thread: setup.
@_alwaysEmitIntoClient
@discardableResult
public func AudioFileReadBytes(
    _ inAudioFile: AudioFileID, _ inUseCache: Bool, _ inStartingByte: Int64, _ ioNumBytes: UnsafeMutablePointer<UInt32>,
    _ outBuffer: UnsafeMutableRawPointer
) -> OSStatus {
    CAudioToolbox.AudioFileReadBytes(inAudioFile, inUseCache ? 1 : 0, inStartingByte, ioNumBytes, outBuffer)
}

/// AudioFileWritePackets with a Bool, as on Apple. Thread: setup.
@_alwaysEmitIntoClient
@discardableResult
public func AudioFileWritePackets(
    _ inAudioFile: AudioFileID, _ inUseCache: Bool, _ inNumBytes: UInt32,
    _ inPacketDescriptions: UnsafePointer<AudioStreamPacketDescription>?, _ inStartingPacket: Int64,
    _ ioNumPackets: UnsafeMutablePointer<UInt32>, _ inBuffer: UnsafeRawPointer
) -> OSStatus {
    CAudioToolbox.AudioFileWritePackets(
        inAudioFile, inUseCache ? 1 : 0, inNumBytes, inPacketDescriptions, inStartingPacket, ioNumPackets, inBuffer)
}

/// AudioFileWriteBytes with a Bool, as on Apple. Thread: setup.
@_alwaysEmitIntoClient
@discardableResult
public func AudioFileWriteBytes(
    _ inAudioFile: AudioFileID, _ inUseCache: Bool, _ inStartingByte: Int64, _ ioNumBytes: UnsafeMutablePointer<UInt32>,
    _ inBuffer: UnsafeRawPointer
) -> OSStatus {
    CAudioToolbox.AudioFileWriteBytes(inAudioFile, inUseCache ? 1 : 0, inStartingByte, ioNumBytes, inBuffer)
}
