@_weakLinked import CAudioToolbox
#if canImport(Glibc)
import Glibc
#endif

/// A collection view of an AudioBufferList's variable-length mBuffers array, as Apple's Swift
/// overlay provides it: `for buffer in UnsafeMutableAudioBufferListPointer(ioData) { … }`.
public struct UnsafeMutableAudioBufferListPointer: RandomAccessCollection, MutableCollection {
    /// The list viewed.
    public var unsafeMutablePointer: UnsafeMutablePointer<AudioBufferList>

    /// The list viewed, read-only.
    @inlinable public var unsafePointer: UnsafePointer<AudioBufferList> { UnsafePointer(unsafeMutablePointer) }

    /// Thread: any.
    @inlinable @inline(__always)
    public init(_ pointer: UnsafeMutablePointer<AudioBufferList>) { unsafeMutablePointer = pointer }

    /// Thread: any. Nil for a nil list.
    @inlinable @inline(__always)
    public init?(_ pointer: UnsafeMutablePointer<AudioBufferList>?) {
        guard let pointer else { return nil }
        unsafeMutablePointer = pointer
    }

    /// mNumberBuffers.
    public var count: Int {
        @inlinable @inline(__always) get { Int(unsafeMutablePointer.pointee.mNumberBuffers) }
        @inlinable @inline(__always) nonmutating set { unsafeMutablePointer.pointee.mNumberBuffers = UInt32(newValue) }
    }

    /// offsetof(AudioBufferList, mBuffers): the count, padded to AudioBuffer's alignment.
    @usableFromInline @inline(__always) static var buffersOffset: Int {
        (MemoryLayout<UInt32>.size + MemoryLayout<AudioBuffer>.alignment - 1) & ~(MemoryLayout<AudioBuffer>.alignment - 1)
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @usableFromInline @inline(__always)
    var buffers: UnsafeMutablePointer<AudioBuffer> {
        UnsafeMutableRawPointer(unsafeMutablePointer)
            .advanced(by: UnsafeMutableAudioBufferListPointer.buffersOffset)
            .assumingMemoryBound(to: AudioBuffer.self)
    }

    @inlinable public subscript(index: Int) -> AudioBuffer {
        @inlinable @inline(__always) get { buffers[index] }
        @inlinable @inline(__always) nonmutating set { buffers[index] = newValue }
    }
}

extension AudioBufferList {
    /// Bytes an AudioBufferList with `maximumBuffers` buffers needs (Apple's overlay API).
    ///
    /// Thread: any.
    public static func sizeInBytes(maximumBuffers: Int) -> Int {
        MemoryLayout<AudioBufferList>.size + max(maximumBuffers - 1, 0) * MemoryLayout<AudioBuffer>.stride
    }

    /// Allocates a zeroed list with room for `maximumBuffers` buffers (Apple's overlay API);
    /// free it with `free(list.unsafeMutablePointer)`.
    ///
    /// Thread: setup.
    public static func allocate(maximumBuffers: Int) -> UnsafeMutableAudioBufferListPointer {
        let raw = calloc(1, sizeInBytes(maximumBuffers: maximumBuffers))!
        let list = UnsafeMutableAudioBufferListPointer(raw.assumingMemoryBound(to: AudioBufferList.self))
        list.count = maximumBuffers
        return list
    }
}
