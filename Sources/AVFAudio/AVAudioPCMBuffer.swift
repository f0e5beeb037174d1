import AudioToolbox

/// A buffer of audio in a format (Apple's AVAudioBuffer).
///
/// Thread: any; the data pointers may be used on the render thread.
public class AVAudioBuffer {
    public let format: AVAudioFormat
    let list: UnsafeMutablePointer<AudioBufferList>

    init(format: AVAudioFormat, list: UnsafeMutablePointer<AudioBufferList>) {
        self.format = format
        self.list = list
    }

    /// The buffer's AudioBufferList (sizes follow frameLength).
    ///
    /// Thread: any.
    public var audioBufferList: UnsafePointer<AudioBufferList> { UnsafePointer(list) }
    /// The same list, writable (to hand to a Core Audio call that fills it).
    ///
    /// Thread: any.
    public var mutableAudioBufferList: UnsafeMutablePointer<AudioBufferList> { list }
}

/// A buffer of PCM audio (Apple's AVAudioPCMBuffer): frameCapacity frames of storage, of which
/// frameLength are valid; one buffer per channel when deinterleaved, one for all when interleaved.
///
/// Thread: setup to make; the channel data may be read and written on any thread.
public final class AVAudioPCMBuffer: AVAudioBuffer {
    public let frameCapacity: AVAudioFrameCount
    private let storage: UnsafeMutableRawPointer
    private let channelPointers: UnsafeMutablePointer<UnsafeMutableRawPointer>
    private let bytesPerFrame: Int
    private let bufferCount: Int

    /// A zeroed buffer of `frameCapacity` frames (nil for a format that is not PCM).
    ///
    /// Thread: setup.
    public init?(pcmFormat format: AVAudioFormat, frameCapacity: AVAudioFrameCount) {
        let d = format.streamDescription.pointee
        guard d.mFormatID == kAudioFormatLinearPCM, d.mBytesPerFrame > 0 else { return nil }
        bufferCount = format.isInterleaved ? 1 : Int(d.mChannelsPerFrame)
        bytesPerFrame = Int(d.mBytesPerFrame)
        self.frameCapacity = frameCapacity
        let bytesPerBuffer = max(Int(frameCapacity) * bytesPerFrame, 1)
        storage = .allocate(byteCount: bytesPerBuffer * bufferCount, alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: bytesPerBuffer * bufferCount)
        channelPointers = .allocate(capacity: Int(d.mChannelsPerFrame))
        let list = AudioBufferList.allocate(maximumBuffers: bufferCount)
        for b in 0..<bufferCount {
            list[b] = AudioBuffer(
                mNumberChannels: format.isInterleaved ? d.mChannelsPerFrame : 1, mDataByteSize: 0,
                mData: storage + b * bytesPerBuffer)
        }
        let sampleBytes = Int(d.mBitsPerChannel / 8)
        for c in 0..<Int(d.mChannelsPerFrame) {
            channelPointers[c] = format.isInterleaved ? storage + c * sampleBytes : storage + c * bytesPerBuffer
        }
        super.init(format: format, list: list.unsafeMutablePointer)
    }

    deinit {
        storage.deallocate()
        channelPointers.deallocate()
        free(list)
    }

    /// The valid frames; setting it sets every buffer's mDataByteSize (at most frameCapacity).
    ///
    /// Thread: any (not while another thread renders into the buffer).
    public var frameLength: AVAudioFrameCount {
        get { list.pointee.mBuffers.mDataByteSize / UInt32(bytesPerFrame) }
        set {
            let frames = min(newValue, frameCapacity)
            let abl = UnsafeMutableAudioBufferListPointer(list)
            for b in 0..<abl.count { abl[b].mDataByteSize = frames * UInt32(bytesPerFrame) }
        }
    }

    /// Samples between one frame's sample and the next in a channel's data (the channel count when
    /// interleaved, else 1).
    ///
    /// Thread: any.
    public var stride: Int { format.isInterleaved ? Int(format.channelCount) : 1 }

    /// Per channel, its Float32 samples (nil unless the format is Float32). Interleaved: each
    /// pointer starts at its channel's first sample; step by ``stride``.
    ///
    /// Thread: any.
    public var floatChannelData: UnsafePointer<UnsafeMutablePointer<Float>>? { typed(.pcmFormatFloat32) }
    /// Per channel, its Int16 samples (nil unless the format is Int16).
    ///
    /// Thread: any.
    public var int16ChannelData: UnsafePointer<UnsafeMutablePointer<Int16>>? { typed(.pcmFormatInt16) }
    /// Per channel, its Int32 samples (nil unless the format is Int32).
    ///
    /// Thread: any.
    public var int32ChannelData: UnsafePointer<UnsafeMutablePointer<Int32>>? { typed(.pcmFormatInt32) }

    private func typed<T>(_ common: AVAudioCommonFormat) -> UnsafePointer<UnsafeMutablePointer<T>>? {
        guard format.commonFormat == common else { return nil }
        return UnsafeRawPointer(channelPointers).assumingMemoryBound(to: UnsafeMutablePointer<T>.self)
    }
}
