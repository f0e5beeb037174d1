import AudioToolbox

/// A buffer of compressed audio (Apple's AVAudioCompressedBuffer): room for `packetCapacity`
/// packets of at most `maximumPacketSize` bytes each, of which `packetCount` packets and
/// `byteLength` bytes are valid, with one AudioStreamPacketDescription a packet when the format's
/// packets vary in size (mBytesPerPacket 0: MP3, FLAC, Opus, Vorbis).
///
/// The buffer list has one buffer (the format's channels, `byteLength` bytes at ``data``);
/// ``byteLength`` is that buffer's mDataByteSize, so a Core Audio call that fills the list sets it.
/// `packetCount` and `byteLength` are kept as set, even past the capacity (Apple: must not be);
/// ``AVAudioConverter`` refuses such a buffer with an error rather than read past the storage.
///
/// Thread: setup to make; the data and descriptions may be read and written on any thread.
public final class AVAudioCompressedBuffer: AVAudioBuffer {
    /// The packets the buffer holds at most.
    public let packetCapacity: AVAudioPacketCount
    /// The largest packet in bytes.
    public let maximumPacketSize: Int
    /// The compressed bytes (``byteCapacity`` of them).
    public let data: UnsafeMutableRawPointer
    /// `packetCapacity × maximumPacketSize` bytes.
    public let byteCapacity: UInt32
    /// One description per packet (`packetCapacity` of them, zeroed at first) when the format's
    /// packets vary in size; nil for a format with constant bytes per packet.
    public let packetDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
    /// The valid packets (at most ``packetCapacity``).
    ///
    /// Thread: any (not while a converter reads the buffer).
    public var packetCount: AVAudioPacketCount = 0

    /// A buffer for `packetCapacity` packets of a compressed format. As on Apple (which raises an
    /// exception), a PCM format, or a capacity of more than 4 GiB, stops the program.
    ///
    /// Thread: setup.
    public init(format: AVAudioFormat, packetCapacity: AVAudioPacketCount, maximumPacketSize: Int) {
        let d = format.streamDescription.pointee
        precondition(
            d.mFormatID != kAudioFormatLinearPCM, "AVAudioCompressedBuffer needs a compressed format; use AVAudioPCMBuffer for \(format)")
        precondition(maximumPacketSize >= 0, "AVAudioCompressedBuffer: maximumPacketSize \(maximumPacketSize) is negative")
        let (bytes, overflow) = UInt32(packetCapacity).multipliedReportingOverflow(by: UInt32(clamping: maximumPacketSize))
        precondition(
            !overflow && maximumPacketSize <= Int(UInt32.max),
            "AVAudioCompressedBuffer: \(packetCapacity) packets of \(maximumPacketSize) bytes exceed 4 GiB")
        self.packetCapacity = packetCapacity
        self.maximumPacketSize = maximumPacketSize
        byteCapacity = bytes
        data = .allocate(byteCount: max(Int(bytes), 1), alignment: 16)
        data.initializeMemory(as: UInt8.self, repeating: 0, count: max(Int(bytes), 1))
        if d.mBytesPerPacket == 0 {
            let descriptions = UnsafeMutablePointer<AudioStreamPacketDescription>.allocate(capacity: max(Int(packetCapacity), 1))
            descriptions.initialize(repeating: AudioStreamPacketDescription(), count: max(Int(packetCapacity), 1))
            packetDescriptions = descriptions
        } else {
            packetDescriptions = nil
        }
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        list[0] = AudioBuffer(mNumberChannels: d.mChannelsPerFrame, mDataByteSize: 0, mData: data)
        super.init(format: format, list: list.unsafeMutablePointer)
    }

    /// A buffer for `packetCapacity` packets of a compressed format whose packets all have
    /// mBytesPerPacket bytes. A PCM format or one whose packets vary in size stops the program (as
    /// Apple's raises an exception).
    ///
    /// Thread: setup.
    public convenience init(format: AVAudioFormat, packetCapacity: AVAudioPacketCount) {
        let bytesPerPacket = format.streamDescription.pointee.mBytesPerPacket
        precondition(
            bytesPerPacket > 0,
            "AVAudioCompressedBuffer(format:packetCapacity:) needs constant bytes per packet; \(format) has variable packets: pass maximumPacketSize"
        )
        self.init(format: format, packetCapacity: packetCapacity, maximumPacketSize: Int(bytesPerPacket))
    }

    deinit {
        data.deallocate()
        packetDescriptions?.deallocate()
        free(list)
    }

    /// The valid bytes at ``data`` (the buffer list's mDataByteSize; at most ``byteCapacity``).
    ///
    /// Thread: any (not while a converter reads the buffer).
    public var byteLength: UInt32 {
        get { list.pointee.mBuffers.mDataByteSize }
        set { list.pointee.mBuffers.mDataByteSize = newValue }
    }
}
