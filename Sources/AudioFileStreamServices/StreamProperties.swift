import AudioToolbox

/// What a stream has told about itself so far. nil: not known (yet).
/// Thread: setup.
public struct StreamProperties: Equatable {
    public var fileFormat: AudioFileTypeID?
    public var dataFormat: AudioStreamBasicDescription?
    public var magicCookie: [UInt8]?
    public var dataOffset: Int64?
    public var audioDataByteCount: UInt64?
    public var audioDataPacketCount: UInt64?
    public var packetSizeUpperBound: UInt32?
    public var bitRate: UInt32?
    public var readyToProducePackets = false
    /// Over the packets delivered so far.
    public var maximumPacketSize: UInt32 = 0
    public var packetsSeen: Int64 = 0
    public var bytesSeen: Int64 = 0

    /// Nothing known yet. Thread: any.
    public init() {}

    public static func == (a: Self, b: Self) -> Bool {
        a.fileFormat == b.fileFormat && a.dataFormat.map(Fields.init) == b.dataFormat.map(Fields.init)
            && a.magicCookie == b.magicCookie && a.dataOffset == b.dataOffset
            && a.audioDataByteCount == b.audioDataByteCount && a.audioDataPacketCount == b.audioDataPacketCount
            && a.packetSizeUpperBound == b.packetSizeUpperBound && a.bitRate == b.bitRate
            && a.readyToProducePackets == b.readyToProducePackets && a.maximumPacketSize == b.maximumPacketSize
            && a.packetsSeen == b.packetsSeen && a.bytesSeen == b.bytesSeen
    }

    /// The ASBD's fields, comparable.
    struct Fields: Equatable {
        let rate: Double, id: UInt32, flags: UInt32, bytesPerPacket: UInt32, framesPerPacket: UInt32
        let bytesPerFrame: UInt32, channels: UInt32, bits: UInt32
        init(_ d: AudioStreamBasicDescription) {
            rate = d.mSampleRate; id = d.mFormatID; flags = d.mFormatFlags; bytesPerPacket = d.mBytesPerPacket
            framesPerPacket = d.mFramesPerPacket; bytesPerFrame = d.mBytesPerFrame; channels = d.mChannelsPerFrame
            bits = d.mBitsPerChannel
        }
    }
}
