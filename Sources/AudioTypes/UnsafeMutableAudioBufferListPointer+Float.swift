import AudioToolbox

extension UnsafeMutableAudioBufferListPointer {
    /// The samples of buffer `index` viewed as Float32 (canonical format), or nil when mData is NULL.
    ///
    /// Thread: any.
    @inlinable @inline(__always)
    public func floatChannel(_ index: Int) -> UnsafeMutablePointer<Float>? {
        self[index].mData?.assumingMemoryBound(to: Float.self)
    }
}
