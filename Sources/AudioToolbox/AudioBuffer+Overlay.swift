@_weakLinked import CAudioToolbox

// Typed views of one AudioBuffer's samples, as Apple's CoreAudio overlay provides them:
// `let samples = UnsafeMutableBufferPointer<Float>(buffer)`. Thread: any (they only view memory).

extension UnsafeBufferPointer {
    /// The buffer's samples as `Element`s (mDataByteSize / stride of them); empty when mData is NULL.
    @inlinable
    public init(_ audioBuffer: AudioBuffer) {
        self.init(
            start: audioBuffer.mData?.assumingMemoryBound(to: Element.self),
            count: Int(audioBuffer.mDataByteSize) / MemoryLayout<Element>.stride)
    }
}

extension UnsafeMutableBufferPointer {
    /// The buffer's samples as `Element`s (mDataByteSize / stride of them); empty when mData is NULL.
    @inlinable
    public init(_ audioBuffer: AudioBuffer) {
        self.init(
            start: audioBuffer.mData?.assumingMemoryBound(to: Element.self),
            count: Int(audioBuffer.mDataByteSize) / MemoryLayout<Element>.stride)
    }
}

extension AudioBuffer {
    /// An AudioBuffer over `typedBuffer`'s memory holding `numberOfChannels` interleaved channels.
    @inlinable
    public init<Element>(_ typedBuffer: UnsafeMutableBufferPointer<Element>, numberOfChannels: Int) {
        self.init(
            mNumberChannels: UInt32(numberOfChannels),
            mDataByteSize: UInt32(typedBuffer.count * MemoryLayout<Element>.stride),
            mData: UnsafeMutableRawPointer(typedBuffer.baseAddress))
    }
}
